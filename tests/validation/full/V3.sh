#!/usr/bin/env bash
# V3 full: spherical spreading from a baffled piston at the corner of a 0.6 m box at dx = 1 cm
# (216 000 particles), receivers at 0.1, 0.2, 0.4 m on the (1,1,1) ray, gated before the first
# reflection: 6.0 +- 0.5 dB per doubling. A 0.6 ms Hann pulse (content below ~1.7 kHz).
source "$(dirname "$0")/common.sh"
setup "$@"
"$PY" -m sphreverb_post pulse "$OUT/pulse.wav" --width 0.0006
sx=0.0055  # within dx/2 of the first lattice plane (x = 5 mm): no air behind the disc
pos() { "$PY" -c "import math; r=$1/math.sqrt(3); print(f'{$sx + r:.5f} {r:.5f} {r:.5f}')"; }
sim "$OUT/run" "$SCENES/corner_v3.ini" --emitter.input "$OUT/pulse.wav" --fluid.spacing 0.01 \
  --emitter.center "$sx 0.005 0.005" --receiver.r1.position "$(pos 0.1)" \
  --receiver.r2.position "$(pos 0.2)" --receiver.r4.position "$(pos 0.4)"
rc=0
"$PY" -m sphreverb_post validate v3 "$OUT/run" --receivers r1 r2 r4 --source $sx 0 0 \
  --room 0.6 0.6 0.6 --plot "$OUT/spreading.png" --json "$OUT/check.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
finish "$OUT/check.json" "dx = 1 cm, 0.6 m box (216 000 particles)" spreading.png
