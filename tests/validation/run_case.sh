#!/usr/bin/env bash
# Runs one validation case: the solver on a scene, then a postproc check on its output.
#   run_case.sh SPHREVERB RANKS OUTDIR SCENE [--key value ...] -- CHECK.py [args ...]
# The check gets OUTDIR as its first argument; its exit code is the test's.
set -euo pipefail
exe=$1 ranks=$2 out=$3 scene=$4
shift 4
overrides=()
while [[ $# -gt 0 && $1 != "--" ]]; do overrides+=("$1"); shift; done
shift  # the "--"
check=$1
shift
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$out"
mkdir -p "$out"
mpiexec -n "$ranks" "$exe" run "$scene" --out "$out" "${overrides[@]}"
/usr/bin/python3 "$check" "$out" "$@" --json "$out/validation.json"
