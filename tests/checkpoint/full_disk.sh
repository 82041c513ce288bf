#!/usr/bin/env bash
# A full disk on 2 ranks: a checkpoint or snapshot write that fails on any rank ends the job on
# every rank with exit 3 and one message naming the file, within the time limit (no rank waits in
# a collective the others left); the last complete checkpoint survives and still restarts; no
# partial file is left behind. Needs root (a 2 MB tmpfs); exits 77 (skipped) without it.
#   full_disk.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
if [[ $(id -u) != 0 ]]; then echo "skipped: mounting a tmpfs needs root"; exit 77; fi
tiny=$work/tiny
mkdir -p "$tiny"
mount -t tmpfs -o size=2m tmpfs "$tiny" || { echo "skipped: cannot mount a tmpfs"; exit 77; }
trap 'umount "$tiny" 2>/dev/null || true' EXIT
failures=0
fill() {  # NAME extra-args...: a run that must fill the 2 MB disk
  local name=$1 rc=0
  shift
  rm -rf "${tiny:?}"/*
  timeout 120 mpiexec -n 2 "$exe" run "$scene" --fluid.spacing 0.03 \
    --emitter.center "0.105 0.1 0.1" --time.duration 0.01 --output.keep_checkpoints 100 \
    --out "$tiny/o" "$@" >"$work/$name.log" 2>&1 || rc=$?
  local errors
  errors=$(grep -c "error" "$work/$name.log" || true)
  if [[ $rc != 3 ]] || ! grep -q "not written" "$work/$name.log" ||
     [[ $(grep -cE "^\[[0-9:]+\] (error|critical)" "$work/$name.log") != 1 ]]; then
    echo "FAIL $name: exit $rc (want 3 and one error message)"; sed 's/^/    | /' "$work/$name.log" | tail -8
    failures=$((failures + 1))
    return
  fi
  if ls -a "$tiny/o/checkpoints" "$tiny/o/snapshots" 2>/dev/null | grep -qE "partial|reserve"; then
    echo "FAIL $name: partial files left"; ls -a "$tiny/o/checkpoints"; failures=$((failures + 1))
  fi
  echo "ok   $name: $(grep -m1 -E "\] error" "$work/$name.log" | cut -c1-160)"
}
fill checkpoints --output.checkpoint_every 0.001
# The newest complete checkpoint restarts (onto a roomy disk).
good=$(latest "$tiny/o")
if ! on 2 restart "$good" --out "$work/restarted" --time.duration 0.002 >"$work/restart.log" 2>&1
then
  echo "FAIL: the surviving checkpoint $good does not restart"; tail -5 "$work/restart.log"
  failures=$((failures + 1))
fi
fill snapshots --output.checkpoint_every 0 --output.snapshot_every 0.0002
echo "$failures failed"
[[ $failures == 0 ]]
