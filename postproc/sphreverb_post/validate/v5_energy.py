"""V5 energy in a closed rigid box: drift and numerical decay as an equivalent T60.

    python3 -m sphreverb_post validate v5 [OUTDIR] [--run OUTDIR LABEL VISCOSITY DIFFUSION ...]
        [--after 0.005] [--room-t60 2.0] [--factor 10] [--plot PNG] [--json FILE]

Reads OUTDIR/energy.csv (time_s, kinetic_J, potential_J, total_J; [output] energy = true).
After --after seconds (the excitation is over) the total energy E(t) should stay constant.
Reported per run: the drift (E_end - E_start) / E_start and the decay rate from a least-squares
line through 10 log10 E(t) (dB/s); the equivalent T60 = 60 dB / rate (infinite if the energy
does not fall). Pass (every run with VISCOSITY = DIFFUSION = 0, and every run that is not
labelled "probe"): T60 >= FACTOR x ROOM_T60, i.e. the numerical decay leaves the reverberation
of the rooms we claim to model (T60 up to --room-t60 s) untouched. Runs labelled "probe" (the
non-zero viscosity or diffusion) are reported with the largest viscosity / diffusion that would
still meet the bound (the decay rate is proportional to either coefficient).

With --modes LX LY LZ (the box) the check is per room mode instead, the measure that matters for
reverberation: the receiver's (--receiver) record is band-passed around each of the --count
lowest analytic modes (+-25 Hz, zero-phase), and the slope of its Hilbert envelope in dB over
[--mode-from, --mode-to] s gives that mode's T60; pass: every mode's T60 >= the bound. The total
energy is then reported only: it includes the lattice's short-wave branch, which a source inside
the air excites and the hyperdiffusion removes (docs/validation.md, V5).
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import os
import sys

import numpy as np

from sphreverb_post import read_receiver


def box_modes(lx, ly, lz, count, c=343.0):
    """The `count` lowest (f, (nx, ny, nz)) of a rigid box."""
    modes = []
    for nx in range(6):
        for ny in range(6):
            for nz in range(6):
                if nx + ny + nz:
                    f = 0.5 * c * np.sqrt((nx / lx) ** 2 + (ny / ly) ** 2 + (nz / lz) ** 2)
                    modes.append((float(f), (nx, ny, nz)))
    return sorted(modes)[:count]


def mode_t60(x, rate, f0, t0, t1, half_width=25.0):
    """T60 (s) of the mode at f0 from its band envelope's slope over [t0, t1] (inf: no decay)."""
    from scipy import signal
    sos = signal.butter(2, [f0 - half_width, f0 + half_width], btype="bandpass", fs=rate,
                        output="sos")
    env = np.abs(signal.hilbert(signal.sosfiltfilt(sos, np.asarray(x, float))))
    t = np.arange(len(env)) / rate
    sel = (t >= t0) & (t <= t1)
    slope = np.polyfit(t[sel], 20.0 * np.log10(env[sel] + 1e-300), 1)[0]
    return -60.0 / slope if slope < 0 else float("inf")


def read_energy(outdir):
    data = np.loadtxt(os.path.join(outdir, "energy.csv"), delimiter=",", comments="#",
                      skiprows=2)
    if data.ndim != 2 or data.shape[1] != 4 or data.shape[0] < 4:
        raise ValueError(f"{outdir}/energy.csv: expected 4 columns and several rows")
    return data[:, 0], data[:, 3], data[:, 1], data[:, 2]


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?", help="one run with the defaults (as run_case.sh "
                    "passes it): label 'default', viscosity and diffusion 0")
    ap.add_argument("--run", nargs=4, action="append", default=[],
                    metavar=("OUTDIR", "LABEL", "VISCOSITY", "DIFFUSION"))
    ap.add_argument("--after", type=float, default=0.005, help="fit from this time on, s")
    ap.add_argument("--room-t60", type=float, default=2.0, help="longest room T60 we claim, s")
    ap.add_argument("--factor", type=float, default=10.0)
    ap.add_argument("--plot")
    ap.add_argument("--json")
    ap.add_argument("--modes", nargs=3, type=float, metavar=("LX", "LY", "LZ"))
    ap.add_argument("--receiver", default="corner")
    ap.add_argument("--count", type=int, default=5)
    ap.add_argument("--mode-from", type=float, default=0.03)
    ap.add_argument("--mode-to", type=float, default=0.13)
    args = ap.parse_args(argv)
    if args.outdir:
        args.run.insert(0, [args.outdir, "default", "0", "0"])
    if not args.run:
        ap.error("give OUTDIR or at least one --run")

    need = args.factor * args.room_t60
    rows = []
    try:
        for outdir, label, visc, diff in args.run:
            t, e, _, _ = read_energy(outdir)
            keep = t >= args.after
            if keep.sum() < 4:
                raise ValueError(f"{outdir}: fewer than 4 records after {args.after} s")
            tt, ee = t[keep], e[keep]
            if np.any(ee <= 0):
                raise ValueError(f"{outdir}: non-positive energy")
            level = 10.0 * np.log10(ee)
            rate = -np.polyfit(tt, level, 1)[0]  # dB/s, > 0 when decaying
            t60 = 60.0 / rate if rate > 0 else float("inf")
            drift = (ee[-1] - ee[0]) / ee[0]
            fluct = (ee.max() - ee.min()) / ee.mean()
            probe = label == "probe"
            ok = t60 >= need
            bound = {}
            if probe and rate > 0:
                for name, value in (("viscosity", float(visc)), ("density_diffusion",
                                                                 float(diff))):
                    if value > 0:
                        # Both terms act together in the probe; each bound assumes the other off.
                        bound[name] = value * t60 / need
            rows.append({"outdir": outdir, "label": label, "viscosity": float(visc),
                         "density_diffusion": float(diff), "decay_db_per_s": rate,
                         "t60_equiv_s": t60, "drift": drift, "fluctuation": fluct,
                         "energy_start_J": float(ee[0]), "span_s": float(tt[-1] - tt[0]),
                         "meets_bound": bool(ok), "checked": not probe,
                         "max_allowed": bound, "t": t.tolist(), "E": e.tolist()})
        mode_rows = []
        if args.modes:
            x, rate = read_receiver(args.run[0][0], args.receiver)
            for f0, m in box_modes(*args.modes, args.count):
                mode_rows.append({"mode": list(m), "f_hz": f0,
                                  "t60_s": mode_t60(x, rate, f0, args.mode_from, args.mode_to)})
    except (OSError, ValueError) as err:
        print(f"V5 energy: bad input: {err}", file=sys.stderr)
        return 2

    print(f"V5 rigid-box energy: fit after {1e3 * args.after:g} ms; bound T60 >= "
          f"{args.factor:g} x {args.room_t60:g} s = {need:g} s")
    print(f"  {'run':<10}{'alpha':>7}{'delta':>7}{'drift':>11}{'fluct.':>9}{'decay dB/s':>12}"
          f"{'T60 equiv':>12}")
    for r in rows:
        t60 = "inf" if not np.isfinite(r["t60_equiv_s"]) else f"{r['t60_equiv_s']:.3g} s"
        print(f"  {r['label']:<10}{r['viscosity']:>7g}{r['density_diffusion']:>7g}"
              f"{100 * r['drift']:>+10.4f}%{100 * r['fluctuation']:>8.3f}%"
              f"{r['decay_db_per_s']:>12.4f}{t60:>12}"
              f"  {'ok' if r['meets_bound'] else 'below bound'}"
              f"{'' if r['checked'] else ' (probe, not checked)'}")
        for name, v in r["max_allowed"].items():
            print(f"      -> {name} <= {v:.3g} keeps T60 >= {need:g} s")
    ok = all(r["meets_bound"] for r in rows if r["checked"])
    first = rows[0]
    t60s = "inf" if not np.isfinite(first["t60_equiv_s"]) else f"{first['t60_equiv_s']:.3g} s"
    fmt = lambda v: "inf" if not np.isfinite(v) else f"{v:.3g} s"
    if mode_rows:
        ok = all(r["t60_s"] >= need for r in mode_rows)
        worst = min(r["t60_s"] for r in mode_rows)
        print(f"V5 room modes at '{args.receiver}' ({args.mode_from:g}..{args.mode_to:g} s): "
              + ", ".join(f"{tuple(r['mode'])} {r['f_hz']:.0f} Hz {fmt(r['t60_s'])}"
                          for r in mode_rows))
        print(f"V5: shortest mode T60 {fmt(worst)} (total energy, short-wave branch included: "
              f"T60 {t60s}, drift {100 * first['drift']:+.2f} %) (threshold mode T60 >= "
              f"{need:g} s) {'PASS' if ok else 'FAIL'}")
        t60s = f"mode T60 >= {fmt(worst)}; total energy T60 {t60s}"
    else:
        print(f"V5: equivalent T60 {t60s}, drift {100 * first['drift']:+.4f} % over "
              f"{first['span_s']:.3g} s (threshold T60 >= {need:g} s) {'PASS' if ok else 'FAIL'}")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4))
        for r in rows:
            t, e = np.array(r["t"]), np.array(r["E"])
            ax.plot(t, 10 * np.log10(np.maximum(e, 1e-300) / first["energy_start_J"]),
                    label=f"{r['label']}: α={r['viscosity']:g}, δ={r['density_diffusion']:g}, "
                          f"T60≈{r['t60_equiv_s']:.3g} s")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("total acoustic energy (dB re start of fit)")
        ax.set_ylim(-6, 1)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title("V5: energy of a closed rigid box")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V5", "title": "rigid-box energy drift and numerical decay",
                       "measured": f"T60 equiv {t60s}, drift {100 * first['drift']:+.3f} %",
                       "threshold": f"T60 >= {need:g} s", "pass": bool(ok), "runs": rows,
                       "modes": mode_rows},
                      f, indent=1)
    return 0 if ok else 1
