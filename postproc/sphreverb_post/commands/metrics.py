"""ISO 3382-1 room-acoustic parameters of an impulse response, per octave band and broadband.

    python3 -m sphreverb_post metrics RIR.wav [--json FILE] [--channel N]

Prints a table of EDT, T20, T30 (s), C50, C80 (dB), D50 (fraction) and Ts (s) for the octaves
125 Hz ... 4 kHz and the unfiltered broadband record; a value whose dynamic-range check fails
is printed in parentheses (see sphreverb_post/iso3382.py for the method and the checks, and
docs/postprocessing.md for the JSON schema). Bands whose upper edge does not
fit below 0.45 x the sample rate are left out. Multi-channel files: channel 0 unless --channel.
Exit status: 0 ok, 2 bad input (missing file, not a WAV, silent record, bad option).
"""
import argparse
import json
import sys

from sphreverb_post import iso3382
from sphreverb_post.audio import InputError, read

UNITS = {"EDT": "s", "T20": "s", "T30": "s", "C50": "dB", "C80": "dB", "D50": "-", "Ts": "s"}
FORMAT = {"EDT": "{:.3f}", "T20": "{:.3f}", "T30": "{:.3f}", "C50": "{:.2f}", "C80": "{:.2f}",
          "D50": "{:.3f}", "Ts": "{:.4f}"}


def table(results, meta, path, channel, channels):
    """The printed table: one column per band, invalid values in parentheses."""
    keys = list(results)
    head = [k if k == "broadband" else f"{k} Hz" for k in keys]
    lines = [f"{path}: channel {channel} of {channels}, {meta['rate_hz']} Hz, "
             f"{meta['duration_s']:.3f} s, onset at {1000 * meta['onset_s']:.2f} ms "
             f"(ISO 3382-1: first sample within 20 dB of the peak)"]
    w = 11
    lines.append(f"{'':<10}" + "".join(f"{h:>{w}}" for h in head))
    for p in iso3382.PARAMETERS:
        cells = []
        for k in keys:
            v = results[k][p]
            s = "-" if v is None else FORMAT[p].format(v)
            cells.append(s if results[k]["valid"][p] else f"({s})")
        lines.append(f"{p + ' (' + UNITS[p] + ')':<10}" + "".join(f"{c:>{w}}" for c in cells))
    lines.append(f"{'PNR (dB)':<10}" + "".join(f"{results[k]['dynamic_range_db']:>{w}.1f}"
                                               for k in keys))
    lines.append(f"{'t_c (s)':<10}" + "".join(f"{results[k]['crossing_s']:>{w}.3f}"
                                              for k in keys))
    lines.append("(x): fails its validity check (peak-to-noise ratio PNR below 20/35/45 dB for "
                 "EDT/T20/T30, 20 dB for C/D/Ts, or B*T < 16); t_c: noise-floor crossing "
                 "(Lundeby)")
    if meta["skipped_bands"]:
        lines.append("left out (above 0.45 fs): " + ", ".join(f"{b} Hz"
                                                            for b in meta["skipped_bands"]))
    return "\n".join(lines)


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rir", help="impulse response WAV (e.g. OUT/NAME.raw.wav)")
    ap.add_argument("--json", help="write the parameters to this JSON file")
    ap.add_argument("--channel", type=int, default=None, help="channel of a multi-channel WAV")
    args = ap.parse_args(argv)
    try:
        x, rate = read(args.rir)
        ch = 0 if args.channel is None else args.channel
        if not 0 <= ch < x.shape[1]:
            raise InputError(f"--channel {ch}: {args.rir} has {x.shape[1]} channel(s)")
        results, meta = iso3382.analyse(x[:, ch], rate)
    except (InputError, ValueError) as e:
        print(f"metrics: {e}", file=sys.stderr)
        return 2
    meta.update(file=args.rir, channel=ch, channels=int(x.shape[1]))
    print(table(results, meta, args.rir, ch, x.shape[1]))
    if args.json:
        out = dict(results)
        out["meta"] = meta
        try:
            with open(args.json, "w") as f:
                json.dump(out, f, indent=1)
        except OSError as e:
            print(f"metrics: cannot write {args.json}: {e}", file=sys.stderr)
            return 2
    return 0
