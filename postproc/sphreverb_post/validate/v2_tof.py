"""V2 time of flight: speed of sound from the arrival delay between two receivers.

    python3 -m sphreverb_post validate v2 OUTDIR --near NAME --far NAME --distance METRES
        [--c 343] [--tol 0.01] [--max-delay SECONDS] [--json FILE]

Reads OUTDIR/NAME.raw.wav for both receivers, measures c = distance / delay (delay by
sub-sample cross-correlation) and compares it with the expected c.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

from sphreverb_post import arrival_delay, read_receiver


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--near", required=True, help="receiver the wave reaches first")
    ap.add_argument("--far", required=True, help="receiver the wave reaches second")
    ap.add_argument("--distance", type=float, required=True, help="receiver separation, m")
    ap.add_argument("--c", type=float, default=343.0, help="expected speed of sound, m/s")
    ap.add_argument("--tol", type=float, default=0.01, help="relative tolerance")
    ap.add_argument("--max-delay", type=float, default=None,
                    help="search the correlation only for |delay| <= this, s")
    ap.add_argument("--json", help="write the result to this file")
    args = ap.parse_args(argv)

    try:
        if args.distance <= 0.0:
            raise ValueError("--distance must be positive")
        near, rate = read_receiver(args.outdir, args.near)
        far, rate_far = read_receiver(args.outdir, args.far)
        if rate != rate_far:
            raise ValueError(f"sample rates differ: {rate} Hz vs {rate_far} Hz")
    except (OSError, ValueError) as e:
        print(f"V2 time of flight: bad input: {e}", file=sys.stderr)
        return 2

    delay = arrival_delay(near, far, rate, args.max_delay)
    c = args.distance / delay if delay > 0.0 else float("nan")
    err = (c - args.c) / args.c
    ok = delay > 0.0 and abs(err) <= args.tol
    if delay <= 0.0:
        print(f"V2 time of flight: delay = {delay * 1e3:.4f} ms, {args.far} is not reached "
              f"after {args.near} FAIL")
    else:
        print(f"V2 time of flight: delay = {delay * 1e3:.4f} ms over {args.distance:g} m, "
              f"c = {c:.1f} m/s (expected {args.c:.1f} ± {100 * args.tol:.1f} %, "
              f"error {100 * err:+.2f} %) {'PASS' if ok else 'FAIL'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V2 time of flight", "near": args.near, "far": args.far,
                       "distance_m": args.distance, "rate_hz": rate, "delay_s": delay,
                       "c_measured": c if delay > 0.0 else None, "c_expected": args.c,
                       "rel_error": err if delay > 0.0 else None, "tol": args.tol,
                       "pass": bool(ok)}, f, indent=2)
    return 0 if ok else 1
