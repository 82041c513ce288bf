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
    """(dW/dr)/r of the solver's kernels (kernel.hpp) in units of the lattice spacing."""
    q = r / h
    if kernel == "wendland_c2":
        return -105.0 / (16.0 * np.pi * h ** 5) * np.maximum(0.0, 1.0 - 0.5 * q) ** 3
    if kernel == "cubic_spline":
        return np.where(q < 1.0, -3.0 + 2.25 * q,
                        -0.75 * np.maximum(0.0, 2.0 - q) ** 2 / np.maximum(q, 1e-300)) / (np.pi * h ** 5)
    raise ValueError(f"unknown kernel {kernel!r}")


CORRECTIONS = ("none", "first_moment", "fourth_order")


def lattice_gradient(kernel, h_over_dx, correction="fourth_order"):
    """(offsets x, y, z, r, G) of the solver's corrected gradient factor G = F (a + b r^2) on the
    unit lattice (src/lattice_gradient.cpp): "first_moment" makes -sum x^2 G = 1, "fourth_order"
    also sum x^4 G = 0, "none" leaves a = 1, b = 0."""
    if correction not in CORRECTIONS:
        raise ValueError(f"unknown gradient correction {correction!r}")
    n = int(np.ceil(2.0 * h_over_dx)) + 1
    g = np.arange(-n, n + 1, dtype=np.float64)
    X, Y, Z = np.meshgrid(g, g, g, indexing="ij")
    R = np.sqrt(X ** 2 + Y ** 2 + Z ** 2)
    inside = (R > 0.0) & (R < 2.0 * h_over_dx)
    x, y, z, r = X[inside], Y[inside], Z[inside], R[inside]
    F = _kernel_F(kernel, r, h_over_dx)
    a, b = 1.0, 0.0
    if correction == "first_moment":
        a = 1.0 / -np.sum(x * x * F)
    elif correction == "fourth_order":
        if h_over_dx <= 1.0:
            raise ValueError("fourth_order needs h_over_dx > 1 (the support must reach the "
                             "second neighbour along an axis)")
        A = np.array([[-np.sum(x ** 2 * F), -np.sum(x ** 2 * F * r ** 2)],
                      [np.sum(x ** 4 * F), np.sum(x ** 4 * F * r ** 2)]])
        a, b = np.linalg.solve(A, [1.0, 0.0])
    return x, y, z, r, F * (a + b * r * r)


def lattice_phase_speed(kernel, h_over_dx, ppw, correction="fourth_order", direction=(1, 0, 0)):
    """c/c0 of a plane wave along ``direction`` for the solver's semi-discrete scheme.

    On a simple cubic lattice (spacing 1) the SPH gradient of exp(j k n.x) is j k~ n exp(j k n.x)
    with k~ = -sum_s (n.s) G(s) sin(k n.s) (G the corrected gradient factor, see
    lattice_gradient); continuity and momentum share the symbol, so omega = c0 k~ and
    c/c0 = k~ / k (time stepping adds O((omega dt)^2), ignored).
    """
    x, y, z, _, G = lattice_gradient(kernel, h_over_dx, correction)
    d = np.asarray(direction, dtype=np.float64)
    d = d / np.linalg.norm(d)
    s = d[0] * x + d[1] * y + d[2] * z
    k = 2.0 * np.pi / np.atleast_1d(np.asarray(ppw, dtype=np.float64))
    return np.array([-np.sum(s * G * np.sin(kk * s)) / kk for kk in k])
