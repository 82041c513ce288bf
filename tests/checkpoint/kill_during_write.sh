#!/usr/bin/env bash
# SIGKILL while a checkpoint is being written (held open by the test hook
# SPHREVERB_TEST_CHECKPOINT_SLEEP): the partial file is never taken for a checkpoint (refused if
# given explicitly), the last complete one restarts, and the result equals a run that never stopped.
#   kill_during_write.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
args=("${opts[@]}" --time.duration 0.004 --output.checkpoint_every 0.001)
on 2 run "$scene" --out "$work/full" "${args[@]}" >"$work/full.log" 2>&1

# Its own process group, so that mpiexec and both ranks die together.
SPHREVERB_TEST_CHECKPOINT_SLEEP=2 setsid mpiexec -n 2 "$exe" run "$scene" --out "$work/killed" \
  "${args[@]}" >"$work/killed.log" 2>&1 &
pid=$!
for _ in $(seq 1200); do
  [[ -f $work/killed/checkpoints/step_000000010.h5 ]] &&
    compgen -G "$work/killed/checkpoints/.step_*.h5.partial" >/dev/null && break
  sleep 0.05
done
sleep 0.5
kill -KILL -- -$pid
wait $pid || true
# The ranks run in process groups of their own: wait for them too (they abort once mpiexec is
# gone), or the restart below finds the run directory still locked by one of them.
for _ in $(seq 100); do
  pgrep -g $pid >/dev/null || pgrep -f -- "--out $work/killed" >/dev/null || break
  sleep 0.1
done
ls -a "$work/killed/checkpoints"
partial=$(compgen -G "$work/killed/checkpoints/.step_*.h5.partial" | head -n1)
[[ -n $partial ]] || { echo "FAIL: no partial checkpoint at the kill"; exit 1; }
last=$(latest "$work/killed")
[[ $last == *step_000000010.h5 ]] || { echo "FAIL: latest complete is $last"; exit 1; }
rc=0 && on 2 restart "$partial" --out "$work/from_partial" >"$work/partial.log" 2>&1 || rc=$?
[[ $rc == 2 ]] || { echo "FAIL: the partial file: exit $rc, expected 2"; exit 1; }
echo "ok: partial refused: $(grep -m1 error "$work/partial.log")"
on 1 restart "$last" >"$work/restart.log" 2>&1
same "$work/full" "$work/killed"
compgen -G "$work/killed/checkpoints/.step_*" >/dev/null &&
  { echo "FAIL: the stale partial file survived the next checkpoint"; exit 1; }
echo "kill_during_write: all passed"
