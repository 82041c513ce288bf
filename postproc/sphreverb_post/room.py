"""Diffuse-field reverberation formulas and the Schroeder frequency of a rectangular room.

Sabine: T = 24 ln10 V / (c S a) (0.161 V / (S a) at c = 343 m/s); Eyring (Norris-Eyring):
T = 24 ln10 V / (-c S ln(1 - a)); a the area-weighted mean random-incidence absorption.
Schroeder frequency f_S = 2000 sqrt(T / V) (T in s, V in m^3): above it modes overlap and the
diffuse-field formulas apply (docs/validation.md, V7). Air absorption is not included.
"""
import numpy as np

K60 = 24.0 * np.log(10.0)


def box_volume_area(Lx, Ly, Lz):
    """(V m^3, S m^2) of a rectangular room."""
    return Lx * Ly * Lz, 2.0 * (Lx * Ly + Ly * Lz + Lx * Lz)


def sabine(V, S, alpha, c=343.0):
    """Sabine reverberation time (s); raises ValueError unless 0 < alpha <= 1."""
    alpha = np.asarray(alpha, dtype=float)
    if np.any(alpha <= 0.0) or np.any(alpha > 1.0):
        raise ValueError("mean absorption must lie in (0, 1]")
    return K60 * V / (c * S * alpha)


def eyring(V, S, alpha, c=343.0):
    """Eyring reverberation time (s); raises ValueError unless 0 < alpha < 1."""
    alpha = np.asarray(alpha, dtype=float)
    if np.any(alpha <= 0.0) or np.any(alpha >= 1.0):
        raise ValueError("mean absorption must lie in (0, 1) for Eyring")
    return K60 * V / (-c * S * np.log1p(-alpha))


def schroeder_frequency(T, V):
    """f_S = 2000 sqrt(T / V) in Hz."""
    return 2000.0 * np.sqrt(T / V)
