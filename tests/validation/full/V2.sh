#!/usr/bin/env bash
# V2 full: speed of sound by time of flight and the plane pulse's amplitude p' = rho0 c u in the
# rigid duct at dx = 5 mm (96 000 particles). Two runs: the 1.5 ms Hann pulse (time of flight;
# amplitude over its band, 0-1.1 kHz) and a 0.3 ms one whose band reaches 5.5 kHz (amplitude).
source "$(dirname "$0")/common.sh"
setup "$@"
"$PY" -m sphreverb_post pulse "$OUT/pulse.wav" --width 0.0015
"$PY" -m sphreverb_post pulse "$OUT/short.wav" --width 0.0003
sim "$OUT/run" "$SCENES/duct_v2.ini" --emitter.input "$OUT/pulse.wav" --fluid.spacing 0.005
sim "$OUT/short" "$SCENES/duct_v2.ini" --emitter.input "$OUT/short.wav" --fluid.spacing 0.005
rc=0
"$PY" -m sphreverb_post validate v2 "$OUT/run" --near near --far far --distance 0.3 --c 343 --tol 0.01 \
  --amplitude "$OUT/pulse.wav" --tol-db 1 --json "$OUT/tof.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
"$PY" -m sphreverb_post validate v2 "$OUT/short" --near near --far far --distance 0.3 --c 343 \
  --tol 0.01 --amplitude "$OUT/short.wav" --tol-db 1 --json "$OUT/short.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
"$PY" - "$OUT/tof.json" "$OUT/short.json" "$OUT/check.json" "$OUT" "$OUT/tof.png" <<'PY'
import json, sys
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from scipy.io import wavfile
d, short = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
def worst(res):
    return max((a["worst_db"] for a in res["amplitude"].values()), key=abs)
fig, ax = plt.subplots(1, 2, figsize=(11, 3.5))
for run, res, a in (("run", d, ax[0]), ("short", short, ax[1])):
    for name in ("near", "far"):
        rate, x = wavfile.read(f"{sys.argv[4]}/{run}/{name}.raw.wav")
        a.plot(np.arange(x.size) / rate * 1e3, x, label=name)
    lo, hi = res["amplitude"]["far"]["band_hz"]
    a.set_title(f"c = {res['c_measured']:.1f} m/s ({100 * res['rel_error']:+.2f} %), "
                f"p'/rho0 c u {worst(res):+.2f} dB to {hi / 1e3:.1f} kHz", fontsize=9)
    a.set_xlabel("time (ms)"); a.set_ylabel("p' (Pa)"); a.legend(); a.grid(alpha=0.3)
fig.tight_layout(); fig.savefig(sys.argv[5], dpi=100)
hi = short["amplitude"]["far"]["band_hz"][1]
d.update({"case": "V2", "title": "speed of sound by time of flight and amplitude (rigid duct)",
          "measured": f"c = {d['c_measured']:.1f} m/s ({100 * d['rel_error']:+.2f} %), "
                      f"p' / rho0 c u {worst(d):+.3f} dB at worst to 1.1 kHz, "
                      f"{worst(short):+.3f} dB to {hi / 1e3:.1f} kHz",
          "threshold": f"± {100 * d['tol']:g} %, ± {d['tol_db']:g} dB",
          "short_pulse": short, "pass": bool(d["pass"] and short["pass"])})
json.dump(d, open(sys.argv[3], "w"), indent=1)
PY
finish "$OUT/check.json" "dx = 5 mm, 1.2 x 0.1 x 0.1 m duct (96 000 particles)" tof.png
