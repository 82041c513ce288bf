#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds Release, runs every ctest case
# (labels: unit, mpi at 1-4 ranks, cli, checkpoint, validation, slurm). CI (.ci/run) runs exactly
# this.
#   scripts/test.sh [ctest arguments, e.g. -L unit]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
cmake --preset release > /dev/null
cmake --build --preset release -j "$(nproc)"
ctest --test-dir build --output-on-failure --timeout 900 -j "$(nproc)" "$@"
