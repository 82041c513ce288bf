#!/usr/bin/env bash
# End-to-end bad input: each case must exit 2 with one message naming the file and the key or
# line, and leave no WAV or summary.json that looks complete.
#   bad_input.sh SPHREVERB SOURCE_DIR WORK_DIR
set -uo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
base="$src/configs/small_room.ini"
failures=0 passed=0

# case NAME EXPECTED_CODE "TEXT THE MESSAGE MUST CONTAIN" RANKS ARGS...
case_() {
  local name=$1 want=$2 text=$3 ranks=$4
  shift 4
  local out="$work/$name"
  mkdir -p "$out"
  # With stale=1, a previous run's outputs are in the directory: a refused input must leave
  # them as they were (inputs are validated before the directory is touched).
  [[ ${stale:-0} -eq 1 ]] && for f in left.wav summary.json; do echo earlier >"$out/$f"; done
  mpiexec -n "$ranks" "$exe" "$@" --out "$out" > "$out/log" 2>&1
  local code=$?
  local ok=1
  [[ $code -eq $want ]] || { echo "  $name: exit $code, expected $want"; ok=0; }
  grep -qF -- "$text" "$out/log" || { echo "  $name: message lacks '$text'"; ok=0; }
  if [[ $want -ne 0 && ${stale:-0} -eq 1 ]]; then
    for f in left.wav summary.json; do
      [[ $(cat "$out/$f" 2>/dev/null) == earlier ]] || { echo "  $name: earlier $f lost"; ok=0; }
    done
  elif [[ $want -ne 0 ]]; then
    for f in left.wav right.wav left.raw.wav summary.json; do
      [[ -e $out/$f ]] && { echo "  $name: $f left behind"; ok=0; }
    done
  fi
  if [[ $ok -eq 1 ]]; then
    passed=$((passed + 1)); echo "ok   $name: $(grep -m1 -E 'error|sphreverb:' "$out/log" | sed 's/^\[[^]]*\] //')"
  else
    failures=$((failures + 1)); echo "FAIL $name"; sed 's/^/    | /' "$out/log" | head -20
  fi
}

scene() {  # scene NAME: writes $work/NAME.ini from the default scene with sed expression $2
  # The default scene includes configs/materials.ini by a relative path.
  sed -e "s|^include = materials.ini|include = $src/configs/materials.ini|" -e "$2" "$base" > "$work/$1.ini"
  echo "$work/$1.ini"
}

case_ unknown_key 2 "colour" 1 run "$(scene unknown_key 's/^spacing = 0.015.*/spacing = 0.015\ncolour = blue/')"
case_ bad_number 2 "spacing" 1 run "$(scene bad_number 's/^spacing = 0.015.*/spacing = 0.0x15/')"
case_ nan_value 2 "duration" 1 run "$(scene nan_value 's/^duration = .*/duration = nan/')"
case_ vector_length 2 "position" 1 run "$(scene vector_length 's/^position = 0.45 0.22 0.2/position = 0.45 0.22/')"
case_ out_of_range 2 "cfl" 1 run "$(scene out_of_range 's/^cfl = .*/cfl = 7/')"
case_ receiver_outside 2 "receiver.left" 1 run "$(scene receiver_outside 's/^position = 0.45 0.22 0.2/position = 0.45 0.22 2.0/')"
case_ emitter_outside 2 "center" 1 run "$(scene emitter_outside 's/^center = 0.008 0.1 0.1.*/center = -1 0.1 0.1/')"
case_ room_too_small 2 "fluid" 1 run "$base" --fluid.spacing 0.2
case_ broken_ini 2 ":3" 1 run "$(scene broken_ini '3s/.*/this is not ini/')"
case_ missing_scene 2 "nope.ini" 1 run "$work/nope.ini"
: > "$work/empty.ini"
case_ empty_scene 2 "empty.ini" 1 run "$work/empty.ini"
echo "not a wav" > "$work/text.wav"
stale=1 case_ bad_wav 2 "text.wav" 2 run "$base" --emitter.input "$work/text.wav"
case_ missing_wav 2 "missing.wav" 1 run "$base" --emitter.input "$work/missing.wav"
/usr/bin/python3 -c 'import sys, numpy as n, scipy.io.wavfile as w; x = n.zeros(480, n.float32); x[123] = n.nan; w.write(sys.argv[1], 48000, x)' "$work/nan.wav"
case_ nan_wav 2 "[emitter] input = $work/nan.wav: sample 123 is NaN" 1 run "$base" --emitter.input "$work/nan.wav"
case_ unknown_override 2 "fluid.colour" 1 run "$base" --fluid.colour 3
case_ override_without_value 2 "time.duration" 1 run "$base" --time.duration
stale=1 case_ too_many_ranks 2 "at most 2 ranks" 4 run "$base" --room.max "0.105 0.09 0.09" \
  --emitter.center "0.03 0.045 0.045" --emitter.radius 0.01 --receiver.left.position "0.07 0.045 0.045" \
  --receiver.right.position "0.07 0.05 0.05"
case_ parse_unknown_command 2 "unknown command" 1 frobnicate "$base"
case_ restart_not_a_checkpoint 2 "not an HDF5 file" 1 restart "$base"
case_ check_ok 0 "particles" 1 check "$base"
# Numbers in messages in printf's %g form (2.8 x 1.2 cm is 0.033600000000000005 in binary).
case_ check_too_many_ranks 2 "each slab must be at least 0.0696 m thick (the halo depth" 1 check "$base" \
  --fluid.spacing 0.012 --ranks 512
case_ check_hyperviscosity 0 "hyperviscosity       0.005 (the same filter on the velocity): T60" \
  1 check "$base" --fluid.hyperviscosity 0.005

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
