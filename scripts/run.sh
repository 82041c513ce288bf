#!/usr/bin/env bash
# Runs build/sphreverb on a scene with mpirun (root-safe, oversubscription allowed), then writes
# the run's report page OUT/report.html (sphreverb_post report). A failing report only warns: the
# exit status is the run's.
#   scripts/run.sh SCENE.ini [--ranks N] [--out DIR] [--no-report] [--SECTION.KEY VALUE ...]
# SPHREVERB=PATH runs another executable than build/sphreverb.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: scripts/run.sh SCENE.ini [--ranks N] [--out DIR] [--no-report] [overrides]" >&2; exit 2; }
scene=$1
shift
ranks=2 report=1 out="" args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --ranks) ranks=$2; shift 2 ;;
    --no-report) report=0; shift ;;
    --out | --output.dir) out=$2; args+=("$1" "$2"); shift 2 ;;
    --out=* | --output.dir=*) out=${1#*=}; args+=("$1"); shift ;;
    *) args+=("$1"); shift ;;
  esac
done
# Without --out the scene's [output] dir (default "out") is the output directory.
if [[ -z $out ]]; then
  out=$(awk -F= '/^[[:space:]]*\[/ { s = $0; gsub(/[[:space:]]/, "", s) }
                 s == "[output]" && $1 ~ /^[[:space:]]*dir[[:space:]]*$/ {
                   v = $2; sub(/#.*/, "", v); gsub(/[[:space:]]/, "", v); print v }' "$scene")
  out=${out:-out}
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_psec=${PMIX_MCA_psec:-^munge}  # docs/running.md, "Launch time"
mpirun -np "$ranks" "${SPHREVERB:-build/sphreverb}" run "$scene" "${args[@]}"
if [[ $report -eq 1 ]]; then
  PYTHONPATH=postproc /usr/bin/python3 -m sphreverb_post report "$out" ||
    echo "run.sh: warning: the run succeeded but its report ($out/report.html) failed" >&2
fi
