#!/usr/bin/env bash
# End to end success: a 48 kHz stereo 16-bit WAV drives the default scene (resampled to 44.1 kHz)
# for 3 ms on 2 ranks, then the built-in sweep; checks exit 0, the files, and summary.json; then
# a scene of one monopole without the [emitter] disc.
#   good_run.sh SPHREVERB SOURCE_DIR WORK_DIR
set -euo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
/usr/bin/python3 - "$work/music.wav" <<'PY'
import sys
import numpy as np
import scipy.io.wavfile as w
t = np.arange(480) / 48000.0
left, right = np.sin(2 * np.pi * 440 * t), 0.5 * np.sin(2 * np.pi * 660 * t)
w.write(sys.argv[1], 48000, (np.stack([left, right], 1) * 20000).astype(np.int16))
PY
mpiexec -n 2 "$exe" run "$src/configs/small_room.ini" --out "$work/wav" --time.duration 0.003 \
  --emitter.input "$work/music.wav" --output.normalize false
mpiexec -n 1 "$exe" run "$src/configs/small_room.ini" --out "$work/sweep" --time.duration 0.003 \
  --emitter.input sweep --emitter.drive velocity
# A scene of one monopole and no [emitter] disc: it runs, nothing else sounds (the log says there
# is no disc), the receiver hears the monopole.
cat >"$work/no_disc.ini" <<'INI'
[time]
sample_rate = 44100
duration = 0.003
[fluid]
spacing = 0.03
[room]
min = 0 0 0
max = 0.6 0.45 0.3
[emitter.talker]
type = monopole
input = impulse
position = 0.2 0.2 0.15
level = 0.1
[receiver.a]
position = 0.45 0.25 0.15
INI
mpiexec -n 2 "$exe" run "$work/no_disc.ini" --out "$work/no_disc" >"$work/no_disc.log" 2>&1 ||
  { cat "$work/no_disc.log"; exit 1; }
grep -q "no emitter disc" "$work/no_disc.log" || { echo "FAIL: no_disc: the log names a disc"; exit 1; }
/usr/bin/python3 - "$work/no_disc/a.raw.wav" <<'PY'
import sys
import numpy as np
import scipy.io.wavfile as w
rate, x = w.read(sys.argv[1])
assert rate == 44100 and len(x) == round(0.003 * 44100) and np.all(np.isfinite(x))
assert np.abs(x).max() > 1e-3, f"no_disc: the monopole is not heard ({np.abs(x).max():.3g} Pa)"
print(f"ok no_disc: a monopole and no disc, peak {np.abs(x).max():.3g} Pa")
PY
/usr/bin/python3 - "$work" <<'PY'
import json, sys
import numpy as np
import scipy.io.wavfile as w
work = sys.argv[1]
for run, ranks in (("wav", 2), ("sweep", 1)):
    s = json.load(open(f"{work}/{run}/summary.json"))
    for key in ("particles", "steps", "wall_seconds", "particle_steps_per_second", "ranks",
                "particles_per_rank", "neighbours_per_particle", "versions", "scene"):
        assert key in s, f"{run}: summary.json lacks {key}"
    assert s["ranks"] == ranks and sum(s["particles_per_rank"]) == s["particles"] == 35640, s
    assert s["steps"] == round(0.003 * 44100) * s["derived"]["substeps"], s["steps"]
    assert s["scene_overrides"]["time.duration"] == "0.003"
    # The phase split covers stage 2: the phases add up to its wall time (less the loop's own
    # bookkeeping), each fraction in [0, 1]; the peak memory is measured.
    phases = s["phases"]
    assert set(phases) == {"neighbours", "forces", "density", "integration", "halo", "ghosts",
                           "receivers", "emitter"}, phases
    total = sum(p["seconds"] for p in phases.values())
    assert 0.5 * s["wall_seconds"] <= total <= 1.01 * s["wall_seconds"], (total, s["wall_seconds"])
    assert all(0.0 <= p["fraction"] <= 1.0 and p["max_seconds"] >= p["seconds"] * (1 - 1e-12)
               for p in phases.values()), phases
    assert s["memory"]["peak_bytes_max_rank"] > 0 and s["memory"]["bytes_per_particle"] > 0
    for name in ("left", "right"):
        rate, raw = w.read(f"{work}/{run}/{name}.raw.wav")
        rate16, pcm = w.read(f"{work}/{run}/{name}.wav")
        assert rate == rate16 == 44100 and raw.dtype == np.float32 and pcm.dtype == np.int16
        assert len(raw) == len(pcm) == round(0.003 * 44100)
        assert np.all(np.isfinite(raw)) and np.abs(raw).max() > 0, f"{run}/{name}: silent"
    print(f"ok {run}: {s['particles']} particles, {s['steps']} steps, peak "
          f"{max(r['peak_Pa'] for r in s['receivers']):.3g} Pa")
print("2 passed, 0 failed")
PY
