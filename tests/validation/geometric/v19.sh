#!/usr/bin/env bash
# V19 coarse (docs/validation.md): hybrid_v19.ini (the default room, coarse, [hybrid]),
# then the join's checks (v19_check.py: overlap-octave early/late levels, T30 across the
# crossover; --only levels|t30 asserts one of them).
#   v19.sh SPHREVERB RANKS OUTDIR [--only levels|t30] [--key value ...]
set -euo pipefail
exe=$1 ranks=$2 out=$3
shift 3
check=()
if [[ ${1:-} == --only ]]; then
  check=(--only "$2")
  shift 2
fi
here=$(cd "$(dirname "$0")" && pwd)
post=$(cd "$here/../../../postproc" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$out"
mkdir -p "$out"
mpiexec -n "$ranks" "$exe" run "$here/hybrid_v19.ini" --out "$out" "$@"
PYTHONPATH=$post /usr/bin/python3 "$here/v19_check.py" "$out" "${check[@]}"
