#!/usr/bin/env bash
# The written impulse response's conventions ([output] highpass, docs/running.md "Outputs"):
#  1. highpass = 0 leaves the WAVs bit-identical to the unfiltered pressure: the default scene's
#     rigid 10 ms variant (rigid walls, the drive's high-pass at 20 Hz; configs/small_room.ini) on
#     2 ranks gives the reference md5 sums of its unfiltered outputs.
#  2. The causal 20 Hz high-pass keeps the direct sound: on the default scene (5 ms, 2 ranks) the
#     direct sound's onset (first sample above 1 % of the early peak) is the same sample with
#     highpass = 20 and 0, its early level (up to 0.2 ms after the direct path, before the floor's
#     reflection) differs by less than 0.3 dB, and the samples before it stay as silent as
#     without the filter (nothing spreads before the direct sound).
#  3. 1/r and calibration with the default drive (acceleration, impulse, deflection 1e-8 m) in the
#     V3 set-up (tests/validation/corner_v3.ini: a baffled piston of radius 0.045 m, receivers at
#     0.1, 0.2, 0.4 m, the direct sound gated before the first reflection by `sphreverb_post
#     validate v3`, which also requires 6.0 +- 0.5 dB per doubling): with highpass = 20 the drop
#     per doubling is within 0.2 dB of highpass = 0 and each gated level within 0.5 dB, and each
#     peak is within 2.5 dB of the baffled piston's p = rho0 R^2 k fs / (2 r) x 0.3815 (2 pi f_max)
#     (docs/theory/emitter-receivers.md).
#   rir_conventions.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
scene=$src/configs/small_room.ini
rigid=(--room.material rigid --room.material_x_min rigid --room.material_y_min rigid
       --room.material_y_max rigid --room.material_z_min rigid --room.material_z_max rigid)
quiet=(--output.progress_every 100 --output.checkpoint_every 0)

# 1. Bit-identical with the high-pass off (the reference md5 sums of the rigid variant).
mpiexec -n 2 "$exe" run "$scene" --out "$work/off" --time.duration 0.01 --output.highpass 0 \
  --emitter.highpass 20 "${rigid[@]}" "${quiet[@]}" > "$work/off.log" 2>&1 || { tail -20 "$work/off.log"; exit 1; }
(cd "$work/off" && md5sum -c --strict) <<'MD5'
ad59cf60f9637c59553e8361efcf67e8  left.raw.wav
73e3874aecd13ff7fff807d285c58595  left.wav
e18a2f0f159f64cd1e6107d9c1127507  right.raw.wav
1f249f55043b6cef94568dcb0d39830e  right.wav
MD5

# 2. The direct sound with and without the high-pass.
for hp in 0 20; do
  mpiexec -n 2 "$exe" run "$scene" --out "$work/hp$hp" --time.duration 0.005 \
    --output.highpass "$hp" "${quiet[@]}" > "$work/hp$hp.log" 2>&1 ||
    { tail -20 "$work/hp$hp.log"; exit 1; }
done
/usr/bin/python3 - "$work" <<'PY'
import sys
import numpy as np
import scipy.io.wavfile as w
work = sys.argv[1]
disc = np.array([0.008, 0.1, 0.1])  # emitter disc centre, m (configs/small_room.ini)
pos = {"left": (0.45, 0.22, 0.2), "right": (0.45, 0.32, 0.2)}
peaks = {}
for name, p in pos.items():
    r = np.linalg.norm(np.subtract(p, disc))
    t_direct = r / 343.0
    fs, off = w.read(f"{work}/hp0/{name}.raw.wav")
    _, on = w.read(f"{work}/hp20/{name}.raw.wav")
    off, on = off.astype(float), on.astype(float)
    # The direct sound: up to 0.2 ms after the direct path's time (before the first reflection,
    # off the floor, 0.23 ms later at the left receiver).
    gate = int(round((t_direct + 2e-4) * fs))
    onset = {}
    for label, x in (("off", off), ("on", on)):
        peak = np.abs(x[:gate]).max()
        onset[label] = int(np.argmax(np.abs(x[:gate]) > 0.01 * peak))
        peaks[(name, label)] = peak
    d_db = 20 * np.log10(peaks[(name, "on")] / peaks[(name, "off")])
    pre = slice(0, max(onset["off"] - 5, 1))
    pre_on, pre_off = np.abs(on[pre]).max(), np.abs(off[pre]).max()
    print(f"rir_conventions: {name}: r = {r:.4f} m, direct path {1e3 * t_direct:.3f} ms, onset "
          f"{1e3 * onset['off'] / fs:.3f} ms (off) {1e3 * onset['on'] / fs:.3f} ms (20 Hz), "
          f"peak {peaks[(name, 'off')]:.4g} Pa -> {peaks[(name, 'on')]:.4g} Pa ({d_db:+.3f} dB), "
          f"pre-onset max {pre_off:.3g} -> {pre_on:.3g} Pa")
    assert onset["on"] == onset["off"], (name, onset)
    assert abs(onset["off"] / fs - t_direct) < 5e-4, (name, onset["off"] / fs, t_direct)
    assert abs(d_db) < 0.3, (name, d_db)
    assert pre_on <= max(2.0 * pre_off, 1e-6 * peaks[(name, "off")]), (name, pre_on, pre_off)
print("rir_conventions: direct sound ok")
PY

# 3. Calibration and 1/r in the V3 corner.
for hp in 0 20; do
  mpiexec -n 2 "$exe" run "$src/tests/validation/corner_v3.ini" --out "$work/v3_hp$hp" \
    --time.duration 0.004 --emitter.drive acceleration --emitter.deflection 1e-8 \
    --output.highpass "$hp" "${quiet[@]}" > "$work/v3_hp$hp.log" 2>&1 ||
    { tail -20 "$work/v3_hp$hp.log"; exit 1; }
done
for hp in 0 20; do
  PYTHONPATH="$src/postproc" /usr/bin/python3 -m sphreverb_post validate v3 "$work/v3_hp$hp" \
    --receivers r1 r2 r4 --source 0.008 0 0 --room 0.6 0.6 0.6 --json "$work/v3_hp$hp.json"
done
/usr/bin/python3 - "$work" <<'PY'
import json, sys
import numpy as np
work = sys.argv[1]
f_max = json.load(open(f"{work}/v3_hp20/summary.json"))["derived"]["f_max_Hz"]
rho0, radius, k, fs = 1.204, 0.045, 1e-8, 44100.0
v3 = {hp: json.load(open(f"{work}/v3_hp{hp}.json")) for hp in (0, 20)}
d_slope = v3[20]["slope_db_per_doubling"] - v3[0]["slope_db_per_doubling"]
print(f"rir_conventions: V3 drop per doubling {v3[0]['slope_db_per_doubling']:.2f} dB (off), "
      f"{v3[20]['slope_db_per_doubling']:.2f} dB (20 Hz)")
assert abs(d_slope) < 0.2, d_slope
for off, on in zip(v3[0]["receivers"], v3[20]["receivers"]):
    r = on["r_m"]
    d_energy = 10 * np.log10(on["energy_Pa2"] / off["energy_Pa2"])
    expect = rho0 * radius**2 * k * fs / (2.0 * r) * 0.3815 * 2.0 * np.pi * f_max
    d_cal = 20 * np.log10(on["peak_Pa"] / expect)
    print(f"rir_conventions: V3 {on['receiver']}: r = {r:.3f} m, gated level {d_energy:+.3f} dB "
          f"with the high-pass, peak {on['peak_Pa']:.4g} Pa against the baffled piston's "
          f"{expect:.4g} Pa ({d_cal:+.2f} dB)")
    assert abs(d_energy) < 0.5, (on["receiver"], d_energy)
    assert abs(d_cal) < 2.5, (on["receiver"], d_cal)
print("rir_conventions: ok")
PY
