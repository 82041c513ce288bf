#!/usr/bin/env bash
# Restart equality with a moving object: a rigid plate ([boundary.plate] path) pushed across the
# 2-rank slab cut while sliding in its plane, run on 2 ranks and restarted from a stage-2
# checkpoint on 1 and 3 ranks: byte-identical WAVs, receiver records and particles. The plate's
# pose comes from its path and the step (the tethers of a rebuild use the pose at the start of
# the current object period), so nothing the restart reads is stored about it; its triangles at
# that pose are, for viewing (/objects/), and a checkpoint without them (written before they
# existed) restarts the same. Then the same with a background pressure, restarted on 1 rank. Then
# a moving mesh object ([geometry.block] path and turn, a tethered force wall probed against the
# mesh) across the cut, restarted mid-motion on 1 and 3 ranks; its triangles in the checkpoint
# are the mesh's at its pose.
#   restart_objects.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
cat >"$work/object.ini" <<'INI'
[time]
sample_rate = 44100
duration = 0.004
[fluid]
spacing = 0.015
[room]
min = 0 0 0
max = 0.3 0.18 0.15
[emitter]
input = impulse
center = 0.0075 0.09 0.075
radius = 0.03
[boundary.plate]
shape = rectangle
normal = 1 0 0
size = 0.06 0.06
interpolation = smooth
path = 0 0.135 0.09 0.075; 0.004 0.195 0.11 0.075
[receiver.mid]
position = 0.24 0.1 0.07
[receiver.near]
position = 0.06 0.05 0.12
[output]
checkpoint_every = 0.001
keep_checkpoints = 1000
progress_every = 100
highpass = 0
INI
on 2 run "$work/object.ini" --out "$work/full" >"$work/full.log" 2>&1
mid=$(ls "$work"/full/checkpoints/step_*.h5 | sort | sed -n 3p)
same_restarts "$work/full" "$mid" r 1 3
cp "$mid" "$work/old.h5"
/usr/bin/python3 - "$work/old.h5" <<'PY'
import sys
import h5py
with h5py.File(sys.argv[1], "a") as f:
    assert f["/objects/names"][()].decode() == "plate\n" and f["/objects/triangles"].shape == (2, 3)
    del f["/objects"], f["/emitter/position"]
PY
on 1 restart "$work/old.h5" --out "$work/old" >"$work/old.log" 2>&1
same "$work/full" "$work/old"
# With a background pressure: its acceleration at rest (recorded at construction, from the
# lattice, not stored) is subtracted after a restart as in the run. The room's faces are
# tethered here, so the particles next to them have holes in their kernel support (mirror faces,
# with the disc a velocity boundary of one, leave none) and the table is not empty.
on 2 run "$work/object.ini" --out "$work/pb" --fluid.background_pressure 20000 --room.walls tethered \
  --time.duration 0.002 >"$work/pb.log" 2>&1
grep -q "balanced at rest for [1-9]" "$work/pb.log"
mid=$(ls "$work"/pb/checkpoints/step_*.h5 | sort | sed -n 2p)
on 1 restart "$mid" --out "$work/pb1" >"$work/pb1.log" 2>&1
same "$work/pb" "$work/pb1"
# A moving mesh object: the V10 box at 0.2 scale sliding across the cut while turning.
sed -e '/^\[boundary.plate\]/,/^path/d' "$work/object.ini" >"$work/mesh.ini"
cat >>"$work/mesh.ini" <<INI
[geometry.block]
mesh = $src/tests/validation/meshes/box_v10.obj
role = object
material = rigid
scale = 0.2
translation = 0.12 0.06 0.075
interpolation = smooth
path = 0 0.12 0.06 0.075; 0.004 0.18 0.07 0.075
turn = 0 0; 0.004 25
turn_axis = 0 0 1
INI
on 2 run "$work/mesh.ini" --out "$work/mesh" >"$work/mesh.log" 2>&1
mid=$(ls "$work"/mesh/checkpoints/step_*.h5 | sort | sed -n 3p)
same_restarts "$work/mesh" "$mid" m 1 3
/usr/bin/python3 - "$mid" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    assert f["/objects/names"][()].decode() == "block\n"
    assert f["/objects/triangles"].shape == (12, 3)
    v = f["/objects/vertices"][()]
# The box moved and turned (12.5 degrees at 2 ms): its centre off the start, its extent along x
# that of the turned box, along z unchanged.
c = 0.5 * (v.min(axis=0) + v.max(axis=0))
ext = v.max(axis=0) - v.min(axis=0)
assert c[0] > 0.125, c
assert abs(ext[0] - 0.06) > 5e-3 and abs(ext[2] - 0.042) < 1e-6, ext
PY
echo "restart_objects: all passed"
