"""A simulated room impulse response against diffuse-field theory and the analytic modes.

    python3 -m sphreverb_post compare RIR.wav --room LX LY LZ --alpha A [A125 ... A4000] --out
        PNG [--c 343] [--json FILE] [--channel N] [--max-modes 60]

--alpha is the area-weighted mean random-incidence absorption, one value for every band or six
(125 Hz ... 4 kHz). Per octave the measured T30 (T20 where T30 is invalid) is compared with
Sabine T = 24 ln10 V / (c S a) and Eyring T = 24 ln10 V / (-c S ln(1 - a)); bands whose centre
lies below the Schroeder frequency f_S = 2000 sqrt(T/V) are marked: there the room is modal and
the diffuse-field formulas do not apply (docs/validation.md V7). The figure: T per band (measured,
Sabine, Eyring), the spectrum with the rigid-box modes, and the broadband Schroeder curve with
the Sabine and Eyring slopes. Prints a table; exit 0 ok, 2 bad input.
"""
import argparse
import json
import sys

import numpy as np

from sphreverb_post import iso3382, octave, plots, room
from sphreverb_post.audio import InputError, read


def compare(x, rate, dims, alpha, c):
    """Rows per band: measured T20/T30 with validity, Sabine, Eyring, f_S, diffuse flag."""
    V, S = room.box_volume_area(*dims)
    res, meta = iso3382.analyse(x, rate)
    rows = []
    for i, nom in enumerate(octave.NOMINAL):
        key = str(nom)
        if key not in res:
            continue
        a = alpha[i] if len(alpha) > 1 else alpha[0]
        b = res[key]
        use = "T30" if b["valid"]["T30"] else "T20"
        meas = b[use]
        ts, te = float(room.sabine(V, S, a, c)), float(room.eyring(V, S, a, c))
        fs_ = float(room.schroeder_frequency(te, V))
        rows.append({"band": key, "alpha": a, "measured": meas, "measured_kind": use,
                     "measured_valid": bool(b["valid"][use]), "T20": b["T20"], "T30": b["T30"],
                     "sabine": ts, "eyring": te, "schroeder_hz": fs_,
                     "diffuse": bool(b["fc_hz"] > fs_),
                     "error_vs_eyring": None if meas is None else (meas - te) / te})
    return rows, res, meta, V, S


def figure(x, rate, dims, c, rows, max_modes, title):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 3, figsize=(16, 4.8))
    fc = [float(r["band"]) for r in rows]
    ax[0].semilogx(fc, [r["sabine"] for r in rows], "s--", label="Sabine")
    ax[0].semilogx(fc, [r["eyring"] for r in rows], "d--", label="Eyring")
    for r, f in zip(rows, fc):
        if r["measured"] is None:
            continue
        style = "o" if r["measured_valid"] else "x"
        color = "k" if r["diffuse"] else "gray"
        ax[0].plot(f, r["measured"], style, color=color, ms=8)
    ax[0].plot([], [], "ko", label="measured (T30, else T20)")
    ax[0].plot([], [], "o", color="gray", label="below Schroeder freq.")
    ax[0].plot([], [], "kx", label="fails validity check")
    ax[0].set(xlabel="octave band (Hz)", ylabel="reverberation time (s)",
              title="decay vs diffuse-field theory", xticks=fc, xticklabels=[r["band"] for r in rows])
    ax[0].grid(True, which="both", alpha=0.3)
    ax[0].legend(fontsize=7)
    fmax = min(0.5 * rate, 4.0 * max(r["schroeder_hz"] for r in rows)) if rows else None
    plots.spectrum(ax[1], x, rate, dims, c, fmax, max_modes)
    mean_alpha = np.mean([r["alpha"] for r in rows]) if rows else None
    lines = {}
    if rows:
        V, S = room.box_volume_area(*dims)
        lines = {f"Sabine (mean a = {mean_alpha:.3f})": float(room.sabine(V, S, mean_alpha, c)),
                 "Eyring": float(room.eyring(V, S, mean_alpha, c))}
    plots.edc(ax[2], x, rate, lines)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rir", help="impulse response WAV")
    ap.add_argument("--room", type=float, nargs=3, required=True, metavar=("LX", "LY", "LZ"))
    ap.add_argument("--alpha", type=float, nargs="+", required=True,
                    help="mean absorption: one value or six (125 Hz ... 4 kHz)")
    ap.add_argument("--out", required=True, help="PNG to write")
    ap.add_argument("--c", type=float, default=343.0, help="speed of sound, m/s")
    ap.add_argument("--json", help="write the comparison to this JSON file")
    ap.add_argument("--channel", type=int, default=0)
    ap.add_argument("--max-modes", type=int, default=60)
    args = ap.parse_args(argv)
    try:
        if min(args.room) <= 0.0:
            raise InputError(f"--room {args.room}: dimensions must be positive (m)")
        if len(args.alpha) not in (1, len(octave.NOMINAL)):
            raise InputError(f"--alpha: give 1 or {len(octave.NOMINAL)} values, got "
                             f"{len(args.alpha)}")
        if any(not 0.0 < a < 1.0 for a in args.alpha):
            raise InputError(f"--alpha {args.alpha}: each value must lie in (0, 1)")
        x, rate = read(args.rir)
        if not 0 <= args.channel < x.shape[1]:
            raise InputError(f"--channel {args.channel}: {args.rir} has {x.shape[1]} channel(s)")
        x = x[:, args.channel]
        rows, res, meta, V, S = compare(x, rate, args.room, args.alpha, args.c)
        fig = figure(x, rate, args.room, args.c, rows, args.max_modes,
                     f"{args.rir}: room {' x '.join(f'{d:g}' for d in args.room)} m, "
                     f"V = {V:.3g} m^3, S = {S:.3g} m^2")
    except (InputError, ValueError) as e:
        print(f"compare: {e}", file=sys.stderr)
        return 2
    print(f"{args.rir}: V = {V:.4g} m^3, S = {S:.4g} m^2, c = {args.c:g} m/s")
    print(f"{'band':>6}{'alpha':>7}{'measured':>10}{'kind':>5}{'Sabine':>9}{'Eyring':>9}"
          f"{'vs Eyring':>11}{'f_S Hz':>9}  diffuse")
    for r in rows:
        m = "-" if r["measured"] is None else f"{r['measured']:.3f}"
        m = m if r["measured_valid"] else f"({m})"
        e = "-" if r["error_vs_eyring"] is None else f"{100 * r['error_vs_eyring']:+.1f} %"
        print(f"{r['band']:>6}{r['alpha']:>7.3f}{m:>10}{r['measured_kind']:>5}"
              f"{r['sabine']:>9.3f}{r['eyring']:>9.3f}{e:>11}{r['schroeder_hz']:>9.0f}  "
              f"{'yes' if r['diffuse'] else 'no (modal)'}")
    try:
        fig.savefig(args.out, dpi=110)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"file": args.rir, "room_m": args.room, "V_m3": V, "S_m2": S,
                           "c": args.c, "bands": rows, "metrics": res, "meta": meta}, f,
                          indent=1)
    except OSError as e:
        print(f"compare: cannot write: {e}", file=sys.stderr)
        return 2
    print(f"compare: wrote {args.out}")
    return 0
