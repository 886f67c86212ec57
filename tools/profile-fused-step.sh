#!/usr/bin/env bash
# profile-fused-step.sh -- Nsight Compute on one launch of the explicit fused step
# (docs/benchmarks.md, "Explicit step"): the kernel's summary metrics and, with a build made with
# -DCMAKE_CUDA_FLAGS=-lineinfo, its executed instructions and stall samples per source line
# (tools/ncu_lines.py). From the repository root, on a machine with a GPU:
#
#   OUT=/tmp/p BENCH=build-prof/app/bolt_bench bash tools/profile-fused-step.sh [CASE ...]
#
# CASE: a name and bolt_bench's case options, e.g. "2d_float --cells 128,128 --precision float"
# (default: the 2-D cavity 128^2 x 24^3 and its reduced 2V set, in float and double). The
# warm-up step's launch is skipped, the next one profiled. KERNEL (a regular expression of the
# mangled kernel name, default FusedStep) profiles another kernel (LAUNCH_SKIP: its launches
# skipped first, default 1), e.g. the iterative sweep:
#
#   KERNEL=sweep_kernel bash tools/profile-fused-step.sh "3d --solver iterative --cells 64,64,64"
set -u -o pipefail
BENCH=${BENCH:-build-prof/app/bolt_bench}
OUT=${OUT:-/tmp/profile-fused-step}
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
mkdir -p "$OUT"
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=(
  "2d_float --cells 128,128 --precision float" "2v_float --cells 128,128 --precision float --reduce z"
  "2d_double --cells 128,128 --precision double" "2v_double --cells 128,128 --precision double --reduce z")
for spec in "${CASES[@]}"; do
  # shellcheck disable=SC2086  # spec is a name and a list of options
  set -- $spec
  name=$1
  shift
  "$NCU" --kernel-name-base mangled -k "regex:${KERNEL:-FusedStep}" \
    --launch-skip "${LAUNCH_SKIP:-1}" --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats \
    --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis \
    --section SourceCounters -f -o "$OUT/$name" \
    "$BENCH" --backend cuda --steps 2 --reps 1 --warmup 1 --bc cavity --velocities 24 "$@" \
    > "$OUT/$name.log" 2>&1 || { echo "$name: ncu failed (exit $?, $OUT/$name.log)"; continue; }
  "$NCU" -i "$OUT/$name.ncu-rep" --page details --csv > "$OUT/$name.details.csv" 2>> "$OUT/$name.log"
  "$NCU" -i "$OUT/$name.ncu-rep" --page source --csv --print-source cuda,sass \
    > "$OUT/$name.source.csv" 2>> "$OUT/$name.log"
  # The updates of one step: the bench's cells times its velocities (its JSON line).
  updates=$(python3 -c 'import json, sys
line = [l for l in open(sys.argv[1]) if l.startswith("BOLT_BENCH_JSON ")][0]
r = json.loads(line.split(" ", 1)[1]); c = r["cells"]
print(c[0] * c[1] * c[2] * r["nv"])' "$OUT/$name.log")
  python3 "$(dirname "$0")/ncu_lines.py" "$OUT/$name.details.csv" "$OUT/$name.source.csv" \
    "$updates" > "$OUT/$name.txt"
  head -30 "$OUT/$name.txt"
done
