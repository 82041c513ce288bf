#!/usr/bin/env bash
# [hybrid]'s inputs are checked before the SPH part (1 rank, the default room at 3 cm, 10 ms):
# - crossover: 1e-3 Hz is refused (exit 2, naming the file, the key and the allowed range); 0 is
#   refused for crossover and receiver_radius, `auto` is their default's spelling; a run at the
#   least crossover (1 / record) finishes with its full band;
# - image sources: check's estimate for a 0.3 x 0.24 x 0.2 m room and a 0.1 s record is
#   (4 pi / 3) (c t)^3 / V images within 20 %; image_time = 10 s in a 10 s record is refused in
#   seconds (exit 2, naming image_time; no stage 1);
# - the SOFA file of a binaural receiver: NaN taps, zero taps, no sample rate, not a SOFA file:
#   exit 2 naming the file before stage 1, and an earlier run's results in --out stay unchanged.
#   hybrid_inputs.sh SPHREVERB SOFA_EDIT SOURCE_DIR WORK_DIR
set -uo pipefail
exe=$1 sofa_edit=$2 src=$3 work=$4
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL $1"; shift; [[ $# -gt 0 ]] && sed 's/^/    | /' "$1" | tail -8; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }
scene=$src/configs/small_room.ini
common=(--fluid.spacing 0.03 --emitter.center "0.015 0.1 0.1" --output.checkpoint_every 0
        --hybrid.rays 2000)
short=(--time.duration 0.01 --hybrid.image_time 0.005)
# expect NAME CODE TEXT... : the last command's exit code ($rc) and every TEXT in $log.
expect() {
  local name=$1 want=$2; shift 2
  local t
  for t in "$@"; do
    grep -qF -- "$t" "$log" || { fail "$name: exit $rc (want $want), no '$t'" "$log"; return 1; }
  done
  [[ $rc == "$want" ]] || { fail "$name: exit $rc (want $want)" "$log"; return 1; }
  ok "$name: $(grep -m1 -E '\] (error|critical)' "$log" | cut -c12-200)"
}
check() { log=$work/$1.log; shift; timeout 120 "$exe" check "$scene" "${common[@]}" "$@" >"$log" 2>&1; rc=$?; }
limit=300
run() { log=$work/$1.log; shift; timeout $limit "$exe" run "$scene" "${common[@]}" "$@" >"$log" 2>&1; rc=$?; }

# 1. The crossover's range and `auto`.
check tiny "${short[@]}" --hybrid.crossover 1e-3
expect tiny_crossover 2 "small_room.ini" "[hybrid] crossover" "must be in [100, " "period(s) within the 0.01 s record"
check zero "${short[@]}" --hybrid.crossover 0
expect zero_crossover 2 "[hybrid] crossover" "0 is not allowed" "auto"
check zero_radius "${short[@]}" --hybrid.receiver_radius 0
expect zero_radius 2 "[hybrid] receiver_radius" "0 is not allowed"
check auto "${short[@]}" --hybrid.crossover auto --hybrid.receiver_radius auto
expect auto 0 "crossover"
run least "${short[@]}" --hybrid.crossover 100 --out "$work/least"
expect least_crossover 0 "hybrid: synthesis and crossover at 100 Hz"
[[ -s $work/least/left.full.raw.wav ]] || fail "least crossover: no left.full.raw.wav"

# 2. The image sources' estimate and the memory refusal.
box=(--room.max "0.3 0.24 0.2" --fluid.fill_max "0.3 0.24 0.2" --receiver.left.position "0.2 0.1 0.1"
     --receiver.right.position "0.2 0.15 0.1")
check box "${box[@]}" --time.duration 0.1
images=$(grep -oE "~[0-9.e+]+ per source and receiver, ~" "$log" | head -1 | grep -oE "[0-9.e+]+" | head -1)
expected=$(/usr/bin/python3 -c "import math; print(4 * math.pi / 3 * (343 * 0.1) ** 3 / (0.3 * 0.24 * 0.2))")
if [[ $rc == 0 && -n $images ]] &&
   /usr/bin/python3 -c "import sys; a, b = map(float, sys.argv[1:]); sys.exit(abs(a / b - 1) > 0.2)" "$images" "$expected"; then
  ok "image estimate: $images images (closed form $expected): $(grep -m1 'geometric part' "$log" | cut -c1-160)"
else
  fail "image estimate: '$images' (want ~$expected)" "$log"
fi
# The whole run's core-hours hold the SPH's and the geometric part's.
if /usr/bin/python3 - "$log" <<'PY'; then
import re, sys
text = open(sys.argv[1]).read()
sph = float(re.search(r"expected wall time .*?core\(s\), ([0-9.e+-]+) core-hours", text).group(1))
geo = float(re.search(r"geometric part .*; ([0-9.e+-]+) core-hours", text).group(1))
whole = float(re.search(r"whole run .*?core\(s\), ([0-9.e+-]+) core-hours", text).group(1))
sys.exit(not (geo > 0 and abs(whole - (sph + geo)) <= 0.01 * whole))
PY
  ok "whole run's core-hours: $(grep -m1 'whole run' "$log" | cut -c1-120)"
else
  fail "whole run's core-hours are not the SPH's plus the geometric part's" "$log"
fi
start=$(date +%s)
limit=60 run huge "${box[@]}" --time.duration 10 --hybrid.image_time 10 --out "$work/huge"
expect huge_images 2 "[hybrid] image_time" "MiB per rank"
(( $(date +%s) - start < 60 )) || fail "huge images: refused after $(( $(date +%s) - start )) s"
grep -q "stage 1" "$log" && fail "huge images: stage 1 ran before the refusal" "$log"

# 3. Defective SOFA files, each refused before stage 1, the earlier results kept.
bin=(--receiver.right.type ambisonic --receiver.right.binaural true)
run first "${short[@]}" "${bin[@]}" --out "$work/o"
[[ $rc == 0 ]] || fail "first run: exit $rc" "$log"
md5() { (cd "$work/o" && md5sum left.wav right.raw.wav right.binaural.wav right.binaural.full.wav summary.json); }
before=$(md5)
for mode in nan zero rate; do
  "$sofa_edit" /usr/share/libmysofa/default.sofa "$work/$mode.sofa" $mode || fail "sofa_edit $mode"
done
echo "not a sofa file" >"$work/text.sofa"
for mode in nan zero rate text; do
  run "sofa_$mode" "${short[@]}" "${bin[@]}" --output.hrtf "$work/$mode.sofa" --out "$work/o"
  case $mode in nan) what="NaN or infinite";; zero) what="all zero";; rate) what="SamplingRate";;
                text) what="not a SOFA";; esac
  expect "sofa_$mode" 2 "$work/$mode.sofa" "$what"
  grep -q "stage 1" "$log" && fail "sofa_$mode: stage 1 ran before the refusal" "$log"
  [[ $(md5) == "$before" ]] || fail "sofa_$mode: the earlier results changed"
done

echo "$failures failed"
[[ $failures == 0 ]]
