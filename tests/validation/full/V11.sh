#!/usr/bin/env bash
# V11 full: the six lowest modes of a rigid spherical cavity of radius 0.26 m given as a room mesh
# (tests/validation/sphere_v11.ini, walls by fixed ghost particles) at dx = 1.5 cm (20 840
# particles, 52 to 18 PPW) against f = c z / (2 pi a), z the zeros of j_l', each within V4's
# threshold for its PPW (1.5 % at >= 30 PPW, 3 % at >= 18 PPW). The ctest case runs 2 cm, four modes.
source "$(dirname "$0")/common.sh"
setup "$@"
sim "$OUT/run" "$SCENES/sphere_v11.ini"
rc=0
"$PY" -m sphreverb_post validate v11 "$OUT/run" --receiver far --radius 0.26 --c 343 --count 6 \
  --dx 0.015 --json "$OUT/modes.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
"$PY" - "$OUT/modes.json" "$OUT/check.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
worst = max(abs(m["rel_error"]) for m in d["modes"])
d.update({"case": "V11", "title": "rigid spherical cavity modes (mesh)",
          "measured": f"worst {100 * worst:.2f} % over " + ", ".join(
              f"({m['l']},{m['n']}) {100 * m['rel_error']:+.3f} %" for m in d["modes"]),
          "threshold": "± 1.5 % at >= 30 PPW, ± 3 % at >= 18 PPW",
          "pass": all(m["pass"] for m in d["modes"])})
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
finish "$OUT/check.json" "dx = 1.5 cm, radius 0.26 m (20 840 particles), 0.12 s"
