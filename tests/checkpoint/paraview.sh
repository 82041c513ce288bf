#!/usr/bin/env bash
# ParaView opens what a run writes: each checkpoint's .xmf, checkpoints.xmf (its time steps are
# the checkpoints' times), float32 snapshots and snapshots.xmf, each through ParaView's own
# reader in its own process (pv_check.py); `python3 -m sphreverb_post render` makes a PNG of a
# mid-plane slice.
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
for x in "$work"/run/checkpoints/step_*.xmf; do /usr/bin/python3 "$here/pv_check.py" "$x" "$n" $full -; done
/usr/bin/python3 "$here/pv_check.py" "$work/run/checkpoints/checkpoints.xmf" "$n" $full \
  "$(times "$work/run/checkpoints" step_ "$dt")"
/usr/bin/python3 "$here/pv_check.py" "$work/run/snapshots/snapshots.xmf" "$n" pressure,rank \
  "$(times "$work/run/snapshots" snap_ "$dt")"
[[ $(ls "$work"/run/checkpoints/step_*.h5 | wc -l) == 4 && $(ls "$work"/run/snapshots/snap_*.h5 | wc -l) == 4 ]] ||
  { echo "FAIL: expected 4 checkpoints and 4 snapshots"; exit 1; }
# xvfb-run -a can lose a race for a display number against another Xvfb starting at the same
# moment (then ParaView aborts creating its window): try again, up to three times.
for attempt in 1 2 3; do
  PYTHONPATH=$src/postproc xvfb-run -a /usr/bin/python3 -m sphreverb_post render \
    "$work/run/snapshots/snapshots.xmf" "$work/slice.png" >"$work/render.log" 2>&1 && break
  echo "render attempt $attempt failed: $(grep -m1 -iE 'error|abort' "$work/render.log")"
  sleep 1
done
tail -n1 "$work/render.log"
/usr/bin/python3 - "$work/slice.png" <<'PY'
import sys
import matplotlib.image as mpimg
import numpy as np
img = mpimg.imread(sys.argv[1])[..., :3]
colours = len(np.unique((img * 255).astype(np.uint8).reshape(-1, 3), axis=0))
assert img.shape[0] >= 400 and colours > 20, f"{sys.argv[1]}: {img.shape}, {colours} colours"
print(f"ok {sys.argv[1]}: {img.shape[1]}x{img.shape[0]}, {colours} colours")
PY
echo "paraview: all passed"
