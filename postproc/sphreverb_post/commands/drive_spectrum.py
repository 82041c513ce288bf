"""Radiated spectrum of the emitter's drives: slope in dB/octave, measured and expected.

    python3 -m sphreverb_post drive-spectrum --run OUTDIR KIND DRIVE [--run ...] --r M --gate-end
        S [--receiver mic] [--band 300 1000] [--c 343] [--plot PNG] [--json FILE]

KIND is "baffled" (a disc on a wall: a baffled piston, a monopole for ka < 1) or "free" (a free
disc: a dipole); DRIVE is displacement, velocity or acceleration. Each run is driven by an impulse
(a flat input spectrum). The receiver's record OUTDIR/NAME.raw.wav, gated (half-Hann fade over
0.2 ms) to end at --gate-end s, before the first reflection, gives |P(f)|; its least-squares slope
against log2 f over --band is the response's slope in dB/octave.
Expected, for a point source at distance r: the disc's acceleration spectrum is (j w)^m times the
input's, m = 2, 1, 0 for displacement, velocity, acceleration; a monopole radiates p ~ acceleration
(6 m dB/octave); a dipole p ~ k (1 + 1/(j k r)) x acceleration (6 m + 6 dB/octave in the far
field, less where k r ~ 1); the expected slope is fitted on the same band.
Exit status: 0 (a measurement, not a test), 2 bad input.
"""
import argparse
import json
import sys

import numpy as np
from scipy import fft

from sphreverb_post import read_receiver

ORDER = {"displacement": 2, "velocity": 1, "acceleration": 0}


def slope_db_per_octave(f, mag):
    return float(np.polyfit(np.log2(f), 20.0 * np.log10(mag), 1)[0])


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", nargs=3, action="append", required=True,
                    metavar=("OUTDIR", "KIND", "DRIVE"))
    ap.add_argument("--receiver", default="mic")
    ap.add_argument("--r", type=float, required=True, help="receiver distance, m")
    ap.add_argument("--gate-end", type=float, action="append", required=True,
                    help="s; once, or once per run")
    ap.add_argument("--band", type=float, nargs=2, default=(300.0, 1000.0))
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--plot")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    gates = args.gate_end * (len(args.run) if len(args.gate_end) == 1 else 1)
    if len(gates) != len(args.run):
        print("drive spectrum: bad input: give --gate-end once or once per run", file=sys.stderr)
        return 2

    rows = []
    try:
        for (outdir, kind, drive), gate in zip(args.run, gates):
            if kind not in ("baffled", "free") or drive not in ORDER:
                raise ValueError(f"unknown kind/drive {kind}/{drive}")
            x, rate = read_receiver(outdir, args.receiver)
            n = int(np.floor(gate * rate))
            if n > x.size:
                raise ValueError(f"{outdir}: record shorter than the gate")
            g = x[:n] - x[0]
            m = max(2, int(round(2e-4 * rate)))
            g[-m:] *= 0.5 * (1.0 + np.cos(np.pi * np.arange(m) / (m - 1)))
            nfft = fft.next_fast_len(16 * n, real=True)
            P = np.abs(fft.rfft(g, nfft))
            f = fft.rfftfreq(nfft, 1.0 / rate)
            band = (f >= args.band[0]) & (f <= args.band[1])
            k = 2.0 * np.pi * f[band] / args.c
            model = k ** ORDER[drive]
            if kind == "free":
                model = model * k * np.sqrt(1.0 + 1.0 / (k * args.r) ** 2)
            rows.append({"outdir": outdir, "kind": kind, "drive": drive,
                         "slope_db_per_octave": slope_db_per_octave(f[band], P[band]),
                         "expected_db_per_octave": slope_db_per_octave(f[band], model),
                         "far_field_db_per_octave": 6.0 * ORDER[drive] + (6.0 if kind == "free"
                                                                          else 0.0),
                         "f": f[(f > 0) & (f <= 3000)].tolist(),
                         "P": P[(f > 0) & (f <= 3000)].tolist()})
    except (OSError, ValueError) as e:
        print(f"drive spectrum: bad input: {e}", file=sys.stderr)
        return 2

    print(f"Emitter drive spectra: impulse input, receiver at r = {args.r:g} m, slope fitted "
          f"{args.band[0]:g}-{args.band[1]:g} Hz")
    print(f"  {'disc':<9}{'drive':<14}{'measured dB/oct':>16}{'expected':>10}{'far field':>11}")
    for r in rows:
        flat = "  <- flat" if abs(r["slope_db_per_octave"]) < 1.5 else ""
        print(f"  {r['kind']:<9}{r['drive']:<14}{r['slope_db_per_octave']:>+16.1f}"
              f"{r['expected_db_per_octave']:>+10.1f}{r['far_field_db_per_octave']:>+11.0f}{flat}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for r in rows:
            f, P = np.array(r["f"]), np.array(r["P"])
            ref = np.interp(args.band[0], f, P)
            ax.semilogx(f, 20 * np.log10(P / ref), ls="-" if r["kind"] == "baffled" else "--",
                        label=f"{r['kind']} {r['drive']}: {r['slope_db_per_octave']:+.1f} dB/oct")
        for b in args.band:
            ax.axvline(b, color="k", lw=0.6, ls=":")
        ax.set_xlim(100, 3000)
        ax.set_ylim(-30, 40)
        ax.set_xlabel("frequency (Hz)")
        ax.set_ylabel(f"|P| (dB re {args.band[0]:g} Hz)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title("Radiated spectrum per drive (impulse input)")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    return 0
