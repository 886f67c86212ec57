#!/usr/bin/env bash
# device-projection.sh -- the projection method's runs of docs/validation.md and
# docs/benchmarks.md (paper 003) on a host with two GPUs (device kind nvidia-h100-x2 or
# nvidia-h200-x2), from the repository root:
#
#   OUT=/tmp/proj BOLT=build/app/bolt bash tools/device-projection.sh [PART ...]
#
# Parts (default: all):
#   cavity   paper 003's cavity (inputs/cavity_projection_paper.yaml): the float step time (200 steps),
#            then double to steady state (t = 8) on GPU 0, beside hs_mc and BGK at the same
#            delta = 8.885 on GPU 1 (hs_mc on paper 000's grid and on the uniform 160^2; BGK on
#            the projection's phase-space grid)
#   cavity_2e5  the cavity in double to t = 5 with 2e5 lattice points (on the paper's 5e4 the
#            viscosity of the N0 = 20 grid is 9.5 % high: docs/validation.md)
#   shocks   the hard-sphere normal shocks at Mach 1.5 and 3 (inputs/shock_mach*_projection.yaml)
#   tube     the two-section shock tube (inputs/shock_tube_projection.yaml, float), 4500 steps
#            on 2 GPUs (a section each), and its first 450 steps on one GPU for the efficiency
#   cpu      the cavity's float step on the CPU backend of the same binary: one core, all cores
#   teams    the cavity's float step (200 steps) with 64 ... 1024 threads per cell
#   bench    the relaxation step's cost of the mass-keeping target: tools/bench-ab.sh of
#            $BASELINE_BENCH (a bolt_bench before it) against $BENCH (default: bolt_bench beside
#            $BOLT), 2-D BGK cavity 128^2 x 24^3, float, double, and double with -model_conservative
# Each run writes its summary.json and log under $OUT/<part>/<name>/; $OUT/<part>.tgz holds them
# (the run tool returns few files) and $OUT/projection.txt the lines that matter.
set -u -o pipefail
BOLT=${BOLT:-build/app/bolt}
OUT=${OUT:-/tmp/projection}
WORK=${WORK:-/tmp/projection-work}
PARTS=("$@")
[ ${#PARTS[@]} -gt 0 ] || PARTS=(cavity shocks tube cpu)
mkdir -p "$OUT" "$WORK"
export NCCL_NVLS_ENABLE=0  # NVLink multicast can take a shared host's GPUs out of service
report=$OUT/projection.txt
echo "device-projection: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" \
     "x $(nvidia-smi -L | wc -l), $(nproc) cores; commit" \
     "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" | tee -a "$report"

# run PART NAME GPU RANKS CASE [bolt options...]: GPU is CUDA_VISIBLE_DEVICES ("" for the CPU)
run() {
  local part=$1 name=$2 gpu=$3 ranks=$4 case_file=$5
  shift 5
  local dir=$WORK/$part/$name
  mkdir -p "$dir"
  local t0=$SECONDS
  # Open MPI binds a rank to one core: the CPU backend's threads need the whole host.
  local bind=()
  [ -n "$gpu" ] || bind=(--bind-to none)
  CUDA_VISIBLE_DEVICES=$gpu mpirun --oversubscribe "${bind[@]}" -np "$ranks" "$BOLT" \
    -options_file_yaml "$case_file" -out_dir "$dir" -summary "$dir/summary.json" \
    -out_checkpoint_final false "$@" > "$dir/log" 2>&1
  local rc=$?
  echo "$part/$name: exit $rc, $((SECONDS - t0)) s wall; $case_file $*" | tee -a "$report"
  [ $rc -eq 0 ] || tail -5 "$dir/log" | tee -a "$report"
  python3 - "$dir/summary.json" <<'EOF' | tee -a "$report"
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except OSError:
    sys.exit(0)
t, d = s.get("timing", {}), s.get("diagnostics", {})
keep = {k: v for k, v in d.items() if not isinstance(v, (list, dict))}
print("  timing", json.dumps(t), "\n  diagnostics", json.dumps(keep))
EOF
}

pack() { tar -czf "$OUT/$1.tgz" -C "$WORK" "$1"; }

for part in "${PARTS[@]}"; do
  case $part in
    cavity)
      run cavity projection_float 0 1 inputs/cavity_projection_paper.yaml -precision float \
        -ts_max_steps 200 -out_monitor_every 100
      # t = 8 L/c0: D and G of the BGK cavity are steady to 6 digits by then (docs/validation.md)
      run cavity projection 0 1 inputs/cavity_projection_paper.yaml -precision double -ts_final_time 8 &
      # hs_mc on paper 000's grid, and on the projection's spatial grid; BGK on the projection's
      # phase-space grid (the same sphere-cut velocity set), first order as the projection run
      { run cavity hs_mc 1 1 inputs/cavity_hs_mc_paper_delta10.yaml -model_delta 8.885 -ts_final_time 8
        run cavity hs_mc_uniform160 1 1 inputs/cavity_hs_mc_paper_delta10.yaml -model_delta 8.885 \
          -ts_final_time 8 -grid_n 160,160,1 -grid_stretch 1,1,1
        run cavity bgk_sphere 1 1 inputs/cavity_delta10.yaml -model_delta 8.885 \
          -grid_n 160,160,1 -stream_order 1 -vgrid_type sphere -vgrid_n 20 \
          -vgrid_half_width 3.3941125 -bc_y_high_velocity 0.003,0,0 -ts_steady_tol 0 \
          -ts_final_time 8; } &
      wait
      pack cavity ;;
    cavity_2e5)
      run cavity_2e5 projection 0 1 inputs/cavity_projection_paper.yaml -precision double \
        -projection_points 200000 -ts_final_time 5
      pack cavity_2e5 ;;
    shocks)
      run shocks mach1p5 0 1 inputs/shock_mach1p5_projection.yaml &
      run shocks mach3 1 1 inputs/shock_mach3_projection.yaml
      wait
      pack shocks ;;
    tube)
      run tube two_gpus 0,1 2 inputs/shock_tube_projection.yaml -precision float -decomp space
      run tube one_gpu_450 0 1 inputs/shock_tube_projection.yaml -precision float \
        -ts_max_steps 450 -out_fields_every 0
      run tube two_gpus_450 0,1 2 inputs/shock_tube_projection.yaml -precision float \
        -decomp space -ts_max_steps 450 -out_fields_every 0
      pack tube ;;
    cpu)
      for threads in 1 "$(nproc)"; do
        OMP_NUM_THREADS=$threads run cpu "cores_$threads" "" 1 inputs/cavity_projection_paper.yaml \
          -backend cpu -precision float -ts_max_steps 3 -out_monitor_every 1
      done
      pack cpu ;;
    teams)
      for team in 64 128 256 512 1024; do
        run teams "team_$team" "${TEAMS_GPU:-0}" 1 inputs/cavity_projection_paper.yaml -precision float \
          -ts_max_steps 200 -out_monitor_every 100 -team_size "$team"
      done
      pack teams ;;
    bench)
      mkdir -p "$WORK/bench"
      OUT=$WORK/bench ROUNDS=2 bash tools/bench-ab.sh "$BASELINE_BENCH" \
        "${BENCH:-$(dirname "$BOLT")/bolt_bench}" \
        "--bc cavity --cells 128,128 --velocities 24 --precision float" \
        "--bc cavity --cells 128,128 --velocities 24 --precision double" \
        "--bc cavity --cells 128,128 --velocities 24 --precision double --conservative 4" \
        | tail -7 | tee -a "$report"
      pack bench ;;
    *) echo "device-projection: unknown part $part" >&2; exit 2 ;;
  esac
done
