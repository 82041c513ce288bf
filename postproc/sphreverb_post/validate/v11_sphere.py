"""V11 sphere modes: measured resonances of a rigid spherical cavity against the analytic ones.

    python3 -m sphreverb_post validate v11 OUTDIR --receiver NAME --radius A [--c 343]
        [--count 6] [--dx DX | --tol TOL] [--search 0.02] [--skip-start SECONDS] [--json FILE]

The analytic modes are f = c z / (2 pi a), z the zeros of j_l' (l = 0, 1, 2, ...): the lowest
--count of them (the six lowest: z = 2.0816 (l=1), 3.3421 (l=2), 4.4934 (l=0), 4.5141 (l=3),
5.6467 (l=4), 5.9404 (l=1, n=2)). Each (l, n) is 2l + 1 times degenerate, and two of them may lie
closer than the record resolves ((0,1) and (3,1) are 0.46 % apart): every analytic frequency is
matched to a spectral peak of OUTDIR/NAME.raw.wav on its own (the strongest peak within
--search relative distance, else the nearest), so one measured peak may answer two modes.
Tolerance per mode: --tol for all, or with --dx the thresholds of V4 from the mode's points per
wavelength PPW = c / (f dx): 1.5 % at PPW >= 30, 3 % at PPW >= 18; a mode below 18 PPW has no
threshold and is a bad input. Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

from sphreverb_post import match_modes, read_receiver, spectral_peaks, sphere_mode_frequencies

PPW_TOL = ((30.0, 0.015), (18.0, 0.03))   # V4's thresholds: (least PPW, relative tolerance)


def lowest_modes(radius, c, count):
    """The ``count`` lowest (f, (l, n)) of the sphere."""
    fmax = c / radius
    while True:
        modes = sphere_mode_frequencies(radius, c, fmax)
        if len(modes) >= count:
            return modes[:count]
        fmax *= 2.0


def tolerance(f, c, dx, tol):
    """The mode's tolerance: ``tol`` if given, else V4's threshold for its PPW (None below 18)."""
    if tol is not None:
        return tol
    ppw = c / (f * dx)
    return next((t for least, t in PPW_TOL if ppw >= least), None)


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--receiver", required=True)
    ap.add_argument("--radius", type=float, required=True, help="sphere radius a, m")
    ap.add_argument("--c", type=float, default=343.0, help="speed of sound, m/s")
    ap.add_argument("--count", type=int, default=6, help="number of lowest (l, n) to check")
    ap.add_argument("--dx", type=float, default=None,
                    help="particle spacing, m: tolerance per mode from its PPW (V4's thresholds)")
    ap.add_argument("--tol", type=float, default=None, help="relative tolerance for every mode")
    ap.add_argument("--search", type=float, default=0.02,
                    help="relative distance within which the strongest peak is taken")
    ap.add_argument("--skip-start", type=float, default=0.0, help="drop this many seconds")
    ap.add_argument("--json", help="write the result to this file")
    args = ap.parse_args(argv)

    try:
        if args.radius <= 0.0 or args.count < 1:
            raise ValueError("--radius and --count must be positive")
        if (args.dx is None) == (args.tol is None):
            raise ValueError("give one of --dx (V4's thresholds by PPW) and --tol")
        if args.dx is not None and args.dx <= 0.0:
            raise ValueError("--dx must be positive")
        x, rate = read_receiver(args.outdir, args.receiver)
        x = x[int(round(args.skip_start * rate)):]
        if x.size < 16:
            raise ValueError(f"record too short after --skip-start ({x.size} samples)")
        modes = lowest_modes(args.radius, args.c, args.count)
        if modes[-1][0] * (1.0 + 2.0 * args.search) >= 0.5 * rate:
            raise ValueError(f"mode {modes[-1][1]} at {modes[-1][0]:.1f} Hz is too close to "
                             f"the Nyquist frequency {0.5 * rate:g} Hz")
        tols = [tolerance(f, args.c, args.dx, args.tol) for f, _ in modes]
        low = [m for m, t in zip(modes, tols) if t is None]
        if low:
            f, ln = low[0]
            raise ValueError(f"mode {ln} at {f:.1f} Hz has {args.c / (f * args.dx):.1f} PPW, "
                             f"under the 18 of V4's thresholds: fewer modes or a finer spacing")
    except (OSError, ValueError) as e:
        print(f"V11 sphere modes: bad input: {e}", file=sys.stderr)
        return 2

    freqs, amps = spectral_peaks(x, rate, 0.5 * modes[0][0],
                                 modes[-1][0] * (1.0 + 2.0 * args.search))
    results = match_modes(freqs, modes, 0.0, amps, args.search)
    for r, t in zip(results, tols):
        r["l"], r["n"] = r.pop("mode")
        r["degeneracy"] = 2 * r["l"] + 1
        r["tol"] = t
        if args.dx is not None:
            r["ppw"] = args.c / (r["f_analytic"] * args.dx)
        r["pass"] = r["rel_error"] is not None and abs(r["rel_error"]) <= t
    ok = all(r["pass"] for r in results)

    print(f"V11 sphere modes: receiver {args.receiver}, radius {args.radius:g} m, "
          f"c = {args.c:g} m/s, {x.size / rate:.3f} s at {rate} Hz")
    print(f"  {'(l, n)':<8}{'analytic Hz':>12}{'measured Hz':>13}{'error %':>10}"
          f"{'PPW':>7}{'tol %':>8}")
    for r in results:
        fm = "-" if r["f_measured"] is None else f"{r['f_measured']:.2f}"
        er = "-" if r["rel_error"] is None else f"{100 * r['rel_error']:+.3f}"
        ppw = f"{r['ppw']:.1f}" if "ppw" in r else "-"
        print(f"  {str((r['l'], r['n'])):<8}{r['f_analytic']:>12.2f}{fm:>13}{er:>10}"
              f"{ppw:>7}{100 * r['tol']:>8.2f}  {'ok' if r['pass'] else 'FAIL'}")
    npass = sum(r["pass"] for r in results)
    print(f"V11 sphere modes: {npass} of {len(results)} within tolerance "
          f"{'PASS' if ok else 'FAIL'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V11 sphere modes", "receiver": args.receiver,
                       "radius_m": args.radius, "c": args.c, "dx_m": args.dx, "rate_hz": rate,
                       "search": args.search, "skip_start_s": args.skip_start,
                       "modes": results, "pass": bool(ok)}, f, indent=2)
    return 0 if ok else 1
