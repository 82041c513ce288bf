"""Reverberate a dry recording with a (simulated) room impulse response by FFT convolution.

    python3 -m sphreverb_post convolve DRY.wav RIR.wav OUT.wav [--peak-db -1 | --no-normalize]
        [--format pcm16|float] [--no-resample] [--trim] [--mono]

The fast path for music: simulate the RIR once, convolve any recording with it. If the two
sample rates differ, the dry signal is resampled to the RIR's rate (exact rational polyphase
resampling) unless --no-resample, which refuses instead. Channels: equal counts pair up, a mono
side feeds every channel of the other (mono music + stereo RIR -> stereo). --mono mixes the dry
recording to one channel (the mean) first: the way to play music through one source's binaural
(NAME.binaural.wav: left, right ear) or Ambisonic (NAME.amb.raw.wav: W Y Z X) impulse response,
whose channels are not a stereo pair. By default the output
is scaled so its peak sits at --peak-db dBFS (-1); --no-normalize keeps the raw product (then
16-bit output may clip: the clipped sample count is reported). Output: 16-bit PCM (default) or
32-bit float, full length len(dry) + len(rir) - 1 unless --trim (dry length plus nothing).
Exit status: 0 ok, 2 bad input.
"""
import argparse
import sys

import numpy as np

from sphreverb_post import audio
from sphreverb_post.audio import InputError
from sphreverb_post.convolution import convolve


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dry", help="dry (anechoic) recording, WAV")
    ap.add_argument("rir", help="impulse response, WAV (e.g. OUT/NAME.raw.wav)")
    ap.add_argument("out", help="output WAV")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--peak-db", type=float, default=-1.0, help="output peak, dBFS (default -1)")
    g.add_argument("--no-normalize", action="store_true", help="keep the raw convolution scale")
    ap.add_argument("--format", choices=("pcm16", "float"), default="pcm16")
    ap.add_argument("--no-resample", action="store_true",
                    help="refuse differing sample rates instead of resampling the dry signal")
    ap.add_argument("--trim", action="store_true", help="cut the output to the dry length")
    ap.add_argument("--mono", action="store_true",
                    help="mix the dry recording to mono first (for binaural or Ambisonic "
                         "impulse responses: one source, every channel of the RIR)")
    args = ap.parse_args(argv)
    try:
        if args.peak_db > 0.0:
            raise InputError(f"--peak-db {args.peak_db}: must be <= 0 dBFS")
        dry, rate_d = audio.read(args.dry)
        if args.mono:
            dry = dry.mean(axis=1, keepdims=True)
        rir, rate = audio.read(args.rir)
        if rate_d != rate:
            if args.no_resample:
                raise InputError(f"sample rates differ: {args.dry} is {rate_d} Hz, {args.rir} is "
                                 f"{rate} Hz (drop --no-resample to resample the dry signal)")
            dry = audio.resample(dry, rate_d, rate)
            print(f"convolve: resampled {args.dry} from {rate_d} Hz to {rate} Hz")
        y = convolve(dry, rir)
    except (InputError, ValueError) as e:
        print(f"convolve: {e}", file=sys.stderr)
        return 2
    if args.trim:
        y = y[:dry.shape[0]]
    peak = float(np.max(np.abs(y))) if y.size else 0.0
    if not args.no_normalize and peak > 0.0:
        y = y * (10.0 ** (args.peak_db / 20.0) / peak)
    try:
        clipped = audio.write(args.out, y[:, 0] if y.shape[1] == 1 else y, rate, args.format)
    except OSError as e:
        print(f"convolve: cannot write {args.out}: {e}", file=sys.stderr)
        return 2
    gain = "raw scale" if args.no_normalize else f"normalised to {args.peak_db:g} dBFS"
    print(f"convolve: wrote {args.out}: {y.shape[0]} samples x {y.shape[1]} channel(s) at "
          f"{rate} Hz ({y.shape[0] / rate:.3f} s, {args.format}); raw peak {peak:.6g} "
          f"({20 * np.log10(peak) if peak > 0 else -np.inf:.2f} dBFS), {gain}"
          + (f"; {clipped} samples clipped" if clipped else ""))
    return 0
