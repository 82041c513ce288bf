#!/usr/bin/env bash
# A restart compares the scene's mesh files with the sizes and SHA-256 digests its checkpoint
# stores: a mesh regrouped (a face moved to another surface, so another material) or moved by one
# spacing is refused with exit 2 naming the file, before anything is read or written; the file
# restored, the restart continues and matches the uninterrupted run. A checkpoint without the
# stamps (written before they existed) restarts with a warning that the meshes are not compared.
#   restart_meshes.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
# A 6 x 4.8 x 4.2 cm box, its faces in two surfaces: `hard` (rigid) and `soft` (absorbing).
cat >"$work/block.obj" <<'OBJ'
v 0.09 0.066 0.054
v 0.15 0.066 0.054
v 0.09 0.114 0.054
v 0.15 0.114 0.054
v 0.09 0.066 0.096
v 0.15 0.066 0.096
v 0.09 0.114 0.096
v 0.15 0.114 0.096
usemtl hard
f 1 5 7
f 1 7 3
f 2 4 8
f 2 8 6
f 1 2 6
f 1 6 5
usemtl soft
f 3 7 8
f 3 8 4
f 1 3 4
f 1 4 2
f 5 6 8
f 5 8 7
OBJ
cp "$work/block.obj" "$work/block.orig"
cat >"$work/mesh.ini" <<'INI'
[time]
sample_rate = 44100
duration = 0.003
[fluid]
spacing = 0.015
[room]
min = 0 0 0
max = 0.3 0.18 0.15
[material.soft]
absorption = 0.5
[geometry.block]
mesh = block.obj
role = object
material.hard = rigid
material.soft = soft
[emitter]
input = impulse
center = 0.0075 0.09 0.075
radius = 0.03
[receiver.mid]
position = 0.24 0.1 0.07
[output]
checkpoint_every = 0.001
keep_checkpoints = 1000
progress_every = 1000
highpass = 0
INI
on 1 run "$work/mesh.ini" --out "$work/full" >"$work/full.log" 2>&1
mid=$(ls "$work"/full/checkpoints/step_*.h5 | sort | sed -n 2p)
/usr/bin/python3 - "$mid" "$work/block.obj" <<'PY'
import hashlib, sys
import h5py
with h5py.File(sys.argv[1], "r") as f:
    paths = f["/scene/mesh_paths"][()].decode().splitlines()
    digests = f["/scene/mesh_sha256"][()].decode().splitlines()
    sizes = list(f["/scene/mesh_bytes"][()])
data = open(sys.argv[2], "rb").read()
assert paths == [sys.argv[2]], paths
assert sizes == [len(data)] and digests == [hashlib.sha256(data).hexdigest()], (sizes, digests)
PY

# refused CASE TEXT: the restart exits 2 with TEXT in its output and writes nothing.
refused() {
  local code=0
  on 1 restart "$mid" --out "$work/$1" >"$work/$1.log" 2>&1 || code=$?
  [[ $code -eq 2 ]] || { echo "$1: exit $code, expected 2"; cat "$work/$1.log"; exit 1; }
  grep -qF -- "$2" "$work/$1.log" || { echo "$1: no '$2'"; cat "$work/$1.log"; exit 1; }
  [[ ! -e $work/$1 ]] || { echo "$1: wrote $work/$1"; exit 1; }
}
# Regrouped: the first `soft` face joins `hard` (rigid): same size, other digest.
/usr/bin/python3 - "$work/block.obj" <<'PY'
import sys
p = sys.argv[1]
t = open(p).read().replace("usemtl soft\nf 3 7 8\n", "f 3 7 8\nusemtl soft\n")
open(p, "w").write(t)
PY
refused regrouped "the mesh file $work/block.obj changed since the checkpoint was written"
# Moved by one spacing along x.
awk '$1 == "v" { printf "v %.3f %s %s\n", $2 + 0.015, $3, $4; next } { print }' \
  "$work/block.orig" >"$work/block.obj"
refused moved "the mesh file $work/block.obj changed since the checkpoint was written"
grep -q "restore it as it was" "$work/moved.log"
# Gone.
rm "$work/block.obj"
refused gone "reads the mesh file $work/block.obj, which cannot be read now"

# Restored: the restart continues as the run did.
cp "$work/block.orig" "$work/block.obj"
on 1 restart "$mid" --out "$work/restored" >"$work/restored.log" 2>&1
same "$work/full" "$work/restored"
# A checkpoint without the stamps restarts, saying the meshes are not compared.
cp "$mid" "$work/old.h5"
/usr/bin/python3 - "$work/old.h5" <<'PY'
import sys
import h5py
with h5py.File(sys.argv[1], "a") as f:
    for name in ("mesh_paths", "mesh_bytes", "mesh_sha256"):
        del f["/scene/" + name]
PY
on 1 restart "$work/old.h5" --out "$work/old" >"$work/old.log" 2>&1
grep -q "does not record its mesh files" "$work/old.log"
same "$work/full" "$work/old"
echo "restart_meshes: all passed"
