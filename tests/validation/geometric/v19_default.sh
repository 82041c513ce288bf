#!/usr/bin/env bash
# V19 on the default scene (docs/validation.md): configs/small_room.ini's geometric part (10^5
# rays) joined with the SPH records of `sphreverb run configs/small_room.ini` (left.raw.wav,
# right.raw.wav in tests/validation/geometric/small_room_sph/: 100 ms; a receiver's record does
# not depend on the rank count or on [hybrid]), then the join's checks (v19_check.py; its
# options, e.g. --only levels, follow OUTDIR). --seeds K joins the [hybrid] seeds 1 ... K
# (about 10 s of CPU each) and takes the full responses' octave decay times from their mean band
# energy; the levels are seed 1's. --set KEY=VALUE (repeatable) passes a scene override to every
# join (e.g. --set hybrid.phased_images=true).
#   v19_default.sh GEOMETRIC_ROOM OUTDIR [--seeds K] [--set KEY=VALUE ...] [v19_check.py options ...]
set -euo pipefail
tool=$1 out=$2
shift 2
seeds=1 set=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --seeds) seeds=$2; shift 2 ;;
    --set) set+=("$2"); shift 2 ;;
    *) break ;;
  esac
done
here=$(cd "$(dirname "$0")" && pwd)
post=$(cd "$here/../../../postproc" && pwd)
rm -rf "$out"
mkdir -p "$out"
dirs=()
for ((k = 1; k <= seeds; ++k)); do
  dir=$out
  [[ $seeds -eq 1 ]] || { dir=$out/seed$k; mkdir -p "$dir"; }
  "$tool" "$here/../../../configs/small_room.ini" hybrid.rays=100000 hybrid.seed=$k \
    sph="$here/small_room_sph" out="$dir" "${set[@]}"
  dirs+=("$dir")
done
realisations=()
[[ $seeds -eq 1 ]] || realisations=(--realisations "${dirs[@]:1}")
PYTHONPATH=$post /usr/bin/python3 "$here/v19_check.py" "${dirs[0]}" --sph "$here/small_room_sph" \
  "${realisations[@]}" "$@"
