"""Plots a material's measured normal-incidence absorption alpha(f) against its configured value.

    python3 -m sphreverb_post plot-absorption CSV [CSV ...] --out PNG [--label TEXT ...]
        [--tol 0.05] [--title TEXT]

Each CSV is written by `validate v6 --csv` (columns f_hz, alpha_measured,
alpha_configured over the valid band of one impedance-tube run). Every file gives a solid curve
(measured) and a dashed one (configured) in the same colour, with the +-tol band shaded.
"""
import argparse
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv", nargs="+")
    ap.add_argument("--out", required=True, help="PNG to write")
    ap.add_argument("--label", nargs="*", help="one legend label per CSV")
    ap.add_argument("--tol", type=float, default=0.05, help="half-width of the shaded band")
    ap.add_argument("--title", default="Impedance tube (ISO 10534-2): measured vs configured")
    args = ap.parse_args(argv)
    if args.label and len(args.label) != len(args.csv):
        print("plot_absorption: give one --label per CSV", file=sys.stderr)
        return 2
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for i, path in enumerate(args.csv):
        try:
            d = np.loadtxt(path, delimiter=",", skiprows=1, ndmin=2)
        except (OSError, ValueError) as e:
            print(f"plot_absorption: {path}: {e}", file=sys.stderr)
            return 2
        f, meas, conf = d[:, 0], d[:, 1], d[:, 2]
        label = args.label[i] if args.label else path
        line, = ax.semilogx(f, meas, lw=1.5, label=f"{label}: measured")
        ax.semilogx(f, conf, "--", color=line.get_color(), lw=1.0, label=f"{label}: configured")
        ax.fill_between(f, conf - args.tol, conf + args.tol, color=line.get_color(), alpha=0.12)
    for fc in (125, 250, 500, 1000, 2000, 4000):
        ax.axvline(fc, color="0.85", lw=0.6, zorder=0)
    ax.set_xlabel("frequency (Hz)")
    ax.set_ylabel("normal-incidence absorption α")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(args.title, fontsize=10)
    ax.legend(fontsize=7, ncol=2)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    return 0
