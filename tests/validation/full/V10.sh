#!/usr/bin/env bash
# V10 full, against pffdtd: pffdtd's 0.34 x 0.22 x 0.18 m box as a mesh rotated 30 degrees about z
# (tests/validation/box_pff_30*.ini), at SPACING (default 1 cm). Rigid: the six lowest isolated
# modes (504-1388 Hz) within V4's 1.5 % (all at >= 25 PPW at 1 cm; pffdtd: mean 0.63 % at 5 mm).
# Absorbing (every wall alpha_n = 0.1, zeta = 37.97): the decay rate of the mode (1,0,0) against
# the modal decay of a locally reacting wall, delta = c/(2 zeta) (4/Lx + 2/Ly + 2/Lz), within 10 %
# (pffdtd: 5.2 % slow at 5 mm). docs/validation.md, "Against pffdtd".
source "$(dirname "$0")/common.sh"
setup "$@"
SPACING=${SPACING:-0.01}
sim "$OUT/rigid" "$SCENES/box_pff_30.ini" --fluid.spacing "$SPACING"
sim "$OUT/absorbing" "$SCENES/box_pff_30_absorbing.ini" --fluid.spacing "$SPACING" --time.duration 0.06
rc=0
"$PY" -m sphreverb_post validate v4 "$OUT/rigid" --receiver corner --room 0.34 0.22 0.18 --c 343 \
  --count 6 --tol 0.015 --json "$OUT/modes.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
"$PY" - "$OUT/modes.json" "$OUT/absorbing" "$OUT/check.json" "$OUT/decay.png" <<'PY'
import json, math, sys
import numpy as np
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from scipy.io import wavfile
from scipy.signal import butter, hilbert, sosfiltfilt

modes = json.load(open(sys.argv[1]))
c, L, alpha = 343.0, (0.34, 0.22, 0.18), 0.1
zeta = (1 + math.sqrt(1 - alpha)) / (1 - math.sqrt(1 - alpha))
theory = c / (2 * zeta) * (4 / L[0] + 2 / L[1] + 2 / L[2])  # 1/s, amplitude, mode (1,0,0)
f0 = c / (2 * L[0])
rate, x = wavfile.read(f"{sys.argv[2]}/corner.raw.wav")
y = sosfiltfilt(butter(4, [300, 700], btype="band", fs=rate, output="sos"), x.astype(float))
# Matrix pencil (Hua & Sarkar 1990) on 8-35 ms of the band: six damped exponentials, the pole
# nearest f0 is the mode's.
seg = y[int(0.008 * rate):int(0.035 * rate)]
n = seg.size // 3
Y = np.array([seg[i:i + n + 1] for i in range(seg.size - n)])
V = np.linalg.svd(Y, full_matrices=False)[2][:6].conj().T
z = np.linalg.eigvals(np.linalg.pinv(V[:-1]) @ V[1:])
f = np.angle(z) * rate / (2 * np.pi)
k = int(np.argmin(np.abs(f - f0)))
delta = float(-np.log(np.abs(z[k])) * rate)
err = delta / theory - 1
t = np.arange(y.size) / rate
env = 20 * np.log10(np.abs(hilbert(y)) + 1e-30)
fig, ax = plt.subplots(figsize=(7, 3.5))
ax.plot(1e3 * t, env, lw=0.8, label="300-700 Hz envelope")
t0 = 0.008
ax.plot(1e3 * t, env[int(t0 * rate)] - 8.686 * theory * (t - t0), "r:", label="theory")
ax.plot(1e3 * t, env[int(t0 * rate)] - 8.686 * delta * (t - t0), "k--", lw=0.7, label="fit")
ax.set_ylim(env.max() - 60, env.max() + 3)
ax.set_xlabel("t (ms)"); ax.set_ylabel("dB"); ax.legend(); ax.grid(alpha=0.3)
ax.set_title("Against pffdtd: mode (1,0,0) of the absorbing box rotated 30 deg")
fig.tight_layout(); fig.savefig(sys.argv[4], dpi=100)
errs = [abs(m["rel_error"]) for m in modes["modes"] if m["rel_error"] is not None]
mean = sum(errs) / len(errs)
out = {"case": "V10", "title": "pffdtd's box as a mesh rotated 30 deg: modes and absorbing decay",
       "modes": modes["modes"], "mean_abs_error": mean, "decay": delta, "decay_theory": theory,
       "decay_error": err,
       "measured": f"modes: mean |error| {100 * mean:.2f} % (worst {100 * max(errs):.2f} %); "
                   f"(1,0,0) decay {delta:.1f} 1/s vs {theory:.1f} 1/s ({100 * err:+.1f} %)",
       "threshold": "modes +-1.5 %; decay within 10 %",
       "pass": bool(modes["pass"] and abs(err) <= 0.10)}
json.dump(out, open(sys.argv[3], "w"), indent=1)
PY
finish "$OUT/check.json" "dx = $SPACING m, 0.34 x 0.22 x 0.18 m box rotated 30 deg about z, 0.12 s (rigid), 0.06 s (absorbing)" decay.png
