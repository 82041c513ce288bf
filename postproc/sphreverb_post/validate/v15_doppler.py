"""V15 Doppler: the frequency a receiver hears from a moving source, or while it moves itself.

    python3 -m sphreverb_post validate v15 OUTDIR --source NAME --receivers R1 R2 ... --tone HZ
        [--ends LO HI] [--axis 0] [--c 343] [--window 0.003] [--start 0.0025] [--tol 0.005]
        [--json FILE] [--reflector NAME --burst SECONDS [--onset SECONDS] [--subtract RUN]
        [--direct]] [--level A B [--level-tol DB]]

Source and receiver paths (linear keyframes, or fixed positions) are read from the scene echoed
in OUTDIR/summary.json ([emitter.NAME] path/position, [receiver.NAME] path/position, command-line
overrides applied). For a receiver time t the emission time tau solves
t - tau = |x_r(t) - x_s(tau)| / c (bisection); the received phase is 2 pi f tau(t), so the
predicted frequency is f dtau/dt: f c / (c - v cos theta) for a moving source, f (c + v cos theta)
/ c for a moving receiver. The measured frequency is the slope of the unwrapped phase of the
analytic signal (scipy.signal.hilbert of OUTDIR/NAME.raw.wav, band-passed to 0.5 .. 2 f, zero
phase) fitted over windows of --window s,
taken where the whole window hears emissions from --start s (after the tone's fade-in) until the
source's or the receiver's last keyframe, and (--ends: the walls at LO and HI along --axis) before
the first reflection off either of them arrives. Pass: every window within --tol (relative) of the
prediction. Exit status: 0 pass, 1 fail, 2 bad input.

With --reflector NAME (a moving object, [boundary.NAME] path, a plate filling a duct along
--axis): the sound reflected by it, f (c + v) / (c - v) for a fixed source and receiver and a
plate moving towards them. For a receiver time t the reflection time t_h solves
t - t_h = |x_r(t) - X(t_h)| / c (X the plate's centre), and the emission time tau the same from
X(t_h) to the source; the predicted frequency is f dtau/dt. A window is kept when its emissions
lie in [--start, --burst - --guard] (the tone is a burst that ends at --burst s), the direct sound
of the burst (and its image in each --ends wall) has passed --guard s before it, and the
reflection's own echo off an --ends wall has not yet arrived (--guard s margin): the echo of
emissions from --onset s on (the tone's start; the input is silent before it).

--subtract RUN (with --reflector): RUN is the same scene run with the tone silenced (e.g.
--emitter.NAME.gain 0), so the same plate motion. Its records are subtracted sample by sample
from OUTDIR's before the analysis: the plate's own sound (its start, its motion through the
particles) is the same in both runs of the deterministic solver and cancels, leaving the tone's
field with the moving plate (exact where the air is linear in the tone; the cross terms of the
tone with the plate's own field are of second order). --direct (with --reflector) also measures
the incident tone at each receiver, before the reflection arrives, against the tone itself
(a control of the same record; rows named "NAME direct", judged by the same --tol).

--level A B (a moving source, receivers A and B at rest, in a duct: plane waves): the level of
the tone at A over its level at B, against the convective amplification of a moving monopole.
The source adds mass at the rate rho0 Q(t) at x_s(t), Q fixed in its own frame
(model/point_source.hpp); the 1-D Green's function of (1/c^2) p_tt - p_xx = (rho0/A) dQ/dt
delta(x - x_s(t)) gives p(x, t) = rho0 c Q(tau) dtau/dt / (2A), tau the emission time:
dtau/dt = 1 / (1 - M cos theta), the same factor as the frequency's, so A / B =
(1 + M) / (1 - M) ahead of and behind a source at Mach M. The model's two smoothings act at the
wavenumber k = 2 pi f' / c each receiver hears (f' the shifted frequency): the source's Gaussian
of standard deviation s = width dx, exp(-k^2 s^2 / 2) (its spectrum along the duct: the
cross-section's integral of the 3-D Gaussian is the 1-D one), and the receiver's kernel
interpolation, the kernel's 3-D Fourier transform at k. The level of a window is the mean
envelope of the band-passed analytic signal divided by the band-pass's zero-phase gain |H(f')|^2
at the predicted frequency; a receiver's level is the mean over its windows (the frequency's
windows). Pass also needs |20 log10(measured / predicted ratio)| <= --level-tol dB.
"""
import argparse
import json
import os
import sys

import numpy as np
from scipy.signal import butter, hilbert, sosfiltfilt, sosfreqz

from sphreverb_post import read_receiver
from sphreverb_post.scene import run_scene as scene_sections


class LinearPath:
    """Keyframes (t, x): linear between them, or smooth (cubic Hermite with Catmull-Rom tangents,
    at rest at both ends), at rest outside (model/path.hpp)."""

    def __init__(self, keys, smooth=False):
        self.t = np.array([k[0] for k in keys])
        self.x = np.array([k[1] for k in keys])
        self.smooth = smooth

    @classmethod
    def of(cls, sec, name, key="position"):
        smooth = sec.get("interpolation", "linear") == "smooth"
        if "path" in sec:
            keys = []
            for group in sec["path"].split(";"):
                w = [float(v) for v in group.split()]
                if w:
                    keys.append((w[0], np.array(w[1:4])))
            return cls(keys, smooth)
        if key in sec:
            return cls([(0.0, np.array([float(v) for v in sec[key].split()]))])
        raise ValueError(f"[{name}] has neither path nor {key}")

    def tangent(self, k):
        if k == 0 or k + 1 >= self.t.size:
            return np.zeros(3)
        return (self.x[k + 1] - self.x[k - 1]) / (self.t[k + 1] - self.t[k - 1])

    def at(self, t):
        if not self.smooth or self.t.size < 2 or t <= self.t[0] or t >= self.t[-1]:
            return np.array([np.interp(t, self.t, self.x[:, a]) for a in range(3)])
        k = int(np.searchsorted(self.t, t, side="right")) - 1
        span = self.t[k + 1] - self.t[k]
        u = (t - self.t[k]) / span
        u2, u3 = u * u, u * u * u
        return (self.x[k] * (2 * u3 - 3 * u2 + 1) + self.tangent(k) * span * (u3 - 2 * u2 + u)
                + self.x[k + 1] * (-2 * u3 + 3 * u2) + self.tangent(k + 1) * span * (u3 - u2))

    def end(self):
        return float(self.t[-1])


def emission_time(t, rec, src, c, mirror=None):
    """tau with t - tau = |x_r(t) - x_s(tau)| / c (bisection; the source slower than c);
    mirror = (axis, wall): the same for the source's image in that wall."""
    xr = rec.at(t)
    lo, hi = t - 100.0, t  # g(lo) > 0 > g(hi) unless they coincide

    def xs(tau):
        x = src.at(tau)
        if mirror is not None:
            x[mirror[0]] = 2.0 * mirror[1] - x[mirror[0]]
        return x
    g = lambda tau: t - tau - np.linalg.norm(xr - xs(tau)) / c
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if g(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


class Fixed:
    """A point at rest (the reflection point, for the path from the source to it)."""

    def __init__(self, x):
        self.x = np.asarray(x)

    def at(self, t):
        return self.x


def reflected_emission(t, rec, src, plate, c, mirror=None):
    """Emission time of the sound reflected once by the moving plate and heard at time t
    (mirror = (axis, wall): heard through the receiver's image in that wall, i.e. the echo)."""
    hearer = rec
    if mirror is not None:
        xr = rec.at(t).copy()
        xr[mirror[0]] = 2.0 * mirror[1] - xr[mirror[0]]
        hearer = Fixed(xr)
    th = emission_time(t, hearer, plate, c)
    return emission_time(th, Fixed(plate.at(th)), src, c)


def direct_windows(args, name, rec, src, plate, t, phase, win, edge):
    """Windows that hear the incident tone (and its fixed images in the --ends walls, of the same
    frequency for a fixed source and receiver) before the plate's reflection of the burst's
    onset arrives."""
    rows = []
    for i0 in range(edge, t.size - win - edge, win // 2):
        t0, t1 = t[i0], t[i0 + win - 1]
        if emission_time(t0, rec, src, args.c) < args.start:
            continue
        if emission_time(t1, rec, src, args.c) > args.burst - args.guard:
            continue
        if reflected_emission(t1 + args.guard, rec, src, plate, args.c) >= args.onset:
            continue  # the reflection has arrived
        measured = np.polyfit(t[i0:i0 + win], phase[i0:i0 + win], 1)[0] / (2 * np.pi)
        tm = 0.5 * (t0 + t1)
        rows.append({"receiver": f"{name} direct", "t_s": float(tm),
                     "measured_Hz": float(measured), "predicted_Hz": float(args.tone),
                     "error": float(measured / args.tone - 1.0)})
    return rows


def reflector_windows(args, name, rec, src, plate, t, phase, win, edge):
    rows = []
    ends = args.ends or []
    for i0 in range(edge, t.size - win - edge, win // 2):
        t0, t1 = t[i0], t[i0 + win - 1]
        direct = [emission_time(t0, rec, src, args.c)] + [
            emission_time(t0, rec, src, args.c, (args.axis, w)) for w in ends]
        if min(direct) < args.burst + args.guard:
            continue  # the direct burst is still passing
        tau0 = reflected_emission(t0, rec, src, plate, args.c)
        tau1 = reflected_emission(t1, rec, src, plate, args.c)
        if tau0 < args.start or tau1 > args.burst - args.guard:
            continue
        if any(reflected_emission(t1 + args.guard, rec, src, plate, args.c, (args.axis, w))
               >= args.onset for w in ends):
            continue  # the reflection's echo off an end has arrived
        measured = np.polyfit(t[i0:i0 + win], phase[i0:i0 + win], 1)[0] / (2 * np.pi)
        tm, dt = 0.5 * (t0 + t1), 1e-5
        predicted = args.tone * (reflected_emission(tm + dt, rec, src, plate, args.c)
                                 - reflected_emission(tm - dt, rec, src, plate, args.c)) / (2 * dt)
        rows.append({"receiver": name, "t_s": float(tm), "measured_Hz": float(measured),
                     "predicted_Hz": float(predicted),
                     "error": float(measured / predicted - 1.0)})
    return rows


def kernel_transform(kind, h, k):
    """The 3-D Fourier transform of a smoothing kernel (physics/kernel.hpp, support 2h, unit
    integral) at wavenumber k (rad/m): int W(r) sin(kr)/(kr) 4 pi r^2 dr, by quadrature."""
    r = np.linspace(0.0, 2.0 * h, 4001)
    q = r / h
    if kind == "wendland_c2":
        w = (1.0 - 0.5 * q) ** 4 * (2.0 * q + 1.0)
    elif kind == "cubic_spline":
        w = np.where(q < 1.0, 1.0 - 1.5 * q * q + 0.75 * q ** 3, 0.25 * (2.0 - q) ** 3)
    else:
        raise ValueError(f"unknown kernel {kind}")
    shell = w * r * r
    return float(np.trapz(shell * np.sinc(k * r / np.pi), r) / np.trapz(shell, r))


def smoothing_gain(f_heard, c, sigma, kernel, h):
    """The pressure gain of the source's Gaussian (standard deviation sigma, m) and the receiver's
    kernel (kind, h m) on a plane wave of frequency f_heard (Hz)."""
    k = 2.0 * np.pi * f_heard / c
    return float(np.exp(-0.5 * (k * sigma) ** 2)) * kernel_transform(kernel, h, k)


def level_check(args, sec, summary, rows, tone_sos, rate):
    """Per receiver of --level: measured and predicted level (arbitrary common unit), and the
    ratio's error in dB. Rows carry "amplitude" (the window's level, band-pass undone)."""
    spacing = float(sec["fluid"]["spacing"])
    source = sec[f"emitter.{args.source}"]
    sigma = float(source.get("width", "1.5")) * spacing  # config/schema.cpp: width default 1.5
    kernel = sec.get("fluid", {}).get("kernel", "wendland_c2")
    h = float(summary["derived"]["h_m"])
    out = {}
    for name in args.level:
        rr = [r for r in rows if r["receiver"] == name]
        heard = np.array([r["predicted_Hz"] for r in rr])
        _, H = sosfreqz(tone_sos, worN=heard, fs=rate)
        amps = np.array([r["amplitude"] for r in rr]) / np.abs(H) ** 2
        for r, a in zip(rr, amps):
            r["level"] = float(a)
        convective = heard / args.tone  # dtau/dt
        model = np.array([smoothing_gain(f, args.c, sigma, kernel, h) for f in heard])
        out[name] = {"measured": float(np.mean(amps)),
                     "scatter": float(np.std(amps) / np.mean(amps)),
                     "convective": float(np.mean(convective)),
                     "predicted": float(np.mean(convective * model))}
    a, b = (out[n] for n in args.level)
    ratio = a["measured"] / b["measured"]
    result = {"receivers": list(args.level), "per_receiver": out, "ratio": ratio,
              "ratio_dB": float(20 * np.log10(ratio)),
              "convective_ratio_dB": float(20 * np.log10(a["convective"] / b["convective"])),
              "predicted_ratio_dB": float(20 * np.log10(a["predicted"] / b["predicted"]))}
    result["error_dB"] = result["ratio_dB"] - result["predicted_ratio_dB"]
    return result


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--source", required=True, help="NAME of [emitter.NAME]")
    ap.add_argument("--receivers", nargs="+", required=True)
    ap.add_argument("--tone", type=float, required=True, help="the input's frequency, Hz")
    ap.add_argument("--c", type=float, default=343.0)
    ap.add_argument("--ends", type=float, nargs="+", help="reflecting walls along --axis, m")
    ap.add_argument("--axis", type=int, default=0)
    ap.add_argument("--window", type=float, default=0.003, help="s")
    ap.add_argument("--start", type=float, default=0.0025, help="first emission time used, s")
    ap.add_argument("--tol", type=float, default=0.005, help="relative")
    ap.add_argument("--json")
    ap.add_argument("--reflector", help="NAME of a moving [boundary.NAME]: its reflection")
    ap.add_argument("--burst", type=float, help="with --reflector: the tone's end, s")
    ap.add_argument("--guard", type=float, default=0.001, help="with --reflector: margin, s")
    ap.add_argument("--onset", type=float, default=0.0,
                    help="with --reflector: the tone's first emission, s (silence before it)")
    ap.add_argument("--subtract", metavar="RUN",
                    help="with --reflector: the same run with the tone silenced, subtracted")
    ap.add_argument("--direct", action="store_true",
                    help="with --reflector: also the incident tone before the reflection (control)")
    ap.add_argument("--level", nargs=2, metavar=("A", "B"),
                    help="moving source, receivers at rest: level at A over level at B")
    ap.add_argument("--level-tol", type=float, default=0.2, help="with --level: dB")
    args = ap.parse_args(argv)
    if args.reflector and args.burst is None:
        print("V15 Doppler: bad input: --reflector needs --burst", file=sys.stderr)
        return 2
    if (args.subtract or args.direct) and not args.reflector:
        print("V15 Doppler: bad input: --subtract and --direct need --reflector", file=sys.stderr)
        return 2
    if args.level and (args.reflector or any(n not in args.receivers for n in args.level)):
        print("V15 Doppler: bad input: --level needs two of --receivers and no --reflector",
              file=sys.stderr)
        return 2
    try:
        sec = scene_sections(args.outdir)
        src = LinearPath.of(sec[f"emitter.{args.source}"], f"emitter.{args.source}")
        plate = None
        if args.reflector:
            name = f"boundary.{args.reflector}"
            plate = LinearPath.of(sec[name], name, key="center")
            if args.subtract:
                silent = scene_sections(args.subtract).get(name, {})
                if silent.get("path") != sec[name].get("path"):
                    raise ValueError(f"{args.subtract}: [{name}] path differs from {args.outdir}'s")
        rows = []
        names = list(args.receivers)
        for name in args.receivers:
            rec = LinearPath.of(sec[f"receiver.{name}"], f"receiver.{name}")
            x, rate = read_receiver(args.outdir, name)
            if args.subtract:
                y, rate_y = read_receiver(args.subtract, name)
                if rate_y != rate or y.size != x.size:
                    raise ValueError(f"{name}: {args.subtract}'s record differs in rate or length")
                x = x - y
            t = np.arange(x.size) / rate
            # The tone's band only (zero phase): a duct carries the source's volume velocity,
            # whose high-pass transient is a slow swing beside the tone.
            sos = butter(4, [0.5 * args.tone, 2.0 * args.tone], btype="bandpass", fs=rate,
                         output="sos")
            analytic = hilbert(sosfiltfilt(sos, x))
            phase, envelope = np.unwrap(np.angle(analytic)), np.abs(analytic)
            moving_until = max(src.end(), rec.end())
            win = int(round(args.window * rate))
            edge = win  # Hilbert edge effects at the record's ends
            if plate is not None:
                rows += reflector_windows(args, name, rec, src, plate, t, phase, win, edge)
                if not any(r["receiver"] == name for r in rows):
                    raise ValueError(f"{name}: no window hears the reflection alone")
                if args.direct:
                    rows += direct_windows(args, name, rec, src, plate, t, phase, win, edge)
                    if not any(r["receiver"] == f"{name} direct" for r in rows):
                        raise ValueError(f"{name}: no window hears the incident tone alone")
                    names.append(f"{name} direct")
                continue
            for i0 in range(edge, x.size - win - edge, win // 2):
                t0, t1 = t[i0], t[i0 + win - 1]
                tau0 = emission_time(t0, rec, src, args.c)
                tau1 = emission_time(t1, rec, src, args.c)
                if tau0 < args.start or t1 > moving_until or tau1 > moving_until:
                    continue
                if args.ends and any(emission_time(t1, rec, src, args.c, (args.axis, w)) >= 0.0
                                     for w in args.ends):
                    continue  # a reflection has arrived
                measured = np.polyfit(t[i0:i0 + win], phase[i0:i0 + win], 1)[0] / (2 * np.pi)
                tm, dt = 0.5 * (t0 + t1), 1e-5
                predicted = args.tone * (emission_time(tm + dt, rec, src, args.c)
                                         - emission_time(tm - dt, rec, src, args.c)) / (2 * dt)
                rows.append({"receiver": name, "t_s": float(tm), "measured_Hz": float(measured),
                             "predicted_Hz": float(predicted),
                             "error": float(measured / predicted - 1.0),
                             "amplitude": float(np.mean(envelope[i0:i0 + win]))})
            if not any(r["receiver"] == name for r in rows):
                raise ValueError(f"{name}: no window hears the moving part of the run")
            if args.level and name in args.level and rec.t.size > 1:
                raise ValueError(f"--level: [receiver.{name}] moves")
        level = None
        if args.level:
            with open(os.path.join(args.outdir, "summary.json")) as f:
                level = level_check(args, sec, json.load(f), rows, sos, rate)
    except (OSError, ValueError, KeyError) as e:
        print(f"V15 Doppler: bad input: {e}", file=sys.stderr)
        return 2
    worst = max(abs(r["error"]) for r in rows)
    ok = worst <= args.tol
    via = f", reflected by [boundary.{args.reflector}]" if args.reflector else ""
    if args.subtract:
        via += f", minus the silent run {args.subtract}"
    print(f"V15 Doppler: tone {args.tone:g} Hz from [emitter.{args.source}]{via}")
    for name in names:
        rr = [r for r in rows if r["receiver"] == name]
        m = np.mean([r["measured_Hz"] for r in rr])
        p = np.mean([r["predicted_Hz"] for r in rr])
        e = max(abs(r["error"]) for r in rr)
        print(f"  {name:<12} {len(rr):>3} windows: measured {m:8.2f} Hz, predicted {p:8.2f} Hz, "
              f"mean error {100 * (m / p - 1):+.3f} %, worst window {100 * e:.3f} %")
    print(f"V15 Doppler: worst window {100 * worst:.3f} % (threshold {100 * args.tol:.2f} %) "
          f"{'PASS' if ok else 'FAIL'}")
    if level is not None:
        a, b = level["receivers"]
        for name in level["receivers"]:
            r = level["per_receiver"][name]
            print(f"  level {name:<12} {r['measured']:.5g} (window scatter "
                  f"{100 * r['scatter']:.2f} %), 1/(1 - M cos theta) = {r['convective']:.4f}")
        level_ok = abs(level["error_dB"]) <= args.level_tol
        print(f"V15 level: {a}/{b} {level['ratio_dB']:+.3f} dB, predicted "
              f"{level['predicted_ratio_dB']:+.3f} dB (convective "
              f"{level['convective_ratio_dB']:+.3f} dB, with the source's Gaussian and the "
              f"receiver's kernel), error {level['error_dB']:+.3f} dB (threshold "
              f"{args.level_tol:.2f} dB) {'PASS' if level_ok else 'FAIL'}")
        ok = ok and level_ok
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"case": "V15", "title": "Doppler shift",
                       "measured": f"worst window {100 * worst:.3f} %",
                       "threshold": f"{100 * args.tol:.2f} %", "pass": bool(ok),
                       "worst_relative_error": worst, "windows": rows,
                       "level": level}, f, indent=2)
    return 0 if ok else 1
