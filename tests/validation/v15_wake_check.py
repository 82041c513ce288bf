#!/usr/bin/env python3
"""V15 wake check: the mean density of the air ahead of and behind (the wake of) a duct-filling
plate that has moved along a closed duct, against mass conservation.

    v15_wake_check.py OUTDIR [--plate-rest 0.45] [--length 0.9] [--rho0 1.204]
                      [--wake-tol 0.005] [--ahead-tol 0.02]

Reads the last checkpoint of OUTDIR (tests/validation/duct_v15_wake.ini): the plate's pose
(/objects/vertices, its x) and every particle's density and rest position. The particles whose
rest sites lie below --plate-rest fill [0, X] now, those above it [X, --length]; their mean
density relative to rho0 should be plate_rest / X - 1 and (length - plate_rest) / (length - X)
- 1 (each side keeps its particles; the plate lies between two lattice planes, so each side's
rest column is plate_rest and length - plate_rest long). Exit 0 if both are within their
tolerances (absolute, of rho0), 1 if not, 2 on bad input.
"""
import argparse
import glob
import os
import sys

import h5py
import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("--plate-rest", type=float, default=0.45, help="m, the plate's x at t = 0")
    ap.add_argument("--length", type=float, default=0.9, help="m, the duct's length along x")
    ap.add_argument("--rho0", type=float, default=1.204, help="kg/m^3")
    ap.add_argument("--wake-tol", type=float, default=0.005)
    ap.add_argument("--ahead-tol", type=float, default=0.02)
    a = ap.parse_args()
    steps = sorted(glob.glob(os.path.join(a.outdir, "checkpoints", "step_*.h5")))
    if not steps:
        print(f"V15 wake: bad input: no checkpoint in {a.outdir}", file=sys.stderr)
        return 2
    with h5py.File(steps[-1], "r") as f:
        x_plate = float(f["objects/vertices"][0, 0])
        rest = f["particles/rest_position"][:, 0]
        rho = f["particles/density"][:]
    ahead = rest < a.plate_rest
    rows = [("ahead", rho[ahead].mean() / a.rho0 - 1.0, a.plate_rest / x_plate - 1.0, a.ahead_tol),
            ("wake", rho[~ahead].mean() / a.rho0 - 1.0,
             (a.length - a.plate_rest) / (a.length - x_plate) - 1.0, a.wake_tol)]
    ok = True
    print(f"V15 wake: plate at x = {x_plate:.4f} m ({steps[-1]})")
    for name, measured, expected, tol in rows:
        good = abs(measured - expected) <= tol
        ok = ok and good
        print(f"  {name:<5} rho'/rho0 {100 * measured:+.2f} %, expected {100 * expected:+.2f} %, "
              f"within {100 * tol:.1f} %: {'pass' if good else 'FAIL'}")
    print("V15 wake:", "pass" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
