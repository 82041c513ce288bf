#!/usr/bin/env bash
# V2 full: speed of sound by time of flight in the rigid duct at dx = 5 mm (96 000 particles).
source "$(dirname "$0")/common.sh"
setup "$@"
"$PY" -m sphreverb_post pulse "$OUT/pulse.wav" --width 0.0015
sim "$OUT/run" "$SCENES/duct_v2.ini" --emitter.input "$OUT/pulse.wav" --fluid.spacing 0.005
rc=0
"$PY" -m sphreverb_post validate v2 "$OUT/run" --near near --far far --distance 0.3 --c 343 --tol 0.01 \
  --json "$OUT/tof.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
"$PY" - "$OUT/tof.json" "$OUT/check.json" "$OUT/run" "$OUT/tof.png" <<'PY'
import json, sys
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from scipy.io import wavfile
d = json.load(open(sys.argv[1]))
fig, ax = plt.subplots(figsize=(7, 3.5))
for name in ("near", "far"):
    rate, x = wavfile.read(f"{sys.argv[3]}/{name}.raw.wav")
    ax.plot(np.arange(x.size) / rate * 1e3, x, label=name)
ax.set_xlabel("time (ms)"); ax.set_ylabel("p' (Pa)"); ax.legend(); ax.grid(alpha=0.3)
ax.set_title(f"V2: c = {d['c_measured']:.1f} m/s ({100 * d['rel_error']:+.2f} %)")
fig.tight_layout(); fig.savefig(sys.argv[4], dpi=100)
d.update({"case": "V2", "title": "speed of sound by time of flight (rigid duct)",
          "measured": f"c = {d['c_measured']:.1f} m/s ({100 * d['rel_error']:+.2f} %)",
          "threshold": f"± {100 * d['tol']:g} %"})
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
finish "$OUT/check.json" "dx = 5 mm, 1.2 x 0.1 x 0.1 m duct (96 000 particles)" tof.png
