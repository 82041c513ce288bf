"""One figure of an impulse response: waveform, spectrum (with the analytic rigid-box modes when
--room is given), spectrogram and Schroeder energy decay curve.

    python3 -m sphreverb_post rir RIR.wav --out PNG [--room LX LY LZ] [--c 343] [--fmax HZ]
        [--max-modes 60] [--channel N]

Modes f = (c/2) sqrt((nx/Lx)^2 + (ny/Ly)^2 + (nz/Lz)^2) are drawn up to --fmax (default the
Nyquist frequency), at most --max-modes of them (lowest first); --fmax also limits the
spectrum's and the spectrogram's frequency axes. The Schroeder curve starts at
the ISO 3382-1 onset and is truncated at the Lundeby noise-floor crossing with the tail's
energy compensated (as the metrics subcommand does). Exit status: 0 ok, 2 bad input.
"""
import argparse
import sys

from sphreverb_post import plots
from sphreverb_post.audio import InputError, read


def make_figure(x, rate, room=None, c=343.0, fmax=None, max_modes=60, title=""):
    """The 2 x 2 figure; returns (figure, the marked modes)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(2, 2, figsize=(12, 8))
    plots.waveform(ax[0, 0], x, rate)
    marked = plots.spectrum(ax[0, 1], x, rate, room, c, fmax, max_modes)
    plots.spectrogram(ax[1, 0], x, rate, fmax)
    plots.edc(ax[1, 1], x, rate)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    return fig, marked


def main(argv=None, prog=None):
    ap = argparse.ArgumentParser(prog=prog, description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rir", help="impulse response WAV")
    ap.add_argument("--out", required=True, help="PNG to write")
    ap.add_argument("--room", type=float, nargs=3, metavar=("LX", "LY", "LZ"),
                    help="rigid box dimensions in m: mark its modes")
    ap.add_argument("--c", type=float, default=343.0, help="speed of sound, m/s (default 343)")
    ap.add_argument("--fmax", type=float, default=None, help="highest frequency shown, Hz")
    ap.add_argument("--max-modes", type=int, default=60, help="at most this many mode markers")
    ap.add_argument("--channel", type=int, default=0, help="channel of a multi-channel WAV")
    args = ap.parse_args(argv)
    try:
        if args.room is not None and min(args.room) <= 0.0:
            raise InputError(f"--room {args.room}: dimensions must be positive (m)")
        if not 1.0 <= args.c <= 10000.0:
            raise InputError(f"--c {args.c}: outside [1, 10000] m/s")
        if args.fmax is not None and args.fmax <= 0.0:
            raise InputError(f"--fmax {args.fmax}: must be positive (Hz)")
        x, rate = read(args.rir)
        if not 0 <= args.channel < x.shape[1]:
            raise InputError(f"--channel {args.channel}: {args.rir} has {x.shape[1]} channel(s)")
        fig, marked = make_figure(x[:, args.channel], rate, args.room, args.c, args.fmax,
                                  args.max_modes, f"{args.rir} (channel {args.channel}, "
                                                  f"{rate} Hz)")
    except (InputError, ValueError) as e:
        print(f"rir: {e}", file=sys.stderr)
        return 2
    try:
        fig.savefig(args.out, dpi=110)
    except OSError as e:
        print(f"rir: cannot write {args.out}: {e}", file=sys.stderr)
        return 2
    print(f"rir: wrote {args.out}" + (f" ({len(marked)} modes marked, lowest "
                                         f"{marked[0][0]:.1f} Hz {marked[0][1]})"
                                         if marked else ""))
    return 0
