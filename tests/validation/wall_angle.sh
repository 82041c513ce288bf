#!/usr/bin/env bash
# Resistive wall at oblique incidence: runs slab_wall_angle.ini with the wall y = 0 far away
# (free), rigid, and resistive at each given absorption, then compares the measured reflection
# with a locally reacting plane (`python3 -m sphreverb_post validate wall-angle`).
#   wall_angle.sh SPHREVERB RANKS OUTDIR PULSE_WAV "ABSORPTION ..." [--key value ...]
#       [-- validate args ...]
# The --key value pairs go to every run (e.g. a finer spacing with a thinner slab:
# --fluid.spacing 0.01 --room.max "1.8 1.05 0.06" --emitter.center "0.005 0.5 0.03").
set -euo pipefail
exe=$1 ranks=$2 out=$3 pulse=$4 absorptions=$5
shift 5
overrides=()
while [[ $# -gt 0 && $1 != "--" ]]; do overrides+=("$1"); shift; done
[[ $# -gt 0 ]] && shift  # the "--"
here=$(cd "$(dirname "$0")" && pwd)
post=$(cd "$here/../../postproc" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
run() {  # name, scene overrides ...
  local name=$1
  shift
  rm -rf "${out:?}/$name"
  mpiexec -n "$ranks" "$exe" run "$here/slab_wall_angle.ini" --out "$out/$name" \
    --emitter.mono.input "$pulse" "$@" >"$out/$name.log" 2>&1 || { cat "$out/$name.log"; exit 1; }
}
# The free field: the room moved down by 0.45 m (a multiple of the spacing, 1 or 1.5 cm, so the
# lattice and the source-receiver offsets are unchanged); both y faces lie ~0.5 m from the source.
zmax=$(sed -n '/^\[room\]/,/^\[/s/^max = //p' "$here/slab_wall_angle.ini" | awk '{ print $3 }')
free=()
for ((i = 0; i < ${#overrides[@]}; i++)); do
  if [[ ${overrides[i]} == --room.max ]]; then
    zmax=$(awk '{ print $3 }' <<<"${overrides[i + 1]}")
    i=$((i + 1))
  else
    free+=("${overrides[i]}")
  fi
done
run free "${free[@]}" --room.min "0 -0.45 0" --room.max "1.8 0.6 $zmax" --room.material_y_min rigid
run rigid "${overrides[@]}" --room.material_y_min rigid
walls=()
for a in $absorptions; do
  run "a$a" "${overrides[@]}" --material.wall.absorption "$a"
  walls+=("a$a")
done
PYTHONPATH=$post /usr/bin/python3 -m sphreverb_post validate wall-angle "$out" --walls "${walls[@]}" \
  "$@" --json "$out/validation.json"
