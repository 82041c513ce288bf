"""Shared helpers of the postprocessing tests: import path, command-line runner, WAV writer."""
import contextlib
import io
import os
import subprocess
import sys

POSTPROC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if POSTPROC not in sys.path:
    sys.path.insert(0, POSTPROC)

import numpy as np  # noqa: E402
from scipy.io import wavfile  # noqa: E402


def run(command, *args):
    """Run ``/usr/bin/python3 -m sphreverb_post COMMAND ARGS`` (COMMAND may hold spaces:
    "validate v2"); return (exit code, stdout, stderr)."""
    env = dict(os.environ, PYTHONPATH=POSTPROC)
    p = subprocess.run(["/usr/bin/python3", "-m", "sphreverb_post", *command.split(),
                        *map(str, args)], capture_output=True, text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def run_here(command, *args):
    """As run(), in this process (no interpreter start: for the many short bad-input calls); an
    uncaught exception propagates and fails the test, as a traceback would."""
    from sphreverb_post.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*command.split(), *map(str, args)])
        except SystemExit as e:  # argparse's usage errors
            code = e.code if isinstance(e.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def write_float(path, x, rate):
    wavfile.write(path, rate, np.asarray(x, dtype=np.float32))
