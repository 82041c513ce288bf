"""V16 direction of arrival at a first-order Ambisonic receiver, gated before reflections.

    python3 -m sphreverb_post validate v16 ROOT --runs RUN ... --receiver NAME --room LX LY LZ
        [--c 343] [--tol 5] [--margin 0.03] [--taper 2e-4] [--json FILE]

Each ROOT/RUN is one run of the same receiver with the emitter elsewhere. The receiver's B-format
(ROOT/RUN/NAME.amb.raw.wav, ambiX: ACN order W Y Z X, SN3D, X Y Z pointing towards the source)
is gated (half-Hann fade over --taper s) to end before the earliest first-order image path of the
source in the room's six walls, (path - margin) / c. The time-averaged active intensity
I = sum W (X, Y, Z) over the gate points at the source; its angle to the direction from the
receiver to the emitter's centre (both from summary.json) must be within --tol degrees. The W
channel must equal the receiver's mono record NAME.raw.wav sample for sample.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import os
import sys

import numpy as np

from sphreverb_post.audio import read


def scene_vectors(outdir):
    """(receiver name -> position, emitter centre) from the scene echoed in summary.json."""
    with open(os.path.join(outdir, "summary.json")) as f:
        summary = json.load(f)
    pos, centre, section = {}, None, None
    for line in summary["scene"].splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("["):
            section = line.strip("[]").strip()
        elif "=" in line and section:
            k, v = (s.strip() for s in line.split("=", 1))
            if section.startswith("receiver.") and k == "position":
                pos[section.split(".", 1)[1]] = np.array([float(w) for w in v.split()])
            elif section == "emitter" and k == "center":
                centre = np.array([float(w) for w in v.split()])
    for k, v in summary.get("scene_overrides", {}).items():
        parts = k.split(".")
        if len(parts) == 3 and parts[0] == "receiver" and parts[2] == "position":
            pos[parts[1]] = np.array([float(w) for w in v.split()])
        if k == "emitter.center":
            centre = np.array([float(w) for w in v.split()])
    return pos, centre


def first_reflection_path(src, rec, room):
    """Shortest first-order image path (m) via the six walls of the box [0, room]."""
    best = np.inf
    for a in range(3):
        for wall in (0.0, room[a]):
            img = np.array(src, dtype=float)
            img[a] = 2.0 * wall - img[a]
            best = min(best, float(np.linalg.norm(img - rec)))
    return best


def direction_of_arrival(bformat, rate, t_end, taper):
    """Unit vector of sum W (X, Y, Z) over [0, t_end), faded out over `taper` s."""
    n_end = min(int(np.floor(t_end * rate)), bformat.shape[0])
    g = bformat[:n_end].copy()
    m = max(2, int(round(taper * rate)))
    g[-m:] *= (0.5 * (1.0 + np.cos(np.pi * np.arange(m) / (m - 1))))[:, None]
    w, y, z, x = g.T
    intensity = np.array([np.sum(w * x), np.sum(w * y), np.sum(w * z)])
    return intensity / np.linalg.norm(intensity), n_end / rate


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root")
    ap.add_argument("--runs", nargs="+", required=True)
    ap.add_argument("--receiver", required=True)
    ap.add_argument("--room", type=float, nargs=3, required=True)
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--tol", type=float, default=5.0, help="degrees")
    ap.add_argument("--taper", type=float, default=2e-4, help="gate fade-out, s")
    ap.add_argument("--margin", type=float, default=0.03,
                    help="the gate ends this path length (m) before the first reflection")
    ap.add_argument("--json")
    args = ap.parse_args(argv)

    rows = []
    try:
        for run in args.runs:
            outdir = os.path.join(args.root, run)
            pos, src = scene_vectors(outdir)
            if args.receiver not in pos or src is None:
                raise ValueError(f"{outdir}/summary.json: no receiver {args.receiver} or emitter")
            rec = pos[args.receiver]
            b, rate = read(os.path.join(outdir, args.receiver + ".amb.raw.wav"))
            mono, _ = read(os.path.join(outdir, args.receiver + ".raw.wav"))
            if b.shape[1] != 4:
                raise ValueError(f"{outdir}: {args.receiver}.amb.raw.wav has {b.shape[1]} "
                                 "channels, expected 4")
            w_is_mono = bool(np.array_equal(b[:, 0], mono[:, 0]))
            r = float(np.linalg.norm(src - rec))
            t_end = (first_reflection_path(src, rec, args.room) - args.margin) / args.c
            if t_end <= r / args.c:
                raise ValueError(f"{run}: the gate ends before the direct sound arrives")
            doa, t_end = direction_of_arrival(b, rate, t_end, args.taper)
            truth = (src - rec) / r
            err = float(np.degrees(np.arccos(np.clip(np.dot(doa, truth), -1.0, 1.0))))
            rows.append({"run": run, "true_direction": truth.tolist(), "measured": doa.tolist(),
                         "error_deg": err, "gate_end_s": t_end, "w_equals_mono": w_is_mono})
    except (OSError, ValueError, KeyError) as e:
        print(f"V16 direction of arrival: bad input: {e}", file=sys.stderr)
        return 2

    worst = max(q["error_deg"] for q in rows)
    ok = worst <= args.tol and all(q["w_equals_mono"] for q in rows)
    print("V16 direction of arrival (active intensity, gated before the first reflection)")
    print(f"  {'run':<9}{'true':>24}{'measured':>27}{'error deg':>11}{'gate ms':>9}  W = mono")
    for q in rows:
        t = " ".join(f"{v:+.3f}" for v in q["true_direction"])
        m = " ".join(f"{v:+.3f}" for v in q["measured"])
        print(f"  {q['run']:<9}{t:>24}{m:>27}{q['error_deg']:>11.2f}"
              f"{1e3 * q['gate_end_s']:>9.2f}  {'yes' if q['w_equals_mono'] else 'NO'}")
    print(f"V16 direction of arrival: worst error {worst:.2f} deg over {len(rows)} directions "
          f"(threshold {args.tol:.1f} deg) {'PASS' if ok else 'FAIL'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V16", "title": "Ambisonic direction of arrival",
                       "measured": f"worst {worst:.2f} deg", "threshold": f"{args.tol:.1f} deg",
                       "pass": bool(ok), "worst_error_deg": worst, "runs": rows}, f, indent=2)
    return 0 if ok else 1
