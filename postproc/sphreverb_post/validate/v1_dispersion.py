"""V1 plane-wave dispersion: phase speed c(f) against points per wavelength, from two receivers.

    python3 -m sphreverb_post validate v1 [OUTDIR [--kernel K] [--h-over-dx Q]]
        [--run OUTDIR KERNEL H_OVER_DX ...] --dx M --distance M [--near near] [--far far]
        [--c 343] [--ppw 20] [--tol 0.015] [--fmax-tol 0.01] [--criterion validation|theory|both]
        [--correction fourth_order|first_moment|none] [--theory-tol 0.005] [--plot PNG]
        [--json FILE]

Each run is a duct_v1 scene (a plane pulse passes receiver NEAR, then FAR, DISTANCE further on;
OUTDIR/NAME.raw.wav). c(f) comes from the receivers' cross-spectrum (sphreverb_post.dispersion),
PPW = c0 / (f dx), and is compared with the scheme's lattice dispersion relation (same module).
Reported per run: the error at --ppw, the PPW where |error| first reaches --fmax-tol (the f_max
rule: f_max = c0 / (PPW dx)), measured and from the lattice theory.
Pass (the first run): criterion "validation" (docs/validation.md): |error at --ppw| <= --tol;
"theory": the measured curve is within --theory-tol of the lattice theory (for --correction)
from 40 PPW down to where the theory's error reaches 5 %; "both": both.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

import numpy as np
from scipy import signal

from sphreverb_post import read_receiver
from sphreverb_post.dispersion import (lattice_phase_speed, phase_speed, ppw_at_error,
                                       taper_end)

PPW_GRID = np.geomspace(60.0, 6.0, 200)  # from long to short wavelengths


def measure(outdir, near, far, distance, dx, c0, f_cut=None):
    a, rate = read_receiver(outdir, near)
    b, rate_b = read_receiver(outdir, far)
    if rate != rate_b:
        raise ValueError(f"{outdir}: sample rates differ")
    if f_cut is not None and f_cut < 0.45 * rate:
        # The same zero-phase low-pass on both records (H = B/A is unchanged where the pulse has
        # energy): it removes the slow components near the lattice's cut-off frequency, which
        # are still arriving when the record ends and would leak into the spectrum.
        sos = signal.butter(8, f_cut, fs=rate, output="sos")
        a, b = signal.sosfiltfilt(sos, a), signal.sosfiltfilt(sos, b)
    a, b = taper_end(a, rate, 5e-4), taper_end(b, rate, 5e-4)
    f, c, w = phase_speed(a, b, rate, distance, c0)
    ppw = c0 / (f * dx)
    order = np.argsort(ppw)
    # Only where the pulse carries energy (the weight is |A||B| / max): below -60 dB the phase is
    # noise.
    good = w[order] > 1e-6
    return np.interp(PPW_GRID, ppw[order][good], c[order][good] / c0 - 1.0,
                     left=np.nan, right=np.nan)


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?",
                    help="a run (as run_case.sh passes it), with --kernel and --h-over-dx")
    ap.add_argument("--kernel", default="wendland_c2")
    ap.add_argument("--h-over-dx", default="1.3")
    ap.add_argument("--run", nargs=3, action="append", default=[],
                    metavar=("OUTDIR", "KERNEL", "H_OVER_DX"))
    ap.add_argument("--near", default="near")
    ap.add_argument("--far", default="far")
    ap.add_argument("--distance", type=float, required=True, help="receiver separation, m")
    ap.add_argument("--dx", type=float, required=True, help="particle spacing, m")
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--ppw", type=float, default=20.0)
    ap.add_argument("--tol", type=float, default=0.015)
    ap.add_argument("--fmax-tol", type=float, default=0.01)
    ap.add_argument("--criterion", choices=("validation", "theory", "both"), default="validation")
    ap.add_argument("--correction", default="fourth_order",
                    help="the runs' [fluid] gradient_correction (for the lattice theory)")
    ap.add_argument("--theory-tol", type=float, default=0.005)
    ap.add_argument("--cut-error", type=float, default=0.08,
                    help="low-pass the records where the lattice theory's error reaches this")
    ap.add_argument("--plot")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if args.outdir:
        args.run.insert(0, [args.outdir, args.kernel, args.h_over_dx])
    if not args.run:
        ap.error("give OUTDIR or at least one --run")

    runs = []
    try:
        for outdir, kernel, hdx in args.run:
            theory = lattice_phase_speed(kernel, float(hdx), PPW_GRID, args.correction) - 1.0
            # Analyse up to where the lattice theory's error reaches --cut-error.
            ppw_cut = ppw_at_error(PPW_GRID, theory, args.cut_error)
            f_cut = args.c / (ppw_cut * args.dx) if ppw_cut else None
            err = measure(outdir, args.near, args.far, args.distance, args.dx, args.c, f_cut)
            runs.append({"outdir": outdir, "kernel": kernel, "h_over_dx": float(hdx),
                         "err": err, "theory": theory})
    except (OSError, ValueError) as e:
        print(f"V1 dispersion: bad input: {e}", file=sys.stderr)
        return 2

    # The usable band: up to 40 PPW (longer waves need longer records) and down to where the
    # lattice theory's error reaches 5 % (beyond, the curve is steep and a small shift in PPW is
    # a large error).
    print(f"V1 plane-wave dispersion: dx = {1e3 * args.dx:g} mm, receivers {args.distance:g} m "
          f"apart; error = c/c0 - 1")
    print(f"  {'kernel':<14}{'h/dx':>5}{f'err@{args.ppw:g}PPW':>13}{'theory':>9}"
          f"{'PPW@' + format(100 * args.fmax_tol, 'g') + '%':>9}{'theory':>8}"
          f"{'f_max Hz':>10}{'max|meas-th|':>13}")
    for r in runs:
        r["err_at_ppw"] = float(np.interp(args.ppw, PPW_GRID[::-1], r["err"][::-1]))
        r["theory_at_ppw"] = float(np.interp(args.ppw, PPW_GRID[::-1], r["theory"][::-1]))
        r["ppw_at_tol"] = ppw_at_error(PPW_GRID, np.nan_to_num(r["err"], nan=1.0),
                                       args.fmax_tol)
        r["theory_ppw_at_tol"] = ppw_at_error(PPW_GRID, r["theory"], args.fmax_tol)
        r["f_max_hz"] = args.c / (r["ppw_at_tol"] * args.dx) if r["ppw_at_tol"] else None
        band = (PPW_GRID <= 40.0) & (np.abs(r["theory"]) <= 0.05)
        r["band_ppw"] = [float(PPW_GRID[band].min()), float(PPW_GRID[band].max())]
        dev = np.abs(r["err"][band] - r["theory"][band])
        r["max_dev_from_theory"] = float(np.nanmax(dev)) if np.isfinite(dev).any() else None
        fm = "-" if r["f_max_hz"] is None else f"{r['f_max_hz']:.0f}"
        md = "-" if r["max_dev_from_theory"] is None else f"{100 * r['max_dev_from_theory']:.2f} %"
        print(f"  {r['kernel']:<14}{r['h_over_dx']:>5g}{100 * r['err_at_ppw']:>+12.2f}%"
              f"{100 * r['theory_at_ppw']:>+8.2f}%{r['ppw_at_tol'] or float('nan'):>9.1f}"
              f"{r['theory_ppw_at_tol'] or float('nan'):>8.1f}{fm:>10}{md:>13}")

    first = runs[0]
    ok_validation = abs(first["err_at_ppw"]) <= args.tol
    ok_theory = (first["max_dev_from_theory"] is not None
                 and first["max_dev_from_theory"] <= args.theory_tol)
    print(f"V1 at {args.ppw:g} PPW ({first['kernel']}, h/dx = {first['h_over_dx']:g}): "
          f"{100 * first['err_at_ppw']:+.2f} % vs threshold ± {100 * args.tol:.1f} % "
          f"{'PASS' if ok_validation else 'FAIL'}")
    print(f"V1 measured curve vs lattice theory ({first['band_ppw'][0]:.1f}-40 PPW): max deviation "
          f"{100 * (first['max_dev_from_theory'] or float('nan')):.2f} % vs threshold "
          f"{100 * args.theory_tol:.1f} % {'PASS' if ok_theory else 'FAIL'}")
    ok = {"validation": ok_validation, "theory": ok_theory,
          "both": ok_validation and ok_theory}[args.criterion]

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for i, r in enumerate(runs):
            line, = ax.semilogx(PPW_GRID, 100 * r["err"], lw=2,
                                label=f"{r['kernel']} h/dx={r['h_over_dx']:g} measured")
            ax.semilogx(PPW_GRID, 100 * r["theory"], ls="--", color=line.get_color(), lw=1)
        ax.axhline(-100 * args.tol, color="k", lw=0.8, ls=":")
        ax.axhline(-100 * args.fmax_tol, color="r", lw=0.8, ls=":")
        ax.axvline(args.ppw, color="k", lw=0.8, ls=":")
        ax.set_xlabel("points per wavelength  λ/dx")
        ax.set_ylabel("phase-speed error  c/c0 − 1  (%)")
        ax.set_ylim(-12, 2)
        ax.set_xlim(PPW_GRID.min(), PPW_GRID.max())
        ax.grid(True, which="both", alpha=0.3)
        ax.set_title("V1: plane-wave dispersion (solid measured, dashed lattice theory)")
        ax.legend(fontsize=7, loc="lower right")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)

    if args.json:
        out = {"case": "V1", "title": "plane-wave phase speed vs PPW", "criterion": args.criterion,
               "measured": f"{100 * first['err_at_ppw']:+.2f} % at {args.ppw:g} PPW "
                           f"({first['kernel']}, h/dx {first['h_over_dx']:g}); "
                           f"|err| = {100 * args.fmax_tol:g} % at {first['ppw_at_tol']:.1f} PPW",
               "threshold": (f"± {100 * args.tol:g} % at {args.ppw:g} PPW"
                             if args.criterion == "validation" else
                             f"within {100 * args.theory_tol:g} % of lattice theory, "
                             f"{first['band_ppw'][0]:.1f}-40 PPW"),
               "pass": bool(ok), "pass_validation_threshold": bool(ok_validation),
               "pass_theory": bool(ok_theory), "dx_m": args.dx,
               "runs": [{k: (v.tolist() if isinstance(v, np.ndarray) else v)
                         for k, v in r.items()} for r in runs],
               "ppw_grid": PPW_GRID.tolist()}
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1, default=lambda x: None)
    return 0 if ok else 1
