#!/usr/bin/env bash
# Signals: SIGTERM to a 1-rank run and SIGUSR2 to mpiexec of a 2-rank run each make the run write
# a checkpoint at the next step boundary and exit 75; restarting from it (on another rank count)
# gives byte-identical WAVs, receiver records and particles to a run that never stopped.
#   signals.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
args=("${opts[@]}" --time.duration 0.012 --output.checkpoint_every 0)
on 2 run "$scene" --out "$work/full" "${args[@]}" >"$work/full.log" 2>&1

# Waits for DIR's end-of-stage-1 checkpoint (the handlers are installed by then), plus a little.
wait_started() {
  for _ in $(seq 600); do [[ -f $1/checkpoints/step_000000010.h5 ]] && break; sleep 0.05; done
  sleep 0.1
}
check_stopped() {  # DIR RC
  local dir=$1 rc=$2 last
  [[ $rc == 75 ]] || { echo "FAIL: $dir: exit $rc, expected 75"; tail -5 "$dir.log"; exit 1; }
  last=$(latest "$dir")
  grep -q "stopped by signal" "$dir.log" || { echo "FAIL: $dir: no 'stopped by signal'"; exit 1; }
  [[ $last != *step_000000010.h5 ]] && ! grep -q "(end of run)" "$dir.log" ||
    { echo "FAIL: $dir: stopped at $last, not in the middle of stage 2"; exit 1; }
  [[ ! -e $dir/left.wav ]] || { echo "FAIL: $dir: a stopped run left a WAV"; exit 1; }
  echo "ok: exit 75, checkpoint $(basename "$last")"
}

"$exe" run "$scene" --out "$work/term" "${args[@]}" >"$work/term.log" 2>&1 &
pid=$!
wait_started "$work/term"
kill -TERM $pid
rc=0 && wait $pid || rc=$?
check_stopped "$work/term" $rc
on 2 restart "$(latest "$work/term")" >"$work/term_restart.log" 2>&1
same "$work/full" "$work/term"

mpiexec -n 2 "$exe" run "$scene" --out "$work/usr2" "${args[@]}" >"$work/usr2.log" 2>&1 &
pid=$!
wait_started "$work/usr2"
kill -USR2 $pid
rc=0 && wait $pid || rc=$?
check_stopped "$work/usr2" $rc
on 1 restart "$(latest "$work/usr2")" >"$work/usr2_restart.log" 2>&1
same "$work/full" "$work/usr2"
echo "signals: all passed"
