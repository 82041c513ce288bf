#!/usr/bin/env bash
# Refused checkpoints: exit 2 with a message naming the file and the problem, never a crash, on 1
# and 2 ranks: missing, a directory, not HDF5, truncated, a flipped byte in particle data and in
# the receiver records, a foreign HDF5 file, another layout version, a tampered scene text (caught by its checksum; the scene hash guards the text too), a
# physics override, and a duration shorter than what is recorded.
#   bad_checkpoints.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
on 2 run "$scene" --out "$work/run" "${opts[@]}" --time.duration 0.002 \
  --output.checkpoint_every 0 >"$work/run.log" 2>&1
good=$(latest "$work/run")
b=$work/bad
mkdir -p "$b/dir.h5"
echo "not a checkpoint" >"$b/text.h5"
head -c $(($(stat -c %s "$good") / 2)) "$good" >"$b/truncated.h5"
head -c 3000 "$good" >"$b/stub.h5"
/usr/bin/python3 - "$good" "$b" <<'PY'
import shutil, sys
import h5py
import numpy as np
good, b = sys.argv[1:3]
def flip(name, dataset):
    path = f"{b}/{name}.h5"
    shutil.copy(good, path)
    with h5py.File(good, "r") as f:
        offset = f[dataset].id.get_offset() + 8 * 5 + 3
    with open(path, "r+b") as f:
        f.seek(offset); byte = f.read(1); f.seek(offset); f.write(bytes([byte[0] ^ 0x10]))
flip("flip_position", "/particles/position")
flip("flip_records", "/receivers/density")
with h5py.File(f"{b}/foreign.h5", "w") as f:
    f["data"] = np.arange(10.0)
for name, edit in (("layout", lambda f: f.attrs.modify("layout_version", 99)),
                   ("format", lambda f: f.attrs.modify("format", np.bytes_("something else"))),
                   ("scene_text", None)):
    path = f"{b}/{name}.h5"
    shutil.copy(good, path)
    with h5py.File(path, "r+") as f:
        if edit:
            edit(f)
        else:  # same length, other text: the hash must catch it
            raw = f["/scene/text"][()]
            f["/scene/text"][()] = raw.replace(b"0.6 0.495", b"0.7 0.495")
PY
failures=0
expect() {  # NAME "message part" RANKS restart args...
  local name=$1 want=$2 n=$3 rc=0
  shift 3
  on "$n" restart "$@" >"$b/$name.log" 2>&1 || rc=$?
  if [[ $rc != 2 ]] || ! grep -q -- "$want" "$b/$name.log" ||
     grep -qiE "segmentation|SIGABRT|signal 6|MPI_ABORT|HDF5-DIAG|core dumped" "$b/$name.log"; then
    echo "FAIL $name (np $n): exit $rc, want 2 and '$want'"; sed 's/^/    | /' "$b/$name.log" | head -8
    failures=$((failures + 1))
  else
    echo "ok   $name (np $n): $(grep -m1 error "$b/$name.log" | cut -c12-)"
  fi
}
for n in 1 2; do
  expect missing "no such checkpoint" $n "$b/nope.h5"
  expect directory "not a regular file" $n "$b/dir.h5"
  expect text "not an HDF5 file" $n "$b/text.h5"
  expect truncated "truncated or damaged" $n "$b/truncated.h5"
  expect stub "truncated or damaged" $n "$b/stub.h5"
  expect flip_position "/particles/position fails its checksum" $n "$b/flip_position.h5"
  expect flip_records "/receivers/density fails its checksum" $n "$b/flip_records.h5"
  expect foreign "not a sphreverb checkpoint" $n "$b/foreign.h5"
  expect layout "layout version 99" $n "$b/layout.h5"
  expect format "not a sphreverb checkpoint (format 'something else')" $n "$b/format.h5"
  expect scene_text "scene/text fails its checksum" $n "$b/scene_text.h5"
done
expect physics "--time.duration and --output.KEY overrides only" 1 "$good" --fluid.spacing 0.02
expect shorter "is shorter than" 2 "$good" --time.duration 0.001
echo "$failures failed"
[[ $failures == 0 ]]
