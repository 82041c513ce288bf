#!/usr/bin/env bash
# V5 full: the closed rigid box (0.3 x 0.24 x 0.21 m, dx = 1.5 cm) over 0.4 s after a 3 ms
# displacement pulse of the wall piston, with the default physics (checked: the five lowest
# modes' T60 >= 10 x 2 s at the receiver) and with Monaghan viscosity 0.01 and delta-SPH
# diffusion 0.1 each alone (probes of the total energy: their T60 and the largest coefficient
# that keeps T60 >= 20 s).
source "$(dirname "$0")/common.sh"
setup "$@"
"$PY" -m sphreverb_post pulse "$OUT/pulse.wav" --width 0.003
common=(--emitter.input "$OUT/pulse.wav" --time.duration 0.4)
sim "$OUT/default" "$SCENES/box_v5.ini" "${common[@]}"
sim "$OUT/viscosity" "$SCENES/box_v5.ini" "${common[@]}" --fluid.viscosity 0.01
sim "$OUT/diffusion" "$SCENES/box_v5.ini" "${common[@]}" --fluid.density_diffusion 0.1
rc=0
"$PY" -m sphreverb_post validate v5 --run "$OUT/default" default 0 0 \
  --run "$OUT/viscosity" probe 0.01 0 --run "$OUT/diffusion" probe 0 0.1 \
  --room-t60 2.0 --factor 10 --modes 0.3 0.24 0.21 --mode-to 0.38 --plot "$OUT/energy.png" --json "$OUT/check.json" || rc=$?
[[ $rc -le 1 ]] || exit $rc
finish "$OUT/check.json" "dx = 1.5 cm, 0.3 x 0.24 x 0.21 m box (4 480 particles), 0.4 s" energy.png
