#!/usr/bin/env bash
# device-iterative.sh -- the iterative steady solver's runs of docs/validation.md and
# docs/benchmarks.md (paper 004) on one GPU, from the repository root:
#
#   OUT=/tmp/iter BOLT=build/app/bolt bash tools/device-iterative.sh [PART ...]
#
# Parts:
#   iterative  the 2-D cavities at delta = 0.1, 1, 10 (inputs/cavity_iterative_delta*.yaml):
#              SNES Anderson as the inputs are, plain source iteration, and at delta = 10 also
#              the synthetic correction
#   explicit   the same cavities with the explicit solver at first order (-stream_order 1),
#              Courant 0.5, to the explicit inputs' steady tolerance, monitored every 100 steps
#   kn         iterations over Kn = 10, 1, 0.1, 0.01 (delta = 0.0886 ... 88.62) on the delta = 1
#              cavity's grid, plain and Anderson, each with and without the synthetic
#              correction, to -iter_tol 1e-8
#   cavity3d   paper 004's 3-D lid-driven cavity (inputs/cavity3d_iterative_kn*.yaml), with the
#              speed and temperature of its mid-plane z = 1/2 plotted ($OUT/cavity3d_*.png)
#   cavity3d_kn0p01  the 3-D cavity at Kn = 0.01 (32^3 cells): synthetic correction with SNES
#              Anderson, Anderson alone, plain
#   synthetic  the synthetic correction's cost in 3-D against the sweep's (-log_view events
#              BoltSynthetic and BoltSweep per sweep) and whether it pays: the Kn = 0.1 cavity
#              (64^3), the Kn = 0.01 cavity (32^3) and the cube (the shipped inputs) with SNES
#              Anderson alone, with the correction, and with GMRES around its multigrid; with
#              $BOLT_BEFORE set, that bolt's correction too ($SYNTHETIC_CASES: other inputs)
#   history    SNES Anderson's history depth (-iter_accel_history in $HISTORIES, default 3 5 10
#              20) on the inputs of $HISTORY_CASES (default: the Kn = 0.1 and 0.01 3-D cavities
#              and the cube) with -log_view (BoltAccelerator: the accelerator's own host work);
#              with $BOLT_BEFORE set, that bolt too
#   cube       supersonic flow past a cube (inputs/cube_iterative.yaml: second order, minmod,
#              Anderson and the synthetic correction), its mid-plane z = 2 plotted; with Anderson
#              alone and with the correction's GMRES and ILU(0) in place of its multigrid
#              (-log_view: the correction's, the Krylov solve's and the sweep's time per sweep);
#              with van Leer, at first order and without the cube, and the temperatures of
#              docs/validation.md (tools/cube_temperature.py, against the run without the cube)
#              for each (about 60 s)
#   cube_large the cube at 7.5e11 phase-space points to convergence (first order), run in the
#              background and watched by successive calls (each until $LIMIT seconds into the
#              script)
#   split      the delta = 1 cavity (100 sweeps), the Kn = 1 3-D cavity (20 sweeps) and the cube
#              at 4.3e10 points (96 x 64 x 64 cells, 48^3 velocities, float, first order; 8 sweeps)
#              on 2 GPUs (velocity batches) against 1 (needs two GPUs)
#   split_large the cube at 7.5e11 points (as cube_large, first order, plain source iteration, 3
#              sweeps from the default start) on 1 and 2 GPUs (needs two GPUs)
#   lines      the split part's runs at each -iter_lines of $LINES (default 0 1 2 4 8 16; 0 is
#              the sweep's own choice), on 1 and 2 GPUs
#   order2     the second-order sweep (-stream_order 2): the 3-D cavity at Kn = 1 and 0.1 on 32^3
#              and 64^3 cells at both orders (the Richardson value of the two second-order grids
#              is the reference, the first-order grids' a second estimate), then the time per sweep of both
#              orders with the bandwidth fraction (64^3 Kn = 1 cavity and the 96 x 64 x 64 cube in
#              float, plain source iteration, 20 and 8 sweeps)
# Each run writes summary.json, monitor.csv and its log under $OUT/<part>/<name>/ and a line to
# $OUT/iterative.txt; steady_time.py adds when D and G reached their final values (1e-4).
set -u -o pipefail
BOLT=${BOLT:-build/app/bolt}
OUT=${OUT:-/tmp/iterative}
PARTS=("$@")
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0  # NVLink multicast can take a shared host's GPUs out of service
report=$OUT/iterative.txt
cores=$(nproc)
here=$(dirname "$0")
echo "device-iterative: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)" \
     "x $(nvidia-smi -L | wc -l); commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
     | tee -a "$report"

# run PART NAME RANKS CASE [bolt options...]
run() {
  local part=$1 name=$2 ranks=$3 case_file=$4
  shift 4
  local dir=$OUT/$part/$name
  mkdir -p "$dir"
  local t0=$SECONDS
  # The host's work (the sweep's update, the correction, Anderson) on the rank's share of the
  # cores: Open MPI would bind each of one or two ranks to a single core (README).
  OMP_NUM_THREADS=$((cores > ranks ? cores / ranks : 1)) mpirun --oversubscribe --bind-to none -x OMP_NUM_THREADS \
    -np "$ranks" "$BOLT" -options_file_yaml "$case_file" -out_dir "$dir" \
    -summary "$dir/summary.json" -out_checkpoint_final false "$@" > "$dir/log" 2>&1
  local rc=$?
  echo "$part/$name: exit $rc, $((SECONDS - t0)) s wall; $case_file $*" | tee -a "$report"
  [ $rc -eq 0 ] || tail -5 "$dir/log" | tee -a "$report"
  python3 - "$dir/summary.json" <<'PY' | tee -a "$report"
import json, sys
try:
    s = json.load(open(sys.argv[1]))
except OSError:
    sys.exit(0)
t, d = s.get("timing") or {}, s.get("diagnostics") or {}
n = s.get("solver_numbers") or {}
if "lines" in n:
    print(f"  lines {n['lines']:.0f}, {n['sweep_seconds']:.3f} s in the sweeps, moment sums "
          f"{t.get('sum_ms_per_step', 0):.3f} ms per iteration")
print(f"  {s['solver']} {s['steps']} units, steady {s['steady']}, residual {s['residual']:.3e}, "
      f"D {d.get('D', float('nan')):.7g} G {d.get('G', float('nan')):.7g}, "
      f"{t.get('wall_seconds', 0):.2f} s, {t.get('ms_per_step', 0):.3f} ms/unit "
      f"({t.get('ms_per_step_warm', float('nan')):.3f} warm), "
      f"{t.get('updates_per_second', 0):.4g} upd/s, bandwidth fraction "
      f"{t.get('bandwidth_fraction', float('nan')):.3f} of {t.get('copy_bandwidth', 0) / 1e9:.0f} GB/s, "
      f"memory {s.get('memory', {})}")
PY
  # Cavities: when D and G reached their final values.
  head -1 "$dir/monitor.csv" 2>/dev/null | grep -q ',D,G,' &&
    python3 "$here/steady_time.py" "$dir/monitor.csv" | sed 's/^/  /' | tee -a "$report"
}

# split_runs PART SUFFIX RANKS [bolt options...]: the split part's three runs. Several monitor
# stretches, so that the summary's warm time leaves NCCL's first connection out; -log_view's
# phases per sweep (log_events).
split_runs() {
  local part=$1 suffix=$2 ranks=$3
  shift 3
  run $part cavity2d_$ranks$suffix $ranks inputs/cavity_iterative_delta1.yaml -iter_accel none \
    -iter_max 100 -iter_tol 1e-30 -out_monitor_every 20 -log_view "$@"
  run $part cavity3d_$ranks$suffix $ranks inputs/cavity3d_iterative_kn1.yaml -iter_accel none \
    -iter_max 20 -iter_tol 1e-30 -out_monitor_every 4 -log_view "$@"
  run $part cube_$ranks$suffix $ranks inputs/cube_iterative.yaml -grid_n 96,64,64 \
    -geometry_solids 24,24,24,16,16,16 -vgrid_n 48 -precision float -stream_order 1 \
    -iter_accel none -iter_synthetic false -iter_max 8 -iter_tol 1e-30 -out_monitor_every 2 \
    -log_view "$@"
  local name
  for name in cavity2d cavity3d cube; do log_events "$OUT/$part/${name}_$ranks$suffix/log"; done
}

# log_events LOG: the -log_view events of bolt's phases, the Krylov solve and the accelerator's
# vector work, per call.
log_events() {
  python3 - "$1" <<'PY' | tee -a "$report"
import re, sys
seconds = {}
for line in open(sys.argv[1]):
    row = re.match(r"^(Bolt\w+|KSPSolve|VecMDot|VecMAXPY|VecCopy)\s+(\d+)\s+[\d.]+\s+"
                   r"([\d.]+e[+-]\d+)", line)
    if row:
        seconds[row.group(1)] = (int(row.group(2)), float(row.group(3)))
print(f"  {sys.argv[1]}: " + ", ".join(f"{k} {t / n:.3f} s per call ({n}, {t:.2f} s)"
                                       for k, (n, t) in sorted(seconds.items())))
PY
}

for part in "${PARTS[@]}"; do
  case $part in
    iterative)
      for d in 0p1 1 10; do
        run iterative anderson_$d 1 inputs/cavity_iterative_delta$d.yaml
        run iterative plain_$d 1 inputs/cavity_iterative_delta$d.yaml -iter_accel none \
          -iter_synthetic false -out_monitor_every 10
      done
      run iterative synthetic_10 1 inputs/cavity_iterative_delta10.yaml -iter_synthetic true ;;
    explicit)
      for d in 0p1 1 10; do
        run explicit order1_$d 1 inputs/cavity_delta$d.yaml -stream_order 1 -out_monitor_every 100
      done ;;
    kn)
      for delta in 0.08862 0.8862 8.862 88.62; do
        for accel in none anderson; do
          for synthetic in false true; do
            run kn ${accel}_${synthetic}_$delta 1 inputs/cavity_iterative_delta1.yaml \
              -model_delta $delta -iter_tol 1e-8 -iter_accel $accel -iter_synthetic $synthetic \
              -out_monitor_every 100000
          done
        done
      done ;;
    cavity3d)
      for kn in 1 0p1; do
        run cavity3d kn$kn 1 inputs/cavity3d_iterative_kn$kn.yaml
        fields=$(ls "$OUT"/cavity3d/kn$kn/fields_*.h5 | tail -1)
        for field in speed T; do
          python3 "$here/plot_fields.py" "$fields" --field $field --k 32 --streamlines \
            -o "$OUT/cavity3d_kn${kn}_$field.png" > /dev/null
        done
      done ;;
    cavity3d_kn0p01)
      run cavity3d_kn0p01 synthetic 1 inputs/cavity3d_iterative_kn0p01.yaml
      for accel in anderson none; do
        run cavity3d_kn0p01 $accel 1 inputs/cavity3d_iterative_kn0p01.yaml -iter_accel $accel \
          -iter_synthetic false -iter_max 5000
      done ;;
    synthetic)
      # Each case with SNES Anderson alone, with the correction as shipped (one V-cycle in 3-D)
      # and with GMRES to a relative 1e-1 around it; $BOLT_BEFORE (a bolt built before the
      # change to compare) runs the correction again.
      for case in ${SYNTHETIC_CASES:-cavity3d_iterative_kn0p1 cavity3d_iterative_kn0p01 cube_iterative}; do
        run synthetic ${case}_anderson 1 inputs/$case.yaml -iter_synthetic false -log_view
        run synthetic ${case}_synthetic 1 inputs/$case.yaml -iter_synthetic true -log_view
        run synthetic ${case}_gmres 1 inputs/$case.yaml -iter_synthetic true -log_view \
          -iter_synthetic_ksp_type gmres -iter_synthetic_ksp_rtol 1e-1
        if [ -n "${BOLT_BEFORE:-}" ]; then
          BOLT=$BOLT_BEFORE run synthetic ${case}_before 1 inputs/$case.yaml -iter_synthetic true \
            -log_view
        fi
      done
      for log in "$OUT"/synthetic/*/log; do log_events "$log"; done ;;
    history)
      for case in ${HISTORY_CASES:-cavity3d_iterative_kn0p1 cavity3d_iterative_kn0p01 \
                                    cube_iterative}; do
        for h in ${HISTORIES:-3 5 10 20}; do
          run history ${case}_$h 1 inputs/$case.yaml -iter_accel_history $h -log_view
          if [ -n "${BOLT_BEFORE:-}" ]; then
            BOLT=$BOLT_BEFORE run history ${case}_${h}_before 1 inputs/$case.yaml \
              -iter_accel_history $h -log_view
          fi
        done
      done
      for log in "$OUT"/history/*/log; do log_events "$log"; done ;;
    cube)
      run cube cube 1 inputs/cube_iterative.yaml -log_view
      run cube anderson 1 inputs/cube_iterative.yaml -iter_synthetic false -log_view
      run cube synthetic_ilu 1 inputs/cube_iterative.yaml -iter_synthetic_pc_type ilu -log_view
      for name in cube anderson synthetic_ilu; do log_events "$OUT/cube/$name/log"; done
      run cube vanleer 1 inputs/cube_iterative.yaml -stream_limiter vanleer
      run cube order1 1 inputs/cube_iterative.yaml -stream_order 1
      run cube free 1 inputs/cube_iterative.yaml -geometry_solids ""
      free=$(ls "$OUT"/cube/free/fields_*.h5 | tail -1)
      for name in cube vanleer order1; do
        python3 "$here/cube_temperature.py" "$(ls "$OUT"/cube/$name/fields_*.h5 | tail -1)" \
          --free "$free" --json "$OUT/cube/$name/temperature.json" | tee -a "$report"
      done
      fields=$(ls "$OUT"/cube/cube/fields_*.h5 | tail -1)
      for field in speed T n; do
        python3 "$here/plot_fields.py" "$fields" --field $field --k 16 --streamlines \
          -o "$OUT/cube_$field.png" > /dev/null
      done ;;
    cube_large)
      # The same case at 7.5e11 phase-space points (192 x 128 x 128 cells, 62^3 velocities), in
      # single precision (as paper 004), SNES Anderson alone, to a last change of 1e-5, a monitor
      # row every sweep, started from the converged fields of the cube at 96 x 64 x 64 cells and
      # 31^3 velocities (-init_type fields: fewer sweeps). The run is longer than a device call:
      # the first call starts it in a session of its own (setsid: it outlives the call while the
      # machine stays warm), and each call watches it until $LIMIT seconds into this script
      # (default 560: the coarse run's time counts, so a device call's limit holds). Should it
      # have died, the call restarts it from its checkpoint ($CKPT, every 5 sweeps). Once it has
      # ended, the mid-plane z = 2 is plotted.
      dir=$OUT/cube_large/cube
      local_ckpt=${CKPT:-/tmp/cube_large/checkpoint.h5}
      mkdir -p "$dir" "$(dirname "$local_ckpt")"
      if ! pgrep -f "cube_large_run" > /dev/null && [ ! -f "$dir/summary.json" ]; then
        start=()
        if [ -f "$local_ckpt" ]; then
          start=(-restart latest)
        else
          run cube_large coarse 1 inputs/cube_iterative.yaml -grid_n 96,64,64 \
            -geometry_solids 24,24,24,16,16,16 -vgrid_n 31 -precision float -stream_order 1 \
            -iter_synthetic false -iter_tol 1e-5 -out_monitor_every 10
          coarse=$(ls "$OUT"/cube_large/coarse/fields_*.h5 | tail -1)
          start=(-init_type fields -init_fields "$coarse")
        fi
        echo "cube_large: starting ${start[*]}" | tee -a "$report"
        setsid bash -c 'exec -a cube_large_run "$@"' cube_large_run "$BOLT" \
          -options_file_yaml inputs/cube_iterative.yaml -grid_n 192,128,128 \
          -geometry_solids 48,48,48,32,32,32 -vgrid_n 62 -precision float -stream_order 1 \
          -iter_synthetic false -iter_tol 1e-5 -iter_max 200 -out_monitor_every 1 \
          -out_checkpoint_every 5 \
          -out_checkpoint "$local_ckpt" -out_dir "$dir" -summary "$dir/summary.json" \
          "${start[@]}" ${CUBE_LARGE_OPTIONS:-} >> "$dir/log" 2>&1 < /dev/null &
      fi
      while pgrep -f "cube_large_run" > /dev/null && [ "$SECONDS" -lt "${LIMIT:-560}" ]; do
        sleep 10
      done
      tail -3 "$dir/monitor.csv" | tee -a "$report"
      if [ -f "$dir/summary.json" ]; then
        grep -h "plan" "$dir/log" | tail -2 | tee -a "$report"
        fields=$(ls "$dir"/fields_*.h5 2>/dev/null | tail -1)
        for field in speed T n; do
          [ -n "$fields" ] && python3 "$here/plot_fields.py" "$fields" --field $field --k 64 \
            --streamlines -o "$OUT/cube_large_$field.png" > /dev/null
        done
      fi ;;
    split)
      for ranks in 1 2; do split_runs split "" $ranks; done ;;
    split_large)
      for ranks in 1 2; do
        run split_large cube_large_$ranks $ranks inputs/cube_iterative.yaml -grid_n 192,128,128 \
          -geometry_solids 48,48,48,32,32,32 -vgrid_n 62 -precision float -stream_order 1 \
          -iter_synthetic false -iter_accel none -iter_max 3 -iter_tol 1e-30 -out_monitor_every 1
      done ;;
    lines)
      for ranks in 1 2; do
        for lines in ${LINES:-0 1 2 4 8 16}; do
          split_runs lines _$lines $ranks -iter_lines $lines
        done
      done ;;
    order2)
      for kn in 1 0p1; do
        run order2 kn${kn}_32_o2 1 inputs/cavity3d_iterative_kn$kn.yaml -grid_n 32,32,32 \
          -stream_order 2
        run order2 kn${kn}_32_o1 1 inputs/cavity3d_iterative_kn$kn.yaml -grid_n 32,32,32
        run order2 kn${kn}_64_o1 1 inputs/cavity3d_iterative_kn$kn.yaml
        run order2 kn${kn}_64_o2 1 inputs/cavity3d_iterative_kn$kn.yaml -stream_order 2
        python3 - "$OUT/order2" "$kn" <<'PY' | tee -a "$report"
import json, sys
d = {k: json.load(open(f"{sys.argv[1]}/kn{sys.argv[2]}_{k}/summary.json"))["diagnostics"]
     for k in ("32_o1", "32_o2", "64_o1", "64_o2")}
for q in ("D", "G"):
    ref = d["64_o2"][q] + (d["64_o2"][q] - d["32_o2"][q]) / 3.0  # Richardson, order 2
    ref1 = 2.0 * d["64_o1"][q] - d["32_o1"][q]  # Richardson of first order, a second estimate
    print(f"  Kn {sys.argv[2]} {q}: reference {ref:.6g} (first order's {ref1:.6g}); 32^3 second "
          f"order {d['32_o2'][q] / ref - 1:+.3%}, 64^3 first order {d['64_o1'][q] / ref - 1:+.3%},"
          f" 64^3 second order {d['64_o2'][q] / ref - 1:+.3%}, 32^3 first order "
          f"{d['32_o1'][q] / ref - 1:+.3%}")
PY
      done
      for order in 1 2; do
        run order2 speed_cavity3d_o$order 1 inputs/cavity3d_iterative_kn1.yaml -iter_accel none \
          -iter_max 20 -iter_tol 1e-30 -out_monitor_every 4 -stream_order $order
        run order2 speed_cube_o$order 1 inputs/cube_iterative.yaml -grid_n 96,64,64 \
          -geometry_solids 24,24,24,16,16,16 -vgrid_n 48 -precision float -iter_accel none \
          -iter_synthetic false -iter_max 8 -iter_tol 1e-30 -out_monitor_every 2 \
          -stream_order $order -stream_limiter vanleer
      done ;;
    *) echo "unknown part $part" | tee -a "$report" ;;
  esac
done
