"""Phase speed from two receivers on the path of a plane wave (validation case V1).

A plane wave travelling from receiver a to receiver b, a distance D further on, is delayed by
D / c(f) at each frequency: the transfer function is H(f) = B / A = exp(-j 2 pi f D / c(f)).
Relative to the nominal delay D / c0 the residual phase phi = angle(H exp(j 2 pi f D / c0))
is small (a few per cent of 2 pi f D / c0) and is unwrapped along f from f = 0; then
2 pi f D / c = 2 pi f D / c0 - phi.
"""
import numpy as np
from scipy import fft


def phase_speed(a, b, rate, distance, c0, pad=16):
    """c(f) between records ``a`` and ``b`` (b further along the wave by ``distance`` m).

    Returns (f, c, coherence weight |A||B| normalised to its maximum), f > 0 only.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    n = fft.next_fast_len(pad * max(a.size, b.size), real=True)
    A, B = fft.rfft(a, n), fft.rfft(b, n)
    f = fft.rfftfreq(n, 1.0 / rate)
    keep = f > 0
    f, A, B = f[keep], A[keep], B[keep]
    nominal = 2.0 * np.pi * f * distance / c0
    # Unwrapped along f (the padding makes the steps small), so the curve continues where the
    # error exceeds c0 / (2 f D).
    phi = np.unwrap(np.angle(B * np.conj(A) * np.exp(1j * nominal)))
    c = 2.0 * np.pi * f * distance / (nominal - phi)
    w = np.abs(A) * np.abs(B)
    return f, c, w / w.max()


def taper_end(x, rate, length):
    """Half-Hann fade-out over the last ``length`` seconds (a gate that does not ring)."""
    x = np.array(x, dtype=np.float64)
    m = min(int(round(length * rate)), x.size)
    if m > 1:
        x[-m:] *= 0.5 * (1.0 + np.cos(np.pi * np.arange(m) / (m - 1)))
    return x


def ppw_at_error(ppw, err, tol):
    """Largest PPW (scanning from long to short wavelengths) where |err| first reaches tol,
    linearly interpolated between the two bracketing points; None if it never does.
    ``ppw`` must be decreasing."""
    ppw = np.asarray(ppw)
    e = np.abs(np.asarray(err))
    over = np.nonzero(e >= tol)[0]
    if over.size == 0:
        return None
    i = over[0]
    if i == 0:
        return float(ppw[0])
    w = (tol - e[i - 1]) / (e[i] - e[i - 1])
    return float(ppw[i - 1] + w * (ppw[i] - ppw[i - 1]))


def _kernel_F(kernel, r, h):
    """(dW/dr)/r up to a constant factor (the factor cancels in the normalised symbol)."""
    q = r / h
    if kernel == "wendland_c2":
        return -np.maximum(0.0, 1.0 - 0.5 * q) ** 3
    if kernel == "cubic_spline":
        return np.where(q < 1.0, -3.0 + 2.25 * q,
                        -0.75 * np.maximum(0.0, 2.0 - q) ** 2 / np.maximum(q, 1e-300))
    raise ValueError(f"unknown kernel {kernel!r}")


def lattice_phase_speed(kernel, h_over_dx, ppw):
    """c/c0 of a plane wave along a lattice axis for the solver's semi-discrete scheme.

    On a simple cubic lattice (spacing 1) the corrected SPH gradient of exp(j k x) is
    j k~ exp(j k x) with k~ = -sum_s s_x F(|s|) sin(k s_x) / M, M = -sum_s s_x^2 F(|s|)
    (the gradient correction makes k~ -> k as k -> 0); continuity and momentum share the
    symbol, so omega = c0 k~ and c/c0 = k~ / k (time stepping adds O((omega dt)^2), ignored).
    """
    n = int(np.ceil(2.0 * h_over_dx)) + 1
    g = np.arange(-n, n + 1, dtype=np.float64)
    X, Y, Z = np.meshgrid(g, g, g, indexing="ij")
    R = np.sqrt(X ** 2 + Y ** 2 + Z ** 2)
    inside = (R > 0.0) & (R < 2.0 * h_over_dx)
    x, F = X[inside], _kernel_F(kernel, R[inside], h_over_dx)
    M = -np.sum(x * x * F)
    k = 2.0 * np.pi / np.atleast_1d(np.asarray(ppw, dtype=np.float64))
    return np.array([-np.sum(x * F * np.sin(kk * x)) / (M * kk) for kk in k])
