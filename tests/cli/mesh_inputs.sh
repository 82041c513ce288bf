#!/usr/bin/env bash
# Mesh inputs that used to pass silently, blame the wrong thing, cost minutes or gigabytes, or
# ignore signals: each must end quickly with the expected exit code and a message naming the
# cause.
#  - a fixed object wholly outside the room, or reaching beyond it: exit 2 naming the object and
#    the room's box;
#  - a NaN coordinate in the room mesh: exit 2 naming the file, the vertex and the line;
#  - PLY headers claiming 2e8 and 2e9 vertices in a 200-byte file: exit 2 in seconds;
#  - `check` of the L room at 2 mm (1.7e8 sites) and of a 39 m^3 mesh room at 0.1 mm (5e13
#    sites): answers with a sampled particle count within seconds;
#  - SIGINT and SIGTERM during `check`'s classification: exit 130 at once.
#   mesh_inputs.sh SPHREVERB SOURCE_DIR WORK_DIR
set -uo pipefail
exe=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
failures=0 passed=0

# case_ NAME EXPECTED_CODE SECONDS "TEXT THE OUTPUT MUST CONTAIN" ARGS...
case_() {
  local name=$1 want=$2 limit=$3 text=$4
  shift 4
  local log="$work/$name.log" start=$SECONDS
  timeout -k 5 "$limit" "$exe" "$@" >"$log" 2>&1
  local code=$? ok=1
  [[ $code -eq $want ]] || { echo "  $name: exit $code, expected $want"; ok=0; }
  grep -qF -- "$text" "$log" || { echo "  $name: output lacks '$text'"; ok=0; }
  if [[ $ok -eq 1 ]]; then
    passed=$((passed + 1)); echo "ok   $name ($((SECONDS - start)) s)"
  else
    failures=$((failures + 1)); echo "FAIL $name"; sed 's/^/    | /' "$log" | head -20
  fi
}

furnished=$src/configs/furnished_room.ini
case_ object_outside 2 60 "[geometry.table] mesh = meshes/table.obj: $src/configs/meshes/table.obj lies wholly outside the room: its box (4.7 4.8 0) to (5.3 5.2 0.5) m, the room's (0 0 0) to (1.5 1.2 0.9) m" \
  check "$furnished" --geometry.table.translation "5 5 0"
case_ object_partly_outside 2 60 "table.obj reaches 0.25 m outside the room (vertex at (1.75" \
  check "$furnished" --geometry.table.translation "1.45 0.6 0"
case_ object_on_the_floor 0 60 "mesh geometry.table" check "$furnished"

# The L room with a NaN in its fifth vertex (the file's line of that `v`).
lroom=$src/configs/l_room.ini
mkdir -p "$work/meshes"
awk '$1 == "v" && ++n == 5 { print "v " $2 " nan " $4; next } { print }' \
  "$src/configs/meshes/l_room.obj" >"$work/meshes/l_room.obj"
line=$(grep -n "^v " "$work/meshes/l_room.obj" | sed -n 5p | cut -d: -f1)
sed "s|^include = materials.ini|include = $src/configs/materials.ini|" "$lroom" >"$work/l_room.ini"
case_ nan_vertex 2 60 "meshes/l_room.obj: vertex 5 (line $line): coordinate y = nan is not a number" \
  check "$work/l_room.ini"

# 200-byte PLY files whose headers claim far more vertices than they hold.
for n in 200000000 2000000000; do
  { printf 'ply\nformat ascii 1.0\nelement vertex %s\nproperty float x\nproperty float y\n' $n
    printf 'property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n'
    printf '0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n'; } >"$work/meshes/l_room_$n.ply"
  case_ "ply_claims_$n" 2 20 "l_room_$n.ply: the PLY header claims $n 'vertex' elements" \
    check "$work/l_room.ini" --geometry.hall.mesh "meshes/l_room_$n.ply"
done

# check at fine spacings: sampled, in seconds (a loaded machine: generous limits).
case_ check_2mm 0 60 "lattice sites sampled (one per block of" check "$lroom" --fluid.spacing 0.002
case_ check_40m3 0 120 "lattice sites sampled (one per block of" check "$lroom" \
  --fluid.spacing 1e-4 --geometry.hall.scale 3.3

# Stop signals during a long classification (a budget of 1e9 samples: many minutes): exit 130,
# at once when sampling, right after the scene is read when earlier.
for sig in INT TERM; do
  start=$SECONDS
  SPHREVERB_TEST_SITE_BUDGET=1000000000 timeout -k 15 120 "$exe" check "$lroom" --fluid.spacing 1e-3 \
    --geometry.hall.scale 3.3 >"$work/signal_$sig.log" 2>&1 &
  pid=$!
  sleep 6
  kill -s "$sig" "$pid"
  wait "$pid"
  code=$?
  took=$((SECONDS - start))
  if [[ $code -eq 130 && $took -lt 30 ]] && grep -q "check stopped by signal" "$work/signal_$sig.log"; then
    passed=$((passed + 1)); echo "ok   signal_$sig ($took s)"
  else
    failures=$((failures + 1)); echo "FAIL signal_$sig: exit $code after $took s"
    sed 's/^/    | /' "$work/signal_$sig.log" | head
  fi
done

echo "$passed passed, $failures failed"
[[ $failures -eq 0 ]]
