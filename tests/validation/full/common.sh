# Helpers sourced by tests/validation/full/Vn.sh (bash). Each Vn.sh is called as
#   Vn.sh EXE OUTDIR
# and writes OUTDIR/validation.json: {"case", "title", "measured", "threshold", "pass",
# "resolution", "wall_seconds", "plots": [paths relative to OUTDIR], ...}, exiting non-zero if
# the case fails.
set -euo pipefail
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_psec=${PMIX_MCA_psec:-^munge}  # docs/running.md, "Launch time"
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
POST=$SRC/postproc
export PYTHONPATH=$POST  # python3 -m sphreverb_post SUBCOMMAND
SCENES=$SRC/tests/validation
RANKS=${VALIDATION_RANKS:-2}
PY=/usr/bin/python3
T0=$(date +%s.%N)

# setup EXE OUTDIR: checks the arguments and makes OUTDIR.
setup() {
  if [[ $# -ne 2 ]]; then echo "usage: $(basename "$0") SPHREVERB OUTDIR" >&2; exit 2; fi
  EXE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  OUT=$2
  [[ -x $EXE ]] || { echo "$(basename "$0"): $EXE is not executable" >&2; exit 2; }
  mkdir -p "$OUT"
  OUT=$(cd "$OUT" && pwd)
}

# sim RUNDIR SCENE [--key value ...]: one solver run on $RANKS ranks, log in RUNDIR.log.
sim() {
  local dir=$1 scene=$2
  shift 2
  rm -rf "$dir"
  if ! mpiexec -n "$RANKS" "$EXE" run "$scene" --out "$dir" "$@" > "$dir.log" 2>&1; then
    echo "$(basename "$0"): run failed: $scene $* (log: $dir.log)" >&2
    tail -5 "$dir.log" >&2
    return 3
  fi
}

# finish CHECK_JSON RESOLUTION PLOT... : writes OUTDIR/validation.json from the check script's
# JSON (which has case, title, measured, threshold, pass), adding resolution, wall time, plots.
finish() {
  local check=$1 resolution=$2
  shift 2
  "$PY" - "$check" "$OUT/validation.json" "$resolution" "$T0" "$@" <<'PY'
import json, sys, time
check, out, resolution, t0, plots = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), sys.argv[5:]
with open(check) as f:
    data = json.load(f)
data["resolution"] = resolution
data["wall_seconds"] = round(time.time() - t0, 1)
data["plots"] = plots
with open(out, "w") as f:
    json.dump(data, f, indent=1)
print(f"{data['case']}: measured {data['measured']} | threshold {data['threshold']} | "
      f"{'PASS' if data['pass'] else 'FAIL'} | {resolution} | {data['wall_seconds']} s")
sys.exit(0 if data["pass"] else 1)
PY
}
