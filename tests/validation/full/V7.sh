#!/usr/bin/env bash
# V7 full resolution: room decay with uniform wall absorption vs Eyring/Sabine. The 0.75 m cube of
# tests/validation/room_v7.ini at dx = 12.5 mm (216 000 particles; SPACING), density diffusion
# 0.1 (without it the decay stalls, README "Walls"), walls absorption = 0.5
# (normal incidence), a free disc driven by a 0.5 ms velocity pulse, four receivers; T30 in the
# 500 Hz octave (above the Schroeder frequency, below the force wall's limit c / (40 dx)) within
# 10 % of Eyring for the receiver mean, every receiver reported.
#   tests/validation/full/V7.sh EXE OUTDIR        (writes OUTDIR/validation.json, decay.png)
set -euo pipefail
exe=$(realpath "$1")
out=$(mkdir -p "$2" && realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
post=$(cd "$here/../../postproc" && pwd)
ranks=${RANKS:-2}
dx=${SPACING:-0.0125}   # SPACING=0.015: the cheaper run the README reports
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
/usr/bin/python3 "$post/make_pulse.py" "$out/pulse_0.5ms.wav" --width 0.0005 --rate 30000
start=$(date +%s.%N)
status=0
mpiexec -n "$ranks" "$exe" run "$here/room_v7.ini" --out "$out/run" --fluid.spacing "$dx" \
  --emitter.input "$out/pulse_0.5ms.wav" > "$out/run.out" 2>&1 ||
  { echo "V7: run failed (see $out/run.out)"; exit 1; }
wall=$(echo "$(date +%s.%N) - $start" | bc)
/usr/bin/python3 "$post/validate_decay.py" "$out/run" --receivers r1 r2 r3 r4 \
  --room 0.75 0.75 0.75 --alpha 0.5 --dx "$dx" --bands 500 --tol 0.10 \
  --json "$out/decay.json" --plot "$out/decay.png" || status=1
/usr/bin/python3 - "$out/decay.json" "$out/validation.json" "$wall" "$dx" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
dx = float(sys.argv[4])
d.update({"resolution": f"dx = {dx * 1e3:g} mm ({round((0.75 / dx) ** 3):d} particles), 0.75 m cube, "
          f"density_diffusion 0.1, 500 Hz octave at {343 / 707 / dx:.0f}-{343 / 354 / dx:.0f} PPW",
          "wall_seconds": float(sys.argv[3]), "plots": ["decay.png"]})
b = d["bands"][0]
d["measured"] = (f"500 Hz T30 {b['T30_mean_s'] * 1e3:.2f} ms (receivers "
                 + ", ".join(f"{v * 1e3:.2f}" for v in b["T30_s"].values())
                 + f" ms) vs Eyring {b['eyring_s'] * 1e3:.2f} ms ({b['error_vs_eyring']:+.1%}),"
                 f" Sabine {b['sabine_s'] * 1e3:.2f} ms ({b['error_vs_sabine']:+.1%})")
json.dump(d, open(sys.argv[2], "w"), indent=2)
PY
exit $status
