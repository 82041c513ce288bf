#!/usr/bin/env bash
# [hybrid] end to end: the default scene at 3 cm (the disc moved dx/2 off its wall) for 10 ms with
# a geometric part (phased image sources to 5 ms, 2e4 rays after them) on 1, 2 and 3 ranks,
# receiver `right` ambisonic and binaural.
# Checks: NAME.full.wav / NAME.full.raw.wav / GROUP.full.* exist; right.amb.full.raw.wav / .amb.full.wav (4 channels) and
# right.binaural.full.wav (2 channels) at the run's rate, W = right.full.raw.wav sample for
# sample; the full-band samples are bit-identical on every rank count; the SPH files are
# bit-identical to a run without [hybrid]; summary.json's hybrid block (crossover 0.7 min(f_max, c/(20 dx)),
# finite mismatch, the B-format names); the full response carries energy above 2 kHz where the
# SPH one has next to none.
#   hybrid.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
common=(--time.duration 0.01 --fluid.spacing 0.03 --emitter.center "0.015 0.1 0.1"
        --output.progress_every 100 --output.checkpoint_every 0
        --receiver.right.type ambisonic --receiver.right.binaural true)
mpiexec -n 1 "$exe" run "$src/configs/small_room.ini" --out "$work/plain" "${common[@]}" \
  > "$work/plain.log" 2>&1
for n in 1 2 3; do
  mpiexec -n $n "$exe" run "$src/configs/small_room.ini" --out "$work/h$n" "${common[@]}" \
    --hybrid.rays 20000 --hybrid.image_time 0.005 > "$work/h$n.log" 2>&1 || { tail -20 "$work/h$n.log"; exit 1; }
done
grep -h "hybrid" "$work/h2.log"
/usr/bin/python3 - "$work" <<'PY'
import json, sys, warnings
import numpy as np
import scipy.io.wavfile as w
warnings.simplefilter("ignore", w.WavFileWarning)
work = sys.argv[1]
for name in ("left", "right", "stereo"):
    ref = w.read(f"{work}/h1/{name}.full.raw.wav")[1]
    for n in (2, 3):
        assert np.array_equal(ref, w.read(f"{work}/h{n}/{name}.full.raw.wav")[1]), (name, n)
        assert w.read(f"{work}/h{n}/{name}.full.wav")[1].size == ref.size
    assert np.array_equal(w.read(f"{work}/plain/{name}.raw.wav")[1],
                          w.read(f"{work}/h1/{name}.raw.wav")[1]), name
for f in ("right.amb.full.raw.wav", "right.amb.full.wav", "right.binaural.full.wav"):
    rate, ref = w.read(f"{work}/h1/{f}")
    channels = 2 if "binaural" in f else 4
    assert rate == 44100 and ref.ndim == 2 and ref.shape[1] == channels, (f, rate, ref.shape)
    for n in (2, 3):
        assert np.array_equal(ref, w.read(f"{work}/h{n}/{f}")[1]), (f, n)
amb = w.read(f"{work}/h1/right.amb.full.raw.wav")[1]
omni = w.read(f"{work}/h1/right.full.raw.wav")[1]
assert amb.shape[0] == omni.size and np.array_equal(amb[:, 0], omni), "W != right.full.raw.wav"
assert w.read(f"{work}/h1/right.binaural.full.wav")[1].shape[0] == \
    w.read(f"{work}/h1/right.binaural.wav")[1].shape[0]
s = json.load(open(f"{work}/h2/summary.json"))
h = s["hybrid"]
# The default crossover: 0.7 min(f_max, c / (20 dx)) (dx = 0.03 m, c = 343 m/s).
expect = 0.7 * min(s["derived"]["f_max_Hz"], 343.0 / (20 * 0.03))
assert abs(h["crossover_Hz"] - expect) < 1e-6 * h["crossover_Hz"], (expect, h)
assert h["rays"] == 20000 and h["ray_segments"] > 20000, h
for r in h["receivers"]:
    assert np.isfinite(r["mismatch_dB"]) and r["gain"] > 0 and r["image_sources"] > 10, r
right = [r for r in h["receivers"] if r["name"] == "right"][0]
assert right["amb_raw_wav"] == "right.amb.full.raw.wav", right
assert right["binaural_wav"] == "right.binaural.full.wav", right
def above(x, rate, f):
    X = np.abs(np.fft.rfft(x.astype(float))) ** 2
    fr = np.fft.rfftfreq(x.size, 1.0 / rate)
    return X[fr > f].sum() / X.sum()
rate, sph = w.read(f"{work}/h1/left.raw.wav")
full = w.read(f"{work}/h1/left.full.raw.wav")[1]
a_sph, a_full = above(sph, rate, 2000.0), above(full, rate, 2000.0)
print(f"hybrid: energy share above 2 kHz: SPH {100 * a_sph:.3f} %, full band {100 * a_full:.1f} %")
assert a_full > 10 * a_sph and a_sph < 0.05, (a_sph, a_full)
print("hybrid: ok (1, 2, 3 ranks bit-identical, B-format and binaural full band)")
PY
