#!/usr/bin/env bash
# Restart equality across neighbour rebuilds: the lists are rebuilt during the remaining run, and
# the restart's first rebuild falls at another step than any of the uninterrupted run's. A pair's
# list entry decides the lane of every later entry of its list in the pair sums (interactions.cpp),
# so which pairs beyond the support a list holds matters to the last bit. Here h = 1.4 dx puts the
# support at 2.8 dx and the skin the list radius 0.2 um inside the lattice distance sqrt(8) dx, so
# thousands of pairs enter the lists between rebuilds wherever sound passes (a 1 mm
# displacement-driven sweep): lists built at the restart's own positions differ from the
# uninterrupted run's. The samples and particles must still equal the uninterrupted run's bit for
# bit, on 1 and 2 ranks: with mirror walls (given: at 3 cm the default room's faces are off the
# lattice, where `auto` builds ghost walls) and, below, with ghost walls.
#   restart_rebuild.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
opts=(--room.walls mirror --fluid.spacing 0.03 --fluid.h_over_dx 1.4 --fluid.skin 0.02842 --fluid.viscosity 0.02 --emitter.input sweep
      --emitter.drive displacement --emitter.center "0.105 0.1 0.1" --emitter.deflection 1e-3
      --output.progress_every 1000 --output.keep_checkpoints 1000 --time.duration 0.004
      --output.checkpoint_every 0.001)
rebuilds() { sed -n 's/.* \([0-9]*\) neighbour rebuilds.*/\1/p' "$1"; }
on 2 run "$scene" --out "$work/full" "${opts[@]}" >"$work/full.log" 2>&1
# Checkpoints every 44 steps (stage 1 ends at step 10); the run ends at step 186.
ck=$work/full/checkpoints/step_000000088.h5
[[ -f $ck ]] || { echo "FAIL: $ck missing"; exit 1; }
at=$(/usr/bin/python3 -c "import h5py, sys; print(h5py.File(sys.argv[1])['/run/rebuilds'][0])" "$ck")
for n in 1 2; do
  on $n restart "$ck" --out "$work/r$n" >"$work/r$n.log" 2>&1
  # The remaining run must rebuild, or this test shows nothing.
  [[ $(rebuilds "$work/r$n.log") -gt $at ]] || { echo "FAIL: no rebuild after the restart"; exit 1; }
  same "$work/full" "$work/r$n"
done
# The same drive with the room's ghost walls (`walls = ghost`; its band materials reacting ghost
# faces, each with a face element): the air moves by a millimetre near the walls, yet no reacting
# ghost site turns active late (every site with an element is active wherever its stencil is at
# hand), 1 rank equals 2 ranks and restarts on 1 and 2 ranks equal the run, bit for bit.
gopts=("${opts[@]}")
gopts[1]=ghost
on 2 run "$scene" --out "$work/ghost2" "${gopts[@]}" >"$work/ghost2.log" 2>&1
on 1 run "$scene" --out "$work/ghost1" "${gopts[@]}" >"$work/ghost1.log" 2>&1
grep -q '"room_walls": "ghost"' "$work/ghost1/summary.json" ||
  { echo "FAIL: the ghost run's room walls are not ghost walls"; exit 1; }
if grep -q "turned active" "$work/ghost1/sphreverb.log" "$work/ghost2/sphreverb.log"; then
  grep -h "turned active" "$work/ghost1/sphreverb.log" "$work/ghost2/sphreverb.log" | head -3
  echo "FAIL: reacting ghost sites turned active during the run"
  exit 1
fi
same "$work/ghost2" "$work/ghost1"
# And restarts: the rebuild places the ghosts as if their faces stood at rest, so the restart's
# lists (built at the checkpointed rebuild positions) are the uninterrupted run's.
same_restarts "$work/ghost2" "$work/ghost2/checkpoints/step_000000088.h5" gr 1 2
echo "restart_rebuild: all passed"
