"""The command line: ``python3 -m sphreverb_post SUBCOMMAND [ARGS]``, one module per subcommand.

Each subcommand is a module with ``main(argv, prog)`` returning the exit status (0 ok or pass,
1 fail, 2 bad input) and its own --help. Tools live in ``sphreverb_post.commands``, the
validation checks (one per case of docs/validation.md) in ``sphreverb_post.validate``; a module
is imported only when its subcommand runs.
"""
import importlib
import sys

PROG = "python3 -m sphreverb_post"

# name -> (module in sphreverb_post.commands, one-line summary)
COMMANDS = {
    "report": ("report", "one HTML page of a run: scene, materials, figures, ISO 3382-1 tables"),
    "metrics": ("metrics", "ISO 3382-1 parameters (EDT, T20, T30, C50, C80, D50, Ts) of an RIR"),
    "rir": ("rir", "figure of an RIR: waveform, spectrum with box modes, spectrogram, EDC"),
    "convolve": ("convolve", "reverberate a dry recording with an RIR (FFT convolution)"),
    "compare": ("compare", "an RIR's T per octave against Sabine, Eyring and the box modes"),
    "compare-paths": ("compare_paths", "convolution with an RIR against the directly driven run"),
    "render": ("render", "PNG of a snapshot's or checkpoint's mid-plane slice (ParaView)"),
    "drive-spectrum": ("drive_spectrum", "radiated spectrum slope of the emitter's drives"),
    "convergence": ("convergence", "V9: errors against spacing, observed order, GCI"),
    "pulse": ("pulse", "write a Hann pulse WAV to drive the emitter"),
    "plot-absorption": ("plot_absorption", "plot measured against configured absorption (V6)"),
    "report-validation": ("report_validation", "Markdown report from the cases' validation.json"),
    "validate": (None, "one validation case's check on a run: validate CASE --help"),
}

# case -> (name, module in sphreverb_post.validate, one-line summary)
CASES = {
    "v1": ("dispersion", "v1_dispersion", "plane-wave phase speed against points per wavelength"),
    "v2": ("tof", "v2_tof", "speed of sound by time of flight"),
    "v3": ("spreading", "v3_spreading", "spherical spreading, dB per doubling of distance"),
    "v4": ("modes", "v4_modes", "rigid-box resonances against the analytic modes"),
    "v5": ("energy", "v5_energy", "energy drift and per-mode T60 in a closed rigid box"),
    "v6": ("impedance", "v6_impedance", "impedance tube absorption (ISO 10534-2)"),
    "v7": ("decay", "v7_decay", "room T30 per octave against Eyring"),
    "v8": ("decays", "v8_decays", "the ISO 3382-1 chain on synthetic decays"),
    "v11": ("sphere", "v11_sphere", "rigid-sphere resonances against the analytic modes"),
    "v14": ("monopole", "v14_monopole", "monopole point source: spreading and six directions"),
    "v15": ("doppler", "v15_doppler", "Doppler shift of a moving source or receiver"),
    "v16": ("direction", "v16_direction", "Ambisonic direction of arrival from six or more sides"),
    "wall-angle": ("wall-angle", "wall_angle", "resistive wall at oblique incidence, exact line source"),
}


def usage():
    width = max(map(len, COMMANDS))
    rows = [f"  {n:<{width}}  {s}" for n, (_, s) in COMMANDS.items()]
    return "\n".join([f"usage: {PROG} SUBCOMMAND [ARGS ...]   ({PROG} SUBCOMMAND --help)", "",
                      "subcommands:", *rows])


def validate_usage():
    rows = [f"  {c} {n:<10} {s}" for c, (n, _, s) in CASES.items()]
    return "\n".join([f"usage: {PROG} validate CASE OUTDIR [ARGS ...]   "
                      f"({PROG} validate CASE --help)", "",
                      "cases (by number or name):", *rows])


def case_module(case):
    """The validate module for CASE ("v2", "V2" or "tof"); None if there is no such case."""
    key = case.lower()
    for c, (name, module, _) in CASES.items():
        if key in (c, name):
            return c, module
    return None


def run(package, module, argv, prog):
    status = importlib.import_module(f"sphreverb_post.{package}.{module}").main(argv, prog=prog)
    return 0 if status is None else status


def validate(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(validate_usage(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    found = case_module(argv[0])
    if found is None:
        print(f"{PROG} validate: unknown case {argv[0]!r}\n\n{validate_usage()}", file=sys.stderr)
        return 2
    case, module = found
    return run("validate", module, argv[1:], f"{PROG} validate {case}")


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(usage(), file=sys.stdout if argv else sys.stderr)
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"{PROG}: unknown subcommand {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    if name == "validate":
        return validate(rest)
    return run("commands", COMMANDS[name][0], rest, f"{PROG} {name}")
