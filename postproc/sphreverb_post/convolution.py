"""Reverberation by convolution: y = x * h computed with FFTs (scipy.signal.fftconvolve).

Channel rule: equal channel counts convolve pairwise (dry L with RIR L, dry R with RIR R); a
mono side is used for every channel of the other side (mono dry + stereo RIR -> stereo out).
Anything else (e.g. 2 dry channels with a 3-channel RIR) is an error. A full "true stereo"
rendering (each source channel to each microphone) needs one RIR per source position and is
not what this does.
"""
import numpy as np
from scipy import signal


def output_channels(n_dry, n_rir):
    """Channels of the result; raises ValueError for counts the rule above does not cover."""
    if n_dry == n_rir or n_rir == 1 or n_dry == 1:
        return max(n_dry, n_rir)
    raise ValueError(f"cannot pair {n_dry} dry channels with {n_rir} impulse-response "
                     f"channels (equal counts, or one side mono)")


def convolve(dry, rir):
    """Full linear convolution, shapes (n, cd) * (m, cr) -> (n + m - 1, channels)."""
    dry = np.asarray(dry, dtype=np.float64)
    rir = np.asarray(rir, dtype=np.float64)
    dry = dry[:, None] if dry.ndim == 1 else dry
    rir = rir[:, None] if rir.ndim == 1 else rir
    nch = output_channels(dry.shape[1], rir.shape[1])
    out = np.empty((dry.shape[0] + rir.shape[0] - 1, nch))
    for c in range(nch):
        out[:, c] = signal.fftconvolve(dry[:, min(c, dry.shape[1] - 1)],
                                       rir[:, min(c, rir.shape[1] - 1)])
    return out
