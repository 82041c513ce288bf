#!/usr/bin/env bash
# V15(c), the tone reflected from a moving wall, as the difference of two runs:
#   v15_reflector.sh SPHREVERB OUTDIR [--key value ...]
# Runs tests/validation/duct_v15_reflector.ini (one rank each, side by side) twice with the
# same piston motion: with the 800 Hz burst of `pulse --tone 800 --width 0.002 --total 0.018
# --delay 0.015` at [emitter.horn] (OUTDIR/on), and with it silenced (--emitter.horn.gain 0,
# OUTDIR/off). The solver is deterministic, so what the piston makes by itself is the same in
# both, and `validate v15 --subtract` removes it; the check's exit code is the script's: every
# window of the reflection within 0.5 % of f (c + v) / (c - v), and (--direct) every window of
# the incident tone within 0.5 % of 800 Hz.
set -euo pipefail
exe=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONPATH=$here/../../postproc OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
scene=$here/duct_v15_reflector.ini
rm -rf "$out"
mkdir -p "$out"
/usr/bin/python3 -m sphreverb_post pulse "$out/tone.wav" --tone 800 --width 0.002 --total 0.018 \
  --delay 0.015
"$exe" run "$scene" --out "$out/on" --emitter.horn.input "$out/tone.wav" "$@" >"$out/on.log" 2>&1 &
on=$!
"$exe" run "$scene" --out "$out/off" --emitter.horn.input "$out/tone.wav" \
  --emitter.horn.gain 0 "$@" >"$out/off.log" 2>&1 &
off=$!
status=0
wait "$on" || status=$?
wait "$off" || status=$?
if [[ $status -ne 0 ]]; then
  tail -n 5 "$out/on.log" "$out/off.log"
  exit "$status"
fi
/usr/bin/python3 -m sphreverb_post validate v15 "$out/on" --source horn --receivers mic \
  --tone 800 --reflector piston --start 0.017 --burst 0.033 --onset 0.015 \
  --subtract "$out/off" --direct --json "$out/validation.json"
