#!/usr/bin/env bash
# V9 full: resolution study of V2 (duct_v9.ini) and V4 (box_v9.ini, 0.08 s) at dx = 1.5, 1 and
# 0.75 cm with h/dx = 1.3 fixed (scripts/convergence.sh): errors shrink, observed order and
# Roache's GCI reported, neighbour counts annotated on the plots.
source "$(dirname "$0")/common.sh"
setup "$@"
rc2=0 rc4=0
SPHREVERB=$EXE "$SRC/scripts/convergence.sh" --kind tof --ranks "$RANKS" --out "$OUT/v2" \
  "$SCENES/duct_v9.ini" || rc2=$?
SPHREVERB=$EXE "$SRC/scripts/convergence.sh" --kind modes --ranks "$RANKS" --out "$OUT/v4" \
  "$SCENES/box_v9.ini" || rc4=$?
[[ $rc2 -le 1 && $rc4 -le 1 ]] || exit 3
cp "$OUT/v2/convergence.png" "$OUT/convergence_v2.png"
cp "$OUT/v4/convergence.png" "$OUT/convergence_v4.png"
"$PY" - "$OUT/v2/convergence.json" "$OUT/v4/convergence.json" "$OUT/check.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
json.dump({"case": "V9", "title": "resolution study of V2 and V4 (h/dx 1.3 fixed)",
           "measured": f"V2: {a['measured']}; V4: {b['measured']}",
           "threshold": "errors shrink; observed order and GCI reported",
           "pass": bool(a["pass"] and b["pass"]), "v2": a, "v4": b},
          open(sys.argv[3], "w"), indent=1)
PY
finish "$OUT/check.json" "dx = 1.5, 1, 0.75 cm" convergence_v2.png convergence_v4.png
