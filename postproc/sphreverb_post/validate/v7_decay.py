"""V7 room decay: T30 per octave band from receiver RIRs against Eyring (and Sabine).

    python3 -m sphreverb_post validate v7 OUTDIR --receivers A B C ... (--room LX LY LZ | --mesh OBJ)
        --alpha ALPHA_N --dx DX [--bands 500 ...] [--c 343] [--rho 1.204] [--h-over-dx 1.3]
        [--tol 0.10] [--reference eyring|kuttruff] [--case V7] [--json FILE] [--plot PNG]

Each receiver's OUTDIR/NAME.raw.wav is filtered into octave bands (3rd-order Butterworth band
pass applied to the time-reversed signal, which keeps the filter's own ringing out of the decay:
Jacobsen & Rindel 1987), squared, backward integrated (Schroeder 1965) and T30 is the
least-squares slope of the -5 .. -35 dB part of the decay curve, times 2 (ISO 3382-1 style; a
minimal implementation for V7 only, the metrics subcommand is the general one). T30 is NaN (and the
band fails) unless the band's power at the record's end is 45 dB below its peak: a decay cut off
by the record's end is not measured.

Reference: the wall's normalised impedance is the solver's model for `absorption = ALPHA_N`
(material.hpp): zeta = zeta_r = (1+sqrt(1-a))/(1-sqrt(1-a)) for mirror walls (--walls mirror,
the default: [room] walls = auto with a broadband absorption), zeta = zeta_r + j (w M - K/w) /
(rho c) with M = n_t rho dx, K = 0.02 rho c 2 pi 88.4 Hz for tethered force walls; its random-incidence coefficient alpha_st (Paris,
locally reacting, by quadrature) at the band centre gives
    Eyring T = 0.161 V / (-S ln(1 - alpha_st)),   Sabine T = 0.161 V / (S alpha_st).
Kuttruff's correction for the spread of free path lengths (Kuttruff, Room Acoustics, 5th ed.,
Eq. 5.51): T_K = T_Eyring / (1 + gamma^2 ln(1 - alpha_st) / 2), gamma^2 the relative variance of
the path lengths between reflections, counted here by specular rays in the box (0.333 for a
cube); it matters at high absorption (+22 % over Eyring for alpha_st = 0.67 in a cube, +7 % for
0.32) and is printed next to Eyring.
Pass: every band's receiver-mean T30 within tol of the reference: Eyring (the default), or
Kuttruff's corrected value (--reference kuttruff) where the absorption is large enough for the
spread of free paths to matter. Bands should lie above the Schroeder
frequency 2000 sqrt(T/V) (checked and printed) and below the run's valid frequency.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import math
import sys

import numpy as np
from scipy import signal

from sphreverb_post import read_receiver


def wall_zeta(alpha_n, f, rho, c, dx, h_over_dx, walls="mirror"):
    r = math.sqrt(1.0 - alpha_n)
    zr = (1.0 + r) / (1.0 - r)
    if walls == "mirror":
        return complex(zr, 0.0)
    layers = max(1, math.ceil(h_over_dx - 0.5 - 1e-12))
    w = 2.0 * math.pi * f
    M = layers * rho * dx
    K = 0.02 * rho * c * 2.0 * math.pi * 88.388347648318
    return complex(zr, (w * M - K / w) / (rho * c))


def paris(zeta, n=4000):
    mu = (np.arange(n) + 0.5) / n
    z = zeta * mu
    a = 1.0 - np.abs((z - 1.0) / (z + 1.0)) ** 2
    return float(np.sum(a * 2.0 * mu) / n)


def path_variance(lx, ly, lz, rays=4000, reflections=100):
    """Relative variance gamma^2 of the free path lengths of specular rays in a box (seeded)."""
    rng = np.random.default_rng(12345)
    size = np.array([lx, ly, lz])
    x = rng.random((rays, 3)) * size
    d = rng.normal(size=(rays, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    paths = []
    with np.errstate(divide="ignore", invalid="ignore"):
        for k in range(reflections + 1):
            t = np.where(d > 0, (size - x) / d, np.where(d < 0, -x / d, np.inf))
            step, axis = t.min(1), t.argmin(1)
            x = x + d * step[:, None]
            d[np.arange(rays), axis] *= -1.0
            if k > 0:  # the first leg starts inside the room, not on a wall
                paths.append(step)
    p = np.concatenate(paths)
    return float(p.var() / p.mean() ** 2)


def read_obj(path):
    """Vertices (n x 3) and triangles (m x 3, 0-based) of a Wavefront OBJ; polygons as fans."""
    vertices, triangles = [], []
    with open(path) as fh:
        for line in fh:
            f = line.split()
            if not f:
                continue
            if f[0] == "v":
                vertices.append([float(v) for v in f[1:4]])
            elif f[0] == "f":
                ids = [int(v.split("/")[0]) for v in f[1:]]
                ids = [i - 1 if i > 0 else len(vertices) + i for i in ids]
                triangles += [[ids[0], ids[k], ids[k + 1]] for k in range(1, len(ids) - 1)]
    if not vertices or not triangles:
        raise ValueError(f"{path}: no vertices or faces")
    return np.array(vertices), np.array(triangles)


def mesh_room(path):
    """Volume, area, and the outward unit normals and offsets (n.x <= d inside) of a convex room
    mesh's triangles; ValueError unless it is closed, outward-facing and convex."""
    v, t = read_obj(path)
    a, b, c = v[t[:, 0]], v[t[:, 1]], v[t[:, 2]]
    cross = np.cross(b - a, c - a)
    area2 = np.linalg.norm(cross, axis=1)
    volume = float(np.sum(np.einsum("ij,ij->i", a, np.cross(b, c)))) / 6.0
    if volume <= 0.0:
        raise ValueError(f"{path}: signed volume {volume:g} m^3; normals must point out of the room")
    normals = cross / area2[:, None]
    offsets = np.einsum("ij,ij->i", normals, a)
    size = float(np.max(np.ptp(v, axis=0)))
    if np.any(v @ normals.T - offsets[None, :] > 1e-9 * size):
        raise ValueError(f"{path}: the room is not convex")
    return volume, float(np.sum(area2)) / 2.0, normals, offsets, v.min(0), v.max(0)


def path_variance_convex(normals, offsets, lo, hi, rays=4000, reflections=100):
    """gamma^2 of the free paths of specular rays in a convex room (n.x <= d inside; seeded)."""
    rng = np.random.default_rng(12345)
    x = np.empty((0, 3))
    while len(x) < rays:
        p = lo + rng.random((rays, 3)) * (hi - lo)
        x = np.concatenate([x, p[np.all(p @ normals.T < offsets, axis=1)]])
    x = x[:rays]
    d = rng.normal(size=(rays, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    paths = []
    for k in range(reflections + 1):
        dn = d @ normals.T
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(dn > 1e-12, (offsets[None, :] - x @ normals.T) / dn, np.inf)
        face = t.argmin(1)
        step = np.maximum(t[np.arange(rays), face], 0.0)
        x = x + d * step[:, None]
        n = normals[face]
        d = d - 2.0 * np.einsum("ij,ij->i", d, n)[:, None] * n
        if k > 0:
            paths.append(step)
    p = np.concatenate(paths)
    return float(p.var() / p.mean() ** 2)


def t30(x, rate, fc):
    """T30 (s) of one band and the decay curve (dB) for plotting."""
    lo, hi = fc / math.sqrt(2.0), fc * math.sqrt(2.0)
    sos = signal.butter(3, [lo, hi], btype="bandpass", fs=rate, output="sos")
    y = signal.sosfilt(sos, np.asarray(x, float)[::-1])[::-1]
    # The record must hold the whole decay: the band's power in its last 5 ms at least 45 dB
    # below its peak (2 ms windows). Otherwise the backward integral's truncation at the record's
    # end, not the room, would make the -35 dB point.
    w = max(1, int(0.002 * rate))
    p = np.convolve(y ** 2, np.ones(w) / w, mode="valid")
    tail = np.mean(y[-max(1, int(0.005 * rate)):] ** 2)
    complete = tail <= np.max(p) * 10 ** (-4.5)
    e = np.cumsum((y ** 2)[::-1])[::-1]
    edc = 10.0 * np.log10(np.maximum(e / e[0], 1e-30))
    t = np.arange(len(edc)) / rate
    i5 = int(np.argmax(edc <= -5.0))
    i35 = int(np.argmax(edc <= -35.0))
    if not complete or i35 <= i5 + 2:
        return float("nan"), t, edc
    slope, _ = np.polyfit(t[i5:i35 + 1], edc[i5:i35 + 1], 1)
    return -60.0 / slope, t, edc


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--receivers", nargs="+", required=True)
    room = ap.add_mutually_exclusive_group(required=True)
    room.add_argument("--room", nargs=3, type=float, metavar=("LX", "LY", "LZ"))
    room.add_argument("--mesh", help="a convex room as a Wavefront OBJ (V, S and gamma^2 from it)")
    ap.add_argument("--alpha", type=float, required=True, help="normal-incidence absorption")
    ap.add_argument("--dx", type=float, required=True, help="particle spacing of the run, m")
    ap.add_argument("--h-over-dx", type=float, default=1.3)
    ap.add_argument("--walls", choices=["mirror", "tethered"], default="mirror",
                    help="the room's wall model ([room] walls), for the reference impedance")
    ap.add_argument("--bands", nargs="+", type=float, default=[500.0])
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--rho", type=float, default=1.204)
    ap.add_argument("--tol", type=float, default=0.10)
    ap.add_argument("--reference", choices=["eyring", "kuttruff"], default="eyring",
                    help="the reverberation time the T30 is held to")
    ap.add_argument("--case", default="V7")
    ap.add_argument("--json")
    ap.add_argument("--plot")
    args = ap.parse_args(argv)
    try:
        recs = {n: read_receiver(args.outdir, n) for n in args.receivers}
        rates = {r for _, r in recs.values()}
        if len(rates) != 1:
            raise ValueError("receivers have different sample rates")
        rate = rates.pop()
        if not 0.0 < args.alpha < 1.0:
            raise ValueError("--alpha must be in (0, 1)")
        if args.mesh:
            V, S, normals, offsets, lo, hi = mesh_room(args.mesh)
            gamma2 = path_variance_convex(normals, offsets, lo, hi)
    except (OSError, ValueError) as e:
        print(f"{args.case} room decay: bad input: {e}", file=sys.stderr)
        return 2

    if args.room:
        lx, ly, lz = args.room
        V = lx * ly * lz
        S = 2.0 * (lx * ly + ly * lz + lx * lz)
        gamma2 = path_variance(lx, ly, lz)
    else:
        print(f"{args.case} room: {args.mesh}: V {V:.6g} m^3, S {S:.6g} m^2, gamma^2 {gamma2:.3f}")
    ok = True
    rows = []
    curves = {}
    for fc in args.bands:
        a_st = paris(wall_zeta(args.alpha, fc, args.rho, args.c, args.dx, args.h_over_dx,
                                  args.walls))
        eyring = 0.161 * V / (-S * math.log(1.0 - a_st))
        sabine = 0.161 * V / (S * a_st)
        kuttruff = eyring / (1.0 + 0.5 * gamma2 * math.log(1.0 - a_st))
        fs = 2000.0 * math.sqrt(eyring / V)
        values = {}
        for n, (x, _) in recs.items():
            T, t, edc = t30(x, rate, fc)
            values[n] = T
            curves[(fc, n)] = (t, edc)
        finite = [v for v in values.values() if math.isfinite(v)]
        mean = float(np.mean(finite)) if finite else float("nan")
        err = (mean - eyring) / eyring
        reference = kuttruff if args.reference == "kuttruff" else eyring
        band_ok = len(finite) == len(values) and abs(mean - reference) <= args.tol * reference
        ok = ok and band_ok
        rows.append({"band_hz": fc, "T30_mean_s": mean, "T30_s": values, "eyring_s": eyring,
                     "sabine_s": sabine, "kuttruff_s": kuttruff, "path_variance": gamma2,
                     "error_vs_kuttruff": (mean - kuttruff) / kuttruff, "alpha_st": a_st, "schroeder_hz": fs,
                     "error_vs_eyring": err, "error_vs_sabine": (mean - sabine) / sabine,
                     "pass": band_ok})
        per = ", ".join(f"{n} {v * 1e3:.2f}" if math.isfinite(v) else f"{n} incomplete"
                        for n, v in values.items())
        print(f"{args.case} room decay {fc:g} Hz: T30 mean {mean * 1e3:.2f} ms ({per} ms); "
              f"Eyring {eyring * 1e3:.2f} ms ({err:+.1%}), Sabine {sabine * 1e3:.2f} ms "
              f"({(mean - sabine) / sabine:+.1%}), Kuttruff {kuttruff * 1e3:.2f} ms "
              f"({(mean - kuttruff) / kuttruff:+.1%}, gamma^2 {gamma2:.3f}); alpha_st {a_st:.3f}; Schroeder "
              f"{fs:.0f} Hz{' (band centre below it!)' if fc < fs else ''}; threshold "
              f"+-{args.tol:.0%} of {args.reference.capitalize()} {'PASS' if band_ok else 'FAIL'}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for (fc, n), (t, edc) in curves.items():
            ax.plot(t * 1e3, edc, lw=1, label=f"{fc:g} Hz {n}")
        for row in rows:
            ax.plot([0, row["eyring_s"] * 1e3], [0, -60], "k--", lw=0.8)
            ax.plot([0, row["kuttruff_s"] * 1e3], [0, -60], "k:", lw=0.8)
        ax.set_ylim(-70, 2)
        ax.set_xlabel("time (ms)")
        ax.set_ylabel("Schroeder decay (dB)")
        ax.set_title(f"{args.case}: decay curves, dashed: Eyring slope, dotted: Kuttruff", fontsize=10)
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"case": args.case, "title": "room decay vs Eyring/Sabine",
                       "measured": "; ".join(f"{r['band_hz']:g} Hz T30 {r['T30_mean_s'] * 1e3:.2f} ms"
                                             for r in rows),
                       "threshold": f"T30 within {args.tol:.0%} of {args.reference.capitalize()}",
                       "pass": bool(ok), "volume_m3": V, "area_m2": S, "bands": rows}, fh,
                      indent=2)
    return 0 if ok else 1
