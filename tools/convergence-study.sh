# convergence-study.sh -- shell functions shared by the device convergence studies
# (tools/device-projection-convergence.sh, tools/device-projection-cavity.sh,
# tools/device-mc-convergence.sh); sourced, not run.
# The caller sets BOLT, BACKEND, OUT, WORK and BUDGET (seconds for the whole script), optionally
# JSON_DIR (default $OUT) and CONV_OPTIONS (more options of tools/convergence.py, e.g. --noise),
# and calls conv_begin once before its first study.

# conv_begin: starts the budget's clock.
conv_begin() { conv_start=$SECONDS; }

# conv_left: seconds of BUDGET left.
conv_left() { echo $((BUDGET - (SECONDS - conv_start))); }

# conv_study NAME CASE FIXED LADDER TAG QUANTITY...: one tools/convergence.py ladder of CASE about
# the options FIXED, its table appended to $OUT/NAME.txt and its --json to
# $JSON_DIR/NAME_<option>_TAG.json; runs shared with earlier ladders of NAME are reused (one
# --work-dir per NAME), and no run may outlast the budget left.
conv_study() {
  local name=$1 case_file=$2 fixed=$3 ladder=$4 tag=$5
  shift 5
  local quantities=() q
  for q in "$@"; do quantities+=(--quantity "$q"); done
  local t0=$SECONDS
  python3 tools/convergence.py "$BOLT" --backend "$BACKEND" --case "$case_file" --fixed "$fixed" \
    --vary "$ladder" "${quantities[@]}" ${CONV_OPTIONS:-} --work-dir "$WORK/$name" --timeout "$(conv_left)" \
    --json "${JSON_DIR:-$OUT}/${name}_${ladder%%=*}_$tag.json" >> "$OUT/$name.txt" 2>&1
  local rc=$?
  echo "$name: -$ladder ($tag): status $rc, $((SECONDS - t0)) s" | tee -a "$OUT/$name.txt"
  return $rc
}
