#!/usr/bin/env bash
# Restart equality with a turning object: a rigid plate hinged along its edge ([boundary.door]
# rotation, axis, pivot) swinging across the 2-rank slab cut, run on 2 ranks and restarted from
# a checkpoint in the middle of the swing on 1 and 3 ranks: byte-identical WAVs, receiver
# records and particles. Its pose is a function of the step (nothing about it is read back);
# the triangles stored for viewing (/objects/vertices) are the plate turned to the checkpoint's
# time: its far edge on the circle of radius 0.06 m about the hinge, at the angle of the
# rotation's keyframes at the checkpoint's stage-2 time.
#   restart_turning.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
cat >"$work/door.ini" <<'INI'
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
[boundary.door]
shape = rectangle
center = 0.15 0.09 0.075
normal = 1 0 0
size = 0.06 0.06
rotation = 0 0; 0.004 60
axis = 0 0 1
pivot = 0.15 0.12 0.075
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
on 2 run "$work/door.ini" --out "$work/full" >"$work/full.log" 2>&1
mid=$(ls "$work"/full/checkpoints/step_*.h5 | sort | sed -n 3p)
same_restarts "$work/full" "$mid" r 1 3
/usr/bin/python3 - "$mid" <<'PY'
import math
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    assert f["/objects/names"][()].decode() == "door\n"
    v = np.asarray(f["/objects/vertices"][()]).reshape(-1, 3)
    t = float(f["/run/acoustic_steps"][0]) * float(f["/run/dt"][0])  # s, stage-2 time
# Every vertex lies on its circle about
# the hinge (x, y) = (0.15, 0.12): the hinge edge at radius 0, the far edge at 0.06 m.
r = np.hypot(v[:, 0] - 0.15, v[:, 1] - 0.12)
assert np.allclose(np.sort(r), [0, 0, 0.06, 0.06], atol=1e-12), r
far = v[r > 0.03][0]
theta = math.degrees(math.atan2(far[0] - 0.15, 0.12 - far[1]))
# The swing is linear in time: 60 degrees in 4 ms; in the middle of it at this checkpoint.
assert abs(theta - 60.0 * t / 0.004) < 1e-9 and 5.0 < theta < 55.0, (theta, t)
print(f"restart_turning: door at {theta:.3f} deg in {sys.argv[1]}")
PY
echo "restart_turning: all passed"
