#!/usr/bin/env bash
# Resolution study (V9): runs a scene at three or more spacings with h/dx fixed (or growing),
# then `python3 -m sphreverb_post convergence` (postproc/) computes the errors against the
# analytic values, the observed order, Roache's GCI, and plots error vs spacing (log axes,
# neighbour count annotated).
#
#   scripts/convergence.sh [options] SCENE
#     --kind tof|phase|modes  tof: V2 (receivers near/far 0.3 m apart, 1.5 ms pulse); phase:
#                           V1 (near/far 0.6 m apart, 0.375 ms pulse, phase speed at 1.5, 2
#                           and 2.5 kHz); modes: V4 (receiver corner, [room] box). Default:
#                           tof if SCENE has [receiver.near], else modes.
#     --spacings "A B C"    metres, at least three (default "0.015 0.01 0.0075")
#     --h-growth G          h/dx multiplied by G at each finer spacing (default 1: fixed)
#     --out DIR             default out/convergence/<scene name>
#     --ranks N             default 2
#     --only I              run only the I-th spacing (0 = coarsest) and skip the analysis
#                           (one task of jobs/convergence_array.sbatch)
#     --analyse             skip the runs, analyse the existing DIR/dx_* (the array's last step)
#     --isolation F         modes: a mode counts if no other lies within F of it (default 0.04)
#     --count N             modes: the N lowest such modes (default 5)
#     -- ARGS               extra solver overrides for every run (e.g. -- --time.duration 0.06)
#   scripts/convergence.sh --default     the default study: tests/validation/duct_v9_phase.ini
#                                        (phase, 2.25/1.8/1.5 cm), duct_v9.ini (tof) and
#                                        box_v9.ini (modes) into out/convergence/
# Each run's directory is DIR/dx_<mm>; results DIR/convergence.json and DIR/convergence.png.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
exe=${SPHREVERB:-$src/build/sphreverb}
kind="" spacings="0.015 0.01 0.0075" growth=1 out="" ranks=2 extra=() only="" analyse=0
isolation=0.04 count=5
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
if [[ ${1:-} == --default ]]; then
  shift
  "$0" --kind phase --spacings "0.0225 0.018 0.015" --out out/convergence/v1 "$@" \
    "$src/tests/validation/duct_v9_phase.ini"
  "$0" --kind tof --out out/convergence/v2 "$@" "$src/tests/validation/duct_v9.ini"
  "$0" --kind modes --out out/convergence/v4 "$@" "$src/tests/validation/box_v9.ini"
  exit 0
fi
scene=""
while [[ $# -gt 0 ]]; do
  case $1 in
    --kind) kind=$2; shift 2 ;;
    --spacings) spacings=$2; shift 2 ;;
    --h-growth) growth=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --ranks) ranks=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --analyse) analyse=1; shift ;;
    --isolation) isolation=$2; shift 2 ;;
    --count) count=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) usage ;;
    -*) echo "convergence.sh: unknown option $1" >&2; usage ;;
    *) scene=$1; shift ;;
  esac
done
[[ -n $scene && -f $scene ]] || { echo "convergence.sh: give a SCENE file" >&2; usage; }
[[ -x $exe ]] || { echo "convergence.sh: $exe not found; build first" >&2; exit 2; }
read -r -a dxs <<< "$spacings"
[[ ${#dxs[@]} -ge 3 ]] || { echo "convergence.sh: need at least three spacings" >&2; exit 2; }
[[ -n $kind ]] || { grep -q '^\[receiver\.near\]' "$scene" && kind=tof || kind=modes; }
name=$(basename "$scene" .ini)
out=${out:-out/convergence/$name}
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_psec=${PMIX_MCA_psec:-^munge}  # docs/running.md, "Launch time"

base_h=$(awk -F= '/^\[fluid\]/{f=1;next} /^\[/{f=0} f && $1 ~ /h_over_dx/ {gsub(/[ \t]|#.*/,"",$2); print $2}' "$scene")
base_h=${base_h:-1.3}
inputs=()
if [[ $kind == tof || $kind == phase ]]; then
  width=0.0015
  [[ $kind == phase ]] && width=0.000375
  # Written under a private name and renamed: array tasks may do this at the same time.
  if [[ $analyse == 0 ]]; then
    PYTHONPATH=$src/postproc /usr/bin/python3 -m sphreverb_post pulse "$out/.pulse.$$.wav" --width $width
    mv -f "$out/.pulse.$$.wav" "$out/pulse.wav"
  fi
  inputs=(--emitter.input "$(cd "$out" && pwd)/pulse.wav")
fi
# Coarsest first; h/dx grows by `growth` per refinement step.
mapfile -t sorted < <(printf '%s\n' "${dxs[@]}" | sort -g -r)
runs=() i=0
for dx in "${sorted[@]}"; do
  h=$(/usr/bin/python3 -c "print(round($base_h * $growth ** $i, 6))")
  dir=$out/dx_$(/usr/bin/python3 -c "print(f'{1e3 * $dx:g}')")mm
  runs+=(--run "$dir" "$dx")
  if [[ $analyse == 1 || ( -n $only && $only != "$i" ) ]]; then i=$((i + 1)); continue; fi
  echo "convergence.sh: $name dx = $dx m, h/dx = $h -> $dir"
  rm -rf "$dir"
  mpiexec -n "$ranks" "$exe" run "$scene" --out "$dir" --fluid.spacing "$dx" \
    --fluid.h_over_dx "$h" "${inputs[@]}" "${extra[@]}" > "$dir.log" 2>&1 ||
    { echo "convergence.sh: run failed (log: $dir.log)" >&2; tail -3 "$dir.log" >&2; exit 3; }
  i=$((i + 1))
done
[[ -z $only ]] || exit 0
label="(h/dx $base_h)"
[[ $growth == 1 ]] || label="(h/dx $base_h, x $growth per refinement)"
args=(--kind "$kind" "${runs[@]}" --label "$label" --plot "$out/convergence.png"
      --json "$out/convergence.json")
if [[ $kind == modes ]]; then
  room=$(awk -F= '/^\[room\]/{f=1;next} /^\[/{f=0} f && $1 ~ /max/ {sub(/#.*/,"",$2); print $2}' "$scene")
  args+=(--room $room --receiver corner --count "$count" --isolation "$isolation")
elif [[ $kind == phase ]]; then
  args+=(--near near --far far --distance 0.6)
else
  # The time of flight of a 1.5 ms pulse resolves c to ~0.15 % (docs/validation.md, "V9 and convergence studies"):
  # with the fourth-order gradient the scheme's error at 20+ PPW is below that.
  args+=(--near near --far far --distance 0.3 --resolution 0.0015)
fi
PYTHONPATH=$src/postproc /usr/bin/python3 -m sphreverb_post convergence "${args[@]}"
