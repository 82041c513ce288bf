#!/usr/bin/env bash
# The emitter disc on a mirror face as a baffled piston (docs/theory/walls.md): a 3 cm disc in
# the middle of the x = 0 face of a rigid 0.6 m box at 1.5 cm (the default scene's disc and
# spacing), velocity drive, 0.3 ms Hann pulse, receivers on its axis at r = 0.1 and 0.2 m. Each
# record against the exact on-axis pressure of a baffled piston of radius a,
#   p(t) = rho0 c [V(t - r/c) - V(t - sqrt(r^2 + a^2)/c)],
# V the drive's speed, both gated alike before the first reflection: 1/3-octave levels (run minus
# exact) within 1 dB from 250 Hz to 2.5 kHz at 0.2 m and to 1.6 kHz at 0.1 m (the near field).
#   piston_baffle.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
export PYTHONPATH=$src/postproc
/usr/bin/python3 -m sphreverb_post pulse "$work/pulse.wav" --width 0.0003 --total 0.004
mpiexec -n 2 "$exe" run "$src/tests/validation/piston_baffle.ini" --out "$work/out" \
  --emitter.input "$work/pulse.wav" --output.progress_every 100 > "$work/run.log" 2>&1 ||
  { tail -20 "$work/run.log"; exit 1; }
/usr/bin/python3 - "$work" <<'PY'
import sys
import numpy as np
from sphreverb_post.audio import read_mono
work = sys.argv[1]
rho, c, a, k, fs = 1.204, 343.0, 0.03, 1e-6, 44100.0  # piston_baffle.ini
pulse, _ = read_mono(f"{work}/pulse.wav")
def speed(t):  # the velocity drive: k fs s(t - 1/fs), linear between samples (emitter.hpp)
    return k * fs * np.interp(t * fs - 1.0, np.arange(len(pulse)), pulse, left=0.0, right=0.0)
ok = True
# receiver, distance from the face (m), gate (s: the first reflection, off the side walls, at
# 1.69 and 1.76 ms), highest band asserted (Hz)
for name, r, gate, top in (("r10", 0.1, 1.65e-3, 1600), ("r20", 0.2, 1.70e-3, 2520)):
    p, _ = read_mono(f"{work}/out/{name}.raw.wav")
    t = np.arange(len(p)) / fs
    exact = rho * c * (speed(t - r / c) - speed(t - np.hypot(r, a) / c))
    w = (t < gate).astype(float)
    n = 4096
    run, ref = np.fft.rfft(p * w, n), np.fft.rfft(exact * w, n)
    f = np.fft.rfftfreq(n, 1.0 / fs)
    line = []
    for fc in 1000.0 * 2.0 ** (np.arange(-6, 7) / 3.0):
        band = (f >= fc * 2 ** (-1 / 6)) & (f < fc * 2 ** (1 / 6))
        d = 10 * np.log10(np.sum(np.abs(run[band]) ** 2) / np.sum(np.abs(ref[band]) ** 2))
        line.append(f"{fc:.0f}:{d:+.2f}")
        if fc <= top * 1.01 and abs(d) > 1.0:
            ok = False
            line[-1] += "(FAIL)"
    print(f"piston_baffle: {name} (r = {r} m), 1/3-octave level minus the exact piston's, dB: "
          + " ".join(line) + f"; asserted within 1 dB up to {top} Hz")
assert ok, "the disc's on-axis level departs from the baffled piston's by more than 1 dB"
print("piston_baffle: ok")
PY
