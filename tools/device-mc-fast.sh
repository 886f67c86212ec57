#!/bin/bash
# paper 000's cavities with the default hs_mc inputs (inputs/cavity_hs_mc_delta{0p1,1,10}.yaml:
# uniform 64^2 (delta = 10: 128^2), second order, Shakhov warm start, -ts_mean_tol) on one GPU:
# the whole process's wall time and the summary's window means against the paper's D_e, G_e (docs/validation.md).
# usage: [RUNS="d1 d10"] tools/device-mc-fast.sh BOLT OUTDIR   (from the repository root; the runs after the
# three defaults: delta = 1 from rest, and delta = 10 on 64^2 and 96^2 cells, for comparison)
set -u
bolt=$1
out=$2
mkdir -p "$out"
: >"$out/wall.txt"  # this call's runs only
run() {  # label input [options...]; RUNS="label ..." in the environment: only those
  local label=$1 input=$2
  shift 2
  [[ -z "${RUNS:-}" || " $RUNS " == *" $label "* ]] || return 0
  local start end
  start=$(date +%s.%N)
  timeout 150 "$bolt" -backend cuda -options_file_yaml "$input" -out_dir "$out/$label" \
    -summary "$out/$label.json" "$@" >"$out/$label.log" 2>&1
  local status=$?
  end=$(date +%s.%N)
  rm -f "$out/$label"/checkpoint.h5*  # hundreds of MB; the summary and monitor.csv are kept
  echo "$label $status $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')" >>"$out/wall.txt"
}
run d0p1 inputs/cavity_hs_mc_delta0p1.yaml
run d1 inputs/cavity_hs_mc_delta1.yaml
run d10 inputs/cavity_hs_mc_delta10.yaml
run d1_rest inputs/cavity_hs_mc_delta1.yaml -init_steady_model none
run d10_64 inputs/cavity_hs_mc_delta10.yaml -grid_n 64,64,1
run d10_96 inputs/cavity_hs_mc_delta10.yaml -grid_n 96,96,1
python3 - "$out" <<'PY'
import json, sys
out = sys.argv[1]
ref = {"d0p1": (0.6815, 0.0977), "d1": (0.6389, 0.1039), "d10": (0.4176, 0.1451)}
for line in open(f"{out}/wall.txt"):
    label, status, wall = line.split()
    try:
        s = json.load(open(f"{out}/{label}.json"))
    except OSError:
        print(label, "exit", status, "no summary")
        continue
    d = s["diagnostics"]
    De, Ge = ref[label.split("_")[0]]
    D, eD, G, eG = d["D_window_mean"], d["D_window_error"], d["G_window_mean"], d["G_window_error"]
    if D is None or G is None:
        print(f"{label}: exit {status} wall {float(wall):.2f} s, t {s.get('time')}: no window after the transient")
        continue
    print(f"{label}: exit {status} wall {float(wall):.2f} s, t {s.get('time')}, steps {s['steps']}, "
          f"steady {s.get('steady')}, D {D:.5f} +- {eD:.1e} ({100 * (D / De - 1):+.2f} % vs D_e), "
          f"G {G:.5f} +- {eG:.1e} ({100 * (G / Ge - 1):+.2f} % vs G_e), window from "
          f"t = {d['D_window_from_time']:.2f} / {d['G_window_from_time']:.2f}, "
          f"loop {s['timing']['wall_seconds']:.2f} s")
PY
