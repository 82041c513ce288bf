#!/usr/bin/env bash
# `check` answers in seconds at any size (1.2e11 particles at 0.1 mm) with the expected wall time,
# core-hours and checkpoint volume; `run` refuses a scene whose memory exceeds the ranks' share of
# MemAvailable before allocating: exit 2 with the numbers, on 1 and 2 ranks.
#   cost.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
start=$(date +%s)
on 1 check "$scene" --fluid.spacing 1e-4 >"$work/check.log" 2>&1
took=$(($(date +%s) - start))
((took < 30)) || { echo "FAIL: check took $took s"; exit 1; }
for line in "particles            120285000000" "expected wall time" "core-hours" \
  "checkpoint volume"; do
  grep -q "$line" "$work/check.log" || { echo "FAIL: check: no '$line'"; cat "$work/check.log"; exit 1; }
done
# The wall time at the rate measured now on a probe box of 36^3 particles, within the range this
# solver reaches (docs/performance.md: 0.7-6 x 10^6 particle-steps/s per core, loaded to idle).
grep -Eq "measured speed       [0-9.e+]+ particle-steps/s on one idle core \(CPU time; [0-9]+ steps of 46656 particles" \
  "$work/check.log" || { echo "FAIL: check: no measured speed"; cat "$work/check.log"; exit 1; }
rate=$(sed -n 's/.*measured speed *\([0-9.e+]*\) particle-steps.*/\1/p' "$work/check.log")
seconds=$(sed -n 's/.*particles in \([0-9.e+-]*\) s .*/\1/p' "$work/check.log")
awk -v r="$rate" -v s="$seconds" 'BEGIN { exit !(r > 1e4 && r < 1e8 && s <= 2.5) }' ||
  { echo "FAIL: measured speed $rate particle-steps/s in $seconds s"; exit 1; }
grep -q "at $rate particle-steps/s per core, measured on an idle core" "$work/check.log" ||
  { echo "FAIL: the wall time is not at the measured rate"; grep expected "$work/check.log"; exit 1; }
# 1 s of a 5 x 4 x 3 m room at 1.7 cm writes ~100 checkpoints of ~1.5 GB at the default cadence.
on 1 check "$scene" --room.max "5 4 3" --fluid.spacing 0.017 --time.duration 1 \
  --emitter.center "0.03 0.1 0.1" \
  --time.sample_rate 2000 >"$work/large.log" 2>&1
grep -q "warning .* GB of checkpoints at \[output\] checkpoint_every = 0.01 s" "$work/large.log" ||
  { echo "FAIL: no checkpoint volume warning"; cat "$work/large.log"; exit 1; }
! grep -q "GB of checkpoints" "$work/check.log" || { echo "FAIL: a warning for 7 checkpoints"; exit 1; }
for n in 1 2; do
  rc=0
  on $n run "$scene" --fluid.spacing 2e-4 --out "$work/big$n" >"$work/big$n.log" 2>&1 || rc=$?
  [[ $rc == 2 ]] || { echo "FAIL: run on $n ranks: exit $rc, expected 2"; exit 1; }
  grep -q "MiB per rank (15035625000 particles on $n rank(s)), but a rank has" "$work/big$n.log" ||
    { echo "FAIL: run on $n ranks: no numbers"; tail -3 "$work/big$n.log"; exit 1; }
done
echo "cost: all passed (check took $took s)"
