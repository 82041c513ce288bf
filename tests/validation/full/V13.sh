#!/usr/bin/env bash
# V13 full resolution: room decay in a non-box mesh room with absorbing surfaces against Kuttruff.
# tests/validation/room_v13.ini (V7's 0.75 m cube with its x_max wall slanted 21.8 degrees,
# meshes/room_v13.obj) at dx = 12.5 mm (SPACING) and 30 kHz (SAMPLE_RATE), every surface a ghost
# wall of normal-incidence absorption ALPHA (default 0.2), V7's free disc, 0.5 ms velocity pulse
# and four receivers; the receiver-mean T30 in the BANDS octaves (default 1000 2000: above the
# Schroeder frequency) within 10 % of Kuttruff's reverberation time (V and S of the mesh, V7's
# random-incidence alpha, gamma^2 by specular rays in the mesh: at alpha_st 0.32 Eyring's formula
# is 7 % short of it); Eyring and Sabine reported. SPACING=0.01875 SAMPLE_RATE=20000: the ctest.
# MESH=meshes/cube_v13.obj: the cube itself as a mesh (V7's room with ghost walls).
#   tests/validation/full/V13.sh EXE OUTDIR        (writes OUTDIR/validation.json, decay.png)
set -euo pipefail
exe=$(realpath "$1")
out=$(mkdir -p "$2" && realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
PYTHONPATH=$(cd "$here/../../postproc" && pwd)  # python3 -m sphreverb_post
export PYTHONPATH
ranks=${RANKS:-${VALIDATION_RANKS:-2}}
dx=${SPACING:-0.0125}
alpha=${ALPHA:-0.2}
bands=${BANDS:-1000 2000}
duration=${DURATION:-0.065}
rate=${SAMPLE_RATE:-30000}
mesh=${MESH:-meshes/room_v13.obj}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
/usr/bin/python3 -m sphreverb_post pulse "$out/pulse_0.5ms.wav" --width 0.0005 --rate "$rate"
start=$(date +%s.%N)
status=0
mpiexec -n "$ranks" "$exe" run "$here/room_v13.ini" --out "$out/run" --fluid.spacing "$dx" \
  --geometry.room.mesh "$mesh" --material.wall.absorption "$alpha" --time.duration "$duration" \
  --time.sample_rate "$rate" --emitter.input "$out/pulse_0.5ms.wav" > "$out/run.out" 2>&1 ||
  { echo "V13: run failed (see $out/run.out)"; exit 1; }
wall=$(echo "$(date +%s.%N) - $start" | bc)
/usr/bin/python3 -m sphreverb_post validate v7 "$out/run" --receivers r1 r2 r3 r4 \
  --mesh "$here/$mesh" --alpha "$alpha" --dx "$dx" --bands $bands --tol 0.10 --reference kuttruff --case V13 \
  --json "$out/decay.json" --plot "$out/decay.png" || status=1
/usr/bin/python3 - "$out/decay.json" "$out/validation.json" "$wall" "$dx" "$alpha" "$mesh" \
  "$out/run/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
particles = json.load(open(sys.argv[7]))["particles"]
dx, alpha = float(sys.argv[4]), float(sys.argv[5])
d.update({"title": "mesh room decay vs Kuttruff",
          "resolution": f"dx = {dx * 1e3:g} mm ({particles:d} particles), "
          f"{sys.argv[6]} (V = {d['volume_m3']:.4g} m^3, S = {d['area_m2']:.4g} m^2), ghost walls "
          f"alpha_n = {alpha:g}, hyperdiffusion default, no density diffusion; bands "
          + ", ".join(f"{b['band_hz']:g} Hz at {343 / (b['band_hz'] * 2 ** 0.5) / dx:.0f}"
                      f"-{343 / (b['band_hz'] / 2 ** 0.5) / dx:.0f} PPW" for b in d["bands"]),
          "wall_seconds": float(sys.argv[3]), "plots": ["decay.png"]})
d["measured"] = "; ".join(
    f"{b['band_hz']:g} Hz T30 {b['T30_mean_s'] * 1e3:.2f} ms (receivers "
    + ", ".join(f"{v * 1e3:.2f}" for v in b["T30_s"].values())
    + f" ms) vs Eyring {b['eyring_s'] * 1e3:.2f} ms ({b['error_vs_eyring']:+.1%}), Kuttruff "
    f"{b['kuttruff_s'] * 1e3:.2f} ms ({b['error_vs_kuttruff']:+.1%}), Sabine {b['sabine_s'] * 1e3:.2f} ms "
    f"({b['error_vs_sabine']:+.1%})" for b in d["bands"])
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
exit $status
