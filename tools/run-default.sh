#!/usr/bin/env bash
# Installs, builds and runs the default case: the 2-D lid-driven cavity at delta = 1
# (inputs/cavity.yaml), on the GPU when one is visible, else on the CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-debian.sh
build/app/bolt -options_file_yaml inputs/cavity.yaml "$@"
