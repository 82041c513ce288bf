#!/usr/bin/env bash
# One command from a fresh Debian 12 checkout to a result: installs what is missing, builds a
# Release build/sphreverb, and runs the default scene (configs/small_room.ini) on 2 ranks into
# out/ (WAVs, summary.json, sphreverb.log).
#   scripts/setup.sh [--no-run] [--ranks N] [--scene FILE] [--out DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
run=1 ranks=2 scene=configs/small_room.ini out=out
while [[ $# -gt 0 ]]; do
  case $1 in
    --no-run) run=0 ;;
    --ranks) ranks=$2; shift ;;
    --scene) scene=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "setup.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
scripts/install_deps.sh
cmake --preset release > /dev/null
cmake --build --preset release -j "$(nproc)"
[[ $run -eq 1 ]] || exit 0
scripts/run.sh "$scene" --ranks "$ranks" --out "$out"
