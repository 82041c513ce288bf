#!/usr/bin/env bash
# Multi-channel output end to end: the default scene's two receivers grouped into one stereo WAV
# on the command line ([receiver.NAME] group), 3 ms on 2 ranks. Checks that stereo.wav and
# stereo.raw.wav have 2 channels in scene order, that each raw channel equals the mono
# NAME.raw.wav sample for sample, that with normalize = false each 16-bit channel equals the mono
# NAME.wav, and that summary.json lists the group.
#   multichannel.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
for norm in false true; do
  mpiexec -n 2 "$exe" run "$src/configs/small_room.ini" --out "$work/$norm" --time.duration 0.003 \
    --receiver.left.group stereo --receiver.right.group stereo --output.normalize $norm
done
/usr/bin/python3 - "$work" <<'PY'
import json, sys, warnings
import numpy as np
import scipy.io.wavfile as w
warnings.simplefilter("ignore", w.WavFileWarning)
work = sys.argv[1]
for norm in ("false", "true"):
    d = f"{work}/{norm}"
    s = json.load(open(f"{d}/summary.json"))
    assert s["groups"] == [{"name": "stereo", "wav": "stereo.wav", "raw_wav": "stereo.raw.wav",
                            "channels": ["left", "right"]}], s["groups"]
    rate, raw = w.read(f"{d}/stereo.raw.wav")
    rate16, pcm = w.read(f"{d}/stereo.wav")
    assert raw.ndim == 2 and raw.shape[1] == 2 and pcm.ndim == 2 and pcm.shape[1] == 2, (raw.shape, pcm.shape)
    assert rate == rate16 == 44100 and raw.dtype == np.float32 and pcm.dtype == np.int16
    for ch, name in enumerate(("left", "right")):
        _, mono_raw = w.read(f"{d}/{name}.raw.wav")
        _, mono16 = w.read(f"{d}/{name}.wav")
        assert np.array_equal(raw[:, ch], mono_raw), f"{norm}: raw channel {ch} != {name}.raw.wav"
        assert np.abs(mono_raw).max() > 0, f"{name} is silent"
        if norm == "false":
            assert np.array_equal(pcm[:, ch], mono16), f"16-bit channel {ch} != {name}.wav"
    if norm == "true":
        # One gain for the group: the louder channel reaches full scale.
        assert np.abs(pcm.astype(float)).max() >= 32766, np.abs(pcm).max()
    print(f"ok normalize={norm}: stereo {raw.shape[0]} frames x 2 channels, channels = mono files")
print("2 passed, 0 failed")
PY
