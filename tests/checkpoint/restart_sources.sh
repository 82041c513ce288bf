#!/usr/bin/env bash
# Restart equality with [emitter.NAME] sources: a fixed monopole on a sweep and a moving one on an
# impulse (their drives' integrator states travel in the checkpoint, their inputs are read again),
# and a receiver on a smooth path, run on 2 ranks and restarted from a stage-2 checkpoint on 1 and
# 3 ranks: byte-identical WAVs, receiver records and particles. The checkpoint lists the sources
# and where sources and receivers are.
#   restart_sources.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
cat >"$work/moving.ini" <<'INI'
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
gain = 0
[emitter.still]
input = sweep
position = 0.2 0.09 0.06
level = 20
[emitter.car]
path = 0 0.06 0.08 0.08; 0.004 0.24 0.1 0.08
level = 20
[receiver.mid]
position = 0.151 0.1 0.07
[receiver.walker]
path = 0 0.24 0.06 0.09; 0.002 0.15 0.07 0.09; 0.004 0.06 0.06 0.09
interpolation = smooth
[output]
checkpoint_every = 0.001
keep_checkpoints = 1000
progress_every = 100
highpass = 0
INI
on 2 run "$work/moving.ini" --out "$work/full" >"$work/full.log" 2>&1
mid=$(ls "$work"/full/checkpoints/step_*.h5 | sort | sed -n 3p)
same_restarts "$work/full" "$mid" r 1 3
/usr/bin/python3 - "$mid" <<'PY'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    names = f["/sources/names"][()].decode().split()
    assert names == ["still", "car"], names
    pos, t = f["/sources/position"][()], f["/run/time"][()]
    assert pos.shape == (2, 3) and f["/sources/drive"].shape == (2, 4)
    assert np.allclose(pos[0], [0.2, 0.09, 0.06]), pos
    assert 0.06 < pos[1][0] < 0.24, pos  # the car is on its way
    rec = f["/receivers/position"][()]
    assert 0.06 < rec[1][0] < 0.24 and rec[1][0] != 0.24, rec
print("checkpoint lists the sources and where they are")
PY
echo "restart_sources: all passed"
