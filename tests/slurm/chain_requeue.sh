#!/usr/bin/env bash
# jobs/chain.sbatch's requeue step, without Slurm: stand-ins for mpirun (writes a checkpoint, exits
# 75 as sphreverb does when signalled) and scontrol (records its arguments, exits with
# $FAKE_SCONTROL_RC) come first on PATH.
#  1. scontrol requeue succeeds: the slot names the checkpoint the next slot restarts from, requeues
#     its own job and exits 0;
#  2. scontrol requeue fails: the slot says so on stderr and exits 75 (a job that ended COMPLETED
#     here would leave the run unfinished without a word).
#   chain_requeue.sh SOURCE_DIR WORK_DIR
set -euo pipefail
src=$(cd "$1" && pwd) work=$2
rm -rf "$work" && mkdir -p "$work/bin"
cat > "$work/bin/mpirun" <<'EOF'
#!/usr/bin/env bash
mkdir -p "$OUT/checkpoints" && : > "$OUT/checkpoints/step_000000010.h5"
exit 75
EOF
cat > "$work/bin/scontrol" <<'EOF'
#!/usr/bin/env bash
echo "$*" >> "$FAKE_SCONTROL_LOG"
exit "$FAKE_SCONTROL_RC"
EOF
chmod +x "$work/bin/mpirun" "$work/bin/scontrol"

fail() { echo "chain_requeue: $*" >&2; exit 1; }

# run_slot NAME SCONTROL_RC: runs slot 0 of job 4242 with OUT=$work/NAME; sets rc.
run_slot() {
  local name=$1
  set +e
  (cd "$work" && env PATH="$work/bin:$PATH" OUT="$work/$name" SLURM_JOB_ID=4242 \
    SLURM_SUBMIT_DIR="$src" FAKE_SCONTROL_RC="$2" FAKE_SCONTROL_LOG="$work/$name.scontrol" \
    bash "$src/jobs/chain.sbatch" > "$work/$name.out" 2> "$work/$name.err")
  rc=$?
  set -e
}

run_slot ok 0
((rc == 0)) || fail "requeued slot: exit code $rc, expected 0"
grep -qx "chain: slot 0 checkpointed; requeueing job 4242" "$work/ok.out" ||
  fail "requeued slot: no requeue line"
grep -q "^chain: slot 1 restarts from $work/ok/checkpoints/step_000000010.h5 after the requeue hold;" \
  "$work/ok.out" || fail "requeued slot: the next slot's checkpoint is not named"
[[ $(cat "$work/ok.scontrol") == "requeue 4242" ]] || fail "requeued slot: scontrol $(cat "$work/ok.scontrol")"
[[ ! -s $work/ok.err ]] || fail "requeued slot: stderr: $(cat "$work/ok.err")"

run_slot refused 1
((rc == 75)) || fail "failed requeue: exit code $rc, expected 75"
grep -q "^chain: scontrol requeue 4242 failed; the run is checkpointed" "$work/refused.err" ||
  fail "failed requeue: no message on stderr"
echo "chain_requeue: requeue (exit 0) and failed requeue (exit 75, reported) as expected"
