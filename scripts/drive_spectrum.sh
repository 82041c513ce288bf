#!/usr/bin/env bash
# Measures the radiated spectrum of each emitter drive (displacement, velocity, acceleration) for
# a disc on a wall (baffled piston, tests/drive/baffled.ini) and a free disc (dipole,
# tests/drive/free.ini), and prints the slopes in dB/octave next to the point-source expectation.
#   scripts/drive_spectrum.sh [OUTDIR] [RANKS]      (default out/drive_spectrum, 2 ranks)
# Writes OUTDIR/drive_spectrum.png and OUTDIR/drive_spectrum.json. ~2 min on 2 idle cores.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-out/drive_spectrum} ranks=${2:-2}
exe=${SPHREVERB:-$src/build/sphreverb}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_psec=${PMIX_MCA_psec:-^munge}  # docs/running.md, "Launch time"
mkdir -p "$out"
runs=()
for kind in baffled free; do
  for drive in displacement velocity acceleration; do
    mpiexec -n "$ranks" "$exe" run "$src/tests/drive/$kind.ini" --out "$out/${kind}_$drive" \
      --emitter.drive "$drive" > "$out/${kind}_$drive.log" 2>&1
    runs+=(--run "$out/${kind}_$drive" "$kind" "$drive")
  done
done
# Gates: the first reflection minus 0.1 ms (baffled: 2.35 ms, path 0.806 m; free: 2.19 ms,
# path 0.75 m).
gates=()
for _ in 1 2 3; do gates+=(--gate-end 0.00225); done
for _ in 1 2 3; do gates+=(--gate-end 0.00209); done
PYTHONPATH=$src/postproc /usr/bin/python3 -m sphreverb_post drive-spectrum "${runs[@]}" \
  "${gates[@]}" --r 0.15 --band 500 1000 --plot "$out/drive_spectrum.png" \
  --json "$out/drive_spectrum.json"
