#!/usr/bin/env bash
# V7 full resolution: room decay with uniform wall absorption vs Eyring/Sabine/Kuttruff. The 0.75 m
# cube of tests/validation/room_v7.ini at dx = 12.5 mm (216 000 particles; SPACING), resistive
# mirror walls of normal-incidence absorption ALPHA (default 0.2), no density diffusion (the
# default hyperdiffusion removes the lattice's short-wave branch, docs/validation.md, V7), a free disc
# driven by a 0.5 ms velocity pulse, four receivers; T30 in the BANDS octaves (default 1000 2000:
# above the Schroeder frequency) within 10 % of Eyring for the receiver mean, every receiver
# reported. ALPHA=0.5 BANDS=500 DURATION=0.035: the high-absorption case docs/validation.md reports
# against Kuttruff's formula. SAMPLE_RATE (default the scene's 30 kHz) sets the output rate and
# with it the time step (two substeps per sample).
#   tests/validation/full/V7.sh EXE OUTDIR        (writes OUTDIR/validation.json, decay.png)
set -euo pipefail
exe=$(realpath "$1")
out=$(mkdir -p "$2" && realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
PYTHONPATH=$(cd "$here/../../postproc" && pwd)  # python3 -m sphreverb_post
export PYTHONPATH
ranks=${RANKS:-2}
dx=${SPACING:-0.0125}   # SPACING=0.01875 SAMPLE_RATE=20000: the ctest case
alpha=${ALPHA:-0.2}
bands=${BANDS:-1000 2000}
duration=${DURATION:-0.065}
rate=${SAMPLE_RATE:-30000}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
/usr/bin/python3 -m sphreverb_post pulse "$out/pulse_0.5ms.wav" --width 0.0005 --rate "$rate"
start=$(date +%s.%N)
status=0
mpiexec -n "$ranks" "$exe" run "$here/room_v7.ini" --out "$out/run" --fluid.spacing "$dx" \
  --material.wall.absorption "$alpha" --time.duration "$duration" --time.sample_rate "$rate" --emitter.input "$out/pulse_0.5ms.wav" > "$out/run.out" 2>&1 ||
  { echo "V7: run failed (see $out/run.out)"; exit 1; }
wall=$(echo "$(date +%s.%N) - $start" | bc)
/usr/bin/python3 -m sphreverb_post validate v7 "$out/run" --receivers r1 r2 r3 r4 \
  --room 0.75 0.75 0.75 --alpha "$alpha" --dx "$dx" --bands $bands --tol 0.10 \
  --json "$out/decay.json" --plot "$out/decay.png" || status=1
/usr/bin/python3 - "$out/decay.json" "$out/validation.json" "$wall" "$dx" "$alpha" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
dx, alpha = float(sys.argv[4]), float(sys.argv[5])
d.update({"resolution": f"dx = {dx * 1e3:g} mm ({round((0.75 / dx) ** 3):d} particles), 0.75 m cube, "
          f"walls alpha_n = {alpha:g} (mirror, resistive), hyperdiffusion default, no density "
          f"diffusion; bands " + ", ".join(f"{b['band_hz']:g} Hz at {343 / (b['band_hz'] * 2 ** 0.5) / dx:.0f}"
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
