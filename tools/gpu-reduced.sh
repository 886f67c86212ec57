#!/usr/bin/env bash
# gpu-reduced.sh -- the device measurements of the reduced velocity spaces (docs/physics.md, Chu
# reduction), from the repository root, after tools/gpu-check.sh has built $BUILD:
#   1. CPU-vs-GPU agreement of the reduced sets (tests/gpu: cavity2v, inflow1v rows)
#   2. bolt_bench: the 2-D cavity 128^2 on 24^3 velocities and on the reduced 2V set, fp32 + fp64
#      (each against the copy bandwidth measured in the same run)
#   3. time to the steady state of the delta = 1 cavity (inputs/cavity_delta1.yaml, 64^2 cells,
#      32^3 velocities) reduced and full, and of the Mach 3 shock (inputs/shock_mach3.yaml, BGK,
#      6000 steps) reduced (1V) and full: wall time, D and G / reciprocal thickness, memory plan
# Logs and summaries go to ${OUT:-/tmp/gpu-reduced}; summary.txt is the table.
#
# On the device:
#   bash .devcarry/device-recipe.sh setup && . /tmp/devsys/env.sh && \
#   BOLT_CMAKE_ARGS="-DBOLT_EXTRA_INCLUDE=$PWD/.devcarry/include -DBOLT_GTEST_SOURCE=$PWD/.devcarry/src/googletest" \
#   OUT=$OUT BOLT_SKIP_BENCH=1 bash tools/gpu-check.sh && OUT=$OUT bash tools/gpu-reduced.sh
set -u -o pipefail
OUT=${OUT:-/tmp/gpu-reduced}
BUILD=${BOLT_BUILD_DIR:-build-gpu-check}
mkdir -p "$OUT"
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
: > "$OUT/summary.txt"

"$BUILD/tests/gpu/bolt_gpu_tests" --gtest_filter='*cavity2v*:*inflow1v*' > "$OUT/agreement.log" 2>&1
echo "agreement (cavity2v, inflow1v): exit $? ($(grep -c '^\[       OK' "$OUT/agreement.log") ok)" \
  >> "$OUT/summary.txt"

for precision in float double; do
  for reduce in none z; do
    name="cavity128-$precision-reduce-$reduce"
    "$BUILD/app/bolt_bench" --bc cavity --cells 128,128 --velocities 24 --precision "$precision" \
        --reduce "$reduce" --steps 50 --reps 5 --label "$name" > "$OUT/bench-$name.log" 2>&1
    grep '^BOLT_BENCH_JSON ' "$OUT/bench-$name.log" | sed 's/^BOLT_BENCH_JSON //' >> "$OUT/bench.jsonl"
  done
done

run() {  # run NAME OPTIONS...
  local name=$1
  shift
  "$BUILD/app/bolt" -backend cuda "$@" -out_dir "$OUT/$name" -summary "$OUT/$name.json" \
      -out_monitor_every 1000 > "$OUT/$name.log" 2>&1 || echo "$name FAILED" >> "$OUT/summary.txt"
}
for reduce in auto none; do
  run "cavity_delta1_$reduce" -options_file_yaml inputs/cavity_delta1.yaml -vgrid_reduce "$reduce"
  run "shock_mach3_$reduce" -options_file_yaml inputs/shock_mach3.yaml -ts_max_steps 6000 \
      -vgrid_reduce "$reduce"
done
python3 - "$OUT" >> "$OUT/summary.txt" <<'EOF'
import json, sys, os
out = sys.argv[1]
for name in ("cavity_delta1_auto", "cavity_delta1_none", "shock_mach3_auto", "shock_mach3_none"):
    path = os.path.join(out, name + ".json")
    if not os.path.exists(path):
        print(name, "missing"); continue
    s = json.load(open(path))
    d = s["diagnostics"]
    keys = [k for k in ("D", "G", "reciprocal_thickness") if k in d]
    print(name, s["velocity_reduction"], s["velocities"], "velocities,", s["steps"], "steps,",
          "wall %.2f s," % s["timing"]["wall_seconds"],
          "device plan %s B," % s.get("memory", {}).get("plan_device_peak_bytes", "?"),
          ", ".join("%s %.6f" % (k, d[k]) for k in keys))
EOF
cat "$OUT/summary.txt"
