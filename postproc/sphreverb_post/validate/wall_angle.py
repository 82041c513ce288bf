"""Resistive wall at oblique incidence: the measured reflection against a locally reacting plane.

    python3 -m sphreverb_post validate wall-angle OUTDIR --walls NAME ... [--free free]
        [--rigid rigid] [--source NAME] [--band 300 800] [--c 343] [--tol 0.1] [--pulse 1e-3]
        [--fexact 2500] [--json FILE]

OUTDIR holds runs of tests/validation/slab_wall_angle.ini (tests/validation/wall_angle.sh): a
z-uniform slab (a line source above the face y = 0) with that face far away (--free), rigid
(--rigid) and resistive (each of --walls, ζ from its [material.wall] absorption, hard branch).
For every receiver, p_wall - p_free is the wave reflected by the wall and p_rigid - p_free the
wave a rigid wall reflects (the image source); both are gated (half-Hann fade over --taper s)
before the earliest path that does not cancel in the differences (the image's images in the
faces x = 0 and x = L, the top face of the runs with the wall, the y faces of the free run).
Their spectral ratio H(f) is the wall's reflection of that cylindrical wave; the band value is
the least-squares constant over --band, Σ W R* / Σ |R|² (W, R the two gated spectra).

The reference is the exact reflected field of a line source above a locally reacting plane of
specific impedance ζ, as a plane-wave (Weyl-Sommerfeld) integral over the horizontal wavenumber
k_x with R(k_x) = (ζ k_y/k - 1) / (ζ k_y/k + 1), k_y = sqrt(k² - k_x²) (evanescent waves with
Im k_y > 0), divided by the same integral with R = 1 (i/4 H0(k r')): a transfer function from
the rigid plane's reflection to the wall's. It is applied to the run's own p_rigid - p_free (up
to --fexact) and gated the same way, since the 2-D field of a pulse has a ~1/sqrt(t) tail that
no gate holds; its band value ("exact") is what the SPH's must equal, within --tol. Reported
beside it: the waveform misfit |wall - exact| / |exact| in the gate, the steady (ungated) band
value of the exact ratio, and the plane-wave R(θ) = (ζ cos θ - 1)/(ζ cos θ + 1) at the
specular angle (kr' tells how far the line source is from a plane wave).
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import os
import sys

import numpy as np

from sphreverb_post import read_receiver
from sphreverb_post.scene import run_scene as scene_sections, vec


def zeta_of_absorption(alpha):
    """The hard-branch specific resistance of a broadband absorption (docs/theory/walls.md)."""
    s = np.sqrt(1.0 - alpha)
    return (1.0 + s) / (1.0 - s)


def reflected_line_source(k, x, y_img, zeta, n_prop=4001, n_evan=40001):
    """Field reflected by the plane y = 0 at horizontal offset x and height sum y_img (m) of a
    unit line source, (i/4π) ∫ R(k_x) exp(i k_x x + i k_y y_img) / k_y dk_x, time factor
    exp(-iωt); zeta = inf gives the rigid plane, (i/4) H0(k r'). k: array of wavenumbers (1/m).
    Propagating part k_x = k sin a (dk_x / k_y = da), evanescent part k_x = ±k cosh t
    (k_y = i k sinh t, dk_x / k_y = -i dt)."""
    k = np.asarray(k, dtype=float)[:, None]
    a = np.linspace(-np.pi / 2, np.pi / 2, n_prop)
    ca = np.cos(a)
    rp = np.ones_like(ca) if np.isinf(zeta) else (zeta * ca - 1.0) / (zeta * ca + 1.0)
    prop = np.trapz(rp * np.exp(1j * k * (x * np.sin(a) + y_img * ca)), a, axis=1)
    # the evanescent integrand decays as exp(-k y_img sinh t): stop where it is below 1e-12
    t_max = np.arcsinh(28.0 / (k.min() * y_img))
    t = np.linspace(0.0, t_max, n_evan)
    sh = np.sinh(t)
    re = np.ones_like(sh) if np.isinf(zeta) else (1j * zeta * sh - 1.0) / (1j * zeta * sh + 1.0)
    evan = np.trapz(re * np.cos(k * x * np.cosh(t)) * np.exp(-k * y_img * sh), t, axis=1)
    return 1j / (4.0 * np.pi) * (prop - 2j * evan)


def pad(x, n, nfft):
    """The first n samples of x, zero-padded to nfft."""
    out = np.zeros(nfft)
    out[:n] = x[:n]
    return out


def image_paths(src, rec, lo, hi):
    """Lengths of the first-order image paths of src in the faces x = lo, x = hi (m)."""
    return [np.hypot(2 * lo[0] - src[0] - rec[0], src[1] - rec[1]),
            np.hypot(2 * hi[0] - src[0] - rec[0], src[1] - rec[1])]


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--walls", nargs="+", required=True, help="runs with the resistive wall")
    ap.add_argument("--free", default="free")
    ap.add_argument("--rigid", default="rigid")
    ap.add_argument("--source", default="mono", help="the [emitter.NAME] monopole")
    ap.add_argument("--band", type=float, nargs=2, default=[300.0, 800.0], help="Hz")
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--tol", type=float, default=0.1, help="|R_SPH - R_exact| in the band")
    ap.add_argument("--taper", type=float, default=2e-4, help="gate fade-out, s")
    ap.add_argument("--margin", type=float, default=0.01, help="m before a stray path")
    ap.add_argument("--pulse", type=float, default=1e-3,
                    help="s the gate must stay open after the reflection arrives")
    ap.add_argument("--nfft", type=int, default=8192)
    ap.add_argument("--fexact", type=float, default=2500.0,
                    help="Hz: the exact transfer function is applied up to here")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    try:
        runs = {n: scene_sections(os.path.join(args.outdir, n))
                for n in [args.free, args.rigid, *args.walls]}
        sc = runs[args.rigid]
        src = vec(sc[f"emitter.{args.source}"]["position"])
        lo, hi = vec(sc["room"]["min"]), vec(sc["room"]["max"])
        flo, fhi = vec(runs[args.free]["room"]["min"]), vec(runs[args.free]["room"]["max"])
        recs = {s.split(".", 1)[1]: vec(v["position"]) for s, v in sc.items()
                if s.startswith("receiver.")}
        zetas = {}
        for w in args.walls:
            mat = runs[w]["room"].get("material_y_min", "")
            zetas[w] = zeta_of_absorption(float(runs[w][f"material.{mat}"]["absorption"]))
        if not recs:
            raise ValueError("no receivers")
    except (OSError, ValueError, KeyError) as e:
        print(f"wall-angle: bad input: {e}", file=sys.stderr)
        return 2
    c = args.c
    rows, ok = [], True
    for name, rec in sorted(recs.items(), key=lambda q: q[0]):
        x = abs(rec[0] - src[0])
        y_img = src[1] + rec[1] - 2 * lo[1]
        r_img = np.hypot(x, y_img)
        theta = np.degrees(np.arctan2(x, y_img))
        img = np.array([src[0], 2 * lo[1] - src[1]])
        stray = image_paths(img, rec, lo, hi)  # the image's images in the x faces
        stray.append(np.hypot(x, 2 * hi[1] - src[1] - rec[1]))  # the top face
        stray.append(np.hypot(x, src[1] + rec[1] - 2 * flo[1]))  # the free run's y faces
        stray.append(np.hypot(x, 2 * fhi[1] - src[1] - rec[1]))
        t_end = (min(stray) - args.margin) / c
        try:
            data = {n: read_receiver(os.path.join(args.outdir, n), name)
                    for n in [args.free, args.rigid, *args.walls]}
        except Exception as e:  # noqa: BLE001 - a missing record is bad input
            print(f"wall-angle: bad input: {e}", file=sys.stderr)
            return 2
        rate = data[args.rigid][1]
        n_end = min(int(np.floor(t_end * rate)), *(d[0].size for d in data.values()))
        if n_end / rate < r_img / c + args.pulse:
            print(f"wall-angle: {name}: the gate ends {n_end / rate * 1e3:.2f} ms, before the "
                  f"reflected pulse has passed", file=sys.stderr)
            return 2
        m = max(2, int(round(args.taper * rate)))
        fade = np.zeros(args.nfft)
        fade[:n_end] = 1.0
        fade[n_end - m:n_end] = 0.5 * (1.0 + np.cos(np.pi * np.arange(m) / (m - 1)))
        n_rec = min(d[0].size for d in data.values())
        free = pad(data[args.free][0], n_rec, args.nfft)
        ref = pad(data[args.rigid][0], n_rec, args.nfft) - free
        f = np.fft.rfftfreq(args.nfft, 1.0 / rate)
        band = (f >= args.band[0]) & (f <= args.band[1])
        Rf = np.fft.rfft(ref * fade)[band]
        wgt = np.abs(Rf) ** 2
        # the exact wall's transfer function below --fexact (constant below 10 Hz, zero above)
        fe = (f >= 10.0) & (f <= args.fexact)
        k = 2 * np.pi * f[fe] / c
        rigid_exact = reflected_line_source(k, x, y_img, np.inf)
        kb = 2 * np.pi * f[band] / c
        row = {"receiver": name, "theta_deg": float(theta), "r_image_m": float(r_img),
               "kr_band": [float(kb[0] * r_img), float(kb[-1] * r_img)],
               "gate_end_ms": 1e3 * n_end / rate, "walls": {}}
        for w in args.walls:
            z = zetas[w]
            wall = pad(data[w][0], n_rec, args.nfft) - free
            Wf = np.fft.rfft(wall * fade)[band]
            meas = np.sum(Wf * np.conj(Rf)) / np.sum(wgt)
            # numpy's transform is the exp(+iωt) convention: conjugate the exact ratio
            h = np.zeros(f.size, dtype=complex)
            h[fe] = np.conj(reflected_line_source(k, x, y_img, z) / rigid_exact)
            h[f < 10.0] = h[fe][0]
            steady = np.sum(h[band] * wgt) / np.sum(wgt)
            # the exact wall applied to this run's own rigid reflection, through the same gate
            pred = np.fft.irfft(np.fft.rfft(ref) * h, args.nfft)
            Pf = np.fft.rfft(pred * fade)[band]
            exact = np.sum(Pf * np.conj(Rf)) / np.sum(wgt)
            misfit = np.sqrt(np.sum(((wall - pred) * fade) ** 2) / np.sum((pred * fade) ** 2))
            ct = np.cos(np.radians(theta))
            plane = (z * ct - 1.0) / (z * ct + 1.0)
            err = abs(meas - exact)
            ok &= bool(err <= args.tol)
            row["walls"][w] = {"zeta": float(z), "measured": [meas.real, meas.imag],
                               "exact": [exact.real, exact.imag],
                               "exact_steady": [steady.real, steady.imag],
                               "plane_wave": float(plane), "error": float(err),
                               "waveform_misfit": float(misfit)}
        rows.append(row)
    print(f"Resistive wall at oblique incidence: reflection of a line source, band "
          f"{args.band[0]:.0f}-{args.band[1]:.0f} Hz (Re, Im of the least-squares ratio)")
    for w in args.walls:
        print(f"  {w}: zeta = {zetas[w]:.3f} (cos theta = 1/zeta at "
              f"{np.degrees(np.arccos(min(1.0, 1.0 / zetas[w]))):.1f} deg)")
        print(f"  {'rec':<5}{'theta':>7}{'kr_img':>12}{'gate ms':>8}{'SPH':>17}{'exact':>17}"
              f"{'|diff|':>7}{'misfit':>7}{'steady':>17}{'plane R':>9}")
        for q in rows:
            v = q["walls"][w]
            print(f"  {q['receiver']:<5}{q['theta_deg']:>7.1f}"
                  f"{q['kr_band'][0]:>6.1f}-{q['kr_band'][1]:<5.1f}{q['gate_end_ms']:>8.2f}"
                  f"{v['measured'][0]:>+9.3f}{v['measured'][1]:>+8.3f}"
                  f"{v['exact'][0]:>+9.3f}{v['exact'][1]:>+8.3f}{v['error']:>7.3f}"
                  f"{v['waveform_misfit']:>7.3f}"
                  f"{v['exact_steady'][0]:>+9.3f}{v['exact_steady'][1]:>+8.3f}"
                  f"{v['plane_wave']:>+9.3f}")
    print(f"wall-angle: largest |SPH - exact| "
          f"{max(v['error'] for q in rows for v in q['walls'].values()):.3f} "
          f"(threshold {args.tol}) {'PASS' if ok else 'FAIL'}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"case": "wall-angle", "title": "resistive wall at oblique incidence",
                       "pass": bool(ok), "band_hz": args.band, "receivers": rows}, fh, indent=2)
    return 0 if ok else 1
