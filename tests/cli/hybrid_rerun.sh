#!/usr/bin/env bash
# The full band after the SPH part (the default room at 3 cm, 10 ms, receiver `right` ambisonic
# and binaural; phased images to 5 ms, then rays):
# - `sphreverb hybrid DIR` refuses what is not a finished run's directory (none, empty, no
#   summary.json) and overrides outside [hybrid] (exit 2, with a message);
# - `sphreverb hybrid DIR --hybrid.rays 5000 --hybrid.image_time 0.004` on 1, 2 and 3 ranks:
#   full-band files bit-identical, summary.json's hybrid block and overrides updated, the SPH
#   files untouched; with the run's own keys its full band is the run's to float precision;
# - SIGUSR2 during the geometric part of `run` (rays = 1e9): exit 75 within seconds, the log shows
#   the rays' progress with an ETA and names `sphreverb hybrid DIR`; the SPH outputs and
#   summary.json of the new run are committed, an earlier run's full band is gone (it joined
#   other records), and `sphreverb hybrid` then writes the full band, the same as above;
# - SIGUSR2 during `sphreverb hybrid` (rays = 1e9): exit 75, the directory unchanged.
#   hybrid_rerun.sh SPHREVERB SOURCE_DIR WORK_DIR
set -uo pipefail
exe=$1 src=$2 work=$3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work"
failures=0
fail() { echo "FAIL $1"; shift; [[ $# -gt 0 ]] && sed 's/^/    | /' "$1" | tail -8; failures=$((failures + 1)); }
ok() { echo "ok   $1"; }
scene=$src/configs/small_room.ini
common=(--time.duration 0.01 --fluid.spacing 0.03 --emitter.center "0.015 0.1 0.1"
        --output.checkpoint_every 0 --output.progress_every 0.5
        --receiver.right.type ambisonic --receiver.right.binaural true)
keys=(--hybrid.rays 20000 --hybrid.image_time 0.005)
again=(--hybrid.rays 5000 --hybrid.image_time 0.004)
sph=(left.raw.wav right.raw.wav right.amb.raw.wav right.binaural.wav stereo.raw.wav)
md5_of() { (cd "$1" && md5sum "${@:2}"); }

log=$work/h.log
mpiexec -n 1 "$exe" run "$scene" "${common[@]}" "${keys[@]}" --out "$work/h" >"$log" 2>&1 ||
  { fail "reference run" "$log"; echo "1 failed"; exit 1; }
sph_md5=$(md5_of "$work/h" "${sph[@]}")

# Not a finished run.
mkdir -p "$work/empty"
cp -r "$work/h" "$work/nosummary" && rm "$work/nosummary/summary.json"
for d in "$work/none" "$work/empty" "$work/nosummary"; do
  log=$work/refuse_$(basename "$d").log
  "$exe" hybrid "$d" >"$log" 2>&1; rc=$?
  if [[ $rc == 2 ]] && grep -q "not a finished run" "$log"; then ok "refused $(basename "$d"): $(grep -m1 error "$log" | cut -c12-170)"
  else fail "hybrid $(basename "$d"): exit $rc (want 2, 'not a finished run')" "$log"; fi
done
log=$work/refuse_key.log
"$exe" hybrid "$work/h" --fluid.spacing 0.02 >"$log" 2>&1; rc=$?
[[ $rc == 2 ]] && grep -q "hybrid accepts --hybrid.KEY" "$log" && ok "refused --fluid.spacing" ||
  fail "hybrid --fluid.spacing: exit $rc (want 2)" "$log"

# The full band again, on 1, 2 and 3 ranks; and with the run's own keys.
for n in 1 2 3; do
  cp -r "$work/h" "$work/a$n"
  log=$work/a$n.log
  start=$(date +%s)
  mpiexec -n $n "$exe" hybrid "$work/a$n" "${again[@]}" >"$log" 2>&1 || fail "hybrid on $n ranks" "$log"
  echo "     hybrid on $n rank(s): $(( $(date +%s) - start )) s"
  [[ $(md5_of "$work/a$n" "${sph[@]}") == "$sph_md5" ]] || fail "hybrid on $n ranks: SPH files changed"
done
cp -r "$work/h" "$work/same"
log=$work/same.log
"$exe" hybrid "$work/same" >"$log" 2>&1 || fail "hybrid with the run's keys" "$log"
/usr/bin/python3 - "$work" <<'PY' || failures=$((failures + 1))
import json, sys, warnings
import numpy as np
import scipy.io.wavfile as w
warnings.simplefilter("ignore", w.WavFileWarning)
work = sys.argv[1]
full = ["left.full.raw.wav", "right.full.raw.wav", "right.amb.full.raw.wav",
        "right.binaural.full.wav", "stereo.full.raw.wav"]
for f in full:
    ref = w.read(f"{work}/a1/{f}")[1]
    for n in (2, 3):
        assert np.array_equal(ref, w.read(f"{work}/a{n}/{f}")[1]), (f, n)
    assert not np.array_equal(ref, w.read(f"{work}/h/{f}")[1]), f  # other keys, other files
    run, same = w.read(f"{work}/h/{f}")[1], w.read(f"{work}/same/{f}")[1]
    if f.endswith(".raw.wav"):
        err = np.max(np.abs(run - same)) / np.max(np.abs(run))
        assert err < 1e-4, (f, err)
s = json.load(open(f"{work}/a2/summary.json"))
assert s["hybrid"]["rays"] == 5000, s["hybrid"]["rays"]
assert s["scene_overrides"]["hybrid.rays"] == "5000", s["scene_overrides"]
assert s["receivers"] == json.load(open(f"{work}/h/summary.json"))["receivers"]
print("ok   hybrid DIR: 1, 2, 3 ranks bit-identical, summary updated, the run's keys give the "
      "run's full band to float precision")
PY

# SIGUSR2 during the geometric part of a run, into a directory holding an earlier run.
cp -r "$work/h" "$work/s"
log=$work/s.log
mpiexec -n 2 "$exe" run "$scene" "${common[@]}" --hybrid.rays 1000000000 --hybrid.image_time 0.004 \
  --out "$work/s" >"$log" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "hybrid: rays: blocks" "$log" || ! kill -0 $pid 2>/dev/null && break; sleep 0.2; done
kill -USR2 $pid
signalled=$(date +%s)
( sleep 60; kill -KILL $pid 2>/dev/null ) & watchdog=$!
wait $pid; rc=$?
kill $watchdog 2>/dev/null
if [[ $rc == 75 ]] && grep -q "ETA" "$log" && grep -q "sphreverb hybrid $work/s" "$log"; then
  ok "stopped in the geometric part after $(( $(date +%s) - signalled )) s: $(grep -m1 'stopped by signal' "$log" | cut -c12-200)"
else
  fail "run stopped in the geometric part: exit $rc (want 75, progress with ETA, 'sphreverb hybrid')" "$log"
fi
[[ $(md5_of "$work/s" "${sph[@]}") == "$sph_md5" ]] || fail "stopped run: SPH files missing or other"
grep -q '"hybrid"' "$work/s/summary.json" && fail "stopped run: summary.json has a hybrid block"
[[ -e $work/s/left.full.raw.wav ]] && fail "stopped run: the earlier run's full band is still there"
log=$work/s_hybrid.log
"$exe" hybrid "$work/s" "${again[@]}" >"$log" 2>&1 || fail "hybrid after the stopped run" "$log"
cmp -s "$work/s/left.full.raw.wav" "$work/a1/left.full.raw.wav" &&
  ok "hybrid after the stopped run: the full band of the same keys" ||
  fail "hybrid after the stopped run: left.full.raw.wav differs" "$log"

# SIGUSR2 during `sphreverb hybrid`: nothing changes.
before=$(md5_of "$work/a1" summary.json left.full.raw.wav "${sph[@]}")
log=$work/stop_hybrid.log
mpiexec -n 2 "$exe" hybrid "$work/a1" --hybrid.rays 1000000000 >"$log" 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q "hybrid: rays: blocks" "$log" || ! kill -0 $pid 2>/dev/null && break; sleep 0.2; done
kill -USR2 $pid
( sleep 60; kill -KILL $pid 2>/dev/null ) & watchdog=$!
wait $pid; rc=$?
kill $watchdog 2>/dev/null
[[ $rc == 75 ]] && ok "hybrid stopped: exit 75" || fail "hybrid stopped: exit $rc (want 75)" "$log"
[[ $(md5_of "$work/a1" summary.json left.full.raw.wav "${sph[@]}") == "$before" ]] ||
  fail "hybrid stopped: the directory changed"

echo "$failures failed"
[[ $failures == 0 ]]
