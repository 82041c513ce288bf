"""Resolution convergence (V9): errors of V2 (time of flight), V1 (phase speed at fixed
frequencies) or V4 (box modes) against spacing, the observed order of accuracy and Roache's grid
convergence index.

    python3 -m sphreverb_post convergence --kind tof|phase|modes --run OUTDIR DX [--run ...]
        [--c 343] [tof: --near near --far far --distance 0.3]
        [phase: --near near --far far --distance 0.6 --freqs 1500 2000 2500]
        [modes: --receiver corner --room LX LY LZ --count 5 --isolation 0.04] [--plot PNG]
        [--json FILE] [--label TEXT]

Each run is the same scene at spacing DX (OUTDIR holds its receivers and summary.json). The
quantity phi is the measured speed of sound (tof: the pulse's delay between the receivers; phase:
the phase speed at each of --freqs from their cross-spectrum, sphreverb_post.dispersion) or each
isolated mode's frequency (modes); the error is relative to the analytic value. Reported:
  * the observed order from the errors themselves: least-squares slope of log|e| vs log dx;
  * Richardson / Roache on the three finest runs (Celik et al. 2008, J. Fluids Eng. 130,
    078001, the ASME procedure): h1 < h2 < h3, r21 = h2/h1, r32 = h3/h2, e21 = phi2 - phi1,
    e32 = phi3 - phi2, s = sign(e32/e21), p = |ln|e32/e21| + q(p)| / ln r21 with
    q(p) = ln((r21^p - s)/(r32^p - s)) (fixed-point iteration), phi_ext = (r21^p phi1 - phi2) /
    (r21^p - 1), GCI_fine = 1.25 |(phi1 - phi2)/phi1| / (r21^p - 1);
  * the mean neighbour count of each run (summary.json), annotated on the plot.
Pass: the error of the finest run is smaller than that of the coarsest (errors shrink), or every
run's error is below --resolution (the estimator's own resolution, given by the caller: then no
order is measurable and the result says so; default 0, off).
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import math
import os
import sys

import numpy as np

from sphreverb_post import (arrival_delay, box_mode_frequencies, isolated_modes, match_modes,
                            read_receiver, spectral_peaks)
from sphreverb_post.dispersion import phase_speed, taper_end


def richardson(h, phi):
    """Celik et al. (2008) on three (h, phi) pairs, any order; returns a dict (p may be None)."""
    (h1, f1), (h2, f2), (h3, f3) = sorted(zip(h, phi))
    r21, r32 = h2 / h1, h3 / h2
    e21, e32 = f2 - f1, f3 - f2
    out = {"h": [h1, h2, h3], "phi": [f1, f2, f3], "r21": r21, "r32": r32, "p": None,
           "phi_ext": None, "gci_fine": None, "monotone": None}
    if e21 == 0.0 or e32 == 0.0:
        return out
    s = math.copysign(1.0, e32 / e21)
    out["monotone"] = s > 0
    p = abs(math.log(abs(e32 / e21))) / math.log(r21)
    for _ in range(200):
        try:
            q = math.log((r21 ** p - s) / (r32 ** p - s))
        except (ValueError, ZeroDivisionError):
            return out
        p_new = abs(math.log(abs(e32 / e21)) + q) / math.log(r21)
        if abs(p_new - p) < 1e-10:
            p = p_new
            break
        p = p_new
    out["p"] = p
    out["phi_ext"] = (r21 ** p * f1 - f2) / (r21 ** p - 1.0)
    out["gci_fine"] = 1.25 * abs((f1 - f2) / f1) / (r21 ** p - 1.0)
    return out


def neighbours(outdir):
    try:
        with open(os.path.join(outdir, "summary.json")) as f:
            s = json.load(f)
        return s.get("neighbours_per_particle"), s.get("particles")
    except (OSError, ValueError):
        return None, None


def measure_tof(outdir, args):
    a, rate = read_receiver(outdir, args.near)
    b, _ = read_receiver(outdir, args.far)
    delay = arrival_delay(a, b, rate)
    return {"c": args.distance / delay}


def measure_phase(outdir, args):
    a, rate = read_receiver(outdir, args.near)
    b, _ = read_receiver(outdir, args.far)
    a, b = taper_end(a, rate, 5e-4), taper_end(b, rate, 5e-4)
    f, c, _ = phase_speed(a, b, rate, args.distance, args.c)
    return {f"c({fr:g} Hz)": float(np.interp(fr, f, c)) for fr in args.freqs}


def measure_modes(outdir, args, chosen, modes):
    x, rate = read_receiver(outdir, args.receiver)
    freqs, amps = spectral_peaks(x, rate, 0.5 * chosen[0][0],
                                 min(chosen[-1][0] * (1.0 + 2.0 * args.isolation), 0.5 * rate))
    wanted = {m[1] for m in chosen}
    res = [r for r in match_modes(freqs, modes, args.isolation, amps, args.isolation / 2)
           if r["mode"] in wanted]
    return {str(tuple(r["mode"])): r["f_measured"] for r in res}


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", choices=("tof", "phase", "modes"), required=True)
    ap.add_argument("--freqs", type=float, nargs="+", default=[1500.0, 2000.0, 2500.0],
                    help="phase: frequencies (Hz) at which the phase speed is measured")
    ap.add_argument("--run", nargs=2, action="append", required=True, metavar=("OUTDIR", "DX"))
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--near", default="near")
    ap.add_argument("--far", default="far")
    ap.add_argument("--distance", type=float, default=0.3)
    ap.add_argument("--receiver", default="corner")
    ap.add_argument("--room", type=float, nargs=3)
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--isolation", type=float, default=0.04)
    ap.add_argument("--resolution", type=float, default=0.0,
                    help="relative error below which the estimator cannot resolve the scheme's")
    ap.add_argument("--label", default="")
    ap.add_argument("--plot")
    ap.add_argument("--json")
    args = ap.parse_args(argv)
    if len(args.run) < 3:
        ap.error("need at least three --run")

    try:
        runs = sorted(((d, float(dx)) for d, dx in args.run), key=lambda t: -t[1])
        if args.kind == "tof":
            exact = {"c": args.c}
            phis = [measure_tof(d, args) for d, _ in runs]
        elif args.kind == "phase":
            exact = {f"c({fr:g} Hz)": args.c for fr in args.freqs}
            phis = [measure_phase(d, args) for d, _ in runs]
        else:
            if not args.room:
                raise ValueError("--room is needed for --kind modes")
            allm = box_mode_frequencies(*args.room, args.c, 4.0 * args.c / max(args.room))
            chosen = isolated_modes(allm, args.isolation)[:args.count]
            exact = {str(tuple(m[1])): m[0] for m in chosen}
            phis = [measure_modes(d, args, chosen, allm) for d, _ in runs]
        for p in phis:
            for k in exact:
                if p.get(k) is None:
                    raise ValueError(f"quantity {k} not measured in every run")
    except (OSError, ValueError) as e:
        print(f"V9 convergence: bad input: {e}", file=sys.stderr)
        return 2

    dx = np.array([r[1] for r in runs])
    nb = [neighbours(d) for d, _ in runs]
    quantities = {}
    for k, ref in exact.items():
        phi = np.array([p[k] for p in phis])
        err = (phi - ref) / ref
        slope = np.polyfit(np.log(dx), np.log(np.abs(err) + 1e-300), 1)[0]
        fine3 = np.argsort(dx)[:3]
        rich = richardson(dx[fine3].tolist(), phi[fine3].tolist())
        quantities[k] = {"exact": ref, "phi": phi.tolist(), "rel_error": err.tolist(),
                         "order_lsq": float(slope), "richardson": rich}
    # The summary error per run: RMS over the quantities (one quantity for tof).
    rms = np.sqrt(np.mean([np.array(q["rel_error"]) ** 2 for q in quantities.values()], axis=0))
    order = float(np.polyfit(np.log(dx), np.log(rms), 1)[0])
    shrink = rms[np.argmin(dx)] < rms[np.argmax(dx)]
    resolved_out = bool(args.resolution > 0.0 and np.all(rms < args.resolution))
    ok = shrink or resolved_out
    verdict = ("PASS (errors shrink)" if shrink else
               f"PASS (every error below the estimator's resolution {100 * args.resolution:g} %: "
               "no order measurable)" if resolved_out else "FAIL (errors do not shrink)")

    name = {"tof": "V2 speed of sound", "phase": "V1 phase speed",
            "modes": "V4 box modes"}[args.kind]
    print(f"V9 convergence of {name} {args.label}".rstrip())
    print(f"  {'dx mm':>7}{'neighbours':>12}" + "".join(f"{k:>16}" for k in quantities)
          + f"{'rms err %':>11}")
    for i, (d, h) in enumerate(runs):
        print(f"  {1e3 * h:>7.2f}{(nb[i][0] or float('nan')):>12.1f}"
              + "".join(f"{100 * q['rel_error'][i]:>+15.3f}%" for q in quantities.values())
              + f"{100 * rms[i]:>10.3f}%")
    for k, q in quantities.items():
        r = q["richardson"]
        pr = "-" if r["p"] is None else f"{r['p']:.2f}"
        gci = "-" if r["gci_fine"] is None else f"{100 * r['gci_fine']:.3f} %"
        ext = "-" if r["phi_ext"] is None else f"{r['phi_ext']:.4g}"
        print(f"  {k}: order (lsq on |error|) {q['order_lsq']:.2f}; Richardson p = {pr}, "
              f"phi_ext = {ext} (exact {q['exact']:.4g}), GCI_fine = {gci}"
              f"{'' if r['monotone'] in (None, True) else ' (oscillatory convergence)'}")
    print(f"V9 {name}: observed order {order:.2f} (RMS error vs dx), error "
          f"{100 * rms[np.argmax(dx)]:.3f} % -> {100 * rms[np.argmin(dx)]:.3f} % "
          f"{verdict}")

    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6.5, 4.5))
        for k, q in quantities.items():
            if len(quantities) > 1:
                ax.loglog(dx * 1e3, np.abs(q["rel_error"]) * 100, "o:", ms=3, lw=0.8, label=k)
        ax.loglog(dx * 1e3, rms * 100, "ks-", lw=2,
                  label=f"{'|error|' if len(quantities) == 1 else 'RMS'}: order {order:.2f}")
        ref = rms[np.argmax(dx)] * 100 * (dx / dx.max()) ** 2
        ax.loglog(dx * 1e3, ref, "k--", lw=0.8, label="slope 2")
        for i in range(len(runs)):
            if nb[i][0]:
                ax.annotate(f"{nb[i][0]:.0f} nb", (dx[i] * 1e3, rms[i] * 100),
                            textcoords="offset points", xytext=(4, 6), fontsize=8)
        ax.set_xlabel("spacing dx (mm)")
        ax.set_ylabel("relative error (%)")
        ax.set_title(f"V9: {name} vs spacing {args.label}".strip())
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V9", "title": f"resolution study of {name} {args.label}".strip(),
                       "measured": f"order {order:.2f}, error {100 * rms[np.argmax(dx)]:.3f} % "
                                   f"-> {100 * rms[np.argmin(dx)]:.3f} %",
                       "threshold": "errors shrink with dx; order reported", "pass": bool(ok),
                       "verdict": verdict,
                       "kind": args.kind, "dx_m": dx.tolist(),
                       "neighbours": [n[0] for n in nb], "particles": [n[1] for n in nb],
                       "rms_error": rms.tolist(), "order": order, "quantities": quantities},
                      f, indent=1)
    return 0 if ok else 1
