#!/usr/bin/env bash
# V19 on the default scene (docs/validation.md): configs/small_room.ini's geometric part (10^5
# rays) joined with the SPH records of `sphreverb run configs/small_room.ini` (left.raw.wav,
# right.raw.wav in tests/validation/geometric/small_room_sph/: 100 ms; a receiver's record does
# not depend on the rank count or on [hybrid]), then the join's checks (v19_check.py; its
# options, e.g. --only levels, follow OUTDIR).
#   v19_default.sh GEOMETRIC_ROOM OUTDIR [v19_check.py options ...]
set -euo pipefail
tool=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
post=$(cd "$here/../../../postproc" && pwd)
rm -rf "$out"
mkdir -p "$out"
"$tool" "$here/../../../configs/small_room.ini" hybrid.rays=100000 sph="$here/small_room_sph" \
  out="$out"
PYTHONPATH=$post /usr/bin/python3 "$here/v19_check.py" "$out" --sph "$here/small_room_sph" "$@"
