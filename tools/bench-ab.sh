#!/usr/bin/env bash
# bench-ab.sh -- times two builds of bolt_bench on the same cases in one call, interleaved
# (A B A B ...), so that a change is measured against its baseline on the same device instance
# (instances of one GPU model differ by ~1-3 %, docs/benchmarks.md). Prints a table last.
#
#   tools/bench-ab.sh BASELINE_BENCH CANDIDATE_BENCH [CASE_ARGS ...]
#
# Each CASE_ARGS is one quoted argument list for bolt_bench, e.g.
#   "--case inputs/cavity_hs_mc_paper_delta10.yaml --precision float"
# (default: the hs_mc delta = 10 cavity in float, the DESIGN.md target case).
# Environment: ROUNDS (default 2) interleaved runs of each build per case; STEPS (20) and
# REPS (3) per run; OUT (default /tmp/bench-ab) for the logs.
set -u -o pipefail

if [ $# -lt 2 ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
A=$1
B=$2
shift 2
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=("--case inputs/cavity_hs_mc_paper_delta10.yaml --precision float")
ROUNDS=${ROUNDS:-2}
STEPS=${STEPS:-20}
REPS=${REPS:-3}
OUT=${OUT:-/tmp/bench-ab}
mkdir -p "$OUT"
: > "$OUT/ab.tsv"

for n in "${!CASES[@]}"; do
  args=${CASES[$n]}
  for round in $(seq 1 "$ROUNDS"); do
    for side in A B; do
      binary=$A
      [ "$side" = B ] && binary=$B
      log="$OUT/case${n}_${side}_${round}.log"
      # shellcheck disable=SC2086  # args is a list of arguments
      "$binary" --backend cuda --steps "$STEPS" --reps "$REPS" $args > "$log" 2>&1
      ms=$(sed -n 's/.*"ms_per_step":\([0-9.eE+-]*\).*/\1/p' "$log")
      printf '%s\t%s\t%s\t%s\n' "$n" "$side" "$round" "${ms:-failed}" >> "$OUT/ab.tsv"
    done
  done
done

echo "== bench-ab: A = $A, B = $B (ms/step, median of $REPS x $STEPS steps per run)"
for n in "${!CASES[@]}"; do
  a=$(awk -F'\t' -v n="$n" '$1 == n && $2 == "A" {printf "%s ", $4}' "$OUT/ab.tsv")
  b=$(awk -F'\t' -v n="$n" '$1 == n && $2 == "B" {printf "%s ", $4}' "$OUT/ab.tsv")
  ratio=$(awk -F'\t' -v n="$n" '$1 == n && $2 == "A" {sa += $4; na++} $1 == n && $2 == "B" {sb += $4; nb++}
                END {if (na && nb && sa > 0) printf "%.4f", (sb / nb) / (sa / na)}' "$OUT/ab.tsv")
  echo "  ${CASES[$n]}"
  echo "    A: ${a}  B: ${b}  B/A (means): ${ratio:-n/a}"
done
