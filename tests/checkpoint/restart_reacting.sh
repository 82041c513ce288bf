#!/usr/bin/env bash
# Reacting mirror faces (mirror_walls.hpp): the default room's band materials (wood_panel, carpet,
# foam_50mm) as reacting mirror walls (--room.walls mirror), whose face elements' state X, W is
# carried with the first-layer particles. A run on 2 ranks equals one on 1 and 3 ranks, and
# restarts from a stage-2 checkpoint on 1, 2 and 3 ranks equal the uninterrupted run, byte for
# byte (WAVs, receiver records, particles and their face state), across neighbour rebuilds. A
# checkpoint without the face state is refused with exit 2.
#   restart_reacting.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
opts=(--fluid.spacing 0.03 --fluid.skin 0.01 --fluid.viscosity 0.02 --emitter.input sweep
      --emitter.drive displacement --emitter.center "0.105 0.1 0.1" --emitter.deflection 2e-4
      --output.progress_every 1000 --output.keep_checkpoints 1000 --output.highpass 0
      --emitter.highpass 20 --room.walls mirror --time.duration 0.004
      --output.checkpoint_every 0.001)
on 2 run "$scene" --out "$work/full" "${opts[@]}" >"$work/full.log" 2>&1
grep -q "room walls *mirror" "$work/full.log" || grep -q '"room_walls": "mirror"' "$work/full/summary.json" ||
  { echo "FAIL: the room is not mirror-walled"; exit 1; }
same_runs "$work/full" "$scene" 1 3 -- "${opts[@]}"
ck=$work/full/checkpoints/step_000000088.h5
[[ -f $ck ]] || { echo "FAIL: $ck missing"; exit 1; }
/usr/bin/python3 - "$ck" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    w = f["/particles/face_velocity"][...]
    assert np.count_nonzero(w) > 0, "no face element has moved"
    print(f"face elements moving at the checkpoint: {np.count_nonzero(np.any(w != 0, axis=1))}")
PY
same_restarts "$work/full" "$ck" r 1 2 3
# Without its face state the checkpoint cannot restart the reacting faces.
cp "$ck" "$work/no_face.h5"
/usr/bin/python3 -c "import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    del f['/particles/face_displacement'], f['/particles/face_velocity']" "$work/no_face.h5"
rc=0
on 2 restart "$work/no_face.h5" --out "$work/no_face" >"$work/no_face.log" 2>&1 || rc=$?
[[ $rc == 2 ]] && grep -q "face-element state" "$work/no_face.log" ||
  { echo "FAIL: a checkpoint without face state gave exit $rc"; sed 's/^/    | /' "$work/no_face.log" | tail -5; exit 1; }
echo "restart_reacting: all passed"
