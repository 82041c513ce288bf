#!/usr/bin/env bash
# Runs build/sphreverb on a scene with mpirun (root-safe, oversubscription allowed).
#   scripts/run.sh SCENE.ini [--ranks N] [--out DIR] [--SECTION.KEY VALUE ...]
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -ge 1 ]] || { echo "usage: scripts/run.sh SCENE.ini [--ranks N] [--out DIR] [overrides]" >&2; exit 2; }
scene=$1
shift
ranks=2 args=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --ranks) ranks=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
exec mpirun -np "$ranks" build/sphreverb run "$scene" "${args[@]}"
