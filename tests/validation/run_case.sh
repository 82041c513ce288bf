#!/usr/bin/env bash
# Runs one validation case: the solver on a scene, then its check on the output.
#   run_case.sh SPHREVERB RANKS OUTDIR SCENE [--key value ...] -- CASE [args ...]
# The check is `python3 -m sphreverb_post validate CASE OUTDIR [args ...] --json
# OUTDIR/validation.json` (postproc/); its exit code is the test's.
set -euo pipefail
exe=$1 ranks=$2 out=$3 scene=$4
shift 4
overrides=()
while [[ $# -gt 0 && $1 != "--" ]]; do overrides+=("$1"); shift; done
shift  # the "--"
case=$1
shift
post=$(cd "$(dirname "$0")/../../postproc" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$out"
mkdir -p "$out"
mpiexec -n "$ranks" "$exe" run "$scene" --out "$out" "${overrides[@]}"
PYTHONPATH=$post /usr/bin/python3 -m sphreverb_post validate "$case" "$out" "$@" \
  --json "$out/validation.json"
