"""WAV input for receiver recordings.

The solver writes ``NAME.raw.wav`` (32-bit float, pascals) and ``NAME.wav``
(normalised 16-bit).  Float data are returned unchanged; integer PCM is scaled
to [-1, 1).
"""
import os
import warnings

import numpy as np
from scipy.io import wavfile


def read_wav(path):
    """Read a WAV file as ``(x, rate)``: float64 mono samples and sample rate in Hz.

    Multi-channel files are averaged to mono.  Raises ``FileNotFoundError`` if
    the file does not exist and ``ValueError`` if it cannot be parsed.
    """
    with warnings.catch_warnings():
        # libsndfile's float WAVs carry a 'fact' chunk, which scipy skips with a warning.
        warnings.simplefilter("ignore", wavfile.WavFileWarning)
        rate, data = wavfile.read(path)
    if data.dtype.kind == "i":
        x = data.astype(np.float64) / float(2 ** (8 * data.dtype.itemsize - 1))
    elif data.dtype.kind == "u":        # 8-bit PCM is unsigned, centred on 128
        x = (data.astype(np.float64) - 128.0) / 128.0
    else:
        x = data.astype(np.float64)
    if x.ndim == 2:
        x = x.mean(axis=1)
    return x, int(rate)


def read_receiver(outdir, name):
    """Read receiver ``name``'s raw pressure record ``OUTDIR/NAME.raw.wav`` as (x, rate).

    Raises ``FileNotFoundError`` naming the missing file.
    """
    path = os.path.join(outdir, name + ".raw.wav")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"missing receiver file {path}")
    x, rate = read_wav(path)
    if x.size == 0:
        raise ValueError(f"empty receiver file {path}")
    return x, rate
