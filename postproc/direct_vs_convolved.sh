#!/usr/bin/env bash
# The paper's direct path against the fast path on one short clip.
#   postproc/direct_vs_convolved.sh SPHREVERB SCENE OUTDIR [CLIP.wav] [--key value ...]
# Runs SCENE three times (input = impulse, the clip, silence of the clip's length), then
# `python3 -m sphreverb_post compare-paths` on the first receiver. Without CLIP a 30 ms test clip
# (a 220 Hz note with harmonics to 880 Hz and a 5 ms attack) is written to OUTDIR/clip.wav.
# Overrides (e.g. --time.duration 0.03) go to all three runs. Writes OUTDIR/compare.json and compare.png.
set -euo pipefail
[[ $# -ge 3 ]] || { echo "usage: direct_vs_convolved.sh SPHREVERB SCENE OUTDIR [CLIP.wav] [--key value ...]" >&2; exit 2; }
exe=$1 scene=$2 out=$3
shift 3
PYTHONPATH=$(cd "$(dirname "$0")" && pwd)  # python3 -m sphreverb_post
export PYTHONPATH
mkdir -p "$out"
clip=""
if [[ $# -gt 0 && $1 != --* ]]; then clip=$(realpath "$1"); shift; fi
if [[ -z $clip ]]; then
  clip=$out/clip.wav
  /usr/bin/python3 - "$clip" <<'PY'
import sys
import numpy as np
from scipy.io import wavfile
rate = 44100
t = np.arange(int(0.03 * rate)) / rate
note = sum(np.sin(2 * np.pi * 220 * k * t) / k for k in (1, 2, 3, 4))
env = np.minimum(t / 0.005, 1.0) * np.exp(-t / 0.05)
wavfile.write(sys.argv[1], rate, (0.5 * note * env / np.abs(note * env).max()).astype(np.float32))
PY
fi
clip=$(realpath "$clip")
silent=$out/silence.wav
/usr/bin/python3 - "$clip" "$silent" <<'PY'
import sys
import numpy as np
from scipy.io import wavfile
rate, x = wavfile.read(sys.argv[1])
wavfile.write(sys.argv[2], rate, np.zeros(x.shape[0], dtype=np.float32))
PY
silent=$(realpath "$silent")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
start=$(date +%s)
"$exe" run "$scene" --out "$out/rir" --emitter.input impulse "$@"
"$exe" run "$scene" --out "$out/direct" --emitter.input "$clip" "$@"
"$exe" run "$scene" --out "$out/silent" --emitter.input "$silent" "$@"
echo "three runs: $(( $(date +%s) - start )) s"
rx=$(ls "$out/rir"/*.raw.wav | head -n1)
name=$(basename "$rx")
/usr/bin/python3 -m sphreverb_post compare-paths "$clip" "$out/rir/$name" "$out/direct/$name" \
  --json "$out/compare_raw.json"
/usr/bin/python3 -m sphreverb_post compare-paths "$clip" "$out/rir/$name" "$out/direct/$name" \
  --baseline "$out/silent/$name" --json "$out/compare.json" --plot "$out/compare.png"
