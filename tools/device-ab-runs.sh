#!/usr/bin/env bash
# device-ab-runs.sh -- runs short cases of every method with two builds of bolt on the GPU and
# checks that their outputs are the same bit for bit (tools/compare_runs.py): the check for a
# change that must not alter results (a refactoring), beside the CPU/GPU agreement tests.
#
#   tools/device-ab-runs.sh BASELINE_BOLT CANDIDATE_BOLT [OUT]     (OUT default /tmp/ab-runs)
# Prints one line per case and a count last; exits 1 if any case differs or fails. The iterative
# solver's GPU sweep adds its sums atomically, so its results vary in the last bits from run to
# run: its cases also run the baseline twice, and differ only if the baseline repeats itself.
set -u -o pipefail
[ $# -ge 2 ] || { sed -n '2,7p' "$0" >&2; exit 2; }
A=$1 B=$2 OUT=${3:-/tmp/ab-runs}
mkdir -p "$OUT"
CASES=(
  "bgk-f64|-options_file_yaml inputs/cavity.yaml -ts_max_steps 60 -out_monitor_every 20"
  "bgk-f32|-options_file_yaml inputs/cavity.yaml -ts_max_steps 60 -out_monitor_every 20 -precision float"
  "shakhov-3d|-options_file_yaml inputs/cavity3d.yaml -model_type shakhov -grid_n 16,16,16 -ts_max_steps 20 -out_monitor_every 10"
  "shakhov-3d-32v-f32|-options_file_yaml inputs/cavity3d.yaml -model_type shakhov -grid_n 12,12,12 -vgrid_n 32 -precision float -ts_max_steps 20 -out_monitor_every 10"
  "esbgk-shock|-options_file_yaml inputs/shock_mach3.yaml -model_type esbgk -ts_max_steps 100 -out_monitor_every 50"
  "two-boxes|-options_file_yaml inputs/shock_tube.yaml -ts_max_steps 40 -out_monitor_every 20"
  "hs_mc-f32|-options_file_yaml inputs/cavity_hs_mc_paper_delta10.yaml -ts_max_steps 20 -out_monitor_every 10 -precision float"
  "hs_mc-f64|-options_file_yaml inputs/cavity_hs_mc_paper_delta1.yaml -ts_max_steps 20 -out_monitor_every 10 -precision double"
  "projection|-options_file_yaml inputs/cavity_projection_paper.yaml -ts_max_steps 6 -out_monitor_every 3"
  "iterative|-options_file_yaml inputs/cavity_iterative_delta1.yaml -iter_max 8 -out_monitor_every 4"
  "iterative-shakhov|-options_file_yaml inputs/cavity3d_iterative_kn1.yaml -grid_n 16,16,16 -iter_max 4 -out_monitor_every 2"
)
failed=0
for entry in "${CASES[@]}"; do
  name=${entry%%|*} args=${entry#*|}
  sides="A B"
  [[ $name == iterative* ]] && sides="A B A2"
  for side in $sides; do
    binary=$A; [ "$side" = B ] && binary=$B
    # shellcheck disable=SC2086  # args is a list of arguments
    "$binary" -backend cuda $args -out_dir "$OUT/$name-$side" -summary "$OUT/$name-$side/summary.json" \
      > "$OUT/$name-$side.log" 2>&1 || { echo "ab-runs: $name: $side failed (exit $?), $OUT/$name-$side.log"; }
  done
  python3 "$(dirname "$0")/compare_runs.py" "$OUT/$name-A" "$OUT/$name-B" | tail -1 | sed "s|^|ab-runs: $name: |"
  status=${PIPESTATUS[0]}
  if [ "$status" -ne 0 ] && [[ $sides == *A2 ]]; then
    python3 "$(dirname "$0")/compare_runs.py" "$OUT/$name-A" "$OUT/$name-A2" | tail -1 |
      sed "s|^|ab-runs: $name: the baseline against itself: |"
    [ "${PIPESTATUS[0]}" -ne 0 ] && status=0
  fi
  [ "$status" -eq 0 ] || failed=$((failed + 1))
done
echo "ab-runs: ${#CASES[@]} cases, $failed differ"
[ "$failed" -eq 0 ]
