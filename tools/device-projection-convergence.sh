#!/usr/bin/env bash
# device-projection-convergence.sh -- convergence studies of the hard-sphere normal shocks by the
# projection method (inputs/shock_mach3_projection.yaml, shock_mach1p5_projection.yaml) on one
# GPU, from the repository root:
#
#   OUT=/tmp/conv BOLT=build/app/bolt BUDGET=300 bash tools/device-projection-convergence.sh
#
# (BACKEND=cpu with smaller ladders to try it without a GPU.)
#
# For each Mach number, tools/convergence.py ladders of one parameter about the base point below
# (second-order streaming): the precision (double against float: float is used for the rest where
# it changes the reciprocal thickness by less than 1e-3), the cells, the lattice points, the time
# step (-ts_collision_fraction), the velocity nodes (N0 at a fixed half width), the final time
# and the streaming order, in that order of priority; about 6 minutes on an H200. The two Mach
# numbers run side by side: each run spends seconds on the CPU building its lattices (3-4 s per
# 10^6 points on 16 cores) before its GPU steps, so the one's lattices are built while the other
# steps. Every run of a ladder but the final time's goes to the same final time, so a time-step
# ladder compares equal times; the final-time ladder measures what remains of the transient.
# BUDGET (seconds, default 3600) bounds the whole script: a ladder whose estimated time (from
# the measured GPU rate and lattice time of the precision runs) does not fit what is left is
# skipped and named in the report. Writes $OUT/m3.txt, $OUT/m1p5.txt (the tables), $OUT/*.json
# (convergence.py's --json), $OUT/runs.txt (each run: thickness at the end and at 3/4 of the
# time, skipped share, ms/step) and $OUT/work.tgz (summaries and monitors of every run).
set -u -o pipefail
BOLT=${BOLT:-build/app/bolt}
OUT=${OUT:-/tmp/projection-convergence}
WORK=${WORK:-$OUT/work}
BUDGET=${BUDGET:-3600}
BACKEND=${BACKEND:-cuda}
mkdir -p "$OUT" "$WORK"
. tools/convergence-study.sh
conv_begin

# Base points. M = 3: [-20, 20] (the Shakhov shock of the same viscosity is 0.1 % from its
# thickness on [-30, 30]), 320 cells of 0.125 lambda, t = 49 (2500 steps of a tenth of the
# shortest collision time). M = 1.5: [-30, 30], 240 cells of 0.25 lambda, t = 96.7 (1800 steps).
M3_BASE="-grid_lo -20,0,0 -grid_hi 20,1,1 -grid_n 320,1,1 -stream_order 2 -vgrid_n 32
  -projection_points 4000000 -ts_collision_fraction 0.1 -ts_final_time 49"
M1P5_BASE="-grid_n 240,1,1 -stream_order 2 -vgrid_n 28 -projection_points 4000000
  -ts_collision_fraction 0.1 -ts_final_time 96.7"
COMMON="-ts_max_steps 1000000 -out_monitor_every 250 -out_checkpoint_final false"

# study NAME CASE PRECISION BASE LADDER: one ladder of the reciprocal thickness (conv_study).
study() {
  conv_study "$1" "$2" "$4 $COMMON -precision $3" "$5" "$3" reciprocal_thickness
}

# estimate NAME BASE LADDER: seconds for the ladder's levels other than the base point, from
# $WORK/NAME/rates (GPU seconds per cell-point-step, lattice seconds per point, steps of the base
# time step), the GPU's share doubled where the other Mach number shares it.
estimate() {
  python3 - "$WORK/$1/rates" "$2" "$3" <<'EOF'
import sys, shlex
rates, base, ladder = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3]
gpu, lattice, steps = map(float, open(rates).read().split())
opt = dict(zip(base[::2], base[1::2]))
cells = int(opt["-grid_n"].split(",")[0]); points = float(opt["-projection_points"])
fraction = float(opt["-ts_collision_fraction"])
name, levels = ladder.split("=")
total = 0.0
for value in levels.split(":"):
    if value == opt["-" + name]:  # the base point: run by an earlier ladder
        continue
    c, p, f = cells, points, fraction
    if name == "grid_n": c = int(value.split(",")[0])
    if name == "projection_points": p = float(value)
    if name == "ts_collision_fraction": f = float(value)
    length = float(value) / float(opt["-ts_final_time"]) if name == "ts_final_time" else 1.0
    total += 2.0 * gpu * c * p * steps * length * fraction / f + lattice * p
print(int(total) + 1)
EOF
}

# rates NAME: from the precision ladder's runs of the chosen precision.
rates() {
  python3 - "$WORK/$1" "$2" <<'EOF' > "$WORK/$1/rates"
import glob, json, os, shlex, sys
work, precision = sys.argv[1], sys.argv[2]
for folder in glob.glob(os.path.join(work, "runs", "*")):
    s = json.load(open(os.path.join(folder, "summary.json")))
    if s["precision"] != precision:
        continue
    opts = shlex.split(open(os.path.join(folder, "options.txt")).read())
    points = float(opts[len(opts) - 1 - opts[::-1].index("-projection_points") + 1])
    cells = s["grid"][0]
    gpu = s["timing"]["wall_seconds"] / (cells * points * s["steps"])
    lattice = float(open(os.path.join(folder, "process_seconds")).read()) - s["timing"]["wall_seconds"]
    print(f"{gpu:.6e} {max(lattice, 1.0) / points:.6e} {s['steps']}")
    break
EOF
}

# mach NAME CASE BASE: the precision check, then the ladders in order of priority.
mach() {
  local name=$1 case_file=$2 base=$3
  shift 3
  local check_cells=$1 points_ladder=$2 cells_ladder=$3 nodes_ladder=$4 time_ladder=$5
  : > "$OUT/$name.txt"
  # The precision check on a coarser grid and lattice (the rounding of the steady profile does
  # not grow with either), timed whole to measure the lattice time as well.
  local check="$base -grid_n $check_cells,1,1 -projection_points 1000000"
  local t0=$SECONDS
  study "$name" "$case_file" double "$check" "precision=double:float" || return
  python3 - "$WORK/$name" $((SECONDS - t0)) <<'EOF'
import glob, json, os, sys
runs = [json.load(open(f)) for f in glob.glob(os.path.join(sys.argv[1], "runs", "*", "summary.json"))]
gpu = sum(s["timing"]["wall_seconds"] for s in runs)
for f in glob.glob(os.path.join(sys.argv[1], "runs", "*")):  # the lattice time, shared evenly
    s = json.load(open(os.path.join(f, "summary.json")))
    open(os.path.join(f, "process_seconds"), "w").write(
        f"{s['timing']['wall_seconds'] + (float(sys.argv[2]) - gpu) / len(runs)}\n")
EOF
  local precision
  precision=$(python3 - "$OUT/${name}_precision_double.json" <<'EOF'
import json, sys
rows = json.load(open(sys.argv[1]))["studies"][0]
q = rows["quantities"]["reciprocal_thickness"]
double, single = q[0]["value"], q[1]["value"]
print("float" if abs(single / double - 1) < 1e-3 else "double")
EOF
)
  echo "$name: precision $precision" | tee -a "$OUT/$name.txt"
  rates "$name" "$precision"
  local ladder need
  for ladder in "grid_n=$cells_ladder" "projection_points=$points_ladder" \
                "ts_collision_fraction=0.2:0.14:0.1" "vgrid_n=$nodes_ladder" \
                "ts_final_time=$time_ladder" "stream_order=1:2"; do
    need=$(estimate "$name" "$base" "$ladder")
    if [ "$need" -gt "$(conv_left)" ]; then
      echo "$name: -$ladder skipped: about $need s, $(conv_left) s left" | tee -a "$OUT/$name.txt"
      continue
    fi
    study "$name" "$case_file" "$precision" "$base" "$ladder"
  done
}

mach m3 inputs/shock_mach3_projection.yaml "$M3_BASE" 160 1000000:2000000:4000000:8000000 \
  160,1,1:240,1,1:320,1,1:480,1,1:640,1,1 24:28:32 49:98 &
mach m1p5 inputs/shock_mach1p5_projection.yaml "$M1P5_BASE" 120 \
  1000000:2000000:4000000:8000000:10000019 120,1,1:180,1,1:240,1,1 20:24:28:32 96.7:161 &
wait

# Each run: the thickness at the end and at three quarters of the time (steadiness), the
# skipped share of the cubature, the GPU's ms/step.
python3 - "$WORK" <<'EOF' | tee "$OUT/runs.txt"
import csv, glob, json, os, shlex, sys
for folder in sorted(glob.glob(os.path.join(sys.argv[1], "*", "runs", "*"))):
    try:
        s = json.load(open(os.path.join(folder, "summary.json")))
        rows = list(csv.DictReader(open(os.path.join(folder, "monitor.csv"))))
    except OSError:
        continue
    t_end = float(rows[-1]["time"])
    quarter = min(rows, key=lambda r: abs(float(r["time"]) - 0.75 * t_end))
    d = s["diagnostics"]
    d["proj_skipped_share"] = float(rows[-1]["proj_skipped_share"])
    tokens = shlex.split(open(os.path.join(folder, "options.txt")).read())[1:]
    hidden = ("-options_file_yaml", "-out_checkpoint_final", "-out_monitor_every", "-ts_max_steps")
    options = " ".join(f"{a} {b}" for a, b in zip(tokens[::2], tokens[1::2]) if a not in hidden)
    print(f"{folder.split(os.sep)[-3]} {options} | {s['precision']} {s['steps']} steps t={t_end:.1f}: 1/thickness "
          f"{d['reciprocal_thickness']:.6f} (t={float(quarter['time']):.1f}: "
          f"{float(quarter['reciprocal_thickness']):.6f}), skipped share "
          f"{d.get('proj_skipped_share', float('nan')):.2e}, "
          f"{s['timing']['ms_per_step']:.2f} ms/step")
EOF
tar -czf "$OUT/work.tgz" -C "$WORK" --exclude='*.h5' . 2>/dev/null
echo "device-projection-convergence: $((SECONDS - conv_start)) s"
