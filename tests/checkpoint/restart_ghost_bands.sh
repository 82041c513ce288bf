#!/usr/bin/env bash
# Reacting ghost walls (ghost_walls.hpp): the oblique V12 tube (tests/validation/tube_v12.ini,
# its walls fixed ghosts, no wall parallel to a lattice plane) with the library's curtain on its
# end face, at 2 cm. The face element of every ghost site behind the curtain (X, W) is advanced
# on each rank where the ghost is active. A run on 2 ranks equals one on 1 and 3 ranks, and
# restarts from a stage-2 checkpoint on 1, 2 and 3 ranks equal the uninterrupted run, byte for
# byte (WAVs, receiver records, particles and the ghost face elements by key), across neighbour
# rebuilds. A checkpoint
# without the ghost face elements is refused with exit 2. The same for a resistive end face
# (below).
#   restart_ghost_bands.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
scene=$src/tests/validation/tube_v12.ini
# The piston 0.75 dx from its end face, as tests/validation/full/V12.sh places it; a tiny skin
# and a large drive, so that neighbour lists (and the ghosts' active sets) are rebuilt during the
# run (44 rebuilds in stage 2 on 1 rank).
opts=(--fluid.spacing 0.02 --emitter.center "0.113000 0.106062 0.395614"
      --fluid.skin 0.01 --emitter.deflection 2e-4
      --geometry.tube.material.sample curtain --time.duration 0.006
      --output.checkpoint_every 0.002 --output.keep_checkpoints 1000 --output.progress_every 1000)
on 2 run "$scene" --out "$work/full" "${opts[@]}" >"$work/full.log" 2>&1
same_runs "$work/full" "$scene" 1 3 -- "${opts[@]}"
ck=$(ls "$work"/full/checkpoints/step_*.h5 | sort | sed -n 2p)
[[ -f $ck ]] || { echo "FAIL: no second checkpoint"; exit 1; }
/usr/bin/python3 - "$ck" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    assert f["/run/stage"][0] == 2, "the checkpoint is not in stage 2"
    w = f["/ghost_faces/velocity"][...]
    assert np.count_nonzero(w) > 0, "no ghost face element has moved"
    print(f"ghost face elements at the checkpoint: {len(w)} rows, "
          f"{np.count_nonzero(np.any(w != 0, axis=1))} moving")
PY
same_restarts "$work/full" "$ck" r 1 2 3
# without_ghost_faces CHECKPOINT COPY: COPY is CHECKPOINT without its /ghost_faces group.
without_ghost_faces() {
  cp "$1" "$2"
  /usr/bin/python3 -c "import h5py, sys
with h5py.File(sys.argv[1], 'r+') as f:
    del f['/ghost_faces']" "$2"
}
# Without its ghost face elements the checkpoint cannot restart the reacting ghost walls.
without_ghost_faces "$ck" "$work/no_ghost.h5"
rc=0
on 2 restart "$work/no_ghost.h5" --out "$work/no_ghost" >"$work/no_ghost.log" 2>&1 || rc=$?
[[ $rc == 2 ]] && grep -q "ghost walls" "$work/no_ghost.log" ||
  { echo "FAIL: a checkpoint without ghost face elements gave exit $rc"; sed 's/^/    | /' "$work/no_ghost.log" | tail -5; exit 1; }
# Resistive ghost walls (broadband absorption 0.5 on the end face): each site keeps the face's W
# of the last step, for the pressure gradient of its acceleration in the ghosts (ghost_walls.hpp),
# stored in the checkpoint beside the elements. The same equalities; a checkpoint without those
# rows restarts with a warning.
opts=("${opts[@]/curtain/sample}" --material.sample.absorption 0.5)
on 2 run "$scene" --out "$work/res_full" "${opts[@]}" >"$work/res_full.log" 2>&1
on 1 run "$scene" --out "$work/res_np1" "${opts[@]}" >"$work/res_np1.log" 2>&1
same "$work/res_full" "$work/res_np1"
ck=$(ls "$work"/res_full/checkpoints/step_*.h5 | sort | sed -n 2p)
/usr/bin/python3 -c "import h5py, sys, numpy as np
with h5py.File(sys.argv[1], 'r') as f:
    assert f['/run/stage'][0] == 2 and np.count_nonzero(f['/ghost_faces/velocity'][...]) > 0, \
        'no resistive ghost face rows in the stage-2 checkpoint'" "$ck"
for n in 1 3; do
  on $n restart "$ck" --out "$work/res_r$n" >"$work/res_r$n.log" 2>&1
  same "$work/res_full" "$work/res_r$n"
done
without_ghost_faces "$ck" "$work/res_no_rows.h5"
on 2 restart "$work/res_no_rows.h5" --out "$work/res_no_rows" >"$work/res_no_rows.log" 2>&1 &&
  grep -q "no ghost face rows" "$work/res_no_rows.log" ||
  { echo "FAIL: a checkpoint without resistive ghost rows did not restart with a warning"; exit 1; }
echo "restart_ghost_bands: all passed"
