#!/usr/bin/env bash
# The jobs/ batch scripts under a real one-node Slurm (scripts/slurm_local.sh):
#  1. jobs/run.sbatch: a single run of a small box, 2 tasks;
#  2. jobs/chain.sbatch: the same run, signalled in stage 2 as the wall-time warning would signal
#     it (scancel --signal=USR1 --batch), checkpointed, requeued and restarted by Slurm; the
#     restarted slot must rebuild its neighbour lists (summary.json `rebuilds` above the count in
#     the checkpoint it restarted from, and equal to the single run's), and its WAVs, the raw float
#     ones included, must equal the single run's byte for byte;
#  3. jobs/convergence_array.sbatch: a job array (one task per spacing) and the analysis job that
#     depends on it; every task and the analysis must complete.
#   test_jobs.sh SOURCE_DIR WORK_DIR [EXE]
# Exit 77 (ctest: skipped) when not root or Slurm is not installed.
set -euo pipefail
src=$(cd "$1" && pwd) work=$2 exe=${3:-$src/build/sphreverb}
[[ $EUID -eq 0 ]] || { echo "skipped: needs root to run the Slurm daemons"; exit 77; }
command -v sbatch > /dev/null || { echo "skipped: Slurm is not installed"; exit 77; }

export SLURM_LOCAL_DIR=$work/slurm
rm -rf "$work" && mkdir -p "$work"
trap '"$src/scripts/slurm_local.sh" down || true' EXIT
eval "$("$src/scripts/slurm_local.sh" up)"

scene=$src/tests/validation/box_v4_coarse.ini
# Neighbour lists rebuilt during stage 2, after the restart too: as in
# tests/checkpoint/restart_rebuild.sh, h = 1.4 dx and a skin that puts the list radius 0.1 um inside
# the lattice distance sqrt(8) dx, so that pairs enter the lists between rebuilds and which pairs a
# list holds matters to the last bit; a 0.2 mm disc deflection moves particles by half the skin
# (0.21 mm) often enough for 10 rebuilds in the run (9 after a restart at step 189). Every
# checkpoint is kept, so that the one restarted from can be read.
extra="--time.duration 0.03 --output.checkpoint_every 0.002 --fluid.h_over_dx 1.4
  --fluid.skin 0.02842 --emitter.deflection 2e-4 --output.keep_checkpoints 1000"
extra=$(echo $extra)

# Waits for job $1 to leave the queue for good (at most $2 s): absent from squeue at three polls
# in a row, since a requeued job is briefly absent. Prints its final state from the job record.
wait_job() {
  local jid=$1 limit=$2 t=0 absent=0
  while ((absent < 3)); do
    if squeue -h -j "$jid" 2> /dev/null | grep -q .; then absent=0; else ((++absent)); fi
    ((t++ < limit)) || { echo "job $jid still queued after $limit s" >&2; squeue; return 1; }
    sleep 1
  done
  grep "^JobId=$jid " "$SLURM_LOCAL_DIR/log/jobcomp.txt" | tail -n 1 | sed 's/.*JobState=\([A-Z_]*\).*/\1/'
}

cd "$src"  # jobs/ scripts are submitted from the repository root
single=$(sbatch --parsable --ntasks=2 --output="$work/single-%j.out" \
  --export=ALL,SCENE="$scene",OUT="$work/single",EXE="$exe",EXTRA="$extra" jobs/run.sbatch)
state=$(wait_job "$single" 300)
[[ $state == COMPLETED ]] || { cat "$work"/single-*.out; echo "single run: $state" >&2; exit 1; }
echo "single run: job $single $state"

chain=$(sbatch --parsable --ntasks=2 --output="$work/chain-%j.out" \
  --export=ALL,SCENE="$scene",OUT="$work/chain",EXE="$exe",EXTRA="$extra" jobs/chain.sbatch)
# Signal once stage 2 has written a checkpoint (stage 1 ends at step 10; the cadence is 176 steps,
# the run 2656), so the restart has recording and rebuilds to continue; the run takes ~10 s on 2
# idle cores after that.
stage2_checkpoint() { ls "$work"/chain/checkpoints/step_*.h5 2> /dev/null | grep -qv step_000000010; }
for _ in $(seq 1 600); do
  stage2_checkpoint && break
  sleep 0.2
done
stage2_checkpoint ||
  { cat "$work"/chain-*.out; echo "chain: no stage-2 checkpoint appeared" >&2; exit 1; }
scancel --signal=USR1 --batch "$chain"
echo "chain: job $chain signalled with USR1 in stage 2"
# Slurm holds a requeued job back until AuthInfo cred_expire + 1 s after the requeue (121 s by
# default), because slurmd refuses to launch it with a credential created in the same second as the
# requeue (slurmd revokes the job's credentials at the requeue, compared at one-second resolution):
# the job then ends at once, FAILED with exit code 1 and no output, and slurmd.log says "Job N
# already killed, do not launch batch job". The test releases the job early, but only in a later
# second than the one in which squeue shows it PENDING, which it does only after slurmd has
# processed the requeue (the job is COMPLETING until then).
for _ in $(seq 1 300); do
  if squeue -h -j "$chain" -o '%T' 2> /dev/null | grep -q '^PENDING'; then
    seen=$(date +%s)
    while (($(date +%s) <= seen)); do sleep 0.1; done
    scontrol update JobId="$chain" StartTime=now && break
  fi
  squeue -h -j "$chain" 2> /dev/null | grep -q . || break
  sleep 0.5
done
state=$(wait_job "$chain" 600)
out=$work/chain-$chain.out
cat "$out"
[[ $state == COMPLETED ]] || {
  grep "^JobId=$chain " "$SLURM_LOCAL_DIR/log/jobcomp.txt" >&2
  scontrol show job "$chain" >&2 || true
  grep -F "Job $chain already killed, do not launch batch job" "$SLURM_LOCAL_DIR/log/slurmd.log" >&2 &&
    echo "chain: slurmd refused to launch the requeued job (released in the second of its requeue)" >&2
  tail -n 40 "$SLURM_LOCAL_DIR/log/slurmd.log" "$SLURM_LOCAL_DIR/log/slurmctld.log" >&2 || true
  echo "chain: $state" >&2
  exit 1
}
grep -q "slot 0 checkpointed; requeueing" "$out" || { echo "chain: slot 0 did not checkpoint" >&2; exit 1; }
grep -q "slot 1: restarting from" "$out" || { echo "chain: no restarted slot" >&2; exit 1; }
# The restarted slot's rebuilds: its summary's count against the checkpoint it started from.
from=$(sed -n 's/^chain: slot 1: restarting from //p' "$out" | head -n 1)
rebuilds=$(/usr/bin/python3 - "$from" "$work/chain/summary.json" "$work/single/summary.json" <<'PY'
import json, sys
import h5py
at = int(h5py.File(sys.argv[1], "r")["/run/rebuilds"][0])
chain, single = (json.load(open(p))["rebuilds"] for p in sys.argv[2:4])
print(at, chain, single)
PY
)
read -r at total single_total <<< "$rebuilds"
echo "chain: restarted from $from ($at rebuilds); $total rebuilds at the end, single run $single_total"
((total > at)) || { echo "chain: the restarted slot did not rebuild its neighbour lists" >&2; exit 1; }
((total == single_total)) || { echo "chain: rebuild count differs from the single run" >&2; exit 1; }
for f in corner.wav corner.raw.wav; do
  cmp "$work/single/$f" "$work/chain/$f" || { echo "chain: $f differs from the single run" >&2; exit 1; }
done
echo "chain: checkpointed, requeued, restarted, rebuilt $((total - at)) times after the restart;" \
  "WAVs (raw float included) equal the single run's byte for byte"

# The resolution study as a job array (one task per spacing) and its analysis job, chained by
# --dependency=afterok on the array: every task and the analysis must complete.
conv_env=ALL,SCENE=$src/tests/validation/duct_v9_phase.ini,KIND=phase,SPACINGS="0.0225 0.018 0.015",OUT=$work/conv,SPHREVERB=$exe
arr=$(sbatch --parsable --array=0-2 --output="$work/conv-%A_%a.out" --export="$conv_env" \
  jobs/convergence_array.sbatch)
ana=$(sbatch --parsable --dependency=afterok:"$arr" --kill-on-invalid-dep=yes --ntasks=1 \
  --output="$work/conv-analysis-%j.out" --export="$conv_env",ANALYSE=1 jobs/convergence_array.sbatch)
state=$(wait_job "$ana" 900)
# (afterok: the analysis runs only if every array task succeeded; each task leaves its summary.)
tasks=$(ls "$work"/conv/dx_*/summary.json 2> /dev/null | wc -l)
echo "convergence array $arr: $tasks of 3 tasks completed; analysis job $ana $state"
if [[ $tasks != 3 || $state != COMPLETED || ! -f $work/conv/convergence.json ]]; then
  cat "$work"/conv-*.out
  exit 1
fi
echo "slurm jobs: all passed"
