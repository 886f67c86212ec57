#!/usr/bin/env bash
# device-mc-convergence.sh -- convergence of paper 000's cavities by hs_mc as shipped
# (inputs/cavity_hs_mc_delta{1,0p1,10}.yaml: uniform cells, second-order streaming, Shakhov warm
# start, window means to -ts_mean_tol) in the time step and in the cells, on one GPU, from the
# repository root:
#
#   OUT=/tmp/mc-conv BOLT=build/app/bolt BUDGET=500 [CASES="d1 d0p1 d10"] bash tools/device-mc-convergence.sh
#
# For each case two tools/convergence.py ladders of the window means D and G: the time step at
# the input's cells (-ts_max_courant), then the cells at one fixed time step, that of the finest
# level at Courant 0.5 (-ts_dt), so that the cell ladder measures the cells alone. Courant 1 is
# left out at delta = 10, where the 128^2 run blows up. About 6 minutes on an H200 for all
# three. Writes $OUT/NAME.txt (the tables) and $OUT/NAME_*.json (convergence.py's --json).
set -u -o pipefail
BOLT=${BOLT:-build/app/bolt}
OUT=${OUT:-/tmp/mc-convergence}
WORK=${WORK:-$OUT/work}
BUDGET=${BUDGET:-3600}
BACKEND=${BACKEND:-cuda}
CASES=${CASES:-d1 d0p1 d10}
mkdir -p "$OUT" "$WORK"
. tools/convergence-study.sh
conv_begin

# Window means are known to about 3e-4 of their value (-ts_mean_tol 1e-3 stops at a third of it
# or less): differences below that are noise to the analysis.
CONV_OPTIONS="--noise 3e-4"

# case NAME INPUT CELLS COURANT_LADDER CELL_LADDER (cells per side, coarse to fine) [OPTIONS]
case_study() {
  local name=$1 input=$2 cells=$3 courants=$4 ladder=$5 more=${6:-}
  [[ " $CASES " == *" $name "* ]] || return 0
  local fixed="-grid_n $cells,$cells,1 -out_checkpoint_final false $more"
  conv_study "$name" "$input" "$fixed" "ts_max_courant=$courants" dt \
    D_window_mean G_window_mean || return 1
  # The finest cells' time step at Courant 0.5: the input's at its own cells (the Courant
  # ladder's level 0.5, from its --json), scaled.
  local dt grids
  dt=$(python3 - "${JSON_DIR:-$OUT}/${name}_ts_max_courant_dt.json" "$cells" "${ladder##*:}" <<'PY'
import json, sys
study = json.load(open(sys.argv[1]))["studies"][0]
base = study["mesh_sizes"][study["levels"].index("0.5")]
print(repr(base * int(sys.argv[2]) / int(sys.argv[3])))
PY
  ) || return 1
  grids=$(echo "$ladder" | tr ':' '\n' | sed 's/.*/&,&,1/' | paste -sd:)
  conv_study "$name" "$input" "$fixed -ts_dt $dt" "grid_n=$grids" cells \
    D_window_mean G_window_mean
}

case_study d1 inputs/cavity_hs_mc_delta1.yaml 64 1:0.5:0.25:0.125 48:64:96:128
# delta = 0.1: the input's cap of t = 12 leaves the finer time steps without a window (G's window
# mean still moves until t = 12, docs/validation.md), so the study runs to t = 24.
case_study d0p1 inputs/cavity_hs_mc_delta0p1.yaml 64 1:0.5:0.25 48:64:96:128 "-ts_final_time 24"
case_study d10 inputs/cavity_hs_mc_delta10.yaml 128 0.75:0.5:0.25 96:128:192
echo "left of the budget: $(conv_left) s"
