"""Pure analysis functions for validation cases V2 (time of flight), V4 (box modes) and V11
(sphere modes).

All functions take plain numpy arrays and return numbers, arrays or lists; none
does any I/O.
"""
import numpy as np
from scipy import fft, optimize, signal, special


def _fourier_peak(R, n, tau, lo, hi, iterations=30):
    """Maximise the band-limited interpolant of a real sequence with rfft ``R`` (length n).

    r(t) = (1/n) sum_k w_k Re(R_k e^{i w_k t}), w_k = 2 pi k / n, weights 1 for DC
    and Nyquist and 2 otherwise; Newton's method on r'(t) = 0 started at ``tau``
    and kept inside [lo, hi].  Returns the refined abscissa in samples.
    """
    k = np.arange(R.size)
    wt = np.full(R.size, 2.0)
    wt[0] = 1.0
    if n % 2 == 0:
        wt[-1] = 1.0
    om = 2.0 * np.pi * k / n
    for _ in range(iterations):
        z = wt * R * np.exp(1j * om * tau)
        d1 = -np.sum(om * z.imag)           # n * r'(tau)
        d2 = -np.sum(om ** 2 * z.real)      # n * r''(tau)
        if d2 >= 0.0:                        # not at a maximum: keep the start value
            break
        step = -d1 / d2
        tau = min(max(tau + step, lo), hi)
        if abs(step) < 1e-10:
            break
    return tau


def arrival_delay(a, b, rate, max_delay=None):
    """Delay of signal ``b`` relative to ``a`` in seconds (positive when b arrives later).

    The cross-correlation r[l] = sum_n a[n] b[n + l] is computed as
    irfft(conj(A) B) with zero padding to at least len(a) + len(b) - 1 (no wrap-around).
    The integer peak lag l0 is refined first by a parabola through r[l0-1], r[l0], r[l0+1]
    (delta = (r[-1] - r[+1]) / (2 (r[-1] - 2 r[0] + r[+1]))), then by Newton iterations
    on the Fourier (band-limited) interpolant of r, which is exact for band-limited signals.
    ``max_delay`` (seconds) optionally restricts the search to |lag| <= max_delay.
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.size == 0 or b.size == 0:
        raise ValueError("empty signal")
    n = fft.next_fast_len(a.size + b.size - 1, real=True)
    R = np.conj(fft.rfft(a, n)) * fft.rfft(b, n)
    r = fft.irfft(R, n)
    idx = np.arange(n)
    lag = np.where(idx < b.size, idx, idx - n)
    valid = (lag > -a.size) & (lag < b.size)
    if max_delay is not None:
        valid &= np.abs(lag) <= max_delay * rate
    if not valid.any():
        raise ValueError("no admissible lag")
    i0 = int(np.argmax(np.where(valid, r, -np.inf)))
    tau = float(lag[i0])
    ym, y0, yp = r[(i0 - 1) % n], r[i0], r[(i0 + 1) % n]
    den = ym - 2.0 * y0 + yp
    if den < 0.0:
        tau += 0.5 * (ym - yp) / den
        tau = _fourier_peak(R, n, tau, lag[i0] - 1.0, lag[i0] + 1.0)
    return tau / rate


def speed_of_sound_tof(a, b, rate, distance, max_delay=None):
    """Speed of sound c = distance / delay from the arrival delay of ``b`` after ``a``.

    Raises ``ValueError`` if the measured delay is not positive.
    """
    delay = arrival_delay(a, b, rate, max_delay)
    if delay <= 0.0:
        raise ValueError(f"non-positive delay {delay:.6g} s: is the far receiver first?")
    return distance / delay


def box_mode_frequencies(Lx, Ly, Lz, c, fmax):
    """Eigenfrequencies of a rigid rectangular box up to ``fmax``.

    f = (c/2) sqrt((nx/Lx)^2 + (ny/Ly)^2 + (nz/Lz)^2) for integers n >= 0, excluding
    (0, 0, 0).  Returns a list of (f, (nx, ny, nz)) sorted by f, then by index.
    """
    ranges = [np.arange(int(np.floor(2.0 * fmax * L / c)) + 1) for L in (Lx, Ly, Lz)]
    nx, ny, nz = (g.ravel() for g in np.meshgrid(*ranges, indexing="ij"))
    f = 0.5 * c * np.sqrt((nx / Lx) ** 2 + (ny / Ly) ** 2 + (nz / Lz) ** 2)
    keep = (f > 0.0) & (f <= fmax)
    modes = [(float(fi), (int(i), int(j), int(k)))
             for fi, i, j, k in zip(f[keep], nx[keep], ny[keep], nz[keep])]
    return sorted(modes)


def box_mode_count(Lx, Ly, Lz, c, fmax):
    """The number of modes box_mode_frequencies lists up to ``fmax``, without listing them.

    For each (nx, ny) with (nx/Lx)^2 + (ny/Ly)^2 <= (2 fmax/c)^2 the admissible nz run from 0 to
    floor(Lz sqrt((2 fmax/c)^2 - (nx/Lx)^2 - (ny/Ly)^2)) (corrected by one where rounding puts
    the boundary mode on the wrong side of ``fmax``); (0, 0, 0) is not counted. Memory and time
    grow as (2 fmax)^2 Lx Ly / c^2, not as the count (~(4 pi / 3) V (fmax / c)^3, Weyl).
    """
    if not fmax > 0.0:
        return 0
    k = 2.0 * fmax / c
    nx = np.arange(int(np.floor(k * Lx)) + 1, dtype=np.float64)[:, None]
    ny = np.arange(int(np.floor(k * Ly)) + 1, dtype=np.float64)[None, :]
    a = (nx / Lx) ** 2 + (ny / Ly) ** 2
    ok = a <= k * k
    a = a[ok]
    nz = np.floor(Lz * np.sqrt(np.maximum(k * k - a, 0.0)))

    def f(n):
        return 0.5 * c * np.sqrt(a + (n / Lz) ** 2)

    nz = np.where(f(nz + 1.0) <= fmax, nz + 1.0, nz)
    nz = np.where((nz >= 0) & (f(nz) > fmax), nz - 1.0, nz)
    return int(np.sum(nz + 1.0)) - 1


def lowest_box_modes(Lx, Ly, Lz, c, fmax, count):
    """The ``count`` lowest entries of box_mode_frequencies(Lx, Ly, Lz, c, fmax) (all of them if
    there are fewer), listing only modes up to a cut that holds them: the cut starts where the
    volume term of Weyl's law, (4 pi / 3) V (f / c)^3, reaches twice ``count`` and grows by half
    until it holds ``count`` modes or reaches ``fmax``. Time and memory grow with ``count``, not
    with ``fmax``."""
    if count <= 0 or not fmax > 0.0:
        return []
    cut = min(fmax, c * (3.0 * 2.0 * count / (4.0 * np.pi * Lx * Ly * Lz)) ** (1.0 / 3.0))
    while True:
        modes = box_mode_frequencies(Lx, Ly, Lz, c, cut)
        if len(modes) >= count or cut >= fmax:
            return modes[:count]
        cut = min(fmax, 1.5 * cut)


def sphere_mode_zeros(zmax):
    """The zeros z of the derivatives of the spherical Bessel functions, j_l'(z) = 0, in (0, zmax].

    They are the eigenvalues k a of a rigid sphere of radius a: each (l, n) is a (2l + 1)-fold
    degenerate mode with pressure j_l(k r) Y_lm.  The trivial z = 0 of l = 0 (the constant
    pressure) is left out, so n = 1 is the lowest non-zero one for every l.  Each zero is
    bracketed on a grid of step 0.01 (zeros of one l lie more than 2 apart) and refined by
    Brent's method.  Returns a list of (z, (l, n)) sorted by z.
    """
    out = []
    l = 0
    while l <= zmax:                     # the first zero of j_l' exceeds l
        x = np.arange(1e-3, zmax + 0.01, 0.01)
        d = special.spherical_jn(l, x, derivative=True)
        n = 0
        for i in np.flatnonzero(np.sign(d[:-1]) * np.sign(d[1:]) < 0):
            z = optimize.brentq(lambda t: special.spherical_jn(l, t, derivative=True),
                                x[i], x[i + 1], xtol=1e-14)
            if z <= zmax:
                n += 1
                out.append((float(z), (l, n)))
        l += 1
    return sorted(out)


def sphere_mode_frequencies(radius, c, fmax):
    """Eigenfrequencies of a rigid spherical cavity of ``radius`` up to ``fmax``.

    f = c z / (2 pi a), z the zeros of j_l' (sphere_mode_zeros).  Returns a list of
    (f, (l, n)) sorted by f; mode (l, n) stands for its 2l + 1 degenerate modes.
    """
    zmax = 2.0 * np.pi * radius * fmax / c
    return [(c * z / (2.0 * np.pi * radius), ln) for z, ln in sphere_mode_zeros(zmax)]


def spectral_peaks(x, rate, fmin, fmax, pad=8, threshold_db=-40.0, min_separation=None):
    """Spectral peak frequencies and amplitudes of ``x`` in [fmin, fmax] with sub-bin accuracy.

    The mean is removed, a periodic Hann window applied and the record zero-padded to
    at least ``pad`` times its length.  Local maxima of the log magnitude L above
    ``threshold_db`` relative to the largest one in the band are kept, with smaller peaks
    within ``min_separation`` Hz of a larger one discarded (default 4 fs/N, the Hann
    main-lobe width, which rejects side lobes).  Each peak is refined by a parabola on L:
    delta = (L[-1] - L[+1]) / (2 (L[-1] - 2 L[0] + L[+1])), f = (k + delta) fs / Nfft,
    log amplitude L[0] - (L[-1] - L[+1]) delta / 4.  Amplitudes are scaled so that a
    steady sine of amplitude A gives A.  Returns (freqs, amplitudes) as arrays.
    """
    x = np.asarray(x, dtype=np.float64)
    x = x - x.mean()
    n = x.size
    w = signal.windows.hann(n, sym=False)
    nfft = 1 << int(np.ceil(np.log2(pad * n)))
    mag = np.abs(fft.rfft(x * w, nfft)) / (0.5 * w.sum())
    logm = np.log(mag + 1e-300)
    df = rate / nfft
    i0 = max(int(np.floor(fmin / df)) - 1, 0)
    i1 = min(int(np.ceil(fmax / df)) + 2, mag.size)
    band = logm[i0:i1]
    if band.size < 3:
        return np.empty(0), np.empty(0)
    sep = 4.0 * rate / n if min_separation is None else min_separation
    height = band.max() + threshold_db * np.log(10.0) / 20.0
    pk, _ = signal.find_peaks(band, height=height, distance=max(1, int(round(sep / df))))
    k = pk + i0
    ym, y0, yp = logm[k - 1], logm[k], logm[k + 1]
    delta = 0.5 * (ym - yp) / (ym - 2.0 * y0 + yp)
    freqs = (k + delta) * df
    amps = np.exp(y0 - 0.25 * (ym - yp) * delta)
    inside = (freqs >= fmin) & (freqs <= fmax)
    return freqs[inside], amps[inside]


def isolated_modes(modes, isolation=0.04):
    """Modes (f, index) with no other mode within a relative distance ``isolation``.

    Mode i is isolated when |f_j - f_i| > isolation * f_i for every j != i (degenerate
    modes are therefore never isolated).  Order is preserved.
    """
    f = np.array([m[0] for m in modes])
    return [m for i, m in enumerate(modes)
            if np.sum(np.abs(f - m[0]) <= isolation * m[0]) == 1]


def match_modes(peaks, modes, isolation=0.04, amplitudes=None, search=None):
    """Match each isolated analytic mode to a measured spectral peak.

    ``peaks`` are measured frequencies, ``modes`` a list of (f, (nx, ny, nz)) as from
    box_mode_frequencies.  For each mode isolated at ``isolation`` (see isolated_modes)
    the nearest peak is taken; if ``amplitudes`` and ``search`` are given, the strongest
    peak within |f_p - f| <= search * f is preferred, falling back to the nearest.
    rel_error = (f_measured - f_analytic) / f_analytic.  Returns a list of dicts
    {mode, f_analytic, f_measured, rel_error} (None for f_measured and rel_error
    when there are no peaks).
    """
    peaks = np.asarray(peaks, dtype=np.float64)
    out = []
    for f, idx in isolated_modes(modes, isolation):
        fm = None
        if peaks.size:
            j = int(np.argmin(np.abs(peaks - f)))
            if amplitudes is not None and search is not None:
                near = np.flatnonzero(np.abs(peaks - f) <= search * f)
                if near.size:
                    j = int(near[np.argmax(np.asarray(amplitudes)[near])])
            fm = float(peaks[j])
        out.append({"mode": idx, "f_analytic": f, "f_measured": fm,
                    "rel_error": None if fm is None else (fm - f) / f})
    return out
