#!/usr/bin/env bash
# The output directory end to end (2 ranks): a refused input (bad WAV, a checkpoint that does not
# fit its scene, an included material library changed since the checkpoint) leaves the earlier
# results untouched and exits 2; an output directory that cannot be created exits 3 naming --out;
# a failure while writing the outputs commits none of them (exit 3); a directory held by a live
# run is refused (exit 2, naming the folder and the process), a stale lock is taken over; a
# checkpoint's `format` attribute of another value is reported as such.
#   run_dir.sh SPHREVERB SOURCE_DIR WORK_DIR
set -uo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL $1"; shift; [[ $# -gt 0 ]] && sed 's/^/    | /' "$1" | tail -8; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }
# expect NAME CODE "TEXT" LOG: the exit code and the message of the last command.
expect() {
  local name=$1 want=$2 text=$3 log=$4 got=$5
  if [[ $got != "$want" ]] || ! grep -qF -- "$text" "$log"; then
    fail "$name: exit $got (want $want and '$text')" "$log"
  else
    ok "$name: $(grep -m1 -E '\] (error|critical)' "$log" | cut -c12-180)"
  fi
}
# The default room at 3 cm with the library it includes (configs/materials.ini) copied beside it.
cp "$src/configs/materials.ini" "$src/configs/small_room.ini" "$work/"
grep -q '^include = materials.ini' "$work/small_room.ini" ||
  { echo "FAIL: configs/small_room.ini no longer includes materials.ini"; exit 1; }
scene=$work/small_room.ini
opts=(--fluid.spacing 0.03 --emitter.center "0.105 0.1 0.1" --time.duration 0.002)
run() { mpiexec -n 2 "$exe" "$@" >"$log" 2>&1; echo $?; }

# A finished run: its files are the "earlier results".
log=$work/first.log
rc=$(run run "$scene" "${opts[@]}" --out "$work/o" --output.checkpoint_every 0.001)
[[ $rc == 0 ]] || fail "first run: exit $rc" "$log"
md5() { (cd "$work/o" && md5sum left.wav right.raw.wav summary.json); }
before=$(md5)
ckpt=$(ls "$work"/o/checkpoints/step_*.h5 | sort | sed -n 2p)
unchanged() { [[ $(md5) == "$before" ]] || { fail "$1: the earlier results changed"; return 1; }; }

echo "not a wav" >"$work/text.wav"
log=$work/bad_wav.log
rc=$(run run "$scene" "${opts[@]}" --out "$work/o" --emitter.input "$work/text.wav")
expect bad_wav 2 "text.wav" "$log" "$rc"; unchanged bad_wav
log=$work/thin.log
rc=$(mpiexec -n 2 --oversubscribe "$exe" run "$scene" "${opts[@]}" --out "$work/o" \
  --room.max "0.105 0.09 0.09" --fluid.fill_max "0.105 0.09 0.09" --receiver.left.position "0.05 0.05 0.05" \
  --receiver.right.position "0.06 0.05 0.05" --emitter.center "0.05 0.045 0.045" >"$log" 2>&1; echo $?)
if [[ $rc != 2 ]]; then fail "thin slabs: exit $rc (want 2)" "$log"
elif unchanged thin_slabs; then ok "thin slabs refused, results kept"; fi
log=$work/short.log
rc=$(run restart "$ckpt" --out "$work/o" --time.duration 0.0005)
expect short_restart 2 "is shorter than" "$log" "$rc"; unchanged short_restart

# The included library changed since the checkpoint: refused, naming the file.
cp "$work/materials.ini" "$work/materials.orig"
echo "# edited" >>"$work/materials.ini"
log=$work/include.log
rc=$(run restart "$ckpt" --out "$work/o")
expect include_changed 2 "materials.ini (included by the scene) changed" "$log" "$rc"
unchanged include_changed
cp "$work/materials.orig" "$work/materials.ini"
log=$work/include_restored.log
rc=$(run restart "$ckpt" --out "$work/r")
[[ $rc == 0 ]] && ok "restored library: restart runs" || fail "restored library: exit $rc" "$log"

# --out below a regular file: cannot be created, exit 3 naming --out.
touch "$work/plain"
log=$work/unwritable.log
rc=$(run run "$scene" "${opts[@]}" --out "$work/plain/o")
expect unwritable 3 "(the output directory, --out)" "$log" "$rc"

# A failure while writing the outputs (right.raw.wav's name is taken by a directory): nothing of
# this run is committed.
mkdir -p "$work/w/right.raw.wav/x"
log=$work/write_fail.log
rc=$(run run "$scene" "${opts[@]}" --out "$work/w")
expect write_fail 3 "right.raw.wav" "$log" "$rc"
for f in left.wav left.raw.wav right.wav summary.json; do
  [[ -e $work/w/$f ]] && fail "write_fail: $f committed"
done

# The lock: a live process holds it; then a dead one.
mkdir -p "$work/l"
sleep 60 &
holder=$!
echo "$holder $(hostname)" >"$work/l/.sphreverb.lock"
log=$work/locked.log
rc=$(run run "$scene" "${opts[@]}" --out "$work/l")
expect locked 2 "in use by sphreverb process $holder" "$log" "$rc"
grep -qF "$work/l" "$log" || fail "locked: the message does not name the folder" "$log"
kill "$holder"; wait "$holder" 2>/dev/null
log=$work/stale.log
rc=$(run run "$scene" "${opts[@]}" --out "$work/l")
[[ $rc == 0 && -f $work/l/left.wav && ! -e $work/l/.sphreverb.lock ]] &&
  ok "stale lock taken over" || fail "stale lock: exit $rc" "$log"

# A checkpoint whose format attribute has another value (any string type) names that value.
/usr/bin/python3 - "$ckpt" "$work/format.h5" <<'PY'
import shutil, sys
import h5py
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    del f.attrs["format"]
    f.attrs["format"] = "something else"  # h5py writes a variable-length string
PY
log=$work/format.log
rc=$(run restart "$work/format.h5" --out "$work/f")
expect format 2 "format 'something else'" "$log" "$rc"

echo "$failures failed"
[[ $failures == 0 ]]
