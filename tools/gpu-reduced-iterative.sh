#!/usr/bin/env bash
# gpu-reduced-iterative.sh -- the device measurements of the iterative solver on the reduced
# velocity spaces (docs/physics.md, Chu reduction; docs/validation.md, iterative section), from
# the repository root, with bolt and bolt_gpu_tests built in $BUILD:
#
#   OUT=/tmp/iter2v BUILD=build bash tools/gpu-reduced-iterative.sh [PART ...]
#
# Parts (default: agreement timing):
#   agreement  CPU-vs-GPU agreement of the sweep (tests/gpu: every SweepGpu row, the Reduced2d*
#              rows of the 2V sweep among them)
#   timing     the delta = 1 cavity on the grid of inputs/cavity_delta1.yaml (64^2 cells, 32 nodes
#              per velocity axis, second order) to its steady state: explicit 3-D and 2V (the
#              input as it is), iterative 2V and 3-D (-solver iterative, SNES Anderson, to a last
#              change of 1e-10): D, G, steps and wall time of each (SKIP_EXPLICIT_3D=1 leaves
#              out the explicit 3-D run, about 70 s on an H200)
#   table      the paper-002 cavities of docs/validation.md's iterative table in 2V (the inputs'
#              default): inputs/cavity_iterative_delta{0p1,1,10}.yaml (first order, Anderson)
#              and their explicit counterparts inputs/cavity_delta*.yaml -stream_order 1
# Logs and summaries go to $OUT/<name>.{log,json}; $OUT/summary.txt is the table.
set -u -o pipefail
OUT=${OUT:-/tmp/gpu-reduced-iterative}
BUILD=${BUILD:-build}
PARTS=${*:-agreement timing}
mkdir -p "$OUT"
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
: > "$OUT/summary.txt"

run() {  # run NAME OPTIONS...
  local name=$1
  shift
  "$BUILD/app/bolt" -backend cuda "$@" -out_dir "$OUT/$name" -summary "$OUT/$name.json" \
      -out_monitor_every 1000 > "$OUT/$name.log" 2>&1 || echo "$name FAILED" >> "$OUT/summary.txt"
  python3 - "$OUT" "$name" >> "$OUT/summary.txt" <<'EOF'
import json, os, sys
out, name = sys.argv[1], sys.argv[2]
path = os.path.join(out, name + ".json")
if os.path.exists(path):
    s = json.load(open(path))
    d = s["diagnostics"]
    print(f"{name}: {s['velocity_reduction']} ({s['velocities']} velocities), {s['steps']} steps, "
          f"steady {s['steady']}, wall {s['timing']['wall_seconds']:.2f} s, "
          f"D {d['D']:.7f}, G {d['G']:.8f}")
EOF
}

for part in $PARTS; do
  case $part in
    agreement)
      "$BUILD/tests/gpu/bolt_gpu_tests" --gtest_filter='SweepGpu.*' > "$OUT/agreement.log" 2>&1
      echo "agreement (SweepGpu.*): exit $? ($(grep -c '^\[       OK' "$OUT/agreement.log") ok," \
           "$(grep -c '^\[  FAILED' "$OUT/agreement.log") failed lines)" >> "$OUT/summary.txt" ;;
    timing)
      [ -n "${SKIP_EXPLICIT_3D:-}" ] ||
        run explicit_3d -options_file_yaml inputs/cavity_delta1.yaml -vgrid_reduce none
      run explicit_2v -options_file_yaml inputs/cavity_delta1.yaml
      for reduce in z none; do
        run "iterative_$([ $reduce = z ] && echo 2v || echo 3d)" \
            -options_file_yaml inputs/cavity_delta1.yaml -solver iterative -iter_tol 1e-10 \
            -iter_accel anderson -vgrid_reduce $reduce -out_monitor_every 50
      done ;;
    table)
      for d in 0p1 1 10; do
        run "table_iterative_$d" -options_file_yaml "inputs/cavity_iterative_delta$d.yaml"
        run "table_explicit_$d" -options_file_yaml "inputs/cavity_delta$d.yaml" -stream_order 1
      done ;;
    *) echo "unknown part $part (agreement, timing, table)" >&2; exit 2 ;;
  esac
done
cat "$OUT/summary.txt"
