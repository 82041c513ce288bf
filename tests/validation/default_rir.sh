#!/usr/bin/env bash
# The default run as a user gets it (scripts/setup.sh's last step): configs/small_room.ini on 2
# ranks through scripts/run.sh, which also writes report.html. Checks, per receiver:
#  - the record is at least as long as the longest Eyring T60 of the octaves whose centre lies
#    below f_max (the report's room model: box V and S, the wall model's absorption from
#    summary.json converted to random incidence);
#  - the spectrum below 20 Hz stays at least 20 dB under its peak level at the first room mode
#    (c / 2 Lx = 285.8 Hz, the peak within +-10 %);
#  - the report page exists and names both receivers;
#  - stereo.raw.wav holds left and right bit for bit;
#  - the run log holds no energy-watch warning (once the impulse has played the room only loses
#    energy: docs/running.md).
#   [SPHREVERB=EXE] default_rir.sh SOURCE_DIR WORK_DIR   (EXE defaults to SOURCE_DIR/build/sphreverb)
set -euo pipefail
src=$1 work=$2
rm -rf "$work" && mkdir -p "$work"
"$src/scripts/run.sh" "$src/configs/small_room.ini" --out "$work/out" \
  --output.progress_every 100 > "$work/run.log" 2>&1 || { tail -20 "$work/run.log"; exit 1; }
if grep -q "the run is unstable" "$work/run.log"; then
  grep "the run is unstable" "$work/run.log"
  exit 1
fi
PYTHONPATH="$src/postproc" /usr/bin/python3 - "$work/out" <<'PY'
import json, sys, warnings
import numpy as np
import scipy.io.wavfile as w
from sphreverb_post.commands.report import room_model
warnings.simplefilter("ignore", w.WavFileWarning)
out = sys.argv[1]
s = json.load(open(f"{out}/summary.json"))
f_max, duration = s["derived"]["f_max_Hz"], s["steps"] / s["derived"]["substeps"] / 44100.0
model = room_model(s)
centres = [125, 250, 500, 1000, 2000, 4000]
eyring = [t for fc, t in zip(centres, model["eyring"]) if fc < f_max]
print(f"default_rir: {duration * 1e3:.1f} ms recorded; Eyring T60 "
      + " ".join(f"{fc} Hz {1e3 * t:.1f} ms" for fc, t in zip(centres, eyring)))
assert len(eyring) == 5 and duration >= max(eyring), (duration, eyring)
f1 = 343.0 / (2.0 * 0.6)
page = open(f"{out}/report.html", encoding="utf-8").read()
for name in ("left", "right"):
    rate, x = w.read(f"{out}/{name}.raw.wav")
    n = 1 << 16
    spec = np.abs(np.fft.rfft(x.astype(float), n))
    f = np.fft.rfftfreq(n, 1.0 / rate)
    mode = spec[(f > 0.9 * f1) & (f < 1.1 * f1)].max()
    low = spec[f < 20.0].max()
    margin = 20 * np.log10(mode / low)
    print(f"default_rir: {name}: spectrum below 20 Hz {margin:.1f} dB under the first mode "
          f"({f1:.1f} Hz)")
    assert margin >= 20.0, (name, margin)
    assert f"id='receiver-{name}'" in page, f"report.html lacks receiver {name}"
_, stereo = w.read(f"{out}/stereo.raw.wav")
for ch, name in enumerate(("left", "right")):
    assert np.array_equal(stereo[:, ch], w.read(f"{out}/{name}.raw.wav")[1]), name
print("default_rir: ok")
PY
