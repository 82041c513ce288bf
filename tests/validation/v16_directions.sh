#!/usr/bin/env bash
# V16: runs box_v16.ini once per direction (the disc 9 cm from the receiver along it, facing
# it), then checks the directions of arrival (`python3 -m sphreverb_post validate v16`).
#   v16_directions.sh SPHREVERB RANKS OUTDIR PULSE_WAV [validate args ...]
set -euo pipefail
exe=$1 ranks=$2 out=$3 pulse=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
post=$(cd "$here/../../postproc" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$out"
mkdir -p "$out"
receiver="0.24 0.24 0.24"
distance=0.09
# name: unit vector from the receiver towards the source
directions=("px:1 0 0" "mx:-1 0 0" "py:0 1 0" "my:0 -1 0" "pz:0 0 1" "mz:0 0 -1"
            "oblique:0.48 -0.6 0.64")
runs=()
for d in "${directions[@]}"; do
  name=${d%%:*} u=${d#*:}
  read -r cx cy cz < <(awk -v r="$receiver" -v u="$u" -v d="$distance" 'BEGIN {
    split(r, a, " "); split(u, b, " ");
    printf "%.6f %.6f %.6f\n", a[1] + d * b[1], a[2] + d * b[2], a[3] + d * b[3] }')
  read -r nx ny nz < <(awk -v u="$u" 'BEGIN { split(u, b, " "); print -b[1], -b[2], -b[3] }')
  mpiexec -n "$ranks" "$exe" run "$here/box_v16.ini" --out "$out/$name" --output.checkpoint_every 0 \
    --emitter.input "$pulse" --emitter.center "$cx $cy $cz" --emitter.normal "$nx $ny $nz" \
    >"$out/$name.log" 2>&1 || { cat "$out/$name.log"; exit 1; }
  runs+=("$name")
done
PYTHONPATH=$post /usr/bin/python3 -m sphreverb_post validate v16 "$out" --runs "${runs[@]}" \
  --receiver mic "$@" --json "$out/validation.json"
