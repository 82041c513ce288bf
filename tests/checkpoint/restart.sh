#!/usr/bin/env bash
# Restart equality: a run on 2 ranks, restarted from a stage-2 checkpoint on 1, 2 and 3 ranks and
# from the end-of-stage-1 checkpoint on 3 ranks, gives byte-identical WAVs, receiver records and
# particles; so does the default scene's acceleration drive; a restart with a longer
# --time.duration equals a longer uninterrupted run.
#   restart.sh SPHREVERB SOURCE_DIR WORK_DIR
source "$(dirname "$0")/common.sh"
on 2 run "$scene" --out "$work/full" "${opts[@]}" --time.duration 0.004 \
  --output.checkpoint_every 0.001 >"$work/full.log" 2>&1
ls "$work/full/checkpoints"
# stage 1 ends at step 10; cadence 44 steps; end of run 10 + 176
for s in 000000010 000000044 000000088 000000132 000000176 000000186; do
  [[ -f $work/full/checkpoints/step_$s.h5 && -f $work/full/checkpoints/step_$s.xmf ]] ||
    { echo "FAIL: step_$s.h5/.xmf missing"; exit 1; }
done
for n in 1 2 3; do
  on $n restart "$work/full/checkpoints/step_000000088.h5" --out "$work/r$n" >"$work/r$n.log" 2>&1
  same "$work/full" "$work/r$n"
done
on 3 restart "$work/full/checkpoints/step_000000010.h5" --out "$work/s1" >"$work/s1.log" 2>&1
same "$work/full" "$work/s1"

# Longer: an impulse (the same signal at any duration) for 4 ms, continued to 6 ms.
# (an override may be given once: the sweep of opts becomes the impulse)
imp=("${opts[@]/#sweep/impulse}" --output.checkpoint_every 0)
on 2 run "$scene" --out "$work/short" "${imp[@]}" --time.duration 0.004 >/dev/null 2>&1
on 2 run "$scene" --out "$work/long" "${imp[@]}" --time.duration 0.006 >/dev/null 2>&1
on 3 restart "$(latest "$work/short")" --out "$work/longer" --time.duration 0.006 \
  >"$work/longer.log" 2>&1
same "$work/long" "$work/longer"
# The default scene's own drive (acceleration with the leaky 20 Hz integrator, disc on the wall):
# its integrator state travels in the checkpoint too.
acc=(--fluid.spacing 0.015 --output.progress_every 100 --output.keep_checkpoints 1000)
on 2 run "$scene" --out "$work/acc" "${acc[@]}" --time.duration 0.002 \
  --output.checkpoint_every 0.001 >"$work/acc.log" 2>&1
on 1 restart "$(ls "$work"/acc/checkpoints/step_*.h5 | sort | sed -n 2p)" --out "$work/acc_r" \
  >"$work/acc_r.log" 2>&1
same "$work/acc" "$work/acc_r"
# Default output directory: the run's own (DIR/checkpoints/.. ).
on 1 restart "$work/full/checkpoints/step_000000132.h5" >"$work/default.log" 2>&1
grep -q "wrote $work/full/left.wav" "$work/default.log" || { echo "FAIL: default --out"; exit 1; }
echo "restart: all passed"
