#!/usr/bin/env bash
# The launch paths of stop_signal.hpp: SIGINT to a 1-rank run and a SIGUSR2 within the first
# tenths of a second (before MPI_Init ends) each give a checkpoint and exit 75; SIGUSR2 sent to
# rank 1 of a 2-rank mpiexec alone stops both ranks (exit 75 through mpiexec) and is reported as
# signal 12; SIGTERM to mpiexec while a slow checkpoint is being written (mpiexec's SIGKILL a
# second later cuts it) leaves the previous checkpoint the latest, and it restarts.
#   signal_paths.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
args=("${opts[@]}" --time.duration 0.012 --output.checkpoint_every 0)
wait_file() { for _ in $(seq 1200); do [[ -e $1 ]] && return; sleep 0.05; done; }
stopped() {  # DIR RC SIGNAL
  [[ $2 == 75 ]] || { echo "FAIL: $1: exit $2, expected 75"; tail -3 "$1.log"; exit 1; }
  grep -q "stopped by signal $3 at step" "$1.log" ||
    { echo "FAIL: $1: not 'stopped by signal $3'"; tail -3 "$1.log"; exit 1; }
  [[ -f $(latest "$1") ]] || { echo "FAIL: $1: no checkpoint"; exit 1; }
  echo "ok: $(basename "$1"): exit 75, $(grep -o "stopped by signal [0-9]* at step [0-9]*" "$1.log")"
}

"$exe" run "$scene" --out "$work/int" "${args[@]}" >"$work/int.log" 2>&1 &
pid=$!
wait_file "$work/int/checkpoints/step_000000010.h5"
sleep 0.2
kill -INT $pid
rc=0 && wait $pid || rc=$?
stopped "$work/int" $rc 2

"$exe" run "$scene" --out "$work/early" "${args[@]}" >"$work/early.log" 2>&1 &
pid=$!
sleep 0.05
kill -USR2 $pid
rc=0 && wait $pid || rc=$?
stopped "$work/early" $rc 12

mpiexec -n 2 "$exe" run "$scene" --out "$work/rank1" "${args[@]}" >"$work/rank1.log" 2>&1 &
pid=$!
wait_file "$work/rank1/checkpoints/step_000000010.h5"
rank1=""
for p in $(pgrep -f -- "--out $work/rank1"); do
  tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=1" && rank1=$p
done
[[ -n $rank1 ]] || { echo "FAIL: rank 1 not found"; exit 1; }
kill -USR2 "$rank1"
rc=0 && wait $pid || rc=$?
stopped "$work/rank1" $rc 12

# SIGTERM to mpiexec: not a guaranteed path (exit 1); the slow write of the signal checkpoint is
# cut, the cadence checkpoint before it stays the latest complete one.
SPHREVERB_TEST_CHECKPOINT_SLEEP=5 setsid mpiexec -n 2 "$exe" run "$scene" --out "$work/term" \
  "${opts[@]}" --time.duration 0.012 --output.checkpoint_every 0.002 >"$work/term.log" 2>&1 &
pid=$!
wait_file "$work/term/checkpoints/step_000000088.h5"
sleep 0.5
kill -TERM $pid
rc=0 && wait $pid || rc=$?
for _ in $(seq 100); do pgrep -g $pid >/dev/null || break; sleep 0.1; done
[[ $rc != 0 && $rc != 75 ]] || { echo "FAIL: SIGTERM to mpiexec: exit $rc"; exit 1; }
last=$(latest "$work/term")
[[ $last =~ step_0000000(88|176).h5$ ]] || { echo "FAIL: SIGTERM to mpiexec: latest $last"; exit 1; }
on 1 restart "$last" --out "$work/term_restart" >"$work/term_restart.log" 2>&1
echo "ok: SIGTERM to mpiexec: exit $rc, $(basename "$last") restarts"
echo "signal_paths: all passed"
