#!/usr/bin/env bash
# ParaView opens what a run writes: each checkpoint's .xmf, checkpoints.xmf (its time steps are
# the checkpoints' times), float32 snapshots and snapshots.xmf, the surfaces (geometry.xmf, also
# of a scene with mesh objects), each through ParaView's own reader (pv_check.py,
# pv_surface_check.py); each time step's sources, receivers and moving objects of a scene where
# all three move (pv_markers_check.py); `python3 -m sphreverb_post render` makes a PNG of a
# mid-plane slice. Each checker takes all its files in one call (one ParaView start).
#   paraview.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
/usr/bin/python3 -c 'import paraview.simple' 2>/dev/null ||
  { echo "FAIL: python3-paraview is not installed (apt-get install python3-paraview)"; exit 1; }
on 2 run "$scene" --out "$work/run" "${opts[@]}" --time.duration 0.004 \
  --output.checkpoint_every 0.002 --output.snapshot_every 0.001 \
  --output.snapshot_fields "pressure rank" >"$work/run.log" 2>&1
n=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['particles'])" \
  "$work/run/summary.json")
times() {  # the /run/time of each DIR/PREFIX*.h5, comma-separated
  /usr/bin/python3 - "$@" <<'PY'
import glob, sys
import h5py
files = sorted(glob.glob(f"{sys.argv[1]}/{sys.argv[2]}*.h5"))
print(",".join(repr(float(h5py.File(f, "r").attrs["step"]) * float(sys.argv[3])) for f in files))
PY
}
dt=$(/usr/bin/python3 -c "import json,sys; print(repr(json.load(open(sys.argv[1]))['derived']['dt_s']))" \
  "$work/run/summary.json")
full=density,pressure,rank,velocity
checks=()
for x in "$work"/run/checkpoints/step_*.xmf; do checks+=("$x" "$n" $full - --); done
/usr/bin/python3 "$here/pv_check.py" "${checks[@]}" \
  "$work/run/checkpoints/checkpoints.xmf" "$n" $full "$(times "$work/run/checkpoints" step_ "$dt")" -- \
  "$work/run/snapshots/snapshots.xmf" "$n" pressure,rank "$(times "$work/run/snapshots" snap_ "$dt")"
# A scene with mesh objects (configs/furnished_room.ini at 5 cm, 2 ms): the room's 12 triangles,
# the table's 92 and the pillar's 28, each in its material; the table (wood_panel) where its
# translation put it.
on 2 run "$src/configs/furnished_room.ini" --out "$work/mesh" --fluid.spacing 0.05 \
  --time.duration 0.002 --emitter.center "0.025 0.9 0.45" >"$work/mesh.log" 2>&1
# The room's surfaces, written once per run: the six faces of the (rigid) box as 12 triangles.
/usr/bin/python3 "$here/pv_surface_check.py" "$work/run/geometry.xmf" 12 rigid -- \
  "$work/mesh/geometry.xmf" 132 plaster,carpet,foam_50mm,wood_panel "3:0.65,1.25,0.4,0.8,0,0.5"
# A moving receiver, a moving monopole and a moving plate (linear paths; the plate passes under
# the fixed receiver, more than dx/2 below it): at every checkpoint and snapshot, ParaView shows
# them where their paths put them at that time, beside the particles.
cat >"$work/moving.ini" <<'INI'
[time]
sample_rate = 44100
duration = 0.002
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
[emitter.car]
path = 0 0.03 0.05 0.08; 0.002 0.1 0.06 0.08
level = 20
[receiver.mid]
position = 0.151 0.1 0.12
[receiver.walker]
path = 0 0.27 0.06 0.09; 0.002 0.2 0.07 0.09
[boundary.plate]
shape = rectangle
normal = 1 0 0
size = 0.06 0.06
path = 0 0.135 0.09 0.075; 0.002 0.165 0.1 0.075
[output]
checkpoint_every = 0.001
keep_checkpoints = 1000
snapshot_every = 0.001
progress_every = 100
highpass = 0
INI
on 2 run "$work/moving.ini" --out "$work/moving" >"$work/moving.log" 2>&1
m=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['particles'])" \
  "$work/moving/summary.json")
# checkpoints.xmf: at least two checkpoints in stage 2 (the car, the walker and the plate each
# somewhere else).
checks=()
for x in "$work"/moving/checkpoints/step_*.xmf "$work"/moving/snapshots/snap_*.xmf \
    "$work"/moving/snapshots/snapshots.xmf; do checks+=("$x" "$m" 0 --); done
/usr/bin/python3 "$here/pv_markers_check.py" "${checks[@]}" \
  "$work"/moving/checkpoints/checkpoints.xmf "$m" 2 >"$work/markers.log" 2>&1 ||
  { cat "$work/markers.log"; exit 1; }
grep "^ok .*: the markers" "$work/markers.log"
grep -E "ok t = .*: (sources|receivers|plate)" "$work/markers.log" | sort -u
[[ $(ls "$work"/run/checkpoints/step_*.h5 | wc -l) == 4 && $(ls "$work"/run/snapshots/snap_*.h5 | wc -l) == 4 ]] ||
  { echo "FAIL: expected 4 checkpoints and 4 snapshots"; exit 1; }
# render NAME ARGS...: the render subcommand, its output in WORK/NAME.log. xvfb-run -a can lose a
# race for a display number against another Xvfb starting at the same moment (then ParaView
# aborts creating its window): the search starts at a display number drawn from the process id
# and the attempt number (not at the shared default 99), and a failed attempt is tried again, up
# to five times.
render() {
  local name=$1 attempt
  shift
  for attempt in 1 2 3 4 5; do
    PYTHONPATH=$src/postproc xvfb-run -a -n $((100 + ($$ * 7 + attempt * 53) % 800)) \
      /usr/bin/python3 -m sphreverb_post render "$@" >"$work/$name.log" 2>&1 && break
    echo "render attempt $attempt failed: $(grep -m1 -iE 'error|abort' "$work/$name.log")"
    sleep $((attempt))
  done
  tail -n1 "$work/$name.log"
}
render render "$work/run/snapshots/snapshots.xmf" "$work/slice.png"
# Along x the lattice has an even number of planes (20 at 3 cm), so the middle of the cloud lies
# between two of them; asked for a time between two snapshots (nearer the third), the render
# shows and labels the third snapshot's stored time.
snaps=$(times "$work/run/snapshots" snap_ "$dt")
asked=$(/usr/bin/python3 -c "import sys; t = [float(v) for v in sys.argv[1].split(',')]; \
print(repr(t[2] - 0.3 * (t[2] - t[1])))" "$snaps")
render render_x --axis x --time "$asked" "$work/run/snapshots/snapshots.xmf" "$work/slice_x.png"
/usr/bin/python3 - "$work/slice.png" "$work/slice_x.png" "$work/render_x.log" "$snaps" "$n" <<'PY'
import re
import sys
import matplotlib.image as mpimg
import numpy as np
for png in sys.argv[1:3]:
    img = mpimg.imread(png)[..., :3]
    colours = len(np.unique((img * 255).astype(np.uint8).reshape(-1, 3), axis=0))
    assert img.shape[0] >= 400 and colours > 20, f"{png}: {img.shape}, {colours} colours"
    print(f"ok {png}: {img.shape[1]}x{img.shape[0]}, {colours} colours")
line = open(sys.argv[3]).read().strip().splitlines()[-1]
m = re.search(r": (\d+) particles on x = \S+ m, t = (\S+) s", line)
assert m, f"render along x: {line}"
stored = float(sys.argv[4].split(",")[2])
count, shown = int(m.group(1)), float(m.group(2))
# One plane of the lattice: between 1/40 and 1/10 of the particles (20 planes along x).
assert int(sys.argv[5]) / 40 < count < int(sys.argv[5]) / 10, f"{count} particles on the slice"
assert abs(shown - stored) <= 1e-6 * stored, f"labelled t = {shown} s, stored {stored} s"
print(f"ok slice along x: {count} particles, labelled the stored t = {shown:.6g} s")
PY
echo "paraview: all passed"
