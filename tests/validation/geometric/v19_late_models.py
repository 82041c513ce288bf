#!/usr/bin/env python3
"""V19 room (docs/validation.md, V19 (d)): the overlap octave's early / late levels of
references against the SPH records, computed the way the join computes them
(geometric/hybrid.hpp): the octave [crossover / 2, crossover] by LR4 high- and low-pass run
forwards and backwards, the split where the SPH band's Schroeder curve has fallen 10 dB, the
model scaled to the SPH band's whole energy, then 10 log10(E_model / E_sph) over [0, split) and
[split, end).

Models, all for the scene's box (its rigid faces rigid, each other face a locally reacting wall
of real normalised impedance zeta, from its material's alpha_n on the hard branch,
docs/theory/walls.md: `absorption`, or `absorption_bands` in the first octave, in --t30's octave
with that option), a point source at the emitter's centre and no air:

- exact: the box's Green's function per frequency (e^{-i w t}), (lap + k^2) G = -delta, with
  the walls' condition dp/dn = i k beta p (beta = 1/zeta, n outward) on every face. The problem
  separates: along each axis X'' = -kappa^2 X with X'(0) = -i k beta_0 X(0),
  X'(L) = i k beta_1 X(L), solved by X = cos(kappa x) - i k beta_0 sin(kappa x) / kappa and
  -(kappa^2 + k^2 beta_0 beta_1) sin(kappa L) / kappa - i k (beta_0 + beta_1) cos(kappa L) = 0
  (Newton from the first-order kappa); these eigenfunctions are orthogonal in the bilinear
  product (no conjugate), so G = sum X Y Z (r) X Y Z (r0) / (N_x N_y N_z (kappa^2 - k^2)),
  N = int X^2 dx, over kappa^2 below (2 pi 4 kHz / c)^2 (Morse & Ingard, "Theoretical
  Acoustics" 1968, ch. 9, for the box with impedance walls). No approximation beyond the wall
  model and the truncation;
- images: the specular image-source sum with the plane-wave reflection factor
  R(theta) = (zeta cos(theta) - 1) / (zeta cos(theta) + 1) per reflection, exact delays, summed
  per frequency (what the geometric part's image sources are with scattering 0);
  --spherical multiplies instead by Q = R + (1 - R) F(w), w = sqrt(i k r / 2) (cos(theta) + 1/zeta),
  F(w) = 1 + i sqrt(pi) w wofz(w), the spherical-wave reflection factor of a locally reacting plane
  (Chien & Soroka, J. Sound Vib. 43, 1975; Attenborough, Li & Horoshenkov, "Predicting outdoor
  sound" 2007, ch. 2), r the image's whole path; --magnitude by |R(theta)| (a diagnostic: the
  same energy per reflection, no inversion beyond cos(theta) = 1/zeta);
- modal: the rigid box's modes, each decaying at its first-order rate in beta,
  delta_n = (c beta / 2) sum over absorbing faces 1 / (L_a e_a), e_a = 1 for n_a = 0 and 1/2
  otherwise (Kuttruff, "Room Acoustics", ch. 3). Not valid here for the modes grazing a face:
  their wall-normal wavenumber is sqrt(2 k beta / L) ~ 1.8 / m at 450 Hz, not small against
  pi / L, so it overstates their pressure, hence their loss, at the wall and their coherence
  (a diagnostic of that approximation, not a reference).

  v19_late_models.py SCENE SPH_DIR [--models exact,images,modal] [--spherical | --magnitude]
                     [--lag SAMPLES | auto] [--no-drive] [--pad K] [--max-late DB] [--t30 BAND]
                     [--zetas Z,Z,Z,Z,Z,Z] [--length SECONDS]

Besides the levels, each model's overlap-band response is correlated with the SPH one's
(1: the same waveform up to a gain). --t30 BAND prints instead each receiver's octave T30 in the
octave BAND of the SPH record and of the models, every face with its own material's zeta from
`absorption_bands` in that octave (scenes with per-face materials, e.g. the default scene;
`include` files are read).

The crossover is 0.7 c / (20 spacing), the join's default with the force walls' f_max (the disc is one).
Every model is a pressure response to a unit volume-acceleration impulse; the disc's own
acceleration is the scene's drive high-passed (`[emitter] drive = acceleration`, `highpass` f_c:
A_disc / A = s^2 / (s + w_c)^2, critically damped, emitter.hpp), so each model is passed through
that filter too (bilinear, two first-order sections), as the SPH response is. At f_c = 250 Hz it
takes 4.6 dB at 300 Hz and 1.4 dB at 600 Hz and turns the phase by 80 / 45 degrees across the
overlap octave: it spreads the direct sound over the next few ms, past an early split of 3-7 ms.
--no-drive leaves it out (the models as before; the small box's late level then reads -4.9 dB
instead of -1.4 dB, an artefact of the reference, docs/theory/geometric.md).
The SPH record lags the models by the solver's own delay: --lag auto (the default) takes per
receiver the lag in [0, 40] samples that maximises the overlap-band correlation (20-24 samples,
0.45-0.55 ms, in the small boxes with the drive filter); --lag N fixes it.
"""
import argparse
import configparser
import os
import sys

import numpy as np
from scipy import signal
from scipy.special import wofz

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../postproc"))
from sphreverb_post.audio import read_mono  # noqa: E402

C = 343.0
BANDS = (125, 250, 500, 1000, 2000, 4000)  # the octaves of `absorption_bands`


def vec(text):
    return np.array([float(v) for v in text.split()])


def read_scene(path):
    """The scene's sections, with the files its top-level `include = FILE` lines name read first."""
    cp = configparser.ConfigParser(inline_comment_prefixes=("#",))
    own = []
    with open(path) as f:
        lines = f.read().splitlines()
    for i, line in enumerate(lines):
        if line.lstrip().startswith("["):
            own = lines[i:]
            break
        key, _, value = line.partition("=")
        if key.strip() == "include":
            cp.read(os.path.join(os.path.dirname(os.path.abspath(path)), value.split("#")[0].strip()))
    cp.read_string("\n".join(own))
    return cp


def zeta_of(alpha):
    """Real normalised impedance on the hard branch for a normal-incidence absorption."""
    q = np.sqrt(1.0 - alpha)
    return (1.0 + q) / (1.0 - q)


def face_zetas(cp, band=None):
    """Per face (x min, x max, y min, ...) its material's zeta (inf: rigid): from `absorption`, or
    `absorption_bands` at the octave `band` (Hz; None: the first band)."""
    out = []
    for a in "xyz":
        for side in ("min", "max"):
            name = cp["room"].get(f"material_{a}_{side}", cp["room"]["material"])
            if name == "rigid":
                out.append(np.inf)
                continue
            mat = cp["material." + name]
            if "absorption" in mat:
                alpha = float(mat["absorption"])
            else:
                alpha = float(mat["absorption_bands"].split()[0 if band is None else BANDS.index(band)])
            out.append(zeta_of(alpha))
    return out


def scene(path, band=None):
    cp = read_scene(path)
    lo, hi = vec(cp["room"]["min"]), vec(cp["room"]["max"])
    mat = cp["material." + cp["room"]["material"]]
    zeta = zeta_of(float(mat.get("absorption", fallback=mat.get("absorption_bands", "0").split()[0])))
    zetas = face_zetas(cp, band)
    rigid = [z == np.inf for z in zetas]
    rcv = {s.split(".", 1)[1]: vec(cp[s]["position"]) - lo for s in cp.sections() if s.startswith("receiver.")}
    em = cp["emitter"]
    drive_hp = float(em.get("highpass", "20")) if em.get("drive", "acceleration") == "acceleration" else 0.0
    return dict(L=hi - lo, src=vec(em["center"]) - lo, zeta=zeta, zetas=zetas, rigid=rigid, rcv=rcv,
                drive_hp=drive_hp,
                rate=float(cp["time"].get("sample_rate", "44100")),
                crossover=0.7 * C / (20.0 * float(cp["fluid"]["spacing"])))


def overlap_band(x, rate, lo, hi):
    """LR4 high-pass at lo and low-pass at hi, forwards and backwards (geometric/hybrid.hpp)."""
    stages = [signal.butter(2, lo, "high", fs=rate, output="sos")] * 2 + \
             [signal.butter(2, hi, "low", fs=rate, output="sos")] * 2
    for _ in range(2):
        for sos in stages:
            x = signal.sosfilt(sos, x)
        x = x[::-1]
    return x


def drive_filter(h, rate, fc):
    """The disc's acceleration drive: s^2 / (s + w_c)^2 (module doc); fc = 0: none."""
    if fc <= 0.0:
        return h
    b, a = signal.butter(1, fc, "high", fs=rate)
    return signal.lfilter(b, a, signal.lfilter(b, a, h))


def axis_images(pos, length, ns):
    """(image coordinate, reflections off the min face, off the max face) along one axis."""
    out = []
    for m in range(-ns, ns + 1):
        out.append((2 * m * length + pos, abs(m), abs(m)))
        out.append((2 * m * length - pos, m - 1, m) if m >= 1 else (2 * m * length - pos, 1 - m, -m))
    return out


def images(sc, rcv, n, rate, spherical, magnitude=False, rigid=1.0):
    """rigid: the amplitude factor of a reflection off a rigid face (1: none)."""
    nfft = 1 << int(np.ceil(np.log2(2 * n)))
    f = np.fft.rfftfreq(nfft, 1.0 / rate)
    sel = (f > 100.0) & (f < sc.get("fmax", 2.5 * sc["crossover"]))
    k = 2 * np.pi * f[sel] / C
    L, tmax = sc["L"], n / rate
    H = np.zeros(k.size, complex)

    def factor(ct, r, zeta):
        R = (zeta * ct - 1.0) / (zeta * ct + 1.0)
        if magnitude:
            return abs(R)
        if not spherical:
            return R
        w = np.sqrt(0.5j * k * r) * (ct + 1.0 / zeta)
        return R + (1.0 - R) * (1.0 + 1j * np.sqrt(np.pi) * w * wofz(w))

    ax = [axis_images(sc["src"][a], L[a], int(np.ceil(tmax * C / (2 * L[a]))) + 1) for a in range(3)]
    for px, x0, x1 in ax[0]:
        for py, y0, y1 in ax[1]:
            if np.hypot(px - rcv[0], py - rcv[1]) > tmax * C:
                continue
            for pz, z0, z1 in ax[2]:
                d = np.array([px, py, pz]) - rcv
                r = np.linalg.norm(d)
                if r > tmax * C:
                    continue
                h = np.exp(1j * k * r) / (4 * np.pi * r)  # e^{-i w t}
                for a, hits in enumerate(((x0, x1), (y0, y1), (z0, z1))):
                    for side, count in enumerate(hits):
                        if count and not sc["rigid"][2 * a + side]:
                            h = h * factor(abs(d[a]) / r, r, sc["zetas"][2 * a + side]) ** count
                        elif count and rigid != 1.0:
                            h = h * rigid**count
                H += h
    X = np.zeros(f.size, complex)
    X[sel] = np.conj(H)  # numpy's e^{+i w t}
    return np.fft.irfft(X, nfft)[:n] * rate


def robin_axis(k, length, b0, b1, kmax):
    """Eigenvalues kappa, norms N and the eigenfunction X(kappa, x) of one axis (module doc)."""
    m = np.arange(0, int(length * kmax / np.pi) + 2)
    eps = np.where(m == 0, 1.0, 2.0)
    kap = np.sqrt(((m * np.pi / length) ** 2 - 1j * k * (b0 + b1) * eps / length).astype(complex))

    def g(q):
        return -(q * q + k * k * b0 * b1) * np.sinc(q * length / np.pi) * length - \
            1j * k * (b0 + b1) * np.cos(q * length)

    for _ in range(60 if (b0 or b1) else 0):
        h = 1e-7 * (1.0 + abs(kap))
        step = g(kap) * 2 * h / (g(kap + h) - g(kap - h))
        kap = kap - step
        if np.max(abs(step)) < 1e-12 * (1.0 + np.max(abs(kap))):
            break

    def X(q, x):
        qx = np.outer(np.atleast_1d(x), q)
        return np.cos(qx) - 1j * k * b0 * np.atleast_1d(x)[:, None] * np.sinc(qx / np.pi)

    x = np.linspace(0.0, length, 801)
    w = np.full(x.size, 2.0)
    w[1::2] = 4.0
    w[0] = w[-1] = 1.0
    N = ((w * (x[1] - x[0]) / 3.0)[:, None] * X(kap, x) ** 2).sum(0)
    return kap, N, X


def exact(sc, rcv, n, rate):
    nfft = 1 << int(np.ceil(np.log2(2 * n)))
    f = np.fft.rfftfreq(nfft, 1.0 / rate)
    fmax = sc.get("fmax", 2.5 * sc["crossover"])
    sel = np.nonzero((f > 100.0) & (f < fmax))[0]
    kmax = 2 * np.pi * max(4000.0, fmax + 2000.0) / C
    X = np.zeros(f.size, complex)
    for i in sel:
        k = 2 * np.pi * f[i] / C
        terms = []
        for a in range(3):
            b = [1.0 / sc["zetas"][2 * a + side] for side in (0, 1)]
            kap, N, fn = robin_axis(k, sc["L"][a], b[0], b[1], kmax)
            terms.append((kap**2, fn(kap, rcv[a])[0] * fn(kap, sc["src"][a])[0] / N))
        K2 = terms[0][0][:, None, None] + terms[1][0][None, :, None] + terms[2][0][None, None, :]
        P = terms[0][1][:, None, None] * terms[1][1][None, :, None] * terms[2][1][None, None, :]
        keep = K2.real < kmax**2
        X[i] = np.conj((P[keep] / (K2[keep] - k * k)).sum())  # numpy's e^{+i w t}
    return np.fft.irfft(X, nfft)[:n] * rate


def modal(sc, rcv, n, rate):
    L, t = sc["L"], np.arange(n) / rate
    fmax = 3.0 * sc["crossover"]
    grid = np.meshgrid(*[np.arange(int(2 * L[a] * fmax / C) + 2) for a in range(3)], indexing="ij")
    N = np.stack([g.ravel() for g in grid], 1)
    f0 = C / 2 * np.sqrt(((N / L) ** 2).sum(1))
    keep = (f0 > 0) & (f0 < fmax)
    N, f0 = N[keep], f0[keep]
    e = np.where(N == 0, 1.0, 0.5)
    absorbing = np.array([[not sc["rigid"][2 * a], not sc["rigid"][2 * a + 1]] for a in range(3)]).sum(1)
    delta = C / (2 * sc["zeta"]) * (absorbing / (L * e)).sum(1)

    def psi(x):
        return np.prod(np.cos(N * np.pi * x / L), 1)

    A = psi(rcv) * psi(sc["src"]) / (np.prod(L) * np.prod(e, 1))
    w = 2 * np.pi * f0
    h = np.zeros(n)
    for i in range(0, len(w), 256):  # p / rho0 for a unit volume-acceleration impulse
        s = slice(i, i + 256)
        h += C**2 * (A[s, None] * np.exp(-delta[s, None] * t) * np.sin(w[s, None] * t) / w[s, None]).sum(0)
    return h


def octave_t30(sc, a, models):
    """--t30: octave T30 of the SPH records and of the models, per receiver."""
    from v19_check import decay_times

    band = a.t30
    sc["fmax"] = max(2.5 * sc["crossover"], 2.0 * band)
    fc = 0.0 if a.no_drive else sc["drive_hp"]
    print(f"{band} Hz octave, zeta per face " + " ".join(f"{z:.2f}" for z in sc["zetas"]) +
          f", drive high-pass {fc:.0f} Hz")
    for name, rcv in sorted(sc["rcv"].items()):
        s, rate = read_mono(os.path.join(a.sph, name + ".raw.wav"))
        if a.length:
            s = s[: int(round(a.length * rate))]
        line = f"{name}: T30 SPH {decay_times(s, rate)[band][0] * 1e3:.1f} ms"
        for m in models:
            h = {"exact": lambda: exact(sc, rcv, a.pad * s.size, rate)[: s.size],
                 "images": lambda: images(sc, rcv, s.size, rate, a.spherical, a.magnitude),
                 "modal": lambda: modal(sc, rcv, s.size, rate)}[m]()
            t = decay_times(drive_filter(h, rate, fc), rate)[band][0]
            line += f" | {m} {t * 1e3:.1f} ms"
        print(line, flush=True)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scene")
    ap.add_argument("sph")
    ap.add_argument("--models", default="exact,images")
    ap.add_argument("--spherical", action="store_true")
    ap.add_argument("--magnitude", action="store_true")
    ap.add_argument("--lag", default="auto")
    ap.add_argument("--no-drive", action="store_true",
                    help="leave the emitter's drive high-pass out of the models")
    ap.add_argument("--pad", type=int, default=1,
                    help="the exact response over PAD record lengths (its spectrum's period), "
                         "for walls that decay slower than the record")
    ap.add_argument("--max-late", type=float, default=None,
                    help="exit 1 unless the first model's late level, mean over the receivers, "
                         "is within this many dB of the SPH's")
    ap.add_argument("--t30", type=int, default=None, metavar="BAND",
                    help="instead of the levels: the octave BAND's T30 (Hz, an octave of "
                         "absorption_bands) of the SPH record and of each model, every face's zeta "
                         "from its material's absorption in that octave")
    ap.add_argument("--zetas", default=None, metavar="Z,Z,Z,Z,Z,Z",
                    help="the six faces' zeta (x min, x max, y min, ...; inf: rigid) instead of "
                         "their materials'")
    ap.add_argument("--length", type=float, default=None, metavar="SECONDS",
                    help="--t30: the records' first SECONDS only (shorter image sums)")
    a = ap.parse_args()
    sc = scene(a.scene, a.t30)
    if a.zetas:
        sc["zetas"] = [float(z) for z in a.zetas.split(",")]
        sc["rigid"] = [z == np.inf for z in sc["zetas"]]
    models = a.models.split(",")
    if a.t30:
        return octave_t30(sc, a, models)
    lo, hi = 0.5 * sc["crossover"], sc["crossover"]
    fc = 0.0 if a.no_drive else sc["drive_hp"]
    print(f"zeta {sc['zeta']:.3f}, overlap octave {lo:.0f}-{hi:.0f} Hz, lag {a.lag} samples, "
          f"drive high-pass {fc:.0f} Hz")
    res = {m: [] for m in models}
    for name, rcv in sorted(sc["rcv"].items()):
        s, rate = read_mono(os.path.join(a.sph, name + ".raw.wav"))
        sb = overlap_band(s, rate, lo, hi)
        es = sb**2
        tail = np.cumsum(es[::-1])[::-1]
        split = int(np.argmax(tail <= 0.1 * es.sum()))
        line = f"{name}: split {split / rate * 1e3:4.1f} ms"
        for m in models:
            model = {"exact": lambda: exact(sc, rcv, a.pad * s.size, rate)[: s.size],
                     "images": lambda: images(sc, rcv, s.size, rate, a.spherical, a.magnitude),
                     "modal": lambda: modal(sc, rcv, s.size, rate)}[m]
            h = model()
            hb = overlap_band(drive_filter(h, rate, fc), rate, lo, hi)
            lag = max(range(41), key=lambda k: np.dot(sb, np.roll(hb, k))) if a.lag == "auto" else int(a.lag)
            hb = np.roll(hb, lag)
            g2 = es.sum() / (hb**2).sum()
            early = 10 * np.log10(g2 * (hb[:split] ** 2).sum() / es[:split].sum())
            late = 10 * np.log10(g2 * (hb[split:] ** 2).sum() / es[split:].sum())
            res[m].append((early, late))
            corr = np.dot(sb, hb) / np.sqrt(es.sum() * (hb**2).sum())
            line += f" | {m} lag {lag} early {early:+.2f} late {late:+.2f} dB, correlation {corr:.2f}"
        print(line, flush=True)
    status = 0
    for m in models:
        early, late = np.array(res[m]).mean(0)
        if a.max_late is not None and m == models[0] and not abs(late) <= a.max_late:
            status = 1
        print(f"mean of {len(res[m])} receivers, {m}{' (spherical Q)' if m == 'images' and a.spherical else ''}{' (|R|)' if m == 'images' and a.magnitude else ''}: "
              f"early {early:+.2f} dB, late {late:+.2f} dB")
    if a.max_late is not None:
        print(f"{models[0]} late level within {a.max_late} dB: {'no (FAIL)' if status else 'yes'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
