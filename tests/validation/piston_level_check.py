#!/usr/bin/env python3
"""Level of the emitter disc on a ghost face: the plane wave a velocity-driven disc filling a
duct's end face sends down the duct, against p' = rho0 c u (V12's tube, a mesh at any angle to
the lattice; tests/validation/tube_v12*.ini with an absorbing sample, so nothing returns).

    piston_level_check.py OUTDIR INPUT.wav [--receiver mic1] [--deflection 1e-6]
                          [--band 100 1000] [--window 0.005 0.0075] [--tol 0.02] [--offset 0.003]

u = deflection * fs * s(t), s the input (the disc moves at deflection * fs per unit sample).
Reads OUTDIR/RECEIVER.raw.wav (pascals) and OUTDIR/summary.json (rho0 c of the air), and checks
the mean of |P(f)| / (rho0 c |U(f)|) over --band (Hz) within --tol of 1, and the record's mean
over --window (s: after the pulse and its reflection from the sample have passed, before the
reflection from the source end returns) within --offset of the pulse's peak. Exit 0 pass, 1
fail, 2 bad input.
"""
import argparse
import json
import os
import sys
import warnings

import numpy as np
from scipy.io import wavfile


def read(path):
    if not os.path.isfile(path):
        sys.exit(f"piston_level_check: {path}: no such file")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", wavfile.WavFileWarning)  # the LIST chunk
        rate, x = wavfile.read(path)
    return rate, np.asarray(x, dtype=float).reshape(len(x), -1)[:, 0]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("outdir")
    ap.add_argument("input")
    ap.add_argument("--receiver", default="mic1")
    ap.add_argument("--deflection", type=float, default=1e-6, help="m per unit sample")
    ap.add_argument("--band", type=float, nargs=2, default=[100.0, 1000.0], help="Hz")
    ap.add_argument("--window", type=float, nargs=2, default=[0.005, 0.0075], help="s")
    ap.add_argument("--tol", type=float, default=0.02)
    ap.add_argument("--offset", type=float, default=0.003)
    a = ap.parse_args()
    rate, p = read(os.path.join(a.outdir, f"{a.receiver}.raw.wav"))
    in_rate, s = read(a.input)
    if in_rate != rate:
        print(f"piston_level_check: {a.input}: {in_rate} Hz, the record {rate} Hz", file=sys.stderr)
        return 2
    with open(os.path.join(a.outdir, "summary.json")) as f:
        summary = json.load(f)
    rho_c = find(summary, "rho0_c_Pa_s_per_m")
    if rho_c is None:
        print("piston_level_check: summary.json has no rho0_c_Pa_s_per_m", file=sys.stderr)
        return 2
    u = a.deflection * rate * s
    n = 1 << int(np.ceil(np.log2(4 * max(len(p), len(u)))))
    P, U = np.fft.rfft(p, n), np.fft.rfft(u, n)
    f = np.fft.rfftfreq(n, 1.0 / rate)
    band = (f >= a.band[0]) & (f <= a.band[1])
    ratio = np.abs(P[band]) / (rho_c * np.abs(U[band]))
    level = float(ratio.mean())
    peak = float(np.max(np.abs(p)))
    tail = p[int(a.window[0] * rate):int(a.window[1] * rate)]
    if len(tail) == 0:
        print("piston_level_check: the window lies beyond the record", file=sys.stderr)
        return 2
    offset = float(np.mean(tail)) / peak
    ok = abs(level - 1.0) <= a.tol and abs(offset) <= a.offset
    print(f"piston level ({a.receiver}, {a.band[0]:.0f}-{a.band[1]:.0f} Hz): |P| / rho0 c |U| "
          f"mean {level:.4f} ({ratio.min():.4f}..{ratio.max():.4f}; tolerance {a.tol}); offset over "
          f"{a.window[0] * 1e3:.1f}-{a.window[1] * 1e3:.1f} ms {offset * 100:+.2f} % of the peak "
          f"(tolerance {a.offset * 100:.1f} %) {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


def find(node, key):
    """The first value of `key` anywhere in a JSON tree."""
    if isinstance(node, dict):
        if key in node:
            return node[key]
        node = list(node.values())
    if isinstance(node, list):
        for v in node:
            r = find(v, key)
            if r is not None:
                return r
    return None


if __name__ == "__main__":
    sys.exit(main())
