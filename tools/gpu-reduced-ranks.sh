#!/usr/bin/env bash
# gpu-reduced-ranks.sh -- the reduced velocity spaces split over two GPUs of one host (issue 39,
# docs/validation.md "Reduced velocity spaces"), from the repository root on a host with two GPUs:
#   the 2-D cavity (inputs/cavity_delta1.yaml, 2V) and the Mach 3 shock (inputs/shock_mach3.yaml,
#   1V), each on one GPU, on two GPUs splitting the space and splitting the velocities (a
#   velocity rank holds whole g and h pairs or not: the shock's 96 nodes split 48 / 48), and a
#   checkpoint written by two space ranks halfway, continued on one GPU. Every run's fields
#   against the one-GPU run's (largest difference relative to each field's largest value,
#   tests/regression/run_case.py fields_difference), which must be within 1e-12, the tolerance of
#   the CPU's decomposition tests (only the order of the sums across ranks differs).
#
#   OUT=/tmp/r BOLT=build/app/bolt bash tools/gpu-reduced-ranks.sh
# Summary: $OUT/summary.txt; exit status 1 if a run fails or a difference exceeds 1e-12.
set -u -o pipefail
BOLT=${BOLT:-build-gpu-check/app/bolt}
OUT=${OUT:-/tmp/gpu-reduced-ranks}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0  # NVLink multicast can take a shared host's GPUs out of service
if [ "$(id -u)" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi
: > "$OUT/summary.txt"

run() {  # run NAME RANKS OPTIONS...
  local name=$1 ranks=$2
  shift 2
  mpirun --allow-run-as-root -np "$ranks" --bind-to none -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE \
    "$BOLT" -backend cuda "$@" -out_dir "$OUT/$name" -summary "$OUT/$name.json" \
    > "$OUT/$name.log" 2>&1 || echo "$name FAILED (exit $?)" >> "$OUT/summary.txt"
}

declare -A CASE=(
  [cavity]="-options_file_yaml inputs/cavity_delta1.yaml -vgrid_reduce z -ts_steady_tol 0"
  [shock]="-options_file_yaml inputs/shock_mach3.yaml -vgrid_reduce yz"
)
declare -A STEPS=([cavity]=2000 [shock]=3000)
for name in cavity shock; do
  # shellcheck disable=SC2086  # CASE holds a list of options
  set -- ${CASE[$name]}
  steps=${STEPS[$name]}
  run "${name}_one" 1 "$@" -ts_max_steps "$steps"
  run "${name}_space" 2 "$@" -ts_max_steps "$steps" -decomp space
  run "${name}_velocity" 2 "$@" -ts_max_steps "$steps" -decomp velocity
  run "${name}_first" 2 "$@" -ts_max_steps $((steps / 2)) -decomp space \
      -out_checkpoint "$OUT/${name}_half.h5"
  run "${name}_continued" 1 "$@" -ts_max_steps "$steps" -restart "$OUT/${name}_half.h5"
done

python3 - "$OUT" >> "$OUT/summary.txt" <<'EOF'
import json, os, sys
sys.path.insert(0, os.path.join("tests", "regression"))
from run_case import fields_difference
out, ok = sys.argv[1], True
for case in ("cavity", "shock"):
    one_path = os.path.join(out, case + "_one.json")
    if not os.path.exists(one_path):
        print(case, "one GPU: missing"); ok = False; continue
    one = json.load(open(one_path))
    print(case, one["velocity_reduction"], one["velocities"], "velocities,", one["steps"], "steps")
    for run in ("space", "velocity", "continued"):
        path = os.path.join(out, "%s_%s.json" % (case, run))
        if not os.path.exists(path):
            print("  %-9s missing" % run); ok = False; continue
        s = json.load(open(path))
        diff = fields_difference(one["fields_file"], s["fields_file"])
        ok &= diff <= 1e-12 and s["steps"] == one["steps"]
        print("  %-9s %d x %d ranks, %d steps: max rel. field diff. %.2e against one GPU (tol. 1e-12)"
              % (run, s["space_ranks"], s["velocity_ranks"], s["steps"], diff))
print("passed" if ok else "FAILED")
EOF
cat "$OUT/summary.txt"
! grep -q FAILED "$OUT/summary.txt"
