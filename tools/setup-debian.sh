#!/usr/bin/env bash
# Installs what bolt needs on Debian 12 (skips what is there) and builds it into build/.
# CUDA and NCCL are used from /usr/local/cuda when present; without nvcc the CPU backend is built.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake ninja-build g++ pkg-config libopenmpi-dev openmpi-bin libpetsc-real3.18-dev
          libhdf5-openmpi-dev libyaml-dev librandom123-dev libgtest-dev nlohmann-json3-dev
          python3 python3-numpy python3-h5py python3-matplotlib
          slurmctld slurmd slurm-client munge)  # Slurm: tests/slurm starts a local cluster
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bolt: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# mpiexec refuses to start as root unless told; CI and containers run as root.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release ${BOLT_CMAKE_ARGS:-}
cmake --build build -j "$(nproc)"
