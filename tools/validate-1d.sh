#!/usr/bin/env bash
# 1-D validation campaign on the CPU (docs/validation.md): Couette shear over delta, the Sod tube
# approaching the Euler solution as delta grows, and the normal-shock structure at Mach 1.5 and 3
# (BGK and Shakhov). One summary JSON per run in ${OUT:-/tmp/validate-1d}; a table per family.
# usage: tools/validate-1d.sh BOLT [couette|sod|shock ...]
set -u -o pipefail
BOLT=${1:?usage: validate-1d.sh BOLT [couette|sod|shock ...]}
shift
FAMILIES=("${@:-couette sod shock}")
OUT=${OUT:-/tmp/validate-1d}
WORK=${WORK:-/tmp/validate-1d-work}
mkdir -p "$OUT" "$WORK"
PY=$(command -v /usr/bin/python3 || command -v python3)

run() {  # run NAME OPTIONS...
  local name=$1
  shift
  "$BOLT" "$@" -out_dir "$WORK/$name" -summary "$OUT/$name.json" -out_monitor_every 1000 \
      > "$OUT/$name.log" 2>&1 || echo "$name FAILED (see $OUT/$name.log)"
}

for family in ${FAMILIES[*]}; do
  case $family in
    couette)
      for delta in 0.1 0.3 1 3 10; do
        run "couette_d$delta" -options_file_yaml inputs/couette.yaml -model_delta "$delta" \
            -grid_n 1,${COUETTE_CELLS:-64},1 -grid_stretch 1 -stream_order 2 -vgrid_n 12,32,12 \
            -ts_max_courant 0.9 -ts_steady_tol 1e-10
      done
      "$PY" - "$OUT" > "$OUT/couette.tsv" <<'PY'
import json, sys, glob
print("delta\tminus_pxy\tsteps")
for f in sorted(glob.glob(sys.argv[1] + "/couette_d*.json"), key=lambda p: float(p.split("_d")[-1][:-5])):
    s = json.load(open(f)); print(f"{s['delta']}\t{s['diagnostics']['minus_pxy']:.6f}\t{s['steps']}")
PY
      ;;
    sod)
      for delta in 10 100 1000 10000; do
        run "sod_d$delta" -options_file_yaml inputs/sod.yaml -model_delta "$delta" -grid_n 400,1,1
      done
      ;;
    shock)
      for model in bgk shakhov; do
        run "shock_m1p5_$model" -options_file_yaml inputs/shock_mach1p5.yaml -model_type "$model" \
            -model_conservative true -ts_max_steps 6000 ${BOLT_SHOCK_OPTIONS:-}
        run "shock_m3_$model" -options_file_yaml inputs/shock_mach3.yaml -model_type "$model" \
            -model_conservative true -ts_max_steps 6000 ${BOLT_SHOCK_OPTIONS:-}
      done
      ;;
  esac
done
