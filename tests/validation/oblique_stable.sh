#!/usr/bin/env bash
# Hard walls oblique to the lattice with the velocity hyperviscosity: pffdtd's rigid box rotated
# 30 degrees (box_pff_30.ini, 1 cm), 0.15 s on 2 ranks, as the scene gives it: [fluid]
# hyperviscosity = auto (the default) turns the filter on for its walls (0.005).
#  - the run log says so;
#  - the six lowest isolated modes within V4's 1.5 % (docs/validation.md, "Against pffdtd");
#  - the run log holds no energy-watch warning (with hyperviscosity = 0 the air's energy passes
#    ten times its driven peak within the run: docs/limitations.md, "Oblique mesh walls").
#   oblique_stable.sh SPHREVERB OUTDIR
set -euo pipefail
exe=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
"$here/run_case.sh" "$exe" 2 "$out" "$here/box_pff_30.ini" \
  --time.duration 0.15 -- v4 --receiver corner --room 0.34 0.22 0.18 --c 343 --count 6 --tol 0.015
if ! grep -q "hyperviscosity = auto turns the velocity filter on (0.005)" "$out/sphreverb.log"; then
  echo "the run log does not say that hyperviscosity = auto turned the filter on"
  exit 1
fi
if grep -q "the run is unstable" "$out/sphreverb.log"; then
  grep "the run is unstable" "$out/sphreverb.log"
  exit 1
fi
echo "no energy-watch warning over 0.15 s"
