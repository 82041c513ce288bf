#!/usr/bin/env bash
# Installs the Debian 12 packages sphreverb needs, if any is missing (apt-get; sudo when not root).
set -euo pipefail
packages=(
  build-essential cmake pkg-config
  libopenmpi-dev openmpi-bin libhdf5-openmpi-dev libboost-program-options-dev
  libsndfile1-dev libspdlog-dev libgtest-dev
  # summary.json
  nlohmann-json3-dev
  # resampling of input WAVs to the run's sample rate
  libsoxr-dev
  # room and object meshes: Assimp reads the files, CGAL answers inside/closest-point queries
  libassimp-dev libcgal-dev
  # HRTFs (SOFA files) of binaural receivers; libmysofa1 ships the MIT KEMAR default.sofa
  libmysofa-dev libmysofa1
  # phased image sources: Faddeeva's function (spherical-wave reflection) and an inverse FFT
  libcerf-dev libfftw3-dev
  python3-numpy python3-scipy python3-matplotlib python3-h5py
  # checkpoints in ParaView (tests, python3 -m sphreverb_post render) and headless rendering
  python3-paraview xvfb
  # the run report rendered headless in its test (postproc/tests/test_report.py)
  chromium
  # a one-node Slurm for testing jobs/ (scripts/slurm_local.sh)
  slurmctld slurmd slurm-client munge
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install_deps: all ${#packages[@]} packages present"
  exit 0
fi
echo "install_deps: installing ${missing[*]}"
sudo=()
[[ $EUID -ne 0 ]] && sudo=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
