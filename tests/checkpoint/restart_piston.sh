#!/usr/bin/env bash
# The emitter disc on a mirror face (mirror_walls.hpp): the default room with its disc on the
# x = 0 face, a velocity boundary of it (no force wall, no tethered particles; the images behind
# the disc reflect the normal velocity about the disc's). A run on 2 ranks equals one on 1 and 3
# ranks, and restarts from a stage-2 checkpoint on 1, 2 and 3 ranks equal the uninterrupted run,
# byte for byte (WAVs, receiver records, particles), across neighbour rebuilds: the disc's speed
# comes from the drive's checkpointed state, the images' velocities are recomputed each step.
#   restart_piston.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
opts=(--fluid.spacing 0.03 --fluid.skin 0.01 --fluid.viscosity 0.02 --emitter.input sweep
      --emitter.drive displacement --emitter.center "0.016 0.1 0.1" --emitter.deflection 2e-4
      --room.walls mirror
      --output.progress_every 1000 --output.keep_checkpoints 1000 --output.highpass 0
      --emitter.highpass 20 --time.duration 0.004 --output.checkpoint_every 0.001)
on 2 run "$scene" --out "$work/full" "${opts[@]}" >"$work/full.log" 2>&1
/usr/bin/python3 - "$work/full/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
d = s["derived"]
assert d["room_walls"] == "mirror", d["room_walls"]
assert d["f_max_walls_Hz"] is None, f"a force wall limits f_max: {d['f_max_walls_Hz']}"
assert d["f_max_Hz"] == d["f_max_bulk_Hz"], d
assert s["rebuilds"] > 1, f"no neighbour rebuild in the run ({s['rebuilds']})"
print(f"disc on the mirror face: f_max {d['f_max_Hz']:.0f} Hz, {s['rebuilds']} rebuilds")
PY
same_runs "$work/full" "$scene" 1 3 -- "${opts[@]}"
ck=$work/full/checkpoints/step_000000088.h5
[[ -f $ck ]] || { echo "FAIL: $ck missing"; exit 1; }
same_restarts "$work/full" "$ck" r 1 2 3
echo "restart_piston: all passed"
