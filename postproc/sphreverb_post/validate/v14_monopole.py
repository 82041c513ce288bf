"""V14 monopole point source in free field: spreading and omnidirectionality, gated.

    python3 -m sphreverb_post validate v14 OUTDIR --ray R1 R2 R3 --around A1 ... --source X Y Z
        --room LX LY LZ [--level PA] [--c 343] [--tol 0.5] [--dir-tol 0.5] [--json FILE]

The source sits inside a rigid box [0, L]; each record (OUTDIR/NAME.raw.wav) is gated (half-Hann
fade over --taper s) to end before the earliest of its six first-order image paths. The direct
energy level 10 log10 sum p^2 of the --ray receivers (on one ray from the source) against
log2(r) gives the drop per doubling (1/r: 6.02 dB, pass within --tol); the --around receivers (at
one distance in six directions) must agree within +-dir-tol dB of their mean. Also reported (not
judged): the calibration r p_peak / level, 1 for a point monopole below f_max (the receivers'
low-pass at f_max and the source's Gaussian lower it for a pulse reaching above f_max).
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

import numpy as np

from sphreverb_post import read_receiver
from sphreverb_post.scene import receiver_positions, run_scene


def first_reflection_path(src, rec, room):
    """Shortest first-order image path via any of the six walls of the box [0, room] (m)."""
    best = np.inf
    for a in range(3):
        for wall in (0.0, room[a]):
            img = np.array(src, dtype=float)
            img[a] = 2.0 * wall - img[a]
            best = min(best, float(np.linalg.norm(img - rec)))
    return best


def gated(outdir, name, pos, src, room, c, taper, margin):
    x, rate = read_receiver(outdir, name)
    r = float(np.linalg.norm(pos - src))
    t_ref = (first_reflection_path(src, pos, room) - margin) / c
    n_end = min(int(np.floor(t_ref * rate)), x.size)
    if n_end / rate <= r / c:
        raise ValueError(f"{name}: the gate ends before the direct sound arrives")
    g = x[:n_end].copy()
    m = max(2, int(round(taper * rate)))
    g[-m:] *= 0.5 * (1.0 + np.cos(np.pi * np.arange(m) / (m - 1)))
    return {"receiver": name, "r_m": r, "gate_end_s": n_end / rate,
            "level_dB": float(10.0 * np.log10(np.sum(g * g))), "peak_Pa": float(np.abs(g).max())}


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--ray", nargs="+", required=True)
    ap.add_argument("--around", nargs="+", required=True)
    ap.add_argument("--source", type=float, nargs=3, required=True)
    ap.add_argument("--room", type=float, nargs=3, required=True)
    ap.add_argument("--level", type=float, default=1.0, help="the source's level, Pa at 1 m")
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--expect", type=float, default=6.0, help="dB per doubling")
    ap.add_argument("--tol", type=float, default=0.5, help="dB")
    ap.add_argument("--dir-tol", type=float, default=0.5, help="dB about the mean")
    ap.add_argument("--taper", type=float, default=2e-4, help="gate fade-out, s")
    ap.add_argument("--margin", type=float, default=0.03, help="m before the first reflection")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    try:
        pos = receiver_positions(run_scene(args.outdir))
        src = np.array(args.source)
        for n in args.ray + args.around:
            if n not in pos:
                raise ValueError(f"receiver {n} not in {args.outdir}/summary.json")
        g = lambda n: gated(args.outdir, n, pos[n], src, args.room, args.c, args.taper,
                            args.margin)
        ray = sorted((g(n) for n in args.ray), key=lambda q: q["r_m"])
        around = [g(n) for n in args.around]
        if len(ray) < 2 or len(around) < 2:
            raise ValueError("need two or more receivers on the ray and around")
    except (OSError, ValueError, KeyError) as e:
        print(f"V14 monopole: bad input: {e}", file=sys.stderr)
        return 2
    level = np.array([q["level_dB"] for q in ray])
    slope = -np.polyfit(np.log2([q["r_m"] for q in ray]), level, 1)[0]
    lv = np.array([q["level_dB"] for q in around])
    spread = float(np.max(np.abs(lv - lv.mean())))
    calib = [q["r_m"] * q["peak_Pa"] / args.level for q in ray + around]
    ok_slope = abs(slope - args.expect) <= args.tol
    ok_dir = spread <= args.dir_tol
    print("V14 monopole point source, gated before the first reflection")
    print(f"  {'receiver':<10}{'r m':>8}{'gate ms':>9}{'level dB':>10}{'r p/L':>8}")
    for q in ray + around:
        print(f"  {q['receiver']:<10}{q['r_m']:>8.3f}{1e3 * q['gate_end_s']:>9.2f}"
              f"{q['level_dB']:>10.2f}{q['r_m'] * q['peak_Pa'] / args.level:>8.3f}")
    print(f"V14 spreading: {slope:.2f} dB per doubling (threshold {args.expect:.1f} ± "
          f"{args.tol:.1f}) {'PASS' if ok_slope else 'FAIL'}")
    print(f"V14 directions: largest deviation from the mean {spread:.3f} dB over "
          f"{len(around)} directions (threshold ± {args.dir_tol:.1f}) "
          f"{'PASS' if ok_dir else 'FAIL'}")
    print(f"V14 calibration r p_peak / level: {min(calib):.3f} .. {max(calib):.3f} (reported)")
    ok = ok_slope and ok_dir
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V14", "title": "monopole point source",
                       "measured": f"{slope:.2f} dB per doubling; directions within "
                                   f"±{spread:.3f} dB",
                       "threshold": f"{args.expect:.1f} ± {args.tol:.1f} dB per doubling; "
                                    f"± {args.dir_tol:.1f} dB",
                       "pass": bool(ok), "slope_db_per_doubling": slope,
                       "direction_spread_db": spread, "calibration": calib,
                       "receivers": ray + around}, f, indent=2)
    return 0 if ok else 1
