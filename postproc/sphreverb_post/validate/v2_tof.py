"""V2 time of flight: speed of sound from the arrival delay between two receivers.

    python3 -m sphreverb_post validate v2 OUTDIR --near NAME --far NAME --distance METRES
        [--c 343] [--tol 0.01] [--max-delay SECONDS] [--amplitude WAV [--tol-db 1]] [--json FILE]

Reads OUTDIR/NAME.raw.wav for both receivers, measures c = distance / delay (delay by
sub-sample cross-correlation) and compares it with the expected c.

--amplitude WAV (the input the [emitter] disc was driven with, `drive = velocity`) also checks
V2's amplitude: a plane wave in the duct carries p' = rho0 c u, u the mean velocity over the
duct's cross-section. The disc moves at V = gain deflection fs s(t); u = V times the share of
its face (the face of the [room] it stands on) that the disc covers (1 for a piston filling the
duct). Each receiver's spectrum against rho0 c U(f), at the frequencies where
the drive holds energy (|U| within 20 dB of its peak) and below the run's f_max, within --tol-db
at every such frequency, and the peak pressure against rho0 c max u. The records must be the
pressure itself: [output] highpass = 0 and lowpass = false.
Exit status: 0 pass, 1 fail, 2 bad input.
"""
import argparse
import json
import sys

import numpy as np

from sphreverb_post import arrival_delay, read_receiver
from sphreverb_post.audio import read_mono
from sphreverb_post.scene import run_scene, run_summary, vec

DRIVE_BAND_DB = 20.0  # the frequencies checked: |U(f)| within this of its peak


def piston_velocity(scene, wav, rate):
    """The mean velocity over the duct's cross-section (m/s per sample of ``rate``) and the share
    of the disc's face it covers (by area). The disc must stand on a face of the [room] (within dx) and
    be velocity-driven."""
    em, room, fluid = scene.get("emitter", {}), scene.get("room", {}), scene.get("fluid", {})
    if em.get("drive") != "velocity":
        raise ValueError("--amplitude needs [emitter] drive = velocity")
    if "min" not in room or "max" not in room:
        raise ValueError("--amplitude needs a [room] box (the duct)")
    out = scene.get("output", {})
    if float(out.get("highpass", 20.0)) != 0.0 or out.get("lowpass", "true").lower() not in ("false", "0", "no", "off"):
        raise ValueError("--amplitude needs the pressure itself: [output] highpass = 0 and "
                         "lowpass = false")
    lo, hi = vec(room["min"]), vec(room["max"])
    dx = float(fluid["spacing"])
    centre = vec(em["center"])
    normal = vec(em.get("normal", "1 0 0"))
    axis = int(np.argmax(np.abs(normal)))
    if abs(abs(normal[axis]) - np.linalg.norm(normal)) > 1e-9 * np.linalg.norm(normal):
        raise ValueError("--amplitude needs the disc's normal along an axis")
    if min(abs(centre[axis] - lo[axis]), abs(centre[axis] - hi[axis])) > dx:
        raise ValueError("--amplitude needs the disc on a face of the [room] (within dx)")
    radius = float(em.get("radius", 0.025))
    t1, t2 = [a for a in range(3) if a != axis]
    fine = 1000  # midpoint samples of the face per side: the share to ~1e-3
    s1 = lo[t1] + (hi[t1] - lo[t1]) * (np.arange(fine) + 0.5) / fine
    s2 = lo[t2] + (hi[t2] - lo[t2]) * (np.arange(fine) + 0.5) / fine
    g1, g2 = np.meshgrid(s1, s2, indexing="ij")
    share = float(np.mean(np.hypot(g1 - centre[t1], g2 - centre[t2]) <= radius))
    s, wav_rate = read_mono(wav)
    if wav_rate != rate:
        raise ValueError(f"{wav}: {wav_rate} Hz, the records {rate} Hz (give the input at the "
                         "scene's sample rate)")
    gain = float(em.get("gain", 1.0))
    deflection = float(em.get("deflection", 1e-5))
    return share * deflection * rate * gain * s, share


def amplitude_check(p, u, rate, rho0, c, f_max, tol_db):
    """Spectrum of the record against rho0 c U(f) (dB, at the drive's band below f_max) and the
    peak ratio; returns (worst dB, band lo, band hi, peak ratio dB, pass)."""
    n = 1 << int(np.ceil(np.log2(4 * max(len(p), len(u)))))
    P, U = np.fft.rfft(p, n), np.fft.rfft(u, n)
    f = np.fft.rfftfreq(n, 1.0 / rate)
    band = (np.abs(U) >= np.abs(U).max() * 10 ** (-DRIVE_BAND_DB / 20)) & (f <= f_max)
    db = 20 * np.log10(np.abs(P[band]) / (rho0 * c * np.abs(U[band])))
    worst = float(db[np.argmax(np.abs(db))])
    peak = float(20 * np.log10(np.max(np.abs(p)) / (rho0 * c * np.max(np.abs(u)))))
    ok = abs(worst) <= tol_db and abs(peak) <= tol_db
    return worst, float(f[band].min()), float(f[band].max()), peak, ok


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
    ap.add_argument("--amplitude", metavar="WAV",
                    help="also check p' = rho0 c u against the disc's drive (this WAV)")
    ap.add_argument("--tol-db", type=float, default=1.0, help="amplitude tolerance, dB")
    ap.add_argument("--json", help="write the result to this file")
    args = ap.parse_args(argv)

    try:
        if args.distance <= 0.0:
            raise ValueError("--distance must be positive")
        near, rate = read_receiver(args.outdir, args.near)
        far, rate_far = read_receiver(args.outdir, args.far)
        if rate != rate_far:
            raise ValueError(f"sample rates differ: {rate} Hz vs {rate_far} Hz")
        if args.amplitude:
            scene = run_scene(args.outdir)
            u, share = piston_velocity(scene, args.amplitude, rate)
            derived = run_summary(args.outdir)["derived"]
            rho0 = float(scene.get("fluid", {}).get("rest_density", 1.204))
    except (OSError, ValueError, KeyError) as e:
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
    amplitude = {}
    if args.amplitude:
        print(f"V2 amplitude: p' against rho0 c u, the disc covering {100 * share:.1f} % of its "
              f"face (peak u {1e3 * np.max(np.abs(u)):.3f} mm/s, rho0 c u "
              f"{rho0 * args.c * np.max(np.abs(u)):.3f} Pa), within {args.tol_db:g} dB")
        for name, rec in ((args.near, near), (args.far, far)):
            worst, f_lo, f_hi, peak, good = amplitude_check(
                rec, u, rate, rho0, args.c, float(derived["f_max_Hz"]), args.tol_db)
            print(f"  {name}: spectrum {worst:+.3f} dB at worst over {f_lo:.0f}-{f_hi:.0f} Hz, "
                  f"peak {peak:+.3f} dB {'PASS' if good else 'FAIL'}")
            amplitude[name] = {"worst_db": worst, "band_hz": [f_lo, f_hi], "peak_db": peak,
                               "pass": bool(good)}
            ok = ok and good
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V2 time of flight", "near": args.near, "far": args.far,
                       "distance_m": args.distance, "rate_hz": rate, "delay_s": delay,
                       "c_measured": c if delay > 0.0 else None, "c_expected": args.c,
                       "rel_error": err if delay > 0.0 else None, "tol": args.tol,
                       "amplitude": amplitude or None, "tol_db": args.tol_db,
                       "pass": bool(ok)}, f, indent=2)
    return 0 if ok else 1
