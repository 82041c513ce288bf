# Shared by the checkpoint test scripts: SCRIPT.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
scene=$src/configs/small_room.ini
# The default room at 3 cm, a sweep, and a tiny skin with a large displacement-driven deflection
# so that neighbour lists are rebuilt during the run (the disc in the free air, where a 3 cm
# lattice leaves room for it); every checkpoint is kept. Rigid mirror walls (the default room's
# materials overridden), the drive high-pass at 20 Hz and no output high-pass.
opts=(--fluid.spacing 0.03 --fluid.skin 0.01 --fluid.viscosity 0.02 --emitter.input sweep
      --emitter.drive displacement --emitter.center "0.105 0.1 0.1" --emitter.deflection 2e-4
      --output.progress_every 100 --output.keep_checkpoints 1000 --output.highpass 0
      --emitter.highpass 20
      --room.material rigid --room.material_x_min rigid --room.material_z_min rigid
      --room.material_z_max rigid)
# sphreverb on N ranks (1: without mpiexec).
on() {
  local n=$1
  shift
  if [[ $n == 1 ]]; then "$exe" "$@"; else mpiexec -n "$n" "$exe" "$@"; fi
}
latest() { ls "$1"/checkpoints/step_*.h5 | sort | tail -n1; }
same() { /usr/bin/python3 "$here/compare.py" "$@"; }
# same_runs REF SCENE N... -- ARGS...: runs SCENE with ARGS on each rank count N (into $work/npN,
# logs beside) and compares each with the run in REF.
same_runs() {
  local ref=$1 scn=$2 ranks=() n
  shift 2
  while [[ $1 != "--" ]]; do ranks+=("$1"); shift; done
  shift
  for n in "${ranks[@]}"; do
    on "$n" run "$scn" --out "$work/np$n" "$@" >"$work/np$n.log" 2>&1
    same "$ref" "$work/np$n"
  done
}
# same_restarts REF CHECKPOINT NAME N...: restarts CHECKPOINT on each rank count N (into
# $work/NAMEN, logs beside) and compares each with the run in REF.
same_restarts() {
  local ref=$1 ck=$2 name=$3 n
  shift 3
  for n in "$@"; do
    on "$n" restart "$ck" --out "$work/$name$n" >"$work/$name$n.log" 2>&1
    same "$ref" "$work/$name$n"
  done
}
