#!/usr/bin/env bash
# device-projection-cavity.sh -- convergence study of paper 003's cavity (inputs/
# cavity_projection.yaml: hard spheres, Kn 0.1, delta = 8.885, lid 0.003 c0) by the projection
# method, and of the same cavity by hs_mc (semi-regular Monte Carlo of the same equation), on one
# GPU, from the repository root:
#
#   OUT=/tmp/cav BOLT=build/app/bolt BUDGET=280 bash tools/device-projection-cavity.sh
#
# (BACKEND=cpu with the tiny ladders of the CPU try, see below, to try it without a GPU.)
#
# Projection: tools/convergence.py ladders of one parameter at a time about the base point
# PROJ_BASE (second-order streaming on 64^2 cells, 2e5 lattice points, N0 = 20, Courant 0.5, in
# double: at V_w = 0.003 float freezes at a fixed point of the rounding, README), in order of
# priority: cells, lattice points, time step, velocity nodes (N0 at a fixed V_max), final time,
# streaming order, N0 with 8e5 points, then the finer levels the budget allows (nodes, points,
# cells); all of them take about 7 minutes on an H200. Each run starts from the Shakhov steady
# state of the same viscosity (-init_steady_model) and runs to a fixed final time; the
# quantities are D_mean and G_mean, the means over the monitor rows of the run's second half (the
# projection's cubature changes its random shift every step: D and G scatter about their
# mean), and the final-time ladder measures what is left of the transient in them.
# hs_mc, in the background: ladders of cells, velocity nodes and time step about the shipped
# fast path (inputs/cavity_hs_mc_delta10.yaml on 64^2 cells (HS_BASE), second order, float,
# Shakhov warm start, window means to -ts_mean_tol 1e-3) at delta = 8.885 and the projection's lid speed; the
# quantities are the window means D_window_mean, G_window_mean.
# BUDGET (seconds, default 3600) bounds the whole script: a ladder whose estimated time (from the
# base run's measured step time and start-up time) does not fit what is left is skipped and named
# in the report. Prints and writes $OUT/proj.txt, $OUT/hs_mc.txt (the tables), $OUT/runs.txt
# (every run: D, G, their means and scatter, steps, times), $OUT/summary.txt (each ladder's
# values, its finest level's change and the Richardson values) and $OUT/work.tgz (convergence.py's
# --json of each ladder, the runs' summaries and monitors).
set -u -o pipefail
BOLT=${BOLT:-build/app/bolt}
OUT=${OUT:-/tmp/projection-cavity}
WORK=${WORK:-$OUT/work}
BUDGET=${BUDGET:-3600}
BACKEND=${BACKEND:-cuda}
JSON_DIR=$WORK/json  # convergence.py's --json of each ladder, in work.tgz
mkdir -p "$OUT" "$WORK" "$JSON_DIR"
. tools/convergence-study.sh
conv_begin

# The base point and the ladders (coarse to fine; each holds the base point's value). The CPU
# try (30 s on two cores): PROJ_BASE="-grid_n 8,8,1 -stream_order 2 -precision double
# -projection_points 10007 -vgrid_n 8 -ts_max_courant 0.5 -init_steady_model shakhov
# -ts_final_time 0.2" CELLS=6,6,1:8,8,1 CELLS_MORE=6,6,1:8,8,1:10,10,1 POINTS=10007:20011
# POINTS_MORE=10007:20011:40009 COURANT=0.5:0.35 NODES=8:10 NODES_MORE=8:10:12 NODES_POINTS=8:10
# MANY_POINTS=20011 TIMES=0.2:0.3 HS_BASE="-grid_n 8,8,1 -vgrid_n 8 -mc_samples 256
# -ts_final_time 0.3 -ts_mean_tol 0" HS_CELLS=6,6,1:8,8,1 HS_NODES=8:10 HS_COURANT=0.5:0.35
PROJ_BASE=${PROJ_BASE:-"-grid_n 64,64,1 -stream_order 2 -precision double -projection_points 200000
  -vgrid_n 20 -ts_max_courant 0.5 -init_steady_model shakhov -ts_final_time 4"}
PROJ_COMMON="-ts_max_steps 100000000 -out_monitor_every 10 -out_checkpoint_final false"
CELLS=${CELLS:-32,32,1:48,48,1:64,64,1:96,96,1}
CELLS_MORE=${CELLS_MORE:-$CELLS:128,128,1}
POINTS=${POINTS:-50000:100000:200000:400000:800000}
POINTS_MORE=${POINTS_MORE:-$POINTS:1600000}
COURANT=${COURANT:-0.5:0.3535534:0.25}
NODES=${NODES:-16:20:24}
NODES_MORE=${NODES_MORE:-$NODES:28}
NODES_POINTS=${NODES_POINTS:-20:24}
MANY_POINTS=${MANY_POINTS:-800000}
TIMES=${TIMES:-4:8}
HS_BASE=${HS_BASE:-"-grid_n 64,64,1"}
HS_COMMON="-model_delta 8.885 -bc_y_high_velocity 0.003,0,0 -mc_epsilon 0.003
  -out_checkpoint_final false"
HS_CELLS=${HS_CELLS:-64,64,1:96,96,1:128,128,1}
HS_NODES=${HS_NODES:-18:24}
HS_COURANT=${HS_COURANT:-0.5:0.25}

# hs_mc in the background: the GPU runs its steps between the projection runs' lattices.
{
  conv_study hs_mc inputs/cavity_hs_mc_delta10.yaml "$HS_COMMON $HS_BASE" "grid_n=$HS_CELLS" \
    window D_window_mean G_window_mean
  conv_study hs_mc inputs/cavity_hs_mc_delta10.yaml "$HS_COMMON $HS_BASE" "vgrid_n=$HS_NODES" \
    window D_window_mean G_window_mean
  conv_study hs_mc inputs/cavity_hs_mc_delta10.yaml "$HS_COMMON $HS_BASE" \
    "ts_max_courant=$HS_COURANT" window D_window_mean G_window_mean
} > "$OUT/hs_mc.log" 2>&1 &

# proj LADDER [OPTIONS]: one projection ladder of D_mean and G_mean about PROJ_BASE OPTIONS.
proj() {
  conv_study proj inputs/cavity_projection.yaml "$PROJ_BASE $PROJ_COMMON ${2:-}" "$1" \
    "mean${2:+_$(tr -dc '0-9a-z_' <<< "${2// /_}")}" D_mean G_mean
}

# estimate LADDER [OPTIONS]: seconds for the ladder's levels about PROJ_BASE OPTIONS not yet run
# (the base point's are), from the base run's step time
# and start-up time (lattice, warm start; $WORK/proj/base_rates): per step the work is ~cells x
# (points + 35 000 N0^3 / 20^3) (the collision's terms and the velocity nodes' fixed work), the
# steps ~cells per axis x final time / Courant number.
estimate() {
  python3 - "$WORK/proj/base_rates" "$PROJ_BASE" "$1" "$WORK/proj/done" "${2:-}" <<'EOF'
import os, shlex, sys
rates, base, ladder, done_file = sys.argv[1], shlex.split(sys.argv[2]), sys.argv[3], sys.argv[4]
extra = shlex.split(sys.argv[5])
step_seconds, startup, steps = map(float, open(rates).read().split())
done = set(open(done_file).read().splitlines()) if os.path.exists(done_file) else set()
opt0 = dict(zip(base[::2], base[1::2]))
opt = dict(opt0, **dict(zip(extra[::2], extra[1::2])))
name, levels = ladder.split("=")
def work(o):
    cells = int(o["-grid_n"].split(",")[0])
    nodes = (float(o["-vgrid_n"]) / 20.0) ** 3
    return cells, cells ** 2 * (float(o["-projection_points"]) + 35000.0 * nodes)
cells0, work0 = work(opt0)
total = 0.0
for value in levels.split(":"):
    o = dict(opt, **{"-" + name: value})
    if f"{' '.join(extra)} {name}={value}" in done or o == opt0:
        continue
    cells, w = work(o)
    n = steps * cells / cells0 * float(o["-ts_final_time"]) / float(opt0["-ts_final_time"]) \
        * float(opt0["-ts_max_courant"]) / float(o["-ts_max_courant"])
    points = float(o["-projection_points"]) / float(opt0["-projection_points"])
    total += step_seconds * n * w / work0 + startup * max(1.0, points)
print(int(total) + 1)
EOF
}

# The base point first, timed whole: its step time and start-up time size the ladders.
t0=$SECONDS
# (-stream_order 2 twice: the base run alone, reused by every ladder)
conv_study proj inputs/cavity_projection.yaml "$PROJ_BASE $PROJ_COMMON" "stream_order=2:2" base \
  D_mean G_mean
python3 - "$WORK/proj" $((SECONDS - t0)) <<'EOF' > "$WORK/proj/base_rates"
import glob, json, os, sys
s = json.load(open(glob.glob(os.path.join(sys.argv[1], "runs", "*", "summary.json"))[0]))
wall = s["timing"]["wall_seconds"]
print(f"{wall / s['steps']:.6e} {max(float(sys.argv[2]) - wall, 1.0):.3f} {s['steps']}")
EOF
echo "proj: base run $((SECONDS - t0)) s; s/step, start-up s, steps:" \
  "$(cat "$WORK/proj/base_rates")" | tee -a "$OUT/proj.txt"

# Each entry: LADDER or LADDER@OPTIONS (the ladder about PROJ_BASE OPTIONS: N0 with more points,
# since at 2e5 points a finer velocity grid also has fewer lattice points per node pair).
for entry in "grid_n=$CELLS" "projection_points=$POINTS" "ts_max_courant=$COURANT" \
             "vgrid_n=$NODES" "ts_final_time=$TIMES" "stream_order=1:2" \
             "vgrid_n=$NODES_POINTS@-projection_points $MANY_POINTS" \
             "vgrid_n=$NODES_MORE" "projection_points=$POINTS_MORE" "grid_n=$CELLS_MORE"; do
  ladder=${entry%%@*} extra=
  [ "$ladder" = "$entry" ] || extra=${entry#*@}
  need=$(estimate "$ladder" "$extra")
  if [ "$need" -gt "$(conv_left)" ]; then
    echo "proj: -$ladder $extra skipped: about $need s, $(conv_left) s left" |
      tee -a "$OUT/proj.txt"
    continue
  fi
  proj "$ladder" "$extra" &&
    tr ':' '\n' <<< "${ladder#*=}" | sed "s/^/$extra ${ladder%%=*}=/" >> "$WORK/proj/done"
done
wait

# Every run (both methods): options, steps, final time, D and G at the end, their means over the
# second half with the scatter, the window means with their standard errors, ms/step and wall.
python3 - "$WORK" <<'EOF' > "$OUT/runs.txt"
import glob, json, os, shlex, sys
hidden = ("-options_file_yaml", "-out_checkpoint_final", "-out_monitor_every", "-ts_max_steps",
          "-model_delta", "-bc_y_high_velocity", "-mc_epsilon", "-init_steady_model")
for folder in sorted(glob.glob(os.path.join(sys.argv[1], "*", "runs", "*"))):
    try:
        s = json.load(open(os.path.join(folder, "summary.json")))
    except OSError:
        continue
    d = {k: (float("nan") if v is None else v) for k, v in s["diagnostics"].items()}
    tokens = shlex.split(open(os.path.join(folder, "options.txt")).readline())[1:]
    options = " ".join(f"{a} {b}" for a, b in zip(tokens[::2], tokens[1::2]) if a not in hidden)
    print(f"{folder.split(os.sep)[-3]} {options} | {s['precision']} {s['steps']} steps "
          f"t={s['time']:.2f} steady {s['steady']}: D {d['D']:.5f} G {d['G']:.5f}; "
          f"mean from t={d['steady_from_time']:.2f}: D {d['D_mean']:.5f} (sd {d['D_std']:.1e}) "
          f"G {d['G_mean']:.5f} (sd {d['G_std']:.1e}); window: D {d['D_window_mean']:.5f} "
          f"+- {d['D_window_error']:.1e} G {d['G_window_mean']:.5f} +- {d['G_window_error']:.1e}"
          f" ({'ready' if d['D_window_ready'] and d['G_window_ready'] else 'not ready'}); "
          f"{s['timing']['ms_per_step']:.2f} ms/step, {s['timing']['wall_seconds']:.1f} s")
EOF

# Each ladder: the base point's value, the finest level's and their relative difference, and
# the last Richardson value with its error estimate where the ladder has one.
python3 - "$JSON_DIR" <<'EOF' > "$OUT/summary.txt"
import glob, json, os, sys
def change(a, b):
    return f"{100 * (a / b - 1):+.2f} %" if b else "-"
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_*.json"))):
    for study in json.load(open(path))["studies"]:
        if len(study["levels"]) < 2 or len(set(study["levels"])) < 2:
            continue
        for key, rows in study["quantities"].items():
            first, last = rows[0]["value"], rows[-1]["value"]
            rich = [r for r in rows if r["richardson"] is not None]
            extra = (f"; Richardson {rich[-1]['richardson']:.5f} (p {rich[-1]['p']:.2f}, "
                     f"error est. {rich[-1]['error_estimate']:.1e})") if rich else ""
            values = " ".join(f"{r['value']:.5f}" for r in rows)
            print(f"{os.path.basename(path)[:-5]} {key}: {values}; finest - coarsest "
                  f"{change(last, first)}, finest - previous {change(last, rows[-2]['value'])}"
                  f"{extra}")
EOF
# The tables without the commands (in the .txt files), then every run and the summary.
grep -hv '^+ \|^  [0-9]* steps, steady' "$OUT/proj.txt" "$OUT/hs_mc.txt"
cat "$OUT/runs.txt" "$OUT/summary.txt"
tar -czf "$OUT/work.tgz" -C "$WORK" --exclude='*.h5' . 2>/dev/null
echo "device-projection-cavity: $((SECONDS - conv_start)) s"
