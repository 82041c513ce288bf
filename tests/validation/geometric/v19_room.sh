#!/usr/bin/env bash
# V19 on its own room (docs/validation.md): hybrid_v19_room.ini (a 1.2 x 1.0 x 0.8 m absorbing
# box at 2 cm, Schroeder frequency ~340 Hz, f_max 858 Hz, crossover 600 Hz): the geometric part
# (2 x 10^4 rays) joined with the SPH records of `sphreverb run hybrid_v19_room.ini` (by default
# the stored r1 ... r6.raw.wav in tests/validation/geometric/v19_room_sph/: 60 ms; a receiver's
# record does not depend on the rank count or on [hybrid]) for the [hybrid] seeds 1 ... K, then
# the join's checks (v19_check.py) on seed 1's levels and the full responses' octave decay times
# of the mean band energy over the K seeds. --run SPHREVERB RANKS: the full case, the SPH run
# first (into OUTDIR/sph, ~10 min on 2 loaded ranks), its records then joined. --mirror: the
# same room with mirror walls (hybrid_v19_room_mirror.ini, its records v19_room_mirror_sph/).
# The stored records were written with the emitter disc a force wall, so they carry the output
# low-pass at the force walls' f_max c / (20 dx) = 857.5 Hz (the scenes now derive the air's
# 2283 Hz): their joins take that low-pass (geometric_room record_lowpass=857.5); --run and
# --sph DIR join records of the current scene with its own.
# --set KEY=VALUE (repeatable) overrides a scene key of the joins (geometric_room's
# `key=value`, e.g. hybrid.scattering=0). Options after these go to v19_check.py.
#   v19_room.sh GEOMETRIC_ROOM OUTDIR [--mirror] [--seeds K] [--sph DIR | --run SPHREVERB RANKS]
#               [--set KEY=VALUE ...] [v19_check.py options ...]
set -euo pipefail
tool=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
post=$(cd "$here/../../../postproc" && pwd)
seeds=8 scene=hybrid_v19_room sph="" run=() set=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --mirror) scene=hybrid_v19_room_mirror; shift ;;
    --seeds) seeds=$2; shift 2 ;;
    --sph) sph=$2; shift 2 ;;
    --run) run=("$2" "$3"); shift 3 ;;
    --set) set+=("$2"); shift 2 ;;
    *) break ;;
  esac
done
lowpass=()
[[ -n $sph ]] || { sph="$here/${scene/hybrid_v19_room/v19_room}_sph"; lowpass=(record_lowpass=857.5); }
rm -rf "$out"
mkdir -p "$out"
if [[ ${#run[@]} -gt 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  mpiexec -n "${run[1]}" "${run[0]}" run "$here/$scene.ini" --out "$out/sph"
  sph="$out/sph"
  lowpass=()
fi
dirs=()
for ((k = 1; k <= seeds; ++k)); do
  mkdir -p "$out/seed$k"
  "$tool" "$here/$scene.ini" hybrid.seed=$k sph="$sph" out="$out/seed$k" "${lowpass[@]}" \
    "${set[@]}" \
    > "$out/seed$k.txt"
  dirs+=("$out/seed$k")
done
cat "$out/seed1.txt"
realisations=()
[[ $seeds -eq 1 ]] || realisations=(--realisations "${dirs[@]:1}")
PYTHONPATH=$post /usr/bin/python3 "$here/v19_check.py" "${dirs[0]}" --sph "$sph" \
  "${realisations[@]}" "$@"
