"""V6 impedance tube: normal-incidence absorption by the transfer-function method (ISO 10534-2).

    python3 -m sphreverb_post validate v6 OUTDIR --mic1 NAME --mic2 NAME --x1 M --spacing M
        --gate S (--alpha A | --bands A125 A250 A500 A1k A2k A4k | --rigid) [--c 343] [--fmin HZ]
        [--fmax HZ] [--tol 0.05] [--rigid-max 0.03] [--csv FILE] [--json FILE]

mic1 is the receiver farther from the sample (x1 from it), mic2 the nearer one, s apart. The
records (OUTDIR/NAME.raw.wav, Pa) are gated at --gate seconds (the return of the reflection from
the source end; a 0.3 ms half-Hann taper ends the gate) and zero-padded; with H12 = P2/P1 and
k = 2 pi f / c (numpy's e^{+j w t} convention),

    r = (H12 - e^{-jks}) / (e^{jks} - H12) e^{2jkx1},   alpha = 1 - |r|^2.

The valid band defaults to [0.05 c/s, min(0.45 c/s, f_max of the run)] (ISO 10534-2's
microphone-spacing limits; the duct's first symmetric cross mode is above f_max here).
Pass (on 1/3-octave band means of alpha(f), the bands inside the valid band, as ISO 10534-2
results are reported): --rigid: every band below rigid-max; --alpha: every band within tol of A;
--bands: the octave-band means of alpha(f) within tol of the given values, for the octaves
inside the valid band (the fitted wall's own deviation from the table included); with --model,
of the fitted wall model's alpha at the band centres; with --model --model-curve, every
1/3-octave mean within tol of the same mean of the model's alpha(f). The
narrow-band extremes are printed too.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

import numpy as np

from sphreverb_post import read_receiver

BANDS = [125.0, 250.0, 500.0, 1000.0, 2000.0, 4000.0]


def absorption_spectrum(p1, p2, rate, x1, s, c, gate, pad=16):
    """Frequencies (Hz) and alpha(f), r(f) from two gated pressure records."""
    n_gate = min(int(round(gate * rate)), len(p1), len(p2))
    taper = int(round(0.0003 * rate))
    w = np.ones(n_gate)
    if taper > 0:
        w[n_gate - taper:] = 0.5 * (1.0 + np.cos(np.pi * np.arange(1, taper + 1) / taper))
    a = np.asarray(p1[:n_gate], float) * w
    b = np.asarray(p2[:n_gate], float) * w
    nfft = pad * int(2 ** np.ceil(np.log2(n_gate)))
    P1 = np.fft.rfft(a, nfft)
    P2 = np.fft.rfft(b, nfft)
    f = np.fft.rfftfreq(nfft, 1.0 / rate)
    with np.errstate(divide="ignore", invalid="ignore"):
        H = P2 / P1
        k = 2.0 * np.pi * f / c
        r = (H - np.exp(-1j * k * s)) / (np.exp(1j * k * s) - H) * np.exp(2j * k * x1)
    return f, 1.0 - np.abs(r) ** 2, r


def third_octave_means(f, alpha, lo, hi):
    """(centres, means) of alpha over the 1/3-octave bands (fc = 1000 * 2^(k/3)) inside [lo, hi],
    as ISO 10534-2 results are usually reported."""
    centres, means = [], []
    for k in range(-20, 14):
        fc = 1000.0 * 2.0 ** (k / 3.0)
        a, b = fc * 2.0 ** (-1.0 / 6.0), fc * 2.0 ** (1.0 / 6.0)
        if a >= lo and b <= hi:
            sel = (f >= a) & (f <= b)
            centres.append(fc)
            means.append(float(np.mean(alpha[sel])))
    return np.array(centres), np.array(means)


def band_means(f, alpha, lo, hi):
    """Mean alpha over each octave band fully inside [lo, hi]: {centre: mean}."""
    out = {}
    for fc in BANDS:
        a, b = fc / np.sqrt(2.0), fc * np.sqrt(2.0)
        if a >= lo and b <= hi:
            sel = (f >= a) & (f <= b)
            out[fc] = float(np.mean(alpha[sel]))
    return out


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--mic1", required=True, help="receiver farther from the sample")
    ap.add_argument("--mic2", required=True, help="receiver nearer the sample")
    ap.add_argument("--x1", type=float, required=True, help="sample to mic1, m")
    ap.add_argument("--spacing", type=float, required=True, help="mic1 to mic2, m")
    ap.add_argument("--gate", type=float, required=True, help="end of the analysis gate, s")
    kind = ap.add_mutually_exclusive_group(required=True)
    kind.add_argument("--alpha", type=float, help="configured broadband absorption")
    kind.add_argument("--bands", type=float, nargs=6, help="configured octave-band absorption")
    kind.add_argument("--rigid", action="store_true", help="the sample is rigid")
    ap.add_argument("--c", type=float, default=343.0, help="speed of sound, m/s")
    ap.add_argument("--fmin", type=float, help="lower band limit, Hz (default 0.05 c/s)")
    ap.add_argument("--fmax", type=float, help="upper band limit, Hz (default 0.45 c/s, f_max)")
    ap.add_argument("--tol", type=float, default=0.05, help="allowed |alpha - configured|")
    ap.add_argument("--rigid-max", type=float, default=0.03, help="rigid: alpha must be below")
    ap.add_argument("--model", metavar="MATERIAL",
                    help="with --bands: pass on the measured alpha against the wall model of "
                         "[material.MATERIAL] (OUTDIR/summary.json: the fitted resonator's alpha at "
                         "the band centres) instead of the configured bands, which the fit may "
                         "miss by its own residual; both deviations are printed")
    ap.add_argument("--model-curve", action="store_true",
                    help="with --model: pass on 1/3-octave means of the measured alpha against "
                         "the same means of the wall model's alpha(f) (OUTDIR/summary.json: its "
                         "impedance R, M, K), instead of octave means against the model at the "
                         "band centres")
    ap.add_argument("--csv", help="write f, alpha(f) over the band to this file")
    ap.add_argument("--case", default="V6", help="case name in messages and JSON")
    ap.add_argument("--json", help="write the result to this file")
    args = ap.parse_args(argv)

    try:
        p1, rate = read_receiver(args.outdir, args.mic1)
        p2, rate2 = read_receiver(args.outdir, args.mic2)
        if rate != rate2:
            raise ValueError(f"sample rates differ: {rate} Hz vs {rate2} Hz")
        if args.spacing <= 0 or args.x1 <= args.spacing:
            raise ValueError("need 0 < spacing < x1")
        f_run, model = None, None
        try:
            with open(f"{args.outdir}/summary.json") as fh:
                summary = json.load(fh)
            f_run = summary["derived"]["f_max_Hz"]
        except (OSError, KeyError, ValueError):
            summary = {}
        impedance = None
        if args.model:
            try:
                model = summary["materials"][args.model]["model_absorption_at_bands"]
                if args.model_curve:
                    impedance = summary["materials"][args.model]["impedance"]
                    rho_c = impedance["rho0_c_Pa_s_per_m"]
            except KeyError:
                raise ValueError(f"{args.outdir}/summary.json has no wall model for material "
                                 f"{args.model!r}") from None
        elif args.model_curve:
            raise ValueError("--model-curve needs --model")
    except (OSError, ValueError) as e:
        print(f"{args.case} impedance tube: bad input: {e}", file=sys.stderr)
        return 2

    c, s = args.c, args.spacing
    lo = args.fmin if args.fmin is not None else 0.05 * c / s
    hi = args.fmax if args.fmax is not None else min(0.45 * c / s, f_run or np.inf)
    f, alpha, r = absorption_spectrum(p1, p2, rate, args.x1, s, c, args.gate)
    sel = (f >= lo) & (f <= hi)
    fb, ab = f[sel], alpha[sel]
    means = band_means(f, alpha, lo, hi)

    tc, tm = third_octave_means(f, alpha, lo, hi)
    if len(tc) == 0:
        print(f"{args.case}: no 1/3-octave band lies inside {lo:.0f}..{hi:.0f} Hz", file=sys.stderr)
        return 2
    if args.rigid:
        expected = np.zeros_like(fb)
        worst = float(np.max(tm))
        ok = worst < args.rigid_max
        measured = (f"1/3-octave alpha max {worst:.4f} at {tc[np.argmax(tm)]:.0f} Hz "
                    f"(narrow-band max {np.max(ab):.4f}, mean {np.mean(ab):.4f})")
        threshold = f"alpha < {args.rigid_max:g}"
        config = "rigid"
    elif args.alpha is not None:
        expected = np.full_like(fb, args.alpha)
        dev = tm - args.alpha
        i = int(np.argmax(np.abs(dev)))
        worst = float(dev[i])
        ok = abs(worst) <= args.tol
        measured = (f"1/3-octave alpha {np.min(tm):.3f}..{np.max(tm):.3f} (mean {np.mean(ab):.3f}), "
                    f"worst {worst:+.3f} at {tc[i]:.0f} Hz (narrow-band "
                    f"{np.min(ab):.3f}..{np.max(ab):.3f})")
        threshold = f"|alpha - {args.alpha:g}| <= {args.tol:g}"
        config = f"absorption = {args.alpha:g}"
    elif impedance is not None:
        # alpha(f) of Z = R + j(wM - K/w) (docs/theory/walls.md), 1/3-octave means as measured.
        w = 2.0 * np.pi * np.maximum(f, 1e-9)
        zeta = (impedance["resistance_Pa_s_per_m"]
                + 1j * (w * impedance["mass_kg_per_m2"] - impedance["stiffness_Pa_per_m"] / w)) / rho_c
        alpha_model = 1.0 - np.abs((zeta - 1.0) / (zeta + 1.0)) ** 2
        _, mm = third_octave_means(f, alpha_model, lo, hi)
        dev = tm - mm
        i = int(np.argmax(np.abs(dev)))
        worst = float(dev[i])
        ok = abs(worst) <= args.tol
        expected = alpha_model[sel]
        measured = (", ".join(f"{fc:.0f} Hz {a:.3f} (model {b:.3f})" for fc, a, b in zip(tc, tm, mm))
                    + f"; worst {worst:+.3f} at {tc[i]:.0f} Hz")
        threshold = f"1/3-octave mean within {args.tol:g} of the wall model's alpha(f)"
        config = "absorption_bands = " + " ".join(f"{a:g}" for a in args.bands)
    else:
        cfg = dict(zip(BANDS, args.bands))
        ref = dict(zip(BANDS, model)) if model else cfg
        devs = {fc: means[fc] - ref[fc] for fc in means}
        if not devs:
            print(f"{args.case}: no octave band lies inside {lo:.0f}..{hi:.0f} Hz", file=sys.stderr)
            return 2
        worst_fc = max(devs, key=lambda k: abs(devs[k]))
        worst = devs[worst_fc]
        ok = abs(worst) <= args.tol
        expected = np.interp(np.log(fb), np.log(BANDS), args.bands)
        measured = ", ".join(f"{fc:g} Hz {means[fc]:.3f} (set {cfg[fc]:g}"
                             + (f", wall model {ref[fc]:.3f}" if model else "") + ")"
                             for fc in means)
        threshold = (f"octave-band mean within {args.tol:g} of the wall model" if model else
                     f"octave-band mean within {args.tol:g}")
        config = "absorption_bands = " + " ".join(f"{a:g}" for a in args.bands)

    print(f"{args.case} impedance tube ({config}), band {lo:.0f}..{hi:.0f} Hz: {measured}; "
          f"octave means " + ", ".join(f"{k:g}: {v:.3f}" for k, v in means.items()) +
          f"; threshold {threshold} {'PASS' if ok else 'FAIL'}")
    if args.csv:
        np.savetxt(args.csv, np.column_stack([fb, ab, expected]), delimiter=",",
                   header="f_hz,alpha_measured,alpha_configured", comments="")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"case": args.case, "title": f"impedance tube, {config}",
                       "measured": measured, "threshold": threshold, "pass": bool(ok),
                       "band_hz": [lo, hi], "octave_means": {str(k): v for k, v in means.items()},
                       "worst_deviation": worst}, fh, indent=2)
    return 0 if ok else 1
