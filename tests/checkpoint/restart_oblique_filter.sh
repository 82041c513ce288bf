#!/usr/bin/env bash
# The velocity hyperviscosity that `[fluid] hyperviscosity = auto` turns on for rigid walls
# oblique to the lattice: V10's box turned 17 degrees (tests/validation/box_v10_17.ini, ghost
# walls) at 1.5 cm for 31 ms (longer than the 30 ms from which `auto` acts). The run log and
# summary.json say the filter is on (0.005); a run on 2 ranks equals one on 1 and 3 ranks, and
# restarts from a stage-2 checkpoint on 1 and 3 ranks equal the uninterrupted run, byte for byte
# (WAVs, receiver records, particles). The same scene with `hyperviscosity = 0` records
# something else (the filter acted) and its log warns of the walls.
#   restart_oblique_filter.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
scene=$src/tests/validation/box_v10_17.ini
opts=(--time.duration 0.031 --output.checkpoint_every 0.01
      --output.keep_checkpoints 1000 --output.progress_every 1000)
on 2 run "$scene" --out "$work/full" "${opts[@]}" >"$work/full.log" 2>&1
grep -q "hyperviscosity = auto turns the velocity filter on (0.005)" "$work/full/sphreverb.log" ||
  { echo "FAIL: the run log does not say that auto turned the filter on"; exit 1; }
/usr/bin/python3 - "$work/full/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["derived"]
assert d["hyperviscosity"] == 0.005 and d["hyperviscosity_auto"] is True, d
print("summary.json: hyperviscosity 0.005 (auto)")
PY
same_runs "$work/full" "$scene" 1 3 -- "${opts[@]}"
ck=$(ls "$work"/full/checkpoints/step_*.h5 | sort | sed -n 2p)
[[ -f $ck ]] || { echo "FAIL: no second checkpoint"; exit 1; }
same_restarts "$work/full" "$ck" r 1 3
on 2 run "$scene" --out "$work/off" "${opts[@]}" --fluid.hyperviscosity 0 >"$work/off.log" 2>&1
grep -q "warning.*hyperviscosity = 0 leaves them so" "$work/off/sphreverb.log" ||
  { echo "FAIL: with hyperviscosity = 0 the run log does not warn of the walls"; exit 1; }
if cmp -s "$work/full/corner.raw.wav" "$work/off/corner.raw.wav"; then
  echo "FAIL: the record is the same with the filter off"
  exit 1
fi
echo "PASS: the filter on by auto, the same bits on 1-3 ranks and across restarts"
