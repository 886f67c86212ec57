#!/usr/bin/env bash
# Cavity validation campaign (docs/validation.md): BGK lid-driven cavity at delta = 0.1, 1, 10 on
# a sequence of grids, on the GPU, until steady (double precision: in float the small lid
# perturbation freezes at a fixed point of the rounding before it is steady). Writes one summary
# JSON per run to ${OUT:-/tmp/validate}/cavity/ (fields and checkpoints stay in $WORK) and a
# table (cavity.tsv) of delta, grid, velocities, D, G, steps.
# usage: tools/validate-cavity.sh BOLT [RUN ...]   RUN = delta:N:NV:HALFWIDTH:STRETCH:TOL:TFINAL
# environment: ORDER (streaming order, 1), COURANT (largest Courant number, 0.9), PRECISION
set -u -o pipefail
BOLT=${1:?usage: validate-cavity.sh BOLT [RUN ...]}
shift
OUT=${OUT:-/tmp/validate}
WORK=${WORK:-/tmp/validate-work}
mkdir -p "$OUT/cavity" "$WORK"
RUNS=("$@")
if [ ${#RUNS[@]} -eq 0 ]; then
  RUNS=(10:32:16:4:1:1e-10:12 10:64:16:4:1:1e-10:12 10:128:16:4:1:1e-10:12
        1:32:32:4:1:1e-10:12 1:64:24:4:1:1e-10:12 1:64:32:4:1:1e-10:12
        0.1:32:32:4:1:1e-10:12 0.1:64:32:4:1:1e-10:12)
fi
printf "delta\tN\tnv\thalf_width\tgrid_stretch\tD\tG\tsteps\ttime\tresidual\twall_s\n" > "$OUT/cavity.tsv"
for run in "${RUNS[@]}"; do
  IFS=: read -r delta n nv a stretch tol tfinal <<<"$run"
  name="cavity_d${delta}_n${n}_v${nv}_s${stretch}_o${ORDER:-1}"
  "$BOLT" -options_file_yaml inputs/cavity.yaml -case_name "$name" -model_delta "$delta" \
      -grid_n "$n,$n,1" -grid_stretch "$stretch,$stretch,1" -grid_fine_x both -grid_fine_y high \
      -vgrid_n "$nv" -vgrid_half_width "$a" -ts_max_courant "${COURANT:-0.9}" -stream_order "${ORDER:-1}" -ts_steady_tol "$tol" \
      -ts_final_time "$tfinal" -ts_max_steps 10000000 -out_monitor_every 500 \
      -out_dir "$WORK/$name" -summary "$OUT/cavity/$name.json" \
      -precision "${PRECISION:-double}" > "$OUT/cavity/$name.log" 2>&1 || echo "$name FAILED"
  python3 - "$OUT/cavity/$name.json" "$delta" "$n" "$nv" "$a" "$stretch" >> "$OUT/cavity.tsv" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
d = s["diagnostics"]
print("\t".join(sys.argv[2:7] + ["%.5f" % d["D"], "%.5f" % d["G"], str(s["steps"]),
                                 "%.3f" % s["time"], "%.2e" % s["residual"],
                                 "%.1f" % s["timing"]["wall_seconds"]]))
PY
  tail -1 "$OUT/cavity.tsv"
done
