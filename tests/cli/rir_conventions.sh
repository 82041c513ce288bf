#!/usr/bin/env bash
# The written impulse response's conventions ([output] highpass, docs/running.md "Outputs"):
#  1. highpass = 0 leaves the WAVs bit-identical to the output before the high-pass existed: the
#     default scene with rigid walls for 50 ms (the former default scene) on 2 ranks gives the
#     recorded md5 sums.
#  2. The causal 20 Hz high-pass keeps the direct sound: on the default scene (5 ms, 2 ranks) the
#     direct sound's onset (first sample above 1 % of the early peak) is the same sample with
#     highpass = 20 and 0, its peak level differs by less than 0.2 dB, the peak-level ratio of the
#     two receivers follows 1/r within 1 dB, and the pre-onset samples stay as silent as without
#     the filter (nothing spreads before the direct sound).
#   rir_conventions.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
scene=$src/configs/small_room.ini
rigid=(--room.material rigid --room.material_x_min rigid --room.material_y_min rigid
       --room.material_y_max rigid --room.material_z_min rigid --room.material_z_max rigid)
quiet=(--output.progress_every 100 --output.checkpoint_every 0)

# 1. Bit-identical with the high-pass off (the md5 sums of the former default scene's outputs).
mpiexec -n 2 "$exe" run "$scene" --out "$work/off" --time.duration 0.05 --output.highpass 0 \
  "${rigid[@]}" "${quiet[@]}" > "$work/off.log" 2>&1 || { tail -20 "$work/off.log"; exit 1; }
(cd "$work/off" && md5sum -c --strict) <<'MD5'
ee9cf11429f2288af60384205988819a  left.raw.wav
8a68fc21f7889f74d2bb9cb1a44170af  left.wav
4488027fb7d23e188db8bee5a932f1a1  right.raw.wav
51dbf1a7c2ec9a90b67262e9c5d43d87  right.wav
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
    # off the floor, 0.25 ms later at the left receiver).
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
    assert abs(d_db) < 0.2, (name, d_db)
    assert pre_on <= max(2.0 * pre_off, 1e-6 * peaks[(name, "off")]), (name, pre_on, pre_off)
# 1/r: the two receivers' peak ratio against their distance ratio.
r_l, r_r = (np.linalg.norm(np.subtract(pos[n], disc)) for n in ("left", "right"))
for label in ("off", "on"):
    ratio_db = 20 * np.log10(peaks[("left", label)] / peaks[("right", label)])
    expect_db = 20 * np.log10(r_r / r_l)
    print(f"rir_conventions: left/right peak {ratio_db:+.3f} dB, 1/r {expect_db:+.3f} dB ({label})")
    assert abs(ratio_db - expect_db) < 1.0, (label, ratio_db, expect_db)
print("rir_conventions: ok")
PY
