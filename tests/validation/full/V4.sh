#!/usr/bin/env bash
# V4 full: the five lowest isolated modes of the rigid 0.3 x 0.24 x 0.2 m box at dx = 1 cm
# (14 400 particles, 60 to 33 PPW), within 1.5 % (docs/validation.md: >= 30 PPW).
source "$(dirname "$0")/common.sh"
setup "$@"
sim "$OUT/run" "$SCENES/box_v4.ini"
rc=0
"$PY" -m sphreverb_post validate v4 "$OUT/run" --receiver corner --room 0.3 0.24 0.2 --c 343 \
  --count 5 --tol 0.015 --json "$OUT/modes.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
"$PY" - "$OUT/modes.json" "$OUT/check.json" "$OUT/run" "$OUT/modes.png" <<'PY'
import json, sys
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from scipy.io import wavfile
d = json.load(open(sys.argv[1]))
rate, x = wavfile.read(f"{sys.argv[3]}/corner.raw.wav")
x = x.astype(float) * np.hanning(x.size)
n = 16 * x.size
f = np.fft.rfftfreq(n, 1 / rate)
P = 20 * np.log10(np.abs(np.fft.rfft(x, n)) + 1e-30)
fig, ax = plt.subplots(figsize=(7, 3.5))
keep = f < 1.3 * max(m["f_analytic"] for m in d["modes"])
ax.plot(f[keep], P[keep] - P[keep].max())
for m in d["modes"]:
    ax.axvline(m["f_analytic"], color="r", lw=0.7, ls=":")
ax.set_xlabel("frequency (Hz)"); ax.set_ylabel("dB"); ax.grid(alpha=0.3)
ax.set_title("V4: receiver spectrum; dotted: analytic modes checked")
fig.tight_layout(); fig.savefig(sys.argv[4], dpi=100)
worst = max(abs(m["rel_error"]) for m in d["modes"] if m["rel_error"] is not None)
d.update({"case": "V4", "title": "rigid rectangular box modes",
          "measured": "worst " + f"{100 * worst:.2f} % over " + ", ".join(
              f"{tuple(m['mode'])} {100 * m['rel_error']:+.2f} %" for m in d["modes"]),
          "threshold": f"± {100 * d['tol']:g} % (modes >= 30 PPW)"})
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
finish "$OUT/check.json" "dx = 1 cm, 0.3 x 0.24 x 0.2 m box (14 400 particles), 0.12 s" modes.png
