#!/usr/bin/env python3
"""V15 turning-object check: the pressure in front of a plate turning at a constant rate omega
about a hinge on its edge, against the plane-wave relation p' = rho0 c omega r at two distances
r from the hinge.

    v15_turning_check.py OUTDIR [--omega 10] [--radii 0.1 0.2] [--receivers r10 r20]
                         [--window 0.125e-3 0.225e-3] [--rho0 1.204] [--c 343] [--tol 0.05]

Reads OUTDIR/NAME.raw.wav (32-bit float pascals; tests/validation/door_v15_turning.ini) of each
receiver, takes its mean over the window (s) and compares it with rho0 c omega r; also the ratio
of the two against the ratio of the radii (the growth with r). Exit 0 if every relative error
is within --tol, 1 if not, 2 on bad input.
"""
import argparse
import os
import sys
import warnings

import numpy as np
from scipy.io import wavfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--omega", type=float, default=10.0, help="rad/s")
    ap.add_argument("--radii", type=float, nargs=2, default=[0.1, 0.2], help="m")
    ap.add_argument("--receivers", nargs=2, default=["r10", "r20"])
    ap.add_argument("--window", type=float, nargs=2, default=[0.125e-3, 0.225e-3], help="s")
    ap.add_argument("--rho0", type=float, default=1.204, help="kg/m^3")
    ap.add_argument("--c", type=float, default=343.0, help="m/s")
    ap.add_argument("--tol", type=float, default=0.05, help="relative")
    a = ap.parse_args()
    means = []
    for name in a.receivers:
        path = os.path.join(a.outdir, name + ".raw.wav")
        if not os.path.isfile(path):
            print(f"V15 turning: bad input: no {path}", file=sys.stderr)
            return 2
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the file's own metadata chunk
            rate, x = wavfile.read(path)
        i0, i1 = int(round(a.window[0] * rate)), int(round(a.window[1] * rate))
        if i1 > len(x) or i1 - i0 < 2:
            print(f"V15 turning: bad input: window beyond {path}", file=sys.stderr)
            return 2
        means.append(float(np.mean(x[i0:i1])))
    ok = True
    print(f"V15 turning: mean p' over {1e3 * a.window[0]:.3f}-{1e3 * a.window[1]:.3f} ms")
    for name, r, p in zip(a.receivers, a.radii, means):
        expected = a.rho0 * a.c * a.omega * r
        err = p / expected - 1.0
        good = abs(err) <= a.tol
        ok = ok and good
        print(f"  {name}: r = {r:g} m, p' {p:.1f} Pa, rho0 c omega r {expected:.1f} Pa, "
              f"{100 * err:+.2f} %: {'pass' if good else 'FAIL'}")
    ratio, expected = means[1] / means[0], a.radii[1] / a.radii[0]
    err = ratio / expected - 1.0
    good = abs(err) <= a.tol
    ok = ok and good
    print(f"  growth with r: p'({a.radii[1]:g}) / p'({a.radii[0]:g}) = {ratio:.3f}, "
          f"expected {expected:.3f}, {100 * err:+.2f} %: {'pass' if good else 'FAIL'}")
    print("V15 turning:", "pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
