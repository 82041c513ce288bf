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

When the runs also wrote NAME.binaural.wav (``binaural = true``; listener facing +x, +y the left
ear), each run's interaural cues are measured on the whole file: the ITD, the lag of the right
ear behind the left maximising their cross-correlation within +-1.5 ms (positive: the left ear
leads), and the ILD, 10 log10 of the left ear's energy over the right's between 200 Hz and f_max
(summary.json). For a source to the side (|u_y| >= 0.9), the near ear must lead by an ITD
between ITD_RANGE_S (the first-order decode's plane-wave value of the HRTF set is ~0.3 ms, the
set's own 90 degree value ~0.73 ms) and be louder by more than ILD_MIN_DB.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import os
import sys

import numpy as np

from sphreverb_post.audio import read
from sphreverb_post.scene import receiver_positions, run_scene, vec


def scene_vectors(outdir):
    """Receiver name -> position, and the [emitter] center, from the run's scene."""
    scene = run_scene(outdir)
    centre = scene.get("emitter", {}).get("center")
    return receiver_positions(scene), (vec(centre) if centre else None)


def first_reflection_path(src, rec, room):
    """Shortest first-order image path (m) via the six walls of the box [0, room]."""
    best = np.inf
    for a in range(3):
        for wall in (0.0, room[a]):
            img = np.array(src, dtype=float)
            img[a] = 2.0 * wall - img[a]
            best = min(best, float(np.linalg.norm(img - rec)))
    return best


ITD_RANGE_S = (0.15e-3, 0.75e-3)
ILD_MIN_DB = 1.0
ILD_BAND_LOW_HZ = 200.0


def itd(left, right, rate, max_lag=1.5e-3):
    """Lag (s) of ``right`` behind ``left`` maximising their cross-correlation within
    +-``max_lag``: positive when the left ear leads."""
    m = int(round(max_lag * rate))
    n = len(left)
    c = [np.dot(left[max(0, -k):n - max(0, k)], right[max(0, k):n - max(0, -k)])
         for k in range(-m, m + 1)]
    return (int(np.argmax(c)) - m) / rate


def ild(left, right, rate, f_lo, f_hi):
    """10 log10 of the left ear's energy over the right's between f_lo and f_hi Hz, dB."""
    n = 1 << int(np.ceil(np.log2(max(len(left), 2) * 4)))
    f = np.fft.rfftfreq(n, 1.0 / rate)
    band = (f >= f_lo) & (f <= f_hi)
    el = np.sum(np.abs(np.fft.rfft(left, n))[band] ** 2)
    er = np.sum(np.abs(np.fft.rfft(right, n))[band] ** 2)
    return float(10.0 * np.log10(el / er))


def binaural_cues(outdir, receiver, truth):
    """Interaural cues of OUTDIR/RECEIVER.binaural.wav, or None when the run wrote none.
    Returns dict itd_s, ild_db, lateral (truth's y component) and ok (the side check: None when
    the source is not to the side)."""
    path = os.path.join(outdir, receiver + ".binaural.wav")
    if not os.path.exists(path):
        return None
    ears, rate = read(path)
    if ears.shape[1] != 2:
        raise ValueError(f"{path}: {ears.shape[1]} channels, expected 2")
    with open(os.path.join(outdir, "summary.json")) as f:
        f_max = float(json.load(f)["derived"]["f_max_Hz"])
    lateral = float(truth[1])
    near, far = (0, 1) if lateral > 0 else (1, 0)
    t = itd(ears[:, near], ears[:, far], rate)
    level = ild(ears[:, near], ears[:, far], rate, ILD_BAND_LOW_HZ, min(f_max, 0.45 * rate))
    ok = None
    if abs(lateral) >= 0.9:
        ok = bool(ITD_RANGE_S[0] <= t <= ITD_RANGE_S[1] and level > ILD_MIN_DB)
    sign = 1.0 if lateral > 0 else -1.0
    return {"itd_s": sign * t, "ild_db": sign * level, "lateral": lateral, "ok": ok,
            "f_max_Hz": f_max}


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
                         "error_deg": err, "gate_end_s": t_end, "w_equals_mono": w_is_mono,
                         "binaural": binaural_cues(outdir, args.receiver, truth)})
    except (OSError, ValueError, KeyError) as e:
        print(f"V16 direction of arrival: bad input: {e}", file=sys.stderr)
        return 2

    worst = max(q["error_deg"] for q in rows)
    ok = worst <= args.tol and all(q["w_equals_mono"] for q in rows)
    side = [q for q in rows if q["binaural"] is not None and q["binaural"]["ok"] is not None]
    ok = ok and all(q["binaural"]["ok"] for q in side)
    print("V16 direction of arrival (active intensity, gated before the first reflection)")
    print(f"  {'run':<9}{'true':>24}{'measured':>27}{'error deg':>11}{'gate ms':>9}  W = mono")
    for q in rows:
        t = " ".join(f"{v:+.3f}" for v in q["true_direction"])
        m = " ".join(f"{v:+.3f}" for v in q["measured"])
        print(f"  {q['run']:<9}{t:>24}{m:>27}{q['error_deg']:>11.2f}"
              f"{1e3 * q['gate_end_s']:>9.2f}  {'yes' if q['w_equals_mono'] else 'NO'}")
    if any(q["binaural"] is not None for q in rows):
        print(f"  binaural ({args.receiver}.binaural.wav): ITD > 0 the left ear leads, ILD > 0 "
              f"the left ear louder ({ILD_BAND_LOW_HZ:g} Hz to f_max)")
        for q in rows:
            b = q["binaural"]
            if b is None:
                continue
            check = ("" if b["ok"] is None else
                     f"  side source: near ear leads by {1e3 * ITD_RANGE_S[0]:.2f}-"
                     f"{1e3 * ITD_RANGE_S[1]:.2f} ms, louder by > {ILD_MIN_DB:g} dB: "
                     f"{'yes' if b['ok'] else 'NO'}")
            print(f"  {q['run']:<9} ITD {1e3 * b['itd_s']:+.3f} ms  ILD {b['ild_db']:+.2f} dB"
                  f"{check}")
    print(f"V16 direction of arrival: worst error {worst:.2f} deg over {len(rows)} directions "
          f"(threshold {args.tol:.1f} deg)"
          + (f", binaural cues of {len(side)} side source(s)" if side else "")
          + f" {'PASS' if ok else 'FAIL'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V16", "title": "Ambisonic direction of arrival",
                       "measured": f"worst {worst:.2f} deg", "threshold": f"{args.tol:.1f} deg",
                       "pass": bool(ok), "worst_error_deg": worst, "runs": rows}, f, indent=2)
    return 0 if ok else 1
