"""The fast path (convolution with a simulated RIR) against the paper's direct path (the emitter
driven by the music itself): how far apart are the two renderings?

    python3 -m sphreverb_post compare-paths CLIP.wav RIR.wav DIRECT.wav [--baseline SILENT.wav]
        [--receiver-channel N] [--json FILE] [--plot PNG]

RIR.wav is the receiver record of a run with `input = impulse`, DIRECT.wav that of a run with
`--emitter.input CLIP.wav` (same scene, same duration or longer). The solver is linear in the
emitter's input s, so direct = H[clip] and rir = H[unit sample] give clip * rir = direct, up to
the solver's non-linearity and round-off, plus what the run does with no input at all (residual
motion after stage 1, identical in every run). --baseline, the record of a run driven by
silence, removes that part from both: direct - b = clip * (rir - b).

Prints the relative difference 10 log10(sum (direct - conv)^2 / sum direct^2) in dB over the
direct record's length, the least-squares gain and the best integer lag; exit 0 ok, 2 bad input.
"""
import argparse
import json
import sys

import numpy as np

from sphreverb_post.audio import InputError, read, resample
from sphreverb_post.convolution import convolve


def difference_db(ref, test):
    """10 log10(sum (ref - test)^2 / sum ref^2); -inf for identical records."""
    num = float(np.sum((ref - test) ** 2))
    den = float(np.sum(ref ** 2))
    if den == 0.0:
        raise ValueError("the reference record is silent")
    return 10.0 * np.log10(num / den) if num > 0.0 else -np.inf


def compare(clip, rir, direct, baseline=None):
    """Dict of the comparison (see the module docstring); all inputs mono arrays, same rate."""
    n = len(direct)
    if baseline is not None:
        m = min(len(baseline), len(rir), n)
        rir, direct = rir[:m] - baseline[:m], direct[:m] - baseline[:m]
        n = m
    conv = convolve(clip, rir)[:n, 0]
    if len(conv) < n:
        conv = np.concatenate([conv, np.zeros(n - len(conv))])
    gain = float(np.dot(conv, direct) / np.dot(conv, conv)) if np.any(conv) else float("nan")
    xc = np.correlate(direct, conv, mode="full")
    lag = int(np.argmax(xc)) - (n - 1)
    return {"samples": n, "difference_db": difference_db(direct, conv),
            "difference_after_gain_db": difference_db(direct, gain * conv),
            "gain": gain, "best_lag_samples": lag,
            "direct_rms": float(np.sqrt(np.mean(direct ** 2))),
            "conv_rms": float(np.sqrt(np.mean(conv ** 2)))}, direct, conv


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("clip", help="the dry clip that drove the direct run")
    ap.add_argument("rir", help="receiver record of the impulse run")
    ap.add_argument("direct", help="receiver record of the direct run")
    ap.add_argument("--baseline", help="receiver record of a run driven by silence")
    ap.add_argument("--receiver-channel", type=int, default=0)
    ap.add_argument("--json", help="write the result to this JSON file")
    ap.add_argument("--plot", help="overlay of both renderings and their difference (PNG)")
    args = ap.parse_args(argv)
    try:
        clip, rc = read(args.clip)
        clip = clip.mean(axis=1)            # the solver mixes its input to mono
        recs = {}
        for name in ("rir", "direct", "baseline"):
            path = getattr(args, name)
            if path is None:
                continue
            x, r = read(path)
            if not 0 <= args.receiver_channel < x.shape[1]:
                raise InputError(f"{path}: no channel {args.receiver_channel}")
            recs[name] = (x[:, args.receiver_channel], r)
        rate = recs["direct"][1]
        if any(r != rate for _, r in recs.values()):
            raise InputError("the receiver records have different sample rates")
        if rc != rate:
            clip = resample(clip, rc, rate)  # as the solver does (its own resampler differs)
        res, direct, conv = compare(clip, recs["rir"][0], recs["direct"][0],
                                    recs["baseline"][0] if "baseline" in recs else None)
    except (InputError, ValueError) as e:
        print(f"compare-paths: {e}", file=sys.stderr)
        return 2
    res.update(rate_hz=rate, baseline_removed=args.baseline is not None)
    print(f"direct vs convolved over {res['samples']} samples at {rate} Hz"
          f"{' (no-input baseline removed)' if args.baseline else ''}: difference "
          f"{res['difference_db']:.1f} dB re the direct record, {res['difference_after_gain_db']:.1f}"
          f" dB after the best gain {res['gain']:.5f}; best lag {res['best_lag_samples']} samples")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        t = 1000.0 * np.arange(len(direct)) / rate
        fig, ax = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
        ax[0].plot(t, direct, lw=0.8, label="direct (emitter driven by the clip)")
        ax[0].plot(t, conv, "--", lw=0.8, label="clip * RIR (convolve)")
        ax[0].set(ylabel="pressure (Pa)", title="direct vs convolved rendering")
        ax[0].legend(fontsize=8)
        ax[1].plot(t, direct - conv, lw=0.8, color="k")
        ax[1].set(xlabel="time (ms)", ylabel="difference (Pa)",
                  title=f"difference: {res['difference_db']:.1f} dB re direct")
        for a in ax:
            a.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)
    return 0
