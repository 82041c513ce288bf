"""ISO 3382-1 room-acoustic parameters of an impulse response, per octave band and broadband.

    python3 -m sphreverb_post metrics RIR.wav [--json FILE] [--channel N]

Prints a table of EDT, T20, T30 (s), C50, C80 (dB), D50 (fraction) and Ts (s) for the octaves
125 Hz ... 4 kHz and the unfiltered broadband record; a value whose dynamic-range check fails
is printed in parentheses (see sphreverb_post/iso3382.py for the method and the checks, and
docs/postprocessing.md for the JSON schema). Bands whose upper edge does not
fit below 0.45 x the sample rate are left out. Multi-channel files: channel 0 unless --channel.
A record of an SPH run (a file that the summary.json next to it lists outside its [hybrid]
part) is low-passed at the run's f_max: the octaves whose upper edge lies above it are flagged
"above f_max", as the run's report flags them; their values are the filter's, not the room's.
Exit status: 0 ok, 2 bad input (missing file, not a WAV, silent record, bad option).
"""
import argparse
import json
import os
import sys

from sphreverb_post import iso3382
from sphreverb_post.audio import InputError, read

UNITS = {"EDT": "s", "T20": "s", "T30": "s", "C50": "dB", "C80": "dB", "D50": "-", "Ts": "s"}
FORMAT = {"EDT": "{:.3f}", "T20": "{:.3f}", "T30": "{:.3f}", "C50": "{:.2f}", "C80": "{:.2f}",
          "D50": "{:.3f}", "Ts": "{:.4f}"}


def _file_names(node):
    """Every string value of a summary.json node whose key names a file (wav, raw_wav, ...)."""
    if isinstance(node, dict):
        for k, v in node.items():
            if isinstance(v, str) and (k == "wav" or k.endswith("_wav")):
                yield v
            else:
                yield from _file_names(v)
    elif isinstance(node, list):
        for v in node:
            yield from _file_names(v)


def record_f_max(path):
    """The f_max (Hz) the run low-passed the record ``path`` at, from the summary.json next to
    it: None when there is none, when it does not list the file, or when the file is one of the
    [hybrid] part's full-band responses (geometric above the crossover, not limited by f_max)."""
    summary_path = os.path.join(os.path.dirname(os.path.abspath(path)), "summary.json")
    try:
        with open(summary_path) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(summary, dict):
        return None
    name = os.path.basename(path)
    sph = dict(summary)
    sph.pop("hybrid", None)
    f_max = summary.get("derived", {}).get("f_max_Hz")
    if f_max is None or name not in set(_file_names(sph)):
        return None
    return float(f_max)


def flag_above_f_max(results, f_max):
    """Adds "flags" to every band of ``results``: ["above f_max"] where the band's upper edge
    lies above ``f_max`` (None: no limit known), as the report flags its octaves."""
    for r in results.values():
        above = f_max is not None and r.get("f_hi_hz") is not None and r["f_hi_hz"] > f_max
        r["flags"] = ["above f_max"] if above else []


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
    if meta.get("f_max_hz") is not None:
        lines.append(f"{'f_max':<10}" + "".join(
            f"{'above' if results[k]['flags'] else 'below':>{w}}" if results[k]["fc_hz"]
            else f"{'':>{w}}" for k in keys))
    lines.append("(x): fails its validity check (peak-to-noise ratio PNR below 20/35/45 dB for "
                 "EDT/T20/T30, 20 dB for C/D/Ts, or B*T < 16); t_c: noise-floor crossing "
                 "(Lundeby)")
    above = [k for k in keys if results[k]["flags"]]
    if above:
        lines.append(f"above f_max: {', '.join(f'{k} Hz' for k in above)}: the band's upper edge "
                     f"lies above the run's f_max = {meta['f_max_hz']:.0f} Hz (summary.json); "
                     "the record is low-passed there, so these values are the filter's, not the "
                     "room's")
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
    f_max = record_f_max(args.rir)
    flag_above_f_max(results, f_max)
    meta.update(file=args.rir, channel=ch, channels=int(x.shape[1]), f_max_hz=f_max)
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
