#!/usr/bin/env bash
# gpu-check.sh -- everything bolt checks on a GPU, in one call, from the repository root:
#   1. configure + build (Release, CUDA architecture 90 unless told otherwise)
#   2. ctest -L gpu   (CPU-vs-GPU agreement, tests/gpu)
#   3. ctest -L unit, and the space and velocity splits of two ranks sharing the GPU
#      (-gpu_share: messages and sums through the host) against one rank
#   4. bolt_bench: 2-D cavity 128x128 (24^3 velocities, and the reduced 2V space: 2 x 24^2) and
#      3-D 64^3 periodic and cavity, 24^3 velocities, fp32 + fp64
#   5. a short table of the benchmark results (last thing printed)
# Logs go to ${OUT:-/tmp/gpu-check}: configure.log build.log ctest-gpu.log ctest-unit.log
# shared-*.log shared-gpu.log bench-*.log bench.jsonl summary.txt. The benchmark rows go into
# docs/benchmarks.md (which is regenerated, not edited) with
#   python3 tools/benchmarks_doc.py --import $OUT/bench.jsonl --commit COMMIT --command "..."
#
# Environment:
#   BOLT_BUILD_DIR     build folder (default build-gpu-check; git-ignored, reused if present)
#   BOLT_CUDA_ARCH     CMAKE_CUDA_ARCHITECTURES (default 90: H100/H200)
#   BOLT_BUILD_TYPE    CMAKE_BUILD_TYPE (default Release)
#   BOLT_CMAKE_ARGS    extra cmake arguments, e.g. on the device
#                      "-DBOLT_EXTRA_INCLUDE=$PWD/.devcarry/include -DBOLT_GTEST_SOURCE=$PWD/.devcarry/src/googletest"
#                      (when unset and .devcarry/include exists while the system lacks Random123,
#                      exactly these two are used)
#   BOLT_JOBS          build parallelism (default: all cores)
#   BOLT_BENCH_STEPS   steps per timed repetition (default 50); BOLT_BENCH_REPS (default 5)
#   BOLT_BENCH_CASES   "all" (default) or a space-separated subset of the case names below
#   BOLT_SKIP_BUILD=1, BOLT_SKIP_TESTS=1, BOLT_SKIP_BENCH=1   leave a stage out
#
# On the device (no PETSc there; the recipe carries it):
#   bash .devcarry/device-recipe.sh setup && . /tmp/devsys/env.sh && \
#   BOLT_CMAKE_ARGS="-DBOLT_EXTRA_INCLUDE=$PWD/.devcarry/include -DBOLT_GTEST_SOURCE=$PWD/.devcarry/src/googletest" \
#   OUT=$OUT bash tools/gpu-check.sh
set -u -o pipefail

OUT=${OUT:-/tmp/gpu-check}
BUILD=${BOLT_BUILD_DIR:-build-gpu-check}
ARCH=${BOLT_CUDA_ARCH:-90}
TYPE=${BOLT_BUILD_TYPE:-Release}
JOBS=${BOLT_JOBS:-$(nproc 2>/dev/null || echo 4)}
STEPS=${BOLT_BENCH_STEPS:-50}
REPS=${BOLT_BENCH_REPS:-5}
CASES=${BOLT_BENCH_CASES:-all}

if [ ! -f CMakeLists.txt ] || [ ! -d lib ] || [ ! -d kernels ]; then
  echo "gpu-check: run me from the bolt repository root" >&2
  exit 2
fi
mkdir -p "$OUT"
# ctest -L unit runs under mpiexec; Open MPI refuses root (the device runs as root) unless told.
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
: > "$OUT/bench.jsonl"

if [ -z "${BOLT_CMAKE_ARGS+x}" ]; then
  BOLT_CMAKE_ARGS=""
  if [ -d .devcarry/include ] && [ ! -e /usr/include/Random123/philox.h ]; then
    BOLT_CMAKE_ARGS="-DBOLT_EXTRA_INCLUDE=$PWD/.devcarry/include"
    [ -d .devcarry/src/googletest ] && BOLT_CMAKE_ARGS+=" -DBOLT_GTEST_SOURCE=$PWD/.devcarry/src/googletest"
  fi
fi

declare -A STATUS=()
ORDER=()
record() {  # record NAME EXIT_CODE
  STATUS[$1]=$2
  ORDER+=("$1")
  if [ "$2" -eq 0 ]; then echo "gpu-check: $1 ok"; else echo "gpu-check: $1 FAILED (exit $2)"; fi
}

{
  echo "gpu-check: $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname)"
  echo "gpu-check: commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (+local changes)')"
  command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=index,name,memory.total,driver_version,clocks.max.mem --format=csv
  command -v nvcc >/dev/null && nvcc --version | tail -2
  echo "gpu-check: build $BUILD ($TYPE, sm_$ARCH), extra cmake args: ${BOLT_CMAKE_ARGS:-none}"
} 2>&1 | tee "$OUT/environment.log"

# 1. configure + build
if [ "${BOLT_SKIP_BUILD:-0}" != 1 ]; then
  GEN=()
  command -v ninja >/dev/null && [ ! -f "$BUILD/Makefile" ] && GEN=(-G Ninja)
  # shellcheck disable=SC2086  # BOLT_CMAKE_ARGS is a list of arguments
  cmake -S . -B "$BUILD" "${GEN[@]}" -DCMAKE_BUILD_TYPE="$TYPE" \
        -DCMAKE_CUDA_ARCHITECTURES="$ARCH" $BOLT_CMAKE_ARGS 2>&1 | tee "$OUT/configure.log"
  record configure $?
  if [ "${STATUS[configure]}" -eq 0 ]; then
    cmake --build "$BUILD" -j "$JOBS" 2>&1 | tee "$OUT/build.log"
    record build $?
  fi
  if ! grep -q "bolt: CUDA backend ON" "$OUT/configure.log" 2>/dev/null; then
    echo "gpu-check: WARNING: CMake did not enable the CUDA backend (no nvcc?); GPU tests will not exist"
  fi
fi

BENCH="$BUILD/app/bolt_bench"

# 2. + 3. tests
if [ "${BOLT_SKIP_TESTS:-0}" != 1 ] && [ -d "$BUILD" ]; then
  # -V: the log keeps every case's measured CPU-GPU difference, not only failures
  ctest --test-dir "$BUILD" -L gpu -V --output-on-failure 2>&1 | tee "$OUT/ctest-gpu.log"
  record ctest-gpu $?
  ctest --test-dir "$BUILD" -L unit --output-on-failure 2>&1 | tee "$OUT/ctest-unit.log"
  record ctest-unit $?
  # Two ranks sharing the GPU against one rank, D and G: the 2-D cavity after 300 steps split
  # over space (one rank's to round-off) and over velocities (its sums add in another order), and
  # the iterative delta = 1 cavity over velocities (its targets gathered over the ranks).
  explicit=(-options_file_yaml inputs/cavity_delta1.yaml -ts_max_steps 300)
  iterative=(-options_file_yaml inputs/cavity_iterative_delta1.yaml)
  shared_status=0
  for run in explicit-one explicit-space explicit-velocity iterative-one iterative-velocity; do
    solver=${run%%-*} split=${run#*-}
    ranks=2 extra=(-gpu_share -decomp "$split")
    [ "$split" = one ] && ranks=1 extra=()
    args=("${explicit[@]}")
    [ "$solver" = iterative ] && args=("${iterative[@]}")
    rm -rf "$OUT/shared-$run"
    mpirun --oversubscribe -np "$ranks" "$BUILD/app/bolt" -backend cuda "${args[@]}" "${extra[@]}" \
      -out_checkpoint_final false -out_dir "$OUT/shared-$run" \
      -summary "$OUT/shared-$run/summary.json" > "$OUT/shared-$run.log" 2>&1 || shared_status=1
  done
  python3 - "$OUT" <<'PY' 2>&1 | tee "$OUT/shared-gpu.log"
import json, sys
d = {k: json.load(open(f"{sys.argv[1]}/shared-{k}/summary.json"))["diagnostics"]
     for k in ("explicit-one", "explicit-space", "explicit-velocity", "iterative-one",
               "iterative-velocity")}
worst = max(abs(d[f"{s}-{k}"][q] / d[f"{s}-one"][q] - 1)
            for s, k in (("explicit", "space"), ("explicit", "velocity"), ("iterative", "velocity"))
            for q in ("D", "G"))
print(f"two ranks on one GPU against one rank: D and G within {worst:.1e} (asked: 1e-12)")
sys.exit(worst > 1e-12)
PY
  [ "${PIPESTATUS[0]}" -eq 0 ] && [ "$shared_status" -eq 0 ]
  record shared-gpu $?
fi

# 4. benchmarks: name | arguments
BENCHES=(
  "cavity2d-f32|--bc cavity --cells 128,128 --velocities 24 --precision float"
  "cavity2d-f64|--bc cavity --cells 128,128 --velocities 24 --precision double"
  "cavity2v-f32|--bc cavity --cells 128,128 --velocities 24 --precision float --reduce z"
  "cavity2v-f64|--bc cavity --cells 128,128 --velocities 24 --precision double --reduce z"
  "periodic3d-f32|--bc periodic --cells 64,64,64 --velocities 24 --precision float"
  "periodic3d-f64|--bc periodic --cells 64,64,64 --velocities 24 --precision double"
  "cavity3d-f32|--bc cavity --cells 64,64,64 --velocities 24 --precision float"
  "cavity3d-f64|--bc cavity --cells 64,64,64 --velocities 24 --precision double"
)
if [ "${BOLT_SKIP_BENCH:-0}" != 1 ]; then
  if [ ! -x "$BENCH" ]; then
    echo "gpu-check: $BENCH not built"
    record bench-missing 1
  else
    for entry in "${BENCHES[@]}"; do
      name=${entry%%|*}
      args=${entry#*|}
      if [ "$CASES" != all ] && [[ " $CASES " != *" $name "* ]]; then continue; fi
      echo "=== bolt_bench $name: $args --steps $STEPS --reps $REPS"
      # shellcheck disable=SC2086
      "$BENCH" --backend cuda --label "$name" --steps "$STEPS" --reps "$REPS" $args 2>&1 |
        tee "$OUT/bench-$name.log"
      record "bench-$name" $?
      grep '^BOLT_BENCH_JSON ' "$OUT/bench-$name.log" | sed 's/^BOLT_BENCH_JSON //' >> "$OUT/bench.jsonl"
    done
  fi
fi

# 5. the table, last
{
  echo
  echo "== gpu-check summary ($(date -u '+%Y-%m-%d %H:%M UTC'), logs in $OUT)"
  for stage in "${ORDER[@]}"; do
    printf '  %-20s %s\n' "$stage" "$([ "${STATUS[$stage]}" -eq 0 ] && echo ok || echo "FAILED (${STATUS[$stage]})")"
  done
  if [ -s "$OUT/bench.jsonl" ]; then
    if command -v python3 >/dev/null; then
      python3 - "$OUT/bench.jsonl" <<'EOF'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
if rows:
    print(f"  device: {rows[0]['device']}, copy bandwidth (D2D, read+write) "
          f"{rows[0]['copy_GBps']:.0f} GB/s")
    print(f"  {'case':<16}{'cells':>12}{'nv':>7}{'ms/step':>10}{'Gupd/s':>9}{'ps/upd':>9}"
          f"{'GB/s':>8}{'copy GB/s':>10}{'% copy':>8}")
    for r in rows:
        cells = "x".join(str(c) for c in r["cells"] if c > 1)
        print(f"  {r['label']:<16}{cells:>12}{r['nv']:>7}{r['ms_per_step']:>10.3f}"
              f"{r['updates_per_s'] / 1e9:>9.2f}{r['ps_per_update']:>9.2f}"
              f"{r['achieved_GBps']:>8.0f}{r['copy_GBps']:>10.0f}"
              f"{100 * r['fraction_of_copy']:>7.1f}%" + ("" if r["finite"] else "  NOT FINITE"))
EOF
    else
      cat "$OUT/bench.jsonl"
    fi
  fi
} 2>&1 | tee "$OUT/summary.txt"

for stage in "${ORDER[@]}"; do
  [ "${STATUS[$stage]}" -eq 0 ] || exit 1
done
exit 0
