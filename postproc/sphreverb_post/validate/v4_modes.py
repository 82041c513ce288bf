"""V4 box modes: measured resonances of a rigid box against the analytic eigenfrequencies.

    python3 -m sphreverb_post validate v4 OUTDIR --receiver NAME --room LX LY LZ [--c 343]
        [--fmax HZ] [--count N] [--tol 0.015] [--isolation 0.04] [--skip-start SECONDS]
        [--json FILE]

Takes the lowest N analytic modes below fmax that are isolated (no other mode within
the relative distance --isolation), matches each to a spectral peak of OUTDIR/NAME.raw.wav
(the strongest peak within isolation/2, else the nearest) and checks the relative error.
Without --fmax the band is widened until N isolated modes are found.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

from sphreverb_post import (box_mode_frequencies, isolated_modes, match_modes,
                            read_receiver, spectral_peaks)


def select_modes(room, c, count, isolation, fmax, nyquist):
    """Band limit and the full analytic mode list so that ``count`` isolated modes lie below it."""
    limit = fmax if fmax is not None else c / max(room)
    while True:
        modes = box_mode_frequencies(*room, c, limit * (1.0 + isolation))
        found = [m for m in isolated_modes(modes, isolation) if m[0] <= limit]
        if len(found) >= count or fmax is not None or limit >= nyquist:
            return limit, modes, found[:count]
        limit = min(2.0 * limit, nyquist)


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--receiver", required=True)
    ap.add_argument("--room", type=float, nargs=3, required=True, metavar=("LX", "LY", "LZ"))
    ap.add_argument("--c", type=float, default=343.0, help="speed of sound, m/s")
    ap.add_argument("--fmax", type=float, default=None, help="highest mode frequency, Hz")
    ap.add_argument("--count", type=int, default=3, help="number of isolated modes to check")
    ap.add_argument("--tol", type=float, default=0.015, help="relative tolerance")
    ap.add_argument("--isolation", type=float, default=0.04,
                    help="relative distance to the nearest other mode for a mode to count")
    ap.add_argument("--skip-start", type=float, default=0.0, help="drop this many seconds")
    ap.add_argument("--json", help="write the result to this file")
    args = ap.parse_args(argv)

    try:
        if min(args.room) <= 0.0 or args.count < 1:
            raise ValueError("room dimensions and --count must be positive")
        x, rate = read_receiver(args.outdir, args.receiver)
        x = x[int(round(args.skip_start * rate)):]
        if x.size < 16:
            raise ValueError(f"record too short after --skip-start ({x.size} samples)")
        limit, modes, chosen = select_modes(args.room, args.c, args.count, args.isolation,
                                            args.fmax, 0.5 * rate)
        if len(chosen) < args.count:
            raise ValueError(f"only {len(chosen)} isolated modes below {limit:.1f} Hz, "
                             f"{args.count} requested")
    except (OSError, ValueError) as e:
        print(f"V4 box modes: bad input: {e}", file=sys.stderr)
        return 2

    freqs, amps = spectral_peaks(x, rate, 0.5 * chosen[0][0],
                                 min(chosen[-1][0] * (1.0 + 2.0 * args.isolation), 0.5 * rate))
    wanted = {m[1] for m in chosen}
    results = [r for r in match_modes(freqs, modes, args.isolation, amps, args.isolation / 2)
               if r["mode"] in wanted]
    for r in results:
        r["pass"] = r["rel_error"] is not None and abs(r["rel_error"]) <= args.tol
    ok = all(r["pass"] for r in results)

    Lx, Ly, Lz = args.room
    print(f"V4 box modes: receiver {args.receiver}, room {Lx:g} x {Ly:g} x {Lz:g} m, "
          f"c = {args.c:g} m/s, {x.size / rate:.3f} s at {rate} Hz")
    print(f"  {'mode':<10}{'analytic Hz':>12}{'measured Hz':>13}{'error %':>10}{'tol %':>8}")
    for r in results:
        fm = "-" if r["f_measured"] is None else f"{r['f_measured']:.2f}"
        er = "-" if r["rel_error"] is None else f"{100 * r['rel_error']:+.3f}"
        print(f"  {str(r['mode']):<10}{r['f_analytic']:>12.2f}{fm:>13}{er:>10}"
              f"{100 * args.tol:>8.2f}  {'ok' if r['pass'] else 'FAIL'}")
    npass = sum(r["pass"] for r in results)
    print(f"V4 box modes: {npass} of {len(results)} within ± {100 * args.tol:.1f} % "
          f"{'PASS' if ok else 'FAIL'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V4 box modes", "receiver": args.receiver, "room_m": args.room,
                       "c": args.c, "rate_hz": rate, "tol": args.tol,
                       "isolation": args.isolation, "skip_start_s": args.skip_start,
                       "modes": results, "pass": bool(ok)}, f, indent=2)
    return 0 if ok else 1
