#!/usr/bin/env bash
# cpu-bench.sh -- the CPU backend against STREAM (docs/benchmarks.md, "CPU backend"): bolt_bench
# --backend cpu on the explicit step (2-D cavity 64² × 16³, 128² × 24³ and 64² × 32² reduced (2V),
# float and double) and the iterative sweep (2-D cavity 64² × 32² reduced, 3-D cavity 24³ × 16³,
# first and second order, float and double), each run measuring STREAM copy and triad itself, its passes
# interleaved with the repetitions of the step. Given a second binary (the baseline), each case
# runs both, alternating, ROUNDS times, so that a shared machine slows both alike.
#
#   tools/cpu-bench.sh [BENCH [BASELINE_BENCH]]    (default: build/app/bolt_bench)
#
# Environment: OUT (default /tmp/cpu-bench): the logs and bench.jsonl (labels "cpu$TAG-..." and,
# for the baseline, "cpu$TAG-...-before"; TAG, e.g. "-16cores", keeps another machine's rows
# apart in docs/data/benchmarks/cpu_stream.json); ROUNDS (default 2); ONLY (a regular expression:
# the cases whose names match it, e.g. "^sweep"; default all); OMP_NUM_THREADS (default: every
# core); OMP_PROC_BIND and OMP_PLACES default to close and cores (one thread per core, kept
# there: a thread that moves loses its caches and, on several sockets, its memory).
set -u -o pipefail
BENCH=${1:-build/app/bolt_bench}
BASELINE=${2:-}
OUT=${OUT:-/tmp/cpu-bench}
ROUNDS=${ROUNDS:-2}
TAG=${TAG:-}
ONLY=${ONLY:-.}
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
mkdir -p "$OUT"
: > "$OUT/bench.jsonl"

CASES=(
  "explicit-64-16-double|--bc cavity --cells 64,64 --velocities 16 --precision double --steps 5 --reps 5 --warmup 1"
  "explicit-64-16-float|--bc cavity --cells 64,64 --velocities 16 --precision float --steps 5 --reps 5 --warmup 1"
  "explicit-128-24-double|--bc cavity --cells 128,128 --velocities 24 --precision double --steps 2 --reps 3 --warmup 1"
  "explicit-128-24-float|--bc cavity --cells 128,128 --velocities 24 --precision float --steps 2 --reps 3 --warmup 1"
  "explicit2v-64-32-double|--bc cavity --cells 64,64 --velocities 32 --reduce z --precision double --steps 5 --reps 5 --warmup 1"
  "explicit2v-64-32-float|--bc cavity --cells 64,64 --velocities 32 --reduce z --precision float --steps 5 --reps 5 --warmup 1"
)
sweep2d="--solver iterative --bc cavity --cells 64,64 --velocities 32 --reduce z --delta 1 --lid 0.01 --steps 1 --reps 5 --warmup 1"
sweep3d="--solver iterative --bc cavity --cells 24,24,24 --velocities 16 --delta 1 --lid 0.01 --steps 1 --reps 3 --warmup 1"
for order in 1 2; do
  for precision in double float; do
    CASES+=("sweep2d-64-32-order$order-$precision|$sweep2d --order $order --precision $precision"
            "sweep3d-24-16-order$order-$precision|$sweep3d --order $order --precision $precision")
  done
done
# A baseline bolt_bench from before --solver times only the explicit step.
baseline_sweeps=0
[ -n "$BASELINE" ] && "$BASELINE" --help 2>&1 | grep -q -- --solver && baseline_sweeps=1

for entry in "${CASES[@]}"; do
  name=${entry%%|*}
  args=${entry#*|}
  [[ $name =~ $ONLY ]] || continue
  for round in $(seq 1 "$ROUNDS"); do
    for side in after before; do
      binary=$BENCH label=cpu$TAG-$name
      if [ "$side" = before ]; then
        [ -n "$BASELINE" ] && { [ "${name#sweep}" = "$name" ] || [ $baseline_sweeps = 1 ]; } || continue
        binary=$BASELINE label=cpu$TAG-$name-before
      fi
      log=$OUT/$name-$side-$round.log
      # shellcheck disable=SC2086  # args is a list of arguments
      "$binary" --backend cpu --label "$label" $args > "$log" 2>&1
      echo "$name $side $round: exit $?; $(grep -E 'ms/(step|sweep)|best (step|sweep)|STREAM \(' "$log" | tr '\n' ' ')"
      grep '^BOLT_BENCH_JSON ' "$log" >> "$OUT/bench.jsonl"
    done
  done
done

# For tools/benchmarks_doc.py, the run of each label in the quietest round (the highest STREAM
# copy; a baseline run shares the STREAM of the run before it, so a case's two rows stay a pair).
python3 - "$OUT/bench.jsonl" > "$OUT/best.jsonl" <<'PY'
import json, sys
best, stream = {}, {}
for line in open(sys.argv[1]):
    row = json.loads(line[len("BOLT_BENCH_JSON "):])
    case = row["label"].removesuffix("-before")
    if row.get("triad_GBps", 0) > 0:
        stream[case] = row
    elif case in stream:
        # A baseline without STREAM of its own: that of the run just before it, same case.
        ref = stream[case]
        best_GBps = row["bytes_per_step"] / (row["ms_per_step_min"] * 1e-3) * 1e-9
        row.update(copy_GBps=ref["copy_GBps"], triad_GBps=ref["triad_GBps"],
                   copy_buffer_GiB=ref["copy_buffer_GiB"], threads=ref["threads"],
                   achieved_GBps_best=best_GBps,
                   fraction_of_copy=row["achieved_GBps"] / ref["copy_GBps"],
                   fraction_of_copy_best=best_GBps / ref["copy_GBps"],
                   fraction_of_triad_best=best_GBps / ref["triad_GBps"])
    else:
        continue
    old = best.get(row["label"])
    if old is None or row["copy_GBps"] > old["copy_GBps"]:
        best[row["label"]] = row
for row in best.values():
    print(json.dumps(row))
PY
echo "cpu-bench: $OUT/best.jsonl (the quietest of $ROUNDS rounds per label)"
