"""V3 free-field spherical spreading: level drop per doubling of distance, gated before reflections.

    python3 -m sphreverb_post validate v3 OUTDIR --receivers R1 R2 ... --source X Y Z --room LX
        LY LZ [--c 343] [--expect 6.0] [--tol 0.5] [--taper 2e-4] [--plot PNG] [--json FILE]

The source sits at the corner of the room's three walls through the origin (they are its
symmetry planes), so the first reflection comes from one of the three far walls; each receiver's
record (OUTDIR/NAME.raw.wav) is gated (half-Hann fade over --taper s) to end before the earliest
first-order image path, (path - margin) / c. The direct-sound energy E = sum p^2 in the gate
gives the level 10 log10 E; its least-squares slope against log2(r), r the distance from the
source (receiver positions from OUTDIR/summary.json), is the drop per doubling (1/r: 6.02 dB).
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

import numpy as np

from sphreverb_post import read_receiver
from sphreverb_post.scene import receiver_positions, run_scene


def first_reflection_path(src, rec, room):
    """Shortest first-order image path via the far walls x = LX, y = LY, z = LZ (m)."""
    best = np.inf
    for a in range(3):
        img = np.array(src, dtype=float)
        img[a] = 2.0 * room[a] - img[a]
        best = min(best, float(np.linalg.norm(img - rec)))
    return best


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--receivers", nargs="+", required=True)
    ap.add_argument("--source", type=float, nargs=3, required=True)
    ap.add_argument("--room", type=float, nargs=3, required=True)
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--expect", type=float, default=6.0, help="dB per doubling")
    ap.add_argument("--tol", type=float, default=0.5, help="dB")
    ap.add_argument("--taper", type=float, default=2e-4, help="gate fade-out, s")
    ap.add_argument("--margin", type=float, default=0.03,
                    help="the gate ends this path length (m) before the first reflection")
    ap.add_argument("--plot")
    ap.add_argument("--json")
    args = ap.parse_args(argv)

    try:
        pos = receiver_positions(run_scene(args.outdir))
        src = np.array(args.source)
        rows = []
        for name in args.receivers:
            if name not in pos:
                raise ValueError(f"receiver {name} not in {args.outdir}/summary.json")
            x, rate = read_receiver(args.outdir, name)
            r = float(np.linalg.norm(pos[name] - src))
            t_ref = (first_reflection_path(src, pos[name], args.room) - args.margin) / args.c
            n_end = min(int(np.floor(t_ref * rate)), x.size)  # the record may end earlier
            t_ref = n_end / rate
            if t_ref <= r / args.c:
                raise ValueError(f"{name}: the gate ({t_ref * 1e3:.2f} ms) ends before the "
                                 f"direct sound arrives ({1e3 * r / args.c:.2f} ms)")
            g = x[:n_end].copy()
            m = max(2, int(round(args.taper * rate)))
            g[-m:] *= 0.5 * (1.0 + np.cos(np.pi * np.arange(m) / (m - 1)))
            rows.append({"receiver": name, "r_m": r, "gate_end_s": t_ref,
                         "direct_arrival_s": r / args.c, "energy_Pa2": float(np.sum(g * g)),
                         "peak_Pa": float(np.abs(g).max())})
        if len(rows) < 2:
            raise ValueError("need at least two receivers")
    except (OSError, ValueError, KeyError) as e:
        print(f"V3 spherical spreading: bad input: {e}", file=sys.stderr)
        return 2

    rows.sort(key=lambda q: q["r_m"])
    lr = np.log2([q["r_m"] for q in rows])
    level = 10.0 * np.log10([q["energy_Pa2"] for q in rows])
    slope = -np.polyfit(lr, level, 1)[0]
    ok = abs(slope - args.expect) <= args.tol
    print(f"V3 spherical spreading: source {tuple(args.source)}, gated before the first "
          f"reflection")
    print(f"  {'receiver':<10}{'r m':>8}{'gate ms':>9}{'level dB':>10}{'drop dB':>9}")
    for i, q in enumerate(rows):
        drop = "" if i == 0 else f"{level[i - 1] - level[i]:.2f}"
        print(f"  {q['receiver']:<10}{q['r_m']:>8.3f}{1e3 * q['gate_end_s']:>9.2f}"
              f"{level[i]:>10.2f}{drop:>9}")
    print(f"V3 spherical spreading: {slope:.2f} dB per doubling of distance (threshold "
          f"{args.expect:.1f} ± {args.tol:.1f} dB) {'PASS' if ok else 'FAIL'}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(1, 2, figsize=(10, 4))
        for q in rows:
            x, rate = read_receiver(args.outdir, q["receiver"])
            t = np.arange(x.size) / rate * 1e3
            line, = ax[0].plot(t, x, label=f"{q['receiver']} r = {q['r_m']:.3f} m")
            ax[0].axvline(1e3 * q["gate_end_s"], color=line.get_color(), ls=":")
        ax[0].set_xlabel("time (ms)")
        ax[0].set_ylabel("p' (Pa)")
        ax[0].legend(fontsize=8)
        ax[0].set_title("records; dotted: gate ends")
        rr = np.array([q["r_m"] for q in rows])
        ax[1].semilogx(rr, level, "o-", label=f"measured: {slope:.2f} dB/doubling")
        ax[1].semilogx(rr, level[0] - 20.0 * np.log10(rr / rr[0]), "k--", label="1/r: 6.02 dB")
        ax[1].set_xlabel("distance r (m)")
        ax[1].set_ylabel("gated energy level (dB)")
        ax[1].legend()
        ax[1].grid(True, which="both", alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V3", "title": "free-field spherical spreading",
                       "measured": f"{slope:.2f} dB per doubling",
                       "threshold": f"{args.expect:.1f} ± {args.tol:.1f} dB per doubling",
                       "pass": bool(ok), "slope_db_per_doubling": slope, "receivers": rows},
                      f, indent=2)
    return 0 if ok else 1
