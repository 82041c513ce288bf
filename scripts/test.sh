#!/usr/bin/env bash
# The test suite: installs what is missing, builds Release, runs ctest.
#   scripts/test.sh [--quick] [ctest arguments, e.g. -R checkpoint]
# Default: every ctest case (labels: unit, mpi at 1-4 ranks, postproc, cli, checkpoint,
# validation, slurm); CI (.ci/run) runs exactly this. --quick: the labels unit and mpi only
# (ctest -L 'unit|mpi', about two minutes on two cores). Further arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
select=()
if [[ ${1:-} == --quick ]]; then
  select=(-L 'unit|mpi')
  shift
fi
scripts/install_deps.sh
cmake --preset release > /dev/null
cmake --build --preset release -j "$(nproc)"
ctest --test-dir build --output-on-failure --timeout 900 -j "$(nproc)" "${select[@]}" "$@"
