"""Shared helpers of the postprocessing tests: import path, script runner, WAV writer."""
import os
import subprocess
import sys

POSTPROC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if POSTPROC not in sys.path:
    sys.path.insert(0, POSTPROC)

import numpy as np  # noqa: E402
from scipy.io import wavfile  # noqa: E402


def run(script, *args):
    """Run postproc/SCRIPT with /usr/bin/python3; return (exit code, stdout, stderr)."""
    p = subprocess.run(["/usr/bin/python3", os.path.join(POSTPROC, script), *map(str, args)],
                       capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def write_float(path, x, rate):
    wavfile.write(path, rate, np.asarray(x, dtype=np.float32))
