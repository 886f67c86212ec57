#!/usr/bin/env bash
# Installs, builds and runs the test suite (unit, regression and Slurm tests on the CPU backend;
# the Slurm tests, label slurm, start a local cluster and need root; the GPU tests, label gpu,
# run where a GPU is visible: tools/gpu-check.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-debian.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=${OMP_NUM_THREADS:-2}
ctest --test-dir build --output-on-failure -LE gpu "$@"
