#!/usr/bin/env bash
# The command line and scene inputs that used to crash, hang, grow memory or pass silently: each
# case must end (within a timeout) with the expected exit code and a message naming the key.
#   bad_scene.sh SPHREVERB SOURCE_DIR WORK_DIR
set -uo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
base="$src/configs/small_room.ini"
failures=0 passed=0

# case_ NAME EXPECTED_CODE "TEXT THE OUTPUT MUST CONTAIN" ARGS... (one rank, 60 s at most)
case_() {
  local name=$1 want=$2 text=$3
  shift 3
  local log="$work/$name.log"
  timeout 60 "$exe" "$@" > "$log" 2>&1
  local code=$? ok=1
  [[ $code -eq $want ]] || { echo "  $name: exit $code, expected $want"; ok=0; }
  grep -qF -- "$text" "$log" || { echo "  $name: output lacks '$text'"; ok=0; }
  if [[ $ok -eq 1 ]]; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failures=$((failures + 1)); echo "FAIL $name"; sed 's/^/    | /' "$log" | head -20
  fi
}

scene() {  # scene NAME SED_EXPRESSION: writes $work/NAME.ini from the default scene
  # The default scene includes configs/materials.ini by a relative path.
  sed -e "s|^include = materials.ini|include = $src/configs/materials.ini|" -e "$2" "$base" > "$work/$1.ini"
  echo "$work/$1.ini"
}

# Arguments of one character, --ranks out of range, a repeated override.
case_ ranks_8 0 "ranks                8 of at most" check "$base" --ranks 8
case_ out_one_char 0 "particles" check "$base" --out o
case_ o_one_char 0 "particles" check "$base" -o x
case_ ranks_zero 2 "--ranks 0: must be in [1, 1048576]" check "$base" --ranks=0
case_ ranks_negative 2 "--ranks -3: must be in [1, 1048576]" check "$base" --ranks=-3
case_ repeated_override 2 "--fluid.spacing given twice" check "$base" --fluid.spacing 0.01 --fluid.spacing=0.02
# Substep counts beyond 2^53 (the search never ended).
case_ tiny_spacing 2 "[fluid] spacing = 1e-20 m" check "$base" --fluid.spacing 1e-20
case_ tiny_cfl 2 "[time] cfl = 1e-300" check "$base" --time.cfl 1e-300
# Files that are not regular: a device grew memory forever, a FIFO blocked.
case_ dev_zero 2 "not a regular file" check /dev/zero
mkfifo "$work/fifo.ini"
case_ fifo 2 "not a regular file" check "$work/fifo.ini"
{ echo "include = /dev/zero"; cat "$base"; } > "$work/include_dev.ini"
case_ include_device 2 "include = /dev/zero" check "$work/include_dev.ini"
# A fractional sample rate passed check and failed after the run.
case_ fractional_rate 2 "[time] sample_rate = 44100.5: '44100.5' is not an integer" check "$base" --time.sample_rate 44100.5
# A NUL byte cut the message short.
printf '[time]\nduration = 0.0\0005\n' > "$work/nul.ini"
case_ nul_byte 2 "nul.ini:2: a NUL byte at column 15" check "$work/nul.ini"
# Checks across keys.
case_ receiver_on_plate 2 "lies on [boundary.plate]" check "$(scene receiver_on_plate \
  's/^\[output\]/[boundary.plate]\nshape = rectangle\ncenter = 0.45 0.22 0.2\nnormal = 1 0 0\nsize = 0.1 0.1\n[output]/')"
case_ plate_through_emitter 2 "[boundary.plate] passes through the emitter disc" check "$(scene plate_through_emitter \
  's/^\[output\]/[boundary.plate]\nshape = rectangle\ncenter = 0.008 0.1 0.1\nnormal = 0 0 1\nsize = 0.1 0.1\n[output]/')"
case_ emitter_larger_than_room 2 "[emitter] radius = 5: the disc is larger than the room" check "$base" --emitter.radius 5
# The estimate's counts and the messages' units: particle-steps of a huge scene (1.5e13 particles
# x 4.41e7 steps) overflowed 64 bits and printed negative; the thinnest slab check named (the
# halo width, 0.07 m here) was not the one run and restart apply (the halo depth with the ghost
# walls' 3 dx, 0.145 m); Euler angles were said to be in metres.
case_ particle_steps_64bit 0 "particle-steps       6.615e+20" check "$base" \
  --room.max "60 50 40" --fluid.spacing 0.002 --time.duration 100
case_ slab_rule 2 "each slab must be at least 0.145 m thick (the halo depth" check \
  "$src/configs/l_room.ini" --ranks 9
case_ rotation_unit 2 "'abc' is not a number (expected (-inf, inf) deg)" check \
  "$src/configs/l_room.ini" --geometry.hall.rotation "0 0 abc"
# The output high-pass: its range, and below 0.4 sample_rate.
case_ highpass_range 2 "[output] highpass" check "$base" --output.highpass 1001
case_ highpass_rate 2 "must be below 0.4 sample_rate = 800 Hz" check "$base" --time.sample_rate 2000 --output.highpass 900
# Two warnings: exit 0, and the warning in check's output.
case_ room_off_lattice 0 "warning: [room] faces not dx/2" check "$base" --room.max "0.8 0.6 0.5" \
  --room.walls mirror
# The same room under `walls = auto`: the box's ghost walls, where its faces are (no warning).
case_ room_off_lattice_auto 0 "room walls           ghost walls of the box" check "$base" \
  --room.max "0.8 0.6 0.5"
case_ free_emitter 0 "free in the air" check "$base" --emitter.center "0.2 0.2 0.2"
# A monopole loud enough to push the air at its Gaussian by more than 0.01 of its width (the
# impulse at 100 Pa: 0.104); none at the scene's 0.01 Pa.
v14="$src/tests/validation/box_v14.ini"
case_ loud_monopole 0 "warning: [emitter.mono] level = 100 Pa" check "$v14" --emitter.mono.level 100
"$exe" check "$v14" > "$work/quiet_monopole.log" 2>&1
if grep -q 'warning: \[emitter.mono\]' "$work/quiet_monopole.log"; then
  failures=$((failures + 1)); echo "FAIL quiet_monopole: warns at 0.01 Pa"
else
  passed=$((passed + 1)); echo "ok   quiet_monopole"
fi
# [hybrid]: a mesh room is traced (check reports the geometric part); what the geometric part
# cannot model is refused, naming the key: a moving receiver or source, a monopole's sweep.
lroom="$src/configs/l_room.ini"
case_ hybrid_mesh_room 0 "hybrid               crossover" check "$lroom" --hybrid.rays 1000
case_ hybrid_moving_receiver 2 "[receiver.near] path" check "$lroom" --hybrid.rays 1000 \
  --receiver.near.path "0 0.6 0.3 0.45; 0.05 0.7 0.3 0.45"
case_ hybrid_moving_source 2 "[emitter.talker] path" check "$base" --hybrid.rays 1000 \
  --emitter.gain 0 --emitter.talker.type monopole --emitter.talker.path "0 0.3 0.2 0.2; 0.05 0.4 0.2 0.2"
case_ hybrid_monopole_sweep 2 "[emitter.talker] input" check "$lroom" --hybrid.rays 1000 \
  --emitter.talker.input sweep
# The reference.
case_ keys 0 '| `spacing` | number | m | `0.015` | (0, 1] |' keys

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
