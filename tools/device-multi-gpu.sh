#!/usr/bin/env bash
# device-multi-gpu.sh -- the multi-GPU measurements of docs/benchmarks.md on one host with two or
# more GPUs (the device kind nvidia-h200-x2), from the repository root after a build:
#   1 GPU, then 2 GPUs with -decomp space (halos overlapped with interior work, and not) and
#   -decomp velocity, on inputs/cavity3d_gpu.yaml
#   (80^3 x 24^3, double: fills one H200); the fields of every multi-GPU run are compared with
#   the one-GPU run (max relative difference, as the decomposition test does), and the run
#   summaries (JSON) are collected for tools/scaling_table.py.
# Environment: BOLT (binary, default build-gpu-check/app/bolt), OUT (default /tmp/multi-gpu),
#   STEPS (default 20), CASE_OPTIONS (extra bolt options, e.g. "-grid_n 40,40,40").
set -u -o pipefail
BOLT=${BOLT:-build-gpu-check/app/bolt}
OUT=${OUT:-/tmp/multi-gpu}
STEPS=${STEPS:-20}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0  # NVLink multicast can take a shared host's GPUs out of service
gpus=$(nvidia-smi -L | wc -l)
cores=$(nproc)

run() {  # run NAME RANKS [bolt options...]
  local name=$1 ranks=$2
  shift 2
  local dir=$OUT/$name
  mkdir -p "$dir"
  echo "== $name: $ranks rank(s) $*"
  OMP_NUM_THREADS=$((cores / ranks)) mpirun --allow-run-as-root -np "$ranks" --bind-to none \
    -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS \
    "$BOLT" -options_file_yaml inputs/cavity3d_gpu.yaml ${CASE_OPTIONS:-} -ts_max_steps "$STEPS" \
    -out_monitor_every "$((STEPS / 2))" -out_checkpoint_final false -out_dir "$dir" \
    -summary "$dir/summary.json" "$@" > "$dir/log.txt" 2>&1
  local status=$?
  tail -n 4 "$dir/log.txt"
  echo "   exit status $status"
}

run gpu1 1
if [ "$gpus" -ge 2 ]; then
  run gpu2_space 2 -decomp space
  run gpu2_space_no_overlap 2 -decomp space -halo_overlap false
  run gpu2_velocity 2 -decomp velocity
fi

python3 - "$OUT" <<'PY'
import glob, json, os, sys
import h5py, numpy as np
out = sys.argv[1]
names = ("n", "ux", "uy", "uz", "T", "Pxx", "Pyy", "Pzz", "Pxy", "Pxz", "Pyz", "qx", "qy", "qz")
def fields(run):
    s = json.load(open(os.path.join(out, run, "summary.json")))
    return s, h5py.File(s["fields_file"], "r")
base, fb = fields("gpu1")
t1 = base["timing"].get("ms_per_step_warm", base["timing"]["ms_per_step"])
lines = [f"case {base['case']} grid {base['grid']} x {base['velocities']} velocities, "
         f"{base['precision']}, {base['steps']} steps",
         f"{'run':22s} {'ranks':>5s} {'ms/step':>10s} {'speed-up':>9s} {'efficiency':>10s} {'max rel diff':>12s}"]
for run in ("gpu1", "gpu2_space", "gpu2_space_no_overlap", "gpu2_velocity"):
    if not os.path.exists(os.path.join(out, run, "summary.json")):
        continue
    s, f = fields(run)
    diff = max(float(np.max(np.abs(f[k][...] - fb[k][...]))) / max(float(np.max(np.abs(fb[k][...]))), 1.0)
               for k in names)
    t = s["timing"].get("ms_per_step_warm", s["timing"]["ms_per_step"])
    lines.append(f"{run:22s} {s['ranks']:5d} {t:10.2f} {t1 / t:9.3f} {t1 / t / s['ranks']:10.3f} {diff:12.2e}")
open(os.path.join(out, "scaling.txt"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
