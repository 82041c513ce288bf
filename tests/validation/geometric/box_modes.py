#!/usr/bin/env python3
"""Decay rates of a box's isolated low modes: the SPH records against the exact modes of the box
with locally reacting walls (docs/theory/geometric.md, "Why the late level fails in the V19 room").

Exact modes: the box of v19_late_models.py (its rigid faces rigid, the others one locally
reacting wall of real normalised impedance zeta from the absorber's alpha_n), in the time domain:
a mode p = X(x) Y(y) Z(z) e^{-i w t} has, along each axis, the Robin eigenfunction of
v19_late_models.robin_axis at the complex wavenumber k = w / c, and
k^2 = kappa_x(k)^2 + kappa_y(k)^2 + kappa_z(k)^2 (Morse & Ingard 1968, ch. 9), solved by the
secant method from the rigid box's k for each index triple (n_x, n_y, n_z). Its frequency is
Re(w) / 2 pi, its amplitude decay rate -Im(w) (1/s), T60 = 3 ln(10) / decay.

SPH: the records band-passed to 200-800 Hz (4th-order Butterworth, forwards and backwards),
decimated by 10, cut to [t0, t1], each receiver normalised to unit energy; then the matrix pencil
of the receivers' stacked Hankel matrices (Hua & Sarkar, IEEE Trans. ASSP 38, 1990; the
multi-channel form shares the poles) with ORDER singular vectors gives complex poles
s = ln(z) fs. An exact mode is "isolated" when no other exact mode lies within GAP Hz; it is
matched to the pencil pole nearest in frequency within 3 %. The same pencil on the exact
response (v19_late_models.exact, --check) shows what the method itself recovers.

  box_modes.py SCENE SPH_DIR [--t0 S] [--t1 S] [--order N] [--gap HZ] [--check]
               [--assert "NX,NY,NZ ..." --tol FRACTION]

The source is the scene's [emitter.mono] position when there is one, else the disc's centre.
--assert: exit 1 unless every listed mode is matched and its SPH decay rate is within FRACTION
of the exact one.
"""
import argparse
import configparser
import os
import sys

import numpy as np
from scipy import signal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../postproc"))
import v19_late_models as vlm  # noqa: E402
from sphreverb_post.audio import read_mono  # noqa: E402

C = vlm.C


def scene(path):
    sc = vlm.scene(path)
    cp = configparser.ConfigParser(inline_comment_prefixes=("#",))
    cp.read(path)
    if "emitter.mono" in cp:
        sc["src"] = vlm.vec(cp["emitter.mono"]["position"]) - vlm.vec(cp["room"]["min"])
    return sc


def exact_modes(sc, fmax):
    """[(index triple, frequency Hz, amplitude decay rate 1/s)] below fmax, by frequency."""
    L = sc["L"]
    beta = [[0.0 if sc["rigid"][2 * a + s] else 1.0 / sc["zeta"] for s in (0, 1)] for a in range(3)]
    kmax = 2 * np.pi * 2.0 * fmax / C
    out = []
    top = [int(2 * L[a] * fmax / C) + 1 for a in range(3)]
    for n in np.ndindex(*top):
        k0 = np.pi * np.sqrt(sum((n[a] / L[a]) ** 2 for a in range(3)))
        if k0 == 0 or k0 * C / (2 * np.pi) > fmax:
            continue

        def F(k):
            return sum(vlm.robin_axis(k, L[a], beta[a][0], beta[a][1], kmax)[0][n[a]] ** 2
                       for a in range(3)) - k * k

        ka, kb = complex(k0), complex(k0) * (1 - 0.01j)
        fa, fb = F(ka), F(kb)
        for _ in range(60):
            if fb == fa:
                break
            kc = kb - fb * (kb - ka) / (fb - fa)
            ka, fa, kb, fb = kb, fb, kc, F(kc)
            if abs(kb - ka) < 1e-12 * abs(kb):
                break
        w = kb * C
        out.append((tuple(int(v) for v in n), w.real / (2 * np.pi), -w.imag))
    return sorted(out, key=lambda m: m[1])


def prepare(x, rate, t0, t1, dec=10):
    sos = signal.butter(4, [200, 800], "band", fs=rate, output="sos")
    y = signal.sosfiltfilt(sos, x)[int(t0 * rate):int(t1 * rate)][::dec]
    return y / np.sqrt((y**2).sum()), rate / dec


def pencil(xs, fs, order):
    """Poles s (1/s, complex) shared by the signals xs: multi-channel matrix pencil."""
    n = xs[0].size
    m = n // 2
    Y = np.vstack([np.array([x[i:i + m + 1] for i in range(n - m)]) for x in xs])
    V = np.linalg.svd(Y, full_matrices=False)[2][:order].conj().T
    z = np.linalg.eigvals(np.linalg.pinv(V[:-1]) @ V[1:])
    return np.log(z.astype(complex)) * fs


def match(modes, poles, gap):
    """Per isolated exact mode: (mode, pole frequency, pole decay) or None when unmatched."""
    poles = poles[poles.imag > 0]
    f, d = poles.imag / (2 * np.pi), -poles.real
    out = []
    for i, (n, fm, dm) in enumerate(modes):
        if any(abs(fm - o[1]) < gap for j, o in enumerate(modes) if j != i):
            continue
        k = np.argmin(abs(f - fm)) if f.size else None
        hit = k is not None and abs(f[k] - fm) < 0.03 * fm
        out.append(((n, fm, dm), (f[k], d[k]) if hit else None))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scene")
    ap.add_argument("sph")
    ap.add_argument("--t0", type=float, default=0.006)
    ap.add_argument("--t1", type=float, default=None, help="default: the record's end")
    ap.add_argument("--order", type=int, default=24)
    ap.add_argument("--gap", type=float, default=15.0)
    ap.add_argument("--fmin", type=float, default=250.0)
    ap.add_argument("--fmax", type=float, default=720.0)
    ap.add_argument("--check", action="store_true",
                    help="also the pencil on the exact response (the method's own error)")
    ap.add_argument("--assert", dest="modes", default=None)
    ap.add_argument("--tol", type=float, default=0.1)
    a = ap.parse_args()
    sc = scene(a.scene)
    modes = [m for m in exact_modes(sc, a.fmax) if m[1] > a.fmin]
    sph, ref = [], []
    for name, rcv in sorted(sc["rcv"].items()):
        s, rate = read_mono(os.path.join(a.sph, name + ".raw.wav"))
        t1 = a.t1 if a.t1 is not None else s.size / rate
        y, fs = prepare(s, rate, a.t0, t1)
        sph.append(y)
        if a.check:
            ref.append(prepare(vlm.exact(sc, rcv, 4 * s.size, rate)[: s.size], rate, a.t0, t1)[0])
    found = match(modes, pencil(sph, fs, a.order), a.gap)
    found_ref = match(modes, pencil(ref, fs, a.order), a.gap) if a.check else None
    print(f"zeta {sc['zeta']:.3f}, absorbing faces "
          f"{' '.join(f for f, r in zip(['x_min', 'x_max', 'y_min', 'y_max', 'z_min', 'z_max'], sc['rigid']) if not r)}, "
          f"window {a.t0 * 1e3:.0f}-{t1 * 1e3:.0f} ms, order {a.order}")
    print("mode       exact f    decay   T60 |  SPH f    decay  ratio" +
          (" | pencil on exact: decay ratio" if a.check else ""))
    want = [tuple(int(v) for v in m.split(",")) for m in a.modes.split()] if a.modes else []
    status = 0
    for i, ((n, fm, dm), hit) in enumerate(found):
        line = f"{str(n):9s} {fm:7.1f} {dm:7.1f} {6.908 / dm * 1e3:5.1f} |"
        line += f" {hit[0]:6.1f} {hit[1]:7.1f} {hit[1] / dm:6.3f}" if hit else "      (no pole)      "
        if a.check:
            r = found_ref[i][1]
            line += f" | {r[1] / dm:6.3f}" if r else " | (no pole)"
        if n in want:
            ok = hit is not None and abs(hit[1] / dm - 1) <= a.tol
            line += "  within tol" if ok else "  OUTSIDE tol (FAIL)"
            status |= 0 if ok else 1
        print(line)
    for n in want:
        if n not in [m[0][0] for m in found]:
            print(f"{n}: not an isolated mode of this box (FAIL)")
            status = 1
    if want:
        print(f"decay rates of {len(want)} modes within {a.tol:.0%} of exact: {'no (FAIL)' if status else 'yes'}")
    return status


if __name__ == "__main__":
    sys.exit(main())
