#!/usr/bin/env bash
# A runaway particle stops the run early with exit 3 and a message naming the step, the time and
# the particle's position, before the neighbour grid grows with the particles' bounding box: a
# 10 cm displacement-driven disc (1 and 2 ranks), and a CFL number of 1 at 8.8 kHz: a particle
# leaves the room. No WAV is
# written, and the end-of-stage-1 checkpoint stays the last one.
#   unstable.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
expect_unstable() {  # DIR
  local dir=$1 rc=$2
  [[ $rc == 3 ]] || { echo "FAIL: $dir: exit $rc, expected 3"; tail -3 "$dir.log"; exit 1; }
  grep -Eq "unstable at step [0-9]+ \(t = [0-9.e+-]+ s of stage 2\): particle [0-9]+ is at \(" \
    "$dir.log" || { echo "FAIL: $dir: no step, time and position"; tail -3 "$dir.log"; exit 1; }
  [[ ! -e $dir/left.wav ]] || { echo "FAIL: $dir: an unstable run left a WAV"; exit 1; }
  [[ $(latest "$dir") == */step_000000010.h5 ]] ||
    { echo "FAIL: $dir: last checkpoint $(latest "$dir")"; exit 1; }
  echo "ok: $(grep -o 'unstable at step [0-9]*' "$dir.log")"
}
for n in 1 2; do
  rc=0
  on $n run "$scene" --out "$work/disc$n" --emitter.deflection 0.1 --emitter.drive displacement \
    --time.duration 0.01 --output.progress_every 1000 >"$work/disc$n.log" 2>&1 || rc=$?
  expect_unstable "$work/disc$n" $rc
done
rc=0
on 1 run "$scene" --out "$work/cfl" --time.cfl 1 --time.sample_rate 8800 --fluid.spacing 0.03 \
  --emitter.center "0.105 0.1 0.1" --time.duration 0.01 >"$work/cfl.log" 2>&1 || rc=$?
expect_unstable "$work/cfl" $rc
echo "unstable: all passed"
