#!/usr/bin/env bash
# The benchmark: builds Release, runs bench/box.ini (a closed rigid box, default physics) at
# ~30 000, ~110 000 and ~300 000 particles and bench/room.ini (a furnished room with absorbing
# force walls, a table top and a pillar, ~100 000 particles: the case "room") on 1 and 2 ranks
# for a fixed step count, and prints particle-steps/s per core, neighbours per particle, peak
# memory per particle, the phase split, the 2-rank parallel efficiency and the ranks' balance;
# writes the same to out/bench/bench.json.
#
#   scripts/bench.sh [--no-build] [--repeat N] [--sizes "30k 110k 300k room"] [--ranks "1 2"]
#                    [--out DIR] [--exe PATH]
#
# Each case runs `sphreverb run` (stage 2 is timed; set-up, stage 1 and the WAV output are not)
# N times (default 1) and keeps the fastest run. Particle-steps/s per core = particles x steps /
# stage-2 wall time / ranks. Memory = the ranks' peak resident memory (VmHWM) above their
# resident memory before the solver was built, summed over ranks, per particle. Balance (several
# ranks): the largest fraction of stage 2 a rank waited for the slowest one, and the CPU-time
# imbalance of the ranks' compute phases (max / mean - 1; summary.json "balance").
set -euo pipefail
cd "$(dirname "$0")/.."

build=1 repeat=1 sizes="30k 110k 300k room" ranks="1 2" out=out/bench exe=build/sphreverb
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-build) build=0 ;;
    --repeat) repeat="$2"; shift ;;
    --sizes) sizes="$2"; shift ;;
    --ranks) ranks="$2"; shift ;;
    --out) out="$2"; shift ;;
    --exe) exe="$2"; shift ;;
    *) echo "bench.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

if [[ $build == 1 ]]; then
  cmake --preset release >/dev/null
  cmake --build build -j2 --target sphreverb >/dev/null
fi

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_psec=${PMIX_MCA_psec:-^munge}  # docs/running.md, "Launch time"
mkdir -p "$out"

# size -> "room max" (36 x 30 x 28, 54 x 45 x 45, 75 x 63 x 63 lattice sites at 1.5 cm) and the
# stage-2 duration (2 substeps per sample at 44.1 kHz: steps = 2 round(duration x 44100)).
declare -A room=([30k]="0.54 0.45 0.42" [110k]="0.81 0.675 0.675" [300k]="1.125 0.945 0.945")
declare -A duration=([30k]=0.00454 [110k]=0.00114 [300k]=0.000454 [room]=0.00114)  # 400, 100, 40, 100 steps

for size in $sizes; do
  for np in $ranks; do
    for ((k = 1; k <= repeat; ++k)); do
      dir="$out/$size-${np}r-$k"
      echo "bench: $size particles, $np rank(s), run $k of $repeat" >&2
      rm -rf "$dir"
      if [[ $size == room ]]; then scene=(bench/room.ini); else scene=(bench/box.ini --room.max "${room[$size]}"); fi
      mpirun -np "$np" --bind-to none "$exe" run "${scene[@]}" --out "$dir" \
        --time.duration "${duration[$size]}" >"$dir.log" 2>&1 ||
        { echo "bench: run failed, see $dir.log" >&2; exit 3; }
    done
  done
done

/usr/bin/python3 - "$out" "$repeat" "$sizes" "$ranks" <<'PY'
import json, sys
out, repeat, sizes, ranks = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), [int(r) for r in sys.argv[4].split()]
phases = ["neighbours", "forces", "density", "integration", "halo", "ghosts", "receivers", "emitter"]
cases = []
for size in sizes:
    for np in ranks:
        runs = [json.load(open(f"{out}/{size}-{np}r-{k}/summary.json")) for k in range(1, repeat + 1)]
        best = min(runs, key=lambda s: s["wall_seconds"])
        cases.append({
            "size": size, "ranks": np, "particles": best["particles"], "steps": best["steps"],
            "wall_seconds": best["wall_seconds"],
            "wall_seconds_all": [s["wall_seconds"] for s in runs],
            "particle_steps_per_second": best["particle_steps_per_second"],
            "particle_steps_per_second_per_core": best["particle_steps_per_second"] / np,
            "neighbours_per_particle": best["neighbours_per_particle"],
            # (null with an executable older than the phase timers)
            "bytes_per_particle": best.get("memory", {}).get("bytes_per_particle"),
            "peak_bytes_max_rank": best.get("memory", {}).get("peak_bytes_max_rank"),
            "rebuilds": best["rebuilds"],
            "phase_fraction": {p: best["phases"][p]["fraction"] for p in phases} if "phases" in best else None,
            "scene": "bench/room.ini" if size == "room" else "bench/box.ini",
            # (absent with an executable older than the balance report)
            "waiting_fraction_max": max(best["balance"]["waiting_fraction_per_rank"]) if "balance" in best and np > 1 else None,
            "cpu_imbalance": best["balance"]["cpu_imbalance"] if "balance" in best and np > 1 else None,
        })
for c in cases:
    one = [d for d in cases if d["size"] == c["size"] and d["ranks"] == 1]
    if one and c["ranks"] > 1:
        c["parallel_efficiency"] = c["particle_steps_per_second_per_core"] / one[0]["particle_steps_per_second_per_core"]
json.dump({"scenes": ["bench/box.ini", "bench/room.ini"], "repeat": repeat, "cases": cases}, open(f"{out}/bench.json", "w"), indent=2)

print(f"{'size':>5} {'ranks':>5} {'particles':>9} {'steps':>5} {'Mps/s/core':>10} {'nbrs':>5} {'B/part':>6} {'eff':>5} {'wait':>5} {'cpuimb':>6}  phases (% of stage 2: "
      + " ".join(p[:5] for p in phases) + ")")
def pct(x):
    return f"{100 * x:.1f}%" if x is not None else "-"
for c in cases:
    eff = f"{100 * c['parallel_efficiency']:.0f}%" if "parallel_efficiency" in c else "-"
    split = " ".join(f"{100 * c['phase_fraction'][p]:5.1f}" for p in phases) if c["phase_fraction"] else "-"
    mem = f"{c['bytes_per_particle']:.0f}" if c["bytes_per_particle"] is not None else "-"
    print(f"{c['size']:>5} {c['ranks']:>5} {c['particles']:>9} {c['steps']:>5} "
          f"{c['particle_steps_per_second_per_core'] / 1e6:>10.3f} {c['neighbours_per_particle']:>5.1f} "
          f"{mem:>6} {eff:>5} {pct(c['waiting_fraction_max']):>5} {pct(c['cpu_imbalance']):>6}  {split}")
print(f"wrote {out}/bench.json")
PY
