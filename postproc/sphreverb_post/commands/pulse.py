"""Writes a Hann-window pulse (a smooth, band-limited click) as a float WAV, for driving the
emitter in validation runs.

    python3 -m sphreverb_post pulse OUT.wav [--rate 44100] [--width 0.0015] [--total 0.01]
        [--tone HZ] [--second-derivative] [--delay SECONDS]

The pulse is 0.5 (1 - cos(2 pi t / width)) for 0 <= t <= width, zero after, peak 1; its spectrum
has its first null at 2 / width (1.33 kHz for 1.5 ms) and most of its energy below 1 / width.
With --tone: a sine of HZ over the whole file instead, faded in over the first `width` s by the
pulse's rising half (the Doppler cases, V15); --delay puts silence before it. With --second-derivative: cos(2 pi t / width) over
the pulse, the Hann's second derivative up to a factor: a monopole driven by it (its Q' follows
the input) injects no net volume (V14's box modes).
"""
import argparse

import numpy as np
import scipy.io.wavfile as wavfile


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--rate", type=int, default=44100, help="sample rate, Hz")
    ap.add_argument("--width", type=float, default=0.0015, help="pulse length, s")
    ap.add_argument("--total", type=float, default=0.01, help="file length, s")
    ap.add_argument("--tone", type=float, help="a faded-in sine of this frequency, Hz")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="silence before the signal, s (the file grows by it)")
    ap.add_argument("--second-derivative", action="store_true",
                    help="the Hann pulse's second derivative shape (zero net volume)")
    args = ap.parse_args(argv)
    n = max(int(round(args.total * args.rate)), 1)
    t = np.arange(n) / args.rate
    if args.tone:
        fade = np.where(t <= args.width, 0.5 * (1.0 - np.cos(np.pi * t / args.width)), 1.0)
        x = fade * np.sin(2.0 * np.pi * args.tone * t)
    elif args.second_derivative:
        x = np.where(t <= args.width, np.cos(2.0 * np.pi * t / args.width), 0.0)
    else:
        x = np.where(t <= args.width, 0.5 * (1.0 - np.cos(2.0 * np.pi * t / args.width)), 0.0)
    x = np.concatenate([np.zeros(int(round(args.delay * args.rate))), x])
    wavfile.write(args.out, args.rate, x.astype(np.float32))
    return 0
