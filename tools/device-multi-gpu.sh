#!/usr/bin/env bash
# device-multi-gpu.sh -- the multi-GPU measurements of docs/benchmarks.md on one host with several
# GPUs (device kinds nvidia-h100-x4, nvidia-h200-x4, or -x2), from the repository root:
#
#   OUT=/tmp/mg bash tools/device-multi-gpu.sh [STUDY ...]
#
# Studies (default: all four), each on 1 GPU and on 2, 4, ... up to the GPUs of the host:
#   bgk-f64, bgk-f32  strong scaling of the 3-D BGK cavity (inputs/cavity3d_gpu.yaml) sized to
#                     fill one GPU of this host: -decomp space with halos overlapped and not,
#                     and -decomp velocity
#   hs_mc             strong scaling of paper 000's delta = 10 cavity (hs_mc, float) refined until
#                     it fills one GPU (the same stretching per unit length), -decomp space
#   weak              weak scaling of the 3-D BGK cavity, 64^3 cells x 24^3 velocities per GPU
#                     (double), the grid grown along z, -decomp space
# The fields of every multi-GPU run are compared with the one-GPU run of its study (largest
# difference relative to each field's largest value); tools/scaling_table.py makes each study's
# table and plot. Each study lands in $OUT/<study>.tgz (logs, summaries, table, plot; the run
# tool returns few files) and its tables in $OUT/tables.md.
# Environment: BOLT (binary, default build-gpu-check/app/bolt), OUT (default /tmp/multi-gpu),
#   WORK (default /tmp/multi-gpu-work), STEPS (default 20; the warm rate is that of the second
#   half), FILL (fraction of a GPU's memory the two copies of f may take, default 0.78).
set -u -o pipefail
BOLT=${BOLT:-build-gpu-check/app/bolt}
OUT=${OUT:-/tmp/multi-gpu}
WORK=${WORK:-/tmp/multi-gpu-work}
STEPS=${STEPS:-20}
FILL=${FILL:-0.78}
STUDIES=("$@")
[ ${#STUDIES[@]} -gt 0 ] || STUDIES=(bgk-f64 bgk-f32 hs_mc weak)
mkdir -p "$OUT" "$WORK"
export NCCL_NVLS_ENABLE=0  # NVLink multicast can take a shared host's GPUs out of service
gpus=$(nvidia-smi -L | wc -l)
cores=$(nproc)
memory_bytes=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1)
memory_bytes=$((memory_bytes * 1024 * 1024))
rank_counts=(1)
for ((n = 2; n <= gpus; n *= 2)); do rank_counts+=("$n"); done
echo "device-multi-gpu: $gpus x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)," \
     "$((memory_bytes >> 30)) GiB each; rank counts ${rank_counts[*]}; commit" \
     "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"

# The largest N (a multiple of `multiple`) whose N^dims cells, padded by one ghost layer each
# side, hold two copies of f in FILL of one GPU's memory: largest_grid DIMS BYTES_PER_CELL MULTIPLE
largest_grid() {
  python3 -c "
import sys
dims, per_cell, multiple, memory, fill = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
n = multiple
while (n + multiple + 2) ** dims * per_cell <= fill * memory:
    n += multiple
print(n)" "$1" "$2" "$3" "$memory_bytes" "$FILL"
}

run() {  # run STUDY NAME RANKS CASE [bolt options...]
  local study=$1 name=$2 ranks=$3 case_file=$4
  shift 4
  local dir=$WORK/$study/$name
  mkdir -p "$dir"
  echo "== $study/$name: $ranks rank(s) $case_file $*"
  local t0=$SECONDS
  OMP_NUM_THREADS=$((cores / ranks)) mpirun --allow-run-as-root -np "$ranks" --bind-to none \
    -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS \
    "$BOLT" -options_file_yaml "$case_file" -ts_max_steps "$STEPS" \
    -out_monitor_every "$((STEPS / 2))" -out_checkpoint_final false -out_dir "$dir" \
    -summary "$dir/summary.json" "$@" > "$dir/log.txt" 2>&1
  local status=$?
  grep -E "per step \(warm\)|decomposition" "$dir/log.txt" | sed 's/^/   /'
  echo "   exit status $status, $((SECONDS - t0)) s"
}

# Fields of each run of a study against its one-GPU run, and the study's scaling table.
compare() {  # compare STUDY
  python3 - "$WORK/$1" <<'PY' | tee "$WORK/$1/fields.txt"
import glob, json, os, sys
import h5py, numpy as np
study = sys.argv[1]
names = ("n", "ux", "uy", "uz", "T", "Pxx", "Pyy", "Pzz", "Pxy", "Pxz", "Pyz", "qx", "qy", "qz")
def load(run):
    s = json.load(open(os.path.join(study, run, "summary.json")))
    return s, h5py.File(s["fields_file"], "r")
base, fb = load("gpu1")
print(f"{os.path.basename(study)}: {base['case']} {base['model']} {base['precision']}, "
      f"fields against gpu1 (largest difference / largest value of each field)")
for run in sorted(os.listdir(study)):
    if run == "gpu1" or not os.path.exists(os.path.join(study, run, "summary.json")):
        continue
    s, f = load(run)
    if list(s["grid"]) != list(base["grid"]):
        continue  # weak scaling: another grid
    diff = max(float(np.max(np.abs(f[k][...] - fb[k][...]))) / max(float(np.max(np.abs(fb[k][...]))), 1e-300)
               for k in names)
    print(f"  {run:26s} {diff:.2e}")
PY
  python3 tools/scaling_table.py --out "$WORK/$1/scaling" "$WORK/$1" > /dev/null
}

for study in "${STUDIES[@]}"; do
  case $study in
    bgk-f64|bgk-f32)
      precision=double bytes=8
      [ "$study" = bgk-f32 ] && precision=float bytes=4
      n=$(largest_grid 3 $((2 * 13824 * bytes)) 4)
      opts=(-precision "$precision" -grid_n "$n,$n,$n")
      run "$study" gpu1 1 inputs/cavity3d_gpu.yaml "${opts[@]}"
      for ranks in "${rank_counts[@]:1}"; do
        run "$study" "gpu${ranks}_space" "$ranks" inputs/cavity3d_gpu.yaml "${opts[@]}" -decomp space
        run "$study" "gpu${ranks}_space_no_overlap" "$ranks" inputs/cavity3d_gpu.yaml "${opts[@]}" \
          -decomp space -halo_overlap false
        run "$study" "gpu${ranks}_velocity" "$ranks" inputs/cavity3d_gpu.yaml "${opts[@]}" \
          -decomp velocity
      done
      ;;
    hs_mc)
      # 18^3 velocities in rows of 5856 floats; the paper's 192^2 grid refined with the same
      # stretching per unit length (ratio r^(192/N) between neighbours).
      n=$(largest_grid 2 $((2 * 5856 * 4)) 16)
      stretch=$(python3 -c "print(f'{0.990 ** (192 / $n):.6f},{0.995 ** (192 / $n):.6f},1')")
      opts=(-precision float -grid_n "$n,$n,1" -grid_stretch "$stretch")
      run "$study" gpu1 1 inputs/cavity_hs_mc_paper_delta10.yaml "${opts[@]}"
      for ranks in "${rank_counts[@]:1}"; do
        run "$study" "gpu${ranks}_space" "$ranks" inputs/cavity_hs_mc_paper_delta10.yaml "${opts[@]}" \
          -decomp space
      done
      ;;
    weak)
      for ranks in "${rank_counts[@]}"; do
        name=gpu${ranks}_space
        [ "$ranks" = 1 ] && name=gpu1
        run "$study" "$name" "$ranks" inputs/cavity3d_gpu.yaml -precision double \
          -grid_n "64,64,$((64 * ranks))" -decomp space
      done
      ;;
    *) echo "device-multi-gpu: unknown study $study (bgk-f64, bgk-f32, hs_mc, weak)" >&2; exit 2 ;;
  esac
  compare "$study"
  # Each study's results as soon as it ends (a call cut short keeps the studies done).
  { echo "## $study"; cat "$WORK/$study/scaling.md" "$WORK/$study/fields.txt"; } >> "$OUT/tables.md"
  tar -C "$WORK" --exclude='*.h5' --exclude='*.xmf' -czf "$OUT/$study.tgz" "$study"
done
cat "$OUT/tables.md"
