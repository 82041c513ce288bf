#!/usr/bin/env bash
# A runaway particle stops the run early with exit 3 and a message naming the step, the time and
# the particle's position, before the neighbour grid grows with the particles' bounding box: a
# 10 cm displacement-driven disc (1 and 2 ranks), and a CFL number of 1 at 8.8 kHz: a particle
# leaves the room. No WAV is
# written, and the end-of-stage-1 checkpoint stays the last one. The state at the failing step is
# DIR/checkpoints/unstable_step_N.h5 (+ .xmf), named by the message: an HDF5 checkpoint whose
# step is N and whose particles include the runaway one, outside checkpoints.xmf; if it cannot be
# written, the run still exits 3 with the instability's message and a note.
#   unstable.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
# The unstable-step file of DIR: named by the log, step N of the message, the particle's row at
# the reported position (or a non-finite one), not listed in checkpoints.xmf.
expect_state() {  # DIR
  local dir=$1 step file
  step=$(grep -o 'unstable at step [0-9]*' "$dir.log" | head -n1 | grep -o '[0-9]*$')
  file=$(printf '%s/checkpoints/unstable_step_%09d.h5' "$dir" "$step")
  grep -Fq "the state at that step is in $file" "$dir.log" ||
    { echo "FAIL: $dir: the message does not name $file"; tail -3 "$dir.log"; exit 1; }
  [[ -s ${file%.h5}.xmf ]] || { echo "FAIL: $dir: no ${file%.h5}.xmf"; exit 1; }
  ! grep -q unstable_ "$dir/checkpoints/checkpoints.xmf" ||
    { echo "FAIL: $dir: checkpoints.xmf lists the unstable state"; exit 1; }
  /usr/bin/python3 - "$file" "$step" "$dir.log" <<'PY' || exit 1
import re, sys
import h5py, numpy as np
path, step, log = sys.argv[1], int(sys.argv[2]), open(sys.argv[3]).read()
m = re.search(r"particle (\d+) is at \(([^)]*)\) m", log)
pid, where = int(m.group(1)), [float(v) for v in m.group(2).split(",")]
with h5py.File(path, "r") as f:
    assert f.attrs["step"] == step and f["/run/step"][()] == step, (f.attrs["step"], step)
    ids = f["/particles/key"][()] // 27  # key = id * 27 + 13
    rows = np.flatnonzero(ids == pid)
    assert rows.size == 1, f"particle {pid}: {rows.size} rows"
    x = f["/particles/position"][rows[0]]
    ok = (np.allclose(x, where, rtol=1e-5, atol=1e-9) if np.all(np.isfinite(where))
          else not np.all(np.isfinite(x)))
    assert ok, f"particle {pid} at {x} in the file, {where} in the message"
    print(f"ok: {path}: step {step}, particle {pid} at {x}")
PY
}
expect_unstable() {  # DIR
  local dir=$1 rc=$2
  [[ $rc == 3 ]] || { echo "FAIL: $dir: exit $rc, expected 3"; tail -3 "$dir.log"; exit 1; }
  grep -Eq "unstable at step [0-9]+ \(t = [0-9.e+-]+ s of stage 2\): particle [0-9]+ is at \(" \
    "$dir.log" || { echo "FAIL: $dir: no step, time and position"; tail -3 "$dir.log"; exit 1; }
  [[ ! -e $dir/left.wav ]] || { echo "FAIL: $dir: an unstable run left a WAV"; exit 1; }
  [[ $(latest "$dir") == */step_000000010.h5 ]] ||
    { echo "FAIL: $dir: last checkpoint $(latest "$dir")"; exit 1; }
  # What a requeued Slurm slot restarts from (jobs/lib.sh).
  [[ $(source "$src/jobs/lib.sh" && latest_checkpoint "$dir") == */step_000000010.h5 ]] ||
    { echo "FAIL: $dir: jobs/lib.sh would restart from another file"; exit 1; }
  echo "ok: $(grep -o 'unstable at step [0-9]*' "$dir.log")"
  expect_state "$dir"
}
for n in 1 2; do
  rc=0
  on $n run "$scene" --out "$work/disc$n" --emitter.deflection 0.1 --emitter.drive displacement \
    --time.duration 0.01 --output.progress_every 1000 >"$work/disc$n.log" 2>&1 || rc=$?
  expect_unstable "$work/disc$n" $rc
done
# A state that cannot be written (its partial file's name taken by a directory): still exit 3 with
# the instability's message, and a note saying why.
mkdir -p "$work/blocked/checkpoints/.unstable_step_000000021.h5.partial/x"
rc=0
on 2 run "$scene" --out "$work/blocked" --emitter.deflection 0.1 --emitter.drive displacement \
  --time.duration 0.01 --output.progress_every 1000 >"$work/blocked.log" 2>&1 || rc=$?
[[ $rc == 3 ]] && grep -q "unstable at step 21 .*; the state at that step could not be written: " \
  "$work/blocked.log" && [[ ! -e $work/blocked/checkpoints/unstable_step_000000021.h5 ]] ||
  { echo "FAIL: blocked: exit $rc"; grep -i unstable "$work/blocked.log"; exit 1; }
echo "ok: blocked: exit 3, $(grep -o 'could not be written: .\{40\}' "$work/blocked.log")"
rc=0
on 1 run "$scene" --out "$work/cfl" --time.cfl 1 --time.sample_rate 8800 --fluid.spacing 0.03 \
  --emitter.center "0.105 0.1 0.1" --time.duration 0.01 >"$work/cfl.log" 2>&1 || rc=$?
expect_unstable "$work/cfl" $rc
echo "unstable: all passed"
