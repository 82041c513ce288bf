#!/usr/bin/env bash
# A furnished room with every kind of wall holds its energy (furnished_room.ini, 10 cm, 2 s of
# sound, 2 ranks): reacting mirror faces, ghost walls of [boundary] panels lying on them, a
# tethered screen, a mesh object off the lattice. After the sources stop (t_stop = 0.05 s: the
# talker's impulse and the settling of its 20 Hz high-pass, the energy watch's drive end) the
# air's acoustic energy (energy.csv) never exceeds its value at t_stop from t_stop + 50 ms on
# (within the first milliseconds the high-pass's tail still moves it by ~1 %), and the log holds
# no energy-watch warning. (A reacting ghost face whose pressure gradient took eq. (1)'s dW/dt at
# the last half step passed 60 times its value at t_stop within 0.5 s: docs/theory/walls.md,
# "Reacting ghost walls".)
#   furnished_stable.sh SPHREVERB OUTDIR
set -euo pipefail
exe=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$out"
mkdir -p "$out"
mpiexec -n 2 "$exe" run "$here/furnished_room.ini" --out "$out" >"$out.log" 2>&1 ||
  { tail -5 "$out.log"; exit 1; }
/usr/bin/python3 - "$out/energy.csv" <<'PY'
import sys
import numpy as np
d = np.loadtxt(sys.argv[1], delimiter=",", skiprows=2)
t, e = d[:, 0], d[:, 3]
t_stop, margin = 0.05, 0.05
i = int(np.searchsorted(t, t_stop))
j = int(np.searchsorted(t, t_stop + margin))
after = e[j:]
k = int(np.argmax(after))
print(f"E(t_stop = {t[i]:.4f} s) = {e[i]:.4g} J; largest from {t[j]:.4f} s on {after[k]:.4g} J "
      f"at t = {t[j + k]:.4f} s ({after[k] / e[i]:.4g} times); at the end ({t[-1]:.2f} s) "
      f"{e[-1] / e[i]:.3g} times")
assert t[-1] >= 2.0 - 1e-9, f"the record ends at {t[-1]} s"
assert np.all(np.isfinite(after)), "non-finite energy"
assert after[k] <= e[i], "the air's energy grew after the sources stopped"
PY
if grep -q "the run is unstable" "$out/sphreverb.log"; then
  grep "the run is unstable" "$out/sphreverb.log"
  exit 1
fi
echo "no energy growth over 2 s"
