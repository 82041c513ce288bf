"""Synthetic impulse responses with known room-acoustic parameters (V8 and the self-tests).

Both decay with the energy envelope e^(-6 ln10 t / T) from t = 0 (a sample of the onset), so
their ISO 3382-1 parameters are those of ``iso3382.expected(T)``:

* ``exp_decay``: random signs times the envelope, h_n = s_n e^(-3 ln10 n / (T fs)), s_n = +-1.
  Its square is the envelope exactly (no random fluctuation of the energy), its spectrum is
  white: the broadband reference.
* ``decaying_tone``: sqrt(2) cos(2 pi f t + phi) times the envelope: an in-band reference for the
  octave filters. Its energy carries a cos^2 ripple of relative size ~ (6.9 / T) / (2 pi f),
  which the Schroeder integral and the line fits average out (V8 quantifies the residue).

Optional stationary Gaussian noise of power ``noise_db`` re the initial power (1) covers the
whole record, including a ``delay`` of silence before the onset.
"""
import numpy as np

DECAY_60 = 6.0 * np.log(10.0)


def _envelope(T, rate, duration, delay):
    n = int(round(duration * rate))
    n0 = int(round(delay * rate))
    t = (np.arange(n) - n0) / rate
    env = np.where(t >= 0.0, np.exp(-0.5 * DECAY_60 * np.maximum(t, 0.0) / T), 0.0)
    return t, env


def _noise(n, noise_db, rng):
    if noise_db is None:
        return np.zeros(n)
    return np.sqrt(10.0 ** (noise_db / 10.0)) * rng.standard_normal(n)


def exp_decay(T, rate=44100, duration=None, delay=0.01, noise_db=None, seed=0):
    """Random-sign exponential decay of reverberation time T (s); default length 1.5 T + delay."""
    rng = np.random.default_rng(seed)
    duration = 1.5 * T + delay if duration is None else duration
    t, env = _envelope(T, rate, duration, delay)
    s = rng.choice([-1.0, 1.0], size=t.size)
    return s * env + _noise(t.size, noise_db, rng)


def decaying_tone(T, f, rate=44100, duration=None, delay=0.01, noise_db=None, phase=0.3, seed=0):
    """sqrt(2) cos(2 pi f t + phase) e^(-3 ln10 t / T) from t = 0, optional noise floor."""
    rng = np.random.default_rng(seed)
    duration = 1.5 * T + delay if duration is None else duration
    t, env = _envelope(T, rate, duration, delay)
    return np.sqrt(2.0) * np.cos(2.0 * np.pi * f * t + phase) * env + _noise(t.size, noise_db, rng)
