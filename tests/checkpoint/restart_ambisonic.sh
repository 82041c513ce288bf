#!/usr/bin/env bash
# Spatial receivers end to end: the default room at 3 cm (tests/checkpoint/common.sh) with the
# left receiver ambisonic and binaural (NAME.amb.raw.wav, NAME.amb.wav, NAME.binaural.wav) and
# the right one ambisonic only.
#  - 1, 2 and 3 ranks, uninterrupted: every WAV byte-identical, the receivers' density and
#    velocity records in the last checkpoint bit-identical;
#  - the 2-rank run restarted from a stage-2 checkpoint on 1 and 3 ranks, and from the end of
#    stage 1 on 2 ranks: the same.
# The Ambisonic files must be 4-channel float, the binaural one 2-channel 16-bit, none silent.
#   restart_ambisonic.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
spatial=(--receiver.left.type ambisonic --receiver.left.binaural true
         --receiver.right.type ambisonic --output.checkpoint_every 0.001)
for n in 1 2 3; do
  on $n run "$scene" --out "$work/n$n" "${opts[@]}" "${spatial[@]}" --time.duration 0.004 \
    >"$work/n$n.log" 2>&1 || { tail -20 "$work/n$n.log"; exit 1; }
done
/usr/bin/python3 - "$work/n2" <<'PY'
import sys, warnings
import numpy as np
import scipy.io.wavfile as w
warnings.simplefilter("ignore", w.WavFileWarning)
d = sys.argv[1]
for name, channels, kind in (("left.amb.raw.wav", 4, "f"), ("left.amb.wav", 4, "i"),
                             ("left.binaural.wav", 2, "i"), ("right.amb.raw.wav", 4, "f")):
    rate, x = w.read(f"{d}/{name}")
    assert x.ndim == 2 and x.shape[1] == channels, (name, x.shape)
    assert x.dtype.kind == kind, (name, x.dtype)
    peaks = np.abs(x.astype(float)).max(axis=0)
    assert np.all(peaks > 0), (name, peaks)
    print(f"restart_ambisonic: {name}: {x.shape[0]} frames x {channels} channels, "
          f"channel peaks {' '.join(f'{p:.3g}' for p in peaks)}")
PY
for n in 1 3; do same "$work/n2" "$work/n$n"; done
for n in 1 3; do
  on $n restart "$work/n2/checkpoints/step_000000088.h5" --out "$work/r$n" >"$work/r$n.log" 2>&1 ||
    { tail -20 "$work/r$n.log"; exit 1; }
  same "$work/n2" "$work/r$n"
done
on 2 restart "$work/n2/checkpoints/step_000000010.h5" --out "$work/s1" >"$work/s1.log" 2>&1 ||
  { tail -20 "$work/s1.log"; exit 1; }
same "$work/n2" "$work/s1"
echo "restart_ambisonic: all passed"
