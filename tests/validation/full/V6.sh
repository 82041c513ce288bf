#!/usr/bin/env bash
# V6 full resolution: impedance tube (ISO 10534-2) at dx = 5 mm (SPACING), a rigid sample, absorption 0.2,
# 0.5, 0.9 and the library's curtain (octave bands). Two microphone pairs: s = 0.1 m (mic1-mic2,
# valid from 0.05 c/s = 172 Hz up to min(0.45 c/s = 1543 Hz, the force wall's limit c/(40 dx) =
# 1715 Hz at 5 mm)) and s = 0.05 m (mic3-mic2, 343 Hz .. min(3087, 1715) Hz). Each sample must pass on
# both pairs: rigid alpha < 0.03, broadband |alpha - configured| <= 0.05, curtain octave means
# within 0.05 of its band values.
#   tests/validation/full/V6.sh EXE OUTDIR        (writes OUTDIR/validation.json, alpha.png)
set -euo pipefail
exe=$(realpath "$1")
out=$(mkdir -p "$2" && realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
PYTHONPATH=$(cd "$here/../../postproc" && pwd)  # python3 -m sphreverb_post
export PYTHONPATH
ranks=${RANKS:-2}
dx=${SPACING:-0.005}         # SPACING=0.01 V6_CASES=rigid ... : a quick check of the script itself
only=${V6_CASES:-}
# Valid bands: 0.05 c/s .. min(0.45 c/s, c/(40 dx)) for each microphone pair.
wall_max=$(echo "343 / (40 * $dx)" | bc -l)
low_max=$(echo "m = 0.45 * 343 / 0.1; if ($wall_max < m) m = $wall_max; m" | bc -l)
high_max=$(echo "m = 0.45 * 343 / 0.05; if ($wall_max < m) m = $wall_max; m" | bc -l)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
/usr/bin/python3 -m sphreverb_post pulse "$out/pulse_0.5ms.wav" --width 0.0005
start=$(date +%s.%N)
cases=("rigid|--boundary.sample.material rigid|--rigid"
       "alpha20|--material.sample.absorption 0.2|--alpha 0.2"
       "alpha50|--material.sample.absorption 0.5|--alpha 0.5"
       "alpha90|--material.sample.absorption 0.9|--alpha 0.9"
       "curtain|--boundary.sample.material curtain|--bands 0.037 0.190 0.331 0.590 0.533 0.431 --model curtain")
status=0
results=()
csvs=()
labels=()
for c in "${cases[@]}"; do
  IFS='|' read -r name override expect <<<"$c"
  [[ -n $only && " $only " != *" $name "* ]] && continue
  dir="$out/$name"
  rm -rf "$dir" && mkdir -p "$dir"
  # shellcheck disable=SC2086
  mpiexec -n "$ranks" "$exe" run "$here/tube_v6.ini" --out "$dir" \
    --emitter.input "$out/pulse_0.5ms.wav" --fluid.spacing "$dx" \
    --receiver.mic3.position "0.75 0.05 0.05" \
    --emitter.center "$(/usr/bin/python3 -c "print(0.75 * $dx)") 0.05 0.05" \
    $override > "$dir/run.out" 2>&1 ||
    { echo "V6 $name: run failed (see $dir/run.out)"; status=1; continue; }
  # shellcheck disable=SC2086
  /usr/bin/python3 -m sphreverb_post validate v6 "$dir" --mic1 mic1 --mic2 mic2 --x1 0.3 \
    --spacing 0.1 --gate 0.0074 --fmin 172 --fmax "$low_max" $expect --case "V6 $name s=0.1" \
    --json "$dir/low.json" --csv "$dir/low.csv" || status=1
  # shellcheck disable=SC2086
  /usr/bin/python3 -m sphreverb_post validate v6 "$dir" --mic1 mic3 --mic2 mic2 --x1 0.25 \
    --spacing 0.05 --gate 0.0074 --fmin 343 --fmax "$high_max" $expect --case "V6 $name s=0.05" \
    --json "$dir/high.json" --csv "$dir/high.csv" || status=1
  results+=("$dir/low.json" "$dir/high.json")
  csvs+=("$dir/high.csv")
  labels+=("$name")
done
wall=$(echo "$(date +%s.%N) - $start" | bc)
/usr/bin/python3 -m sphreverb_post plot-absorption "${csvs[@]}" --label "${labels[@]}" --out "$out/alpha.png" \
  --title "V6 impedance tube, dx = 5 mm, s = 0.05 m: measured vs configured" || status=1
/usr/bin/python3 - "$out/validation.json" "$wall" "$status" "$dx" "${results[@]}" <<'PY'
import json, sys
path, wall, status, dx, files = (sys.argv[1], float(sys.argv[2]), int(sys.argv[3]),
                                 float(sys.argv[4]), sys.argv[5:])
parts = []
ok = status == 0
for f in files:
    try:
        d = json.load(open(f))
    except OSError:
        ok = False
        continue
    parts.append(f"{d['title']} [{d['band_hz'][0]:.0f}-{d['band_hz'][1]:.0f} Hz]: {d['measured']}")
    ok = ok and d["pass"]
json.dump({"case": "V6", "title": "impedance tube (ISO 10534-2 transfer function)",
           "measured": "; ".join(parts),
           "threshold": "rigid alpha < 0.03; absorption within 0.05 over the valid band",
           "pass": bool(ok),
           "resolution": f"dx = {dx * 1e3:g} mm ({round(0.1 * 0.1 * 1.0 / dx ** 3):d} particles)",
           "wall_seconds": wall, "plots": ["alpha.png"]}, open(path, "w"), indent=2)
PY
exit $status
