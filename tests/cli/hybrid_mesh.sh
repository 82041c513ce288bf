#!/usr/bin/env bash
# [hybrid] in a mesh room (V20): configs/l_room.ini (an L-shaped room mesh, a silent disc and a
# monopole; the silent disc moved dx/2 off its wall) at 5 cm for 10 ms with a geometric part
# (polyhedral image sources to order 3, 5000 rays) on 1, 2 and 3 ranks.
# Checks: NAME.full.raw.wav non-zero and bit-identical on every rank count; summary.json's hybrid
# block has polyhedral image sources for every receiver (more for `near`, in the source's arm and
# in its sight, than for `around_corner`, out of it).
#   hybrid_mesh.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
common=(--time.duration 0.01 --fluid.spacing 0.05 --output.progress_every 100
        --output.checkpoint_every 0 --hybrid.rays 5000 --emitter.center "0.03 0.3 0.45")
for n in 1 2 3; do
  mpiexec -n $n "$exe" run "$src/configs/l_room.ini" --out "$work/h$n" "${common[@]}" \
    > "$work/h$n.log" 2>&1 || { tail -20 "$work/h$n.log"; exit 1; }
done
grep -h "hybrid" "$work/h1.log" | head -3
/usr/bin/python3 - "$work" <<'PY'
import json, sys, warnings
import numpy as np
import scipy.io.wavfile as w
warnings.simplefilter("ignore", w.WavFileWarning)
work = sys.argv[1]
for name in ("near", "around_corner"):
    ref = w.read(f"{work}/h1/{name}.full.raw.wav")[1]
    assert np.any(ref != 0), name
    for n in (2, 3):
        assert np.array_equal(ref, w.read(f"{work}/h{n}/{name}.full.raw.wav")[1]), (name, n)
h = json.load(open(f"{work}/h1/summary.json"))["hybrid"]
images = {r["name"]: r["image_sources"] for r in h["receivers"]}
print("hybrid_mesh: image sources per receiver", images)
assert images["near"] > images["around_corner"] > 0, images
print("hybrid_mesh: ok (1, 2, 3 ranks bit-identical, polyhedral images in the L room)")
PY
