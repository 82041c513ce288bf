"""WAV input/output of the postprocessing: receiver records, impulse responses, dry signals.

The solver writes ``NAME.raw.wav`` (32-bit float, pascals) and ``NAME.wav`` (normalised 16-bit).
``read`` keeps the channels, ``read_mono`` picks one or averages them, ``read_receiver`` reads a
run's raw record. Reads 8/16/24/32-bit PCM and 32/64-bit float WAV through scipy.io.wavfile;
integer PCM is scaled to [-1, 1). Errors are raised as ``InputError`` with a message that names
the file.
"""
import os
import warnings

import numpy as np
from scipy.io import wavfile
from scipy import signal


class InputError(ValueError):
    """Bad input to a command line (missing file, not a WAV, bad option): exit code 2."""


def read(path):
    """Read ``path`` as (samples float64 of shape (n, channels), rate Hz)."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, expected a WAV file")
    try:
        with warnings.catch_warnings():
            # libsndfile's float WAVs carry a 'fact' chunk that scipy skips with a warning.
            warnings.simplefilter("ignore", wavfile.WavFileWarning)
            rate, data = wavfile.read(path)
    except (ValueError, EOFError, OSError, IndexError) as e:
        raise InputError(f"{path}: not a readable WAV file ({e})") from None
    if data.dtype.kind == "i":
        x = data.astype(np.float64) / float(2 ** (8 * data.dtype.itemsize - 1))
    elif data.dtype.kind == "u":
        x = (data.astype(np.float64) - 128.0) / 128.0
    else:
        x = data.astype(np.float64)
    if x.ndim == 1:
        x = x[:, None]
    if x.shape[0] == 0:
        raise InputError(f"{path}: the WAV file holds no samples")
    if not np.all(np.isfinite(x)):
        raise InputError(f"{path}: the WAV file holds NaN or infinite samples")
    return x, int(rate)


def read_mono(path, channel=None):
    """Read one channel (0-based ``channel``) or, without it, the mean of all channels."""
    x, rate = read(path)
    if channel is None:
        return x.mean(axis=1), rate
    if not 0 <= channel < x.shape[1]:
        raise InputError(f"{path}: channel {channel} requested, the file has {x.shape[1]} "
                         f"(0 to {x.shape[1] - 1})")
    return x[:, channel], rate


def read_receiver(outdir, name):
    """Read receiver ``name``'s raw pressure record ``OUTDIR/NAME.raw.wav`` as (x Pa, rate Hz).

    x is float64 mono (channels averaged); a missing, unreadable or empty file raises
    ``InputError`` naming the file.
    """
    return read_mono(os.path.join(outdir, name + ".raw.wav"))


def write(path, x, rate, fmt="float"):
    """Write samples (n,) or (n, channels) as 32-bit float (``fmt="float"``) or 16-bit PCM.

    16-bit samples are clipped to [-1, 1) after rounding; returns the number of clipped samples.
    """
    x = np.asarray(x, dtype=np.float64)
    if fmt == "float":
        wavfile.write(path, int(rate), x.astype(np.float32))
        return 0
    if fmt != "pcm16":
        raise InputError(f"unknown WAV format {fmt!r} (float or pcm16)")
    q = np.round(x * 32768.0)
    clipped = int(np.count_nonzero((q > 32767) | (q < -32768)))
    wavfile.write(path, int(rate), np.clip(q, -32768, 32767).astype(np.int16))
    return clipped


def resample(x, rate_in, rate_out):
    """Resample along axis 0 by the exact rational ratio (polyphase, Kaiser-windowed FIR).

    scipy.signal.resample_poly with up/down reduced by their gcd; its anti-alias filter cuts
    at the lower of the two Nyquist frequencies.
    """
    if rate_in == rate_out:
        return np.asarray(x, dtype=np.float64)
    g = np.gcd(int(rate_in), int(rate_out))
    up, down = int(rate_out) // g, int(rate_in) // g
    if max(up, down) > 10000:
        raise InputError(f"cannot resample {rate_in} Hz to {rate_out} Hz: ratio {up}/{down} "
                         f"is not a small rational")
    return signal.resample_poly(np.asarray(x, dtype=np.float64), up, down, axis=0)
