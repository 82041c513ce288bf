#!/usr/bin/env bash
# V9 full: resolution study of V1 (phase speed at 1.5-2.5 kHz, duct_v9_phase.ini, 2.25/1.8/1.5 cm),
# V2 (duct_v9.ini) and V4 (box_v9.ini, 0.08 s) at dx = 1.5, 1 and 0.75 cm with h/dx = 1.3 fixed
# (scripts/convergence.sh): errors shrink, observed order and Roache's GCI reported, neighbour
# counts annotated on the plots.
source "$(dirname "$0")/common.sh"
setup "$@"
rc1=0 rc2=0 rc4=0
SPHREVERB=$EXE "$SRC/scripts/convergence.sh" --kind phase --spacings "0.0225 0.018 0.015" \
  --ranks "$RANKS" --out "$OUT/v1" "$SCENES/duct_v9_phase.ini" || rc1=$?
SPHREVERB=$EXE "$SRC/scripts/convergence.sh" --kind tof --ranks "$RANKS" --out "$OUT/v2" \
  "$SCENES/duct_v9.ini" || rc2=$?
SPHREVERB=$EXE "$SRC/scripts/convergence.sh" --kind modes --ranks "$RANKS" --out "$OUT/v4" \
  "$SCENES/box_v9.ini" || rc4=$?
[[ $rc1 -le 1 && $rc2 -le 1 && $rc4 -le 1 ]] || exit 3
cp "$OUT/v1/convergence.png" "$OUT/convergence_v1.png"
cp "$OUT/v2/convergence.png" "$OUT/convergence_v2.png"
cp "$OUT/v4/convergence.png" "$OUT/convergence_v4.png"
"$PY" - "$OUT/v1/convergence.json" "$OUT/v2/convergence.json" "$OUT/v4/convergence.json" \
  "$OUT/check.json" <<'PY'
import json, sys
p, a, b = (json.load(open(f)) for f in sys.argv[1:4])
json.dump({"case": "V9", "title": "resolution study of V1, V2 and V4 (h/dx 1.3 fixed)",
           "measured": f"V1: {p['measured']}; V2: {a['measured']}; V4: {b['measured']}",
           "threshold": "errors shrink; observed order and GCI reported",
           "pass": bool(p["pass"] and a["pass"] and b["pass"]), "v1": p, "v2": a, "v4": b},
          open(sys.argv[4], "w"), indent=1)
PY
finish "$OUT/check.json" "V1: dx = 2.25, 1.8, 1.5 cm; V2, V4: dx = 1.5, 1, 0.75 cm" \
  convergence_v1.png convergence_v2.png convergence_v4.png
