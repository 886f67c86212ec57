#!/usr/bin/env bash
# Strong- or weak-scaling study of one bolt case: submits one job per rank count (through
# slurm/multi-node.sbatch, one task per GPU), then a collecting job that waits for them and writes
# the table (Markdown + CSV) and the plot (PNG) with tools/scaling_table.py. Run it on the login
# node, from anywhere:
#
#   slurm/scaling.sh --ranks "1 2 4 8" inputs/cavity3d_gpu.yaml -decomp space
#   slurm/scaling.sh --mode weak --axis x --ranks "1 2 4 8" inputs/cavity3d.yaml
#   BOLT_GPUS_PER_TASK=0 BOLT_CPUS_PER_TASK=1 slurm/scaling.sh --wait --ranks "1 2" CASE.yaml
#
# Strong scaling runs the same case on every rank count. Weak scaling multiplies the cells along
# --axis by the rank count (the base is the last -grid_n given, else the case file's grid_n),
# so every rank keeps the same work; the cell size changes, the work per step does not.
# Runs that reach their time limit checkpoint and resubmit themselves (slurm/bolt-job.sh); the
# collecting job then waits for the resubmitted ones.
#
# Environment: BOLT_GPUS_PER_TASK (default 1; 0 = CPU backend, no GPU request),
# BOLT_CPUS_PER_TASK (default: the script header's), BOLT_SBATCH_ARGS (added to every sbatch,
# e.g. "--partition=gpu --account=abc --time=00:30:00"), and those of slurm/bolt-job.sh.
set -euo pipefail

usage() {
  cat >&2 <<'EOF'
usage: slurm/scaling.sh [options] CASE.yaml [bolt options...]
  --mode strong|weak     strong: same case on every rank count; weak: grid grown with the ranks
  --ranks "1 2 4 8"      rank (GPU) counts
  --ranks-per-node N     tasks per node, one per GPU (default 4)
  --axis x|y|z           weak scaling: the axis whose cells grow with the ranks (default x)
  --decomp KIND          passed to bolt as -decomp KIND (default: bolt's choice)
  --dir DIR              study directory (default bolt-output/scaling/<case>-<mode>-<date>)
  --wait                 wait until the study has finished, print the table; the exit status
                         is the collection's (1 when a run is missing or failed)
  --timeout SECONDS      with --wait: give up after this long (default 0: never)
EOF
  exit 2
}

mode=strong ranks="1 2 4 8" per_node=4 axis=x decomp="" dir="" wait=0 timeout=0
while [ $# -gt 0 ]; do
  case $1 in
    --mode) mode=${2:?}; shift 2 ;;
    --ranks) ranks=${2:?}; shift 2 ;;
    --ranks-per-node) per_node=${2:?}; shift 2 ;;
    --axis) axis=${2:?}; shift 2 ;;
    --decomp) decomp=${2:?}; shift 2 ;;
    --dir) dir=${2:?}; shift 2 ;;
    --wait) wait=1; shift ;;
    --timeout) timeout=${2:?}; shift 2 ;;
    -h|--help) usage ;;
    -*) echo "scaling.sh: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || usage
case_file=$(realpath "$1")
shift
[ -f "$case_file" ] || { echo "scaling.sh: no case file $case_file" >&2; exit 2; }
case $mode in strong|weak) ;; *) echo "scaling.sh: --mode strong or weak" >&2; exit 2 ;; esac
case $axis in
  x) ai=0 ;; y) ai=1 ;; z) ai=2 ;;
  *) echo "scaling.sh: --axis x, y or z" >&2; exit 2 ;;
esac
read -ra rank_list <<<"$ranks"
[ ${#rank_list[@]} -gt 0 ] || usage
for n in "${rank_list[@]}" "$per_node"; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: '$n' is not a positive rank count" >&2; exit 2; }
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
name=$(basename "$case_file" .yaml)
dir=$(realpath -m "${dir:-bolt-output/scaling/$name-$mode-$(date +%Y%m%d-%H%M%S)}")
job_name=bolt-$mode-$(basename "$dir")
gpus=${BOLT_GPUS_PER_TASK:-1}
read -ra extra <<<"${BOLT_SBATCH_ARGS:-}"
common=(--parsable --job-name="$job_name" --gpus-per-task="$gpus")
[ -n "${BOLT_CPUS_PER_TASK:-}" ] && common+=(--cpus-per-task="$BOLT_CPUS_PER_TASK")
export BOLT_ROOT=$root BOLT_GPUS_PER_TASK=$gpus

bolt_opts=("$@")
[ -n "$decomp" ] && bolt_opts+=(-decomp "$decomp")
if [ "$mode" = weak ]; then
  # The base grid: the last -grid_n on the command line, else the case file's, else bolt's default.
  base=""
  for ((i = 0; i < ${#bolt_opts[@]} - 1; i++)); do
    [ "${bolt_opts[i]}" = -grid_n ] && base=${bolt_opts[i + 1]}
  done
  if [ -z "$base" ]; then
    base=$(sed -n 's/^grid_n:[[:space:]]*\([0-9, ]*\).*/\1/p' "$case_file" | tr -d ' ')
  fi
  base=${base:-32,32,1}
  IFS=, read -ra base_n <<<"$base"
  [ ${#base_n[@]} = 3 ] || { echo "scaling.sh: base grid '$base' is not N_x,N_y,N_z" >&2; exit 2; }
fi

mkdir -p "$dir/runs"
ids=()
for n in "${rank_list[@]}"; do
  run_dir=$dir/runs/n$n
  mkdir -p "$run_dir"
  nodes=$(((n + per_node - 1) / per_node))
  opts=("${bolt_opts[@]}")
  if [ "$mode" = weak ]; then
    grid=("${base_n[@]}")
    grid[ai]=$((grid[ai] * n))
    opts+=(-grid_n "$(IFS=,; echo "${grid[*]}")")
  fi
  id=$(BOLT_OUT_DIR=$run_dir sbatch "${common[@]}" --nodes="$nodes" --ntasks="$n" \
         --ntasks-per-node="$((n < per_node ? n : per_node))" --output="$run_dir/slurm-%j.out" \
         "${extra[@]}" "$root/slurm/multi-node.sbatch" "$case_file" "${opts[@]}" \
         -summary "$run_dir/summary.json")
  id=${id%%;*}
  ids+=("$id")
  echo "scaling.sh: $n rank(s) on $nodes node(s): job $id, output in $run_dir"
done
after=$(IFS=:; echo "${ids[*]}")
collect=$(sbatch --parsable --job-name="$job_name" --dependency="afterany:$after" \
            --output="$dir/collect-%j.out" "${extra[@]}" "$root/slurm/scaling-collect.sbatch" \
            "$dir" "$mode" "$(IFS=,; echo "${rank_list[*]}")")
echo "scaling.sh: collecting job ${collect%%;*} writes $dir/scaling.{md,csv,png}"
[ "$wait" = 1 ] || exit 0

# Wait until no job of this study is queued (resubmitted runs and collectors keep the job name).
t0=$SECONDS failures=0 last=""
while :; do
  if queued=$(squeue -h -u "$(id -un)" -n "$job_name" -o '%i %T' 2>/dev/null); then
    failures=0
  else
    failures=$((failures + 1))
    [ $failures -lt 20 ] || { echo "scaling.sh: squeue keeps failing" >&2; exit 1; }
    queued=unknown
  fi
  [ -z "$queued" ] && break
  now=$(echo "$queued" | paste -sd' ')
  [ "$now" = "$last" ] || echo "scaling.sh: waiting for: $now"
  last=$now
  if [ "$timeout" -gt 0 ] && [ $((SECONDS - t0)) -ge "$timeout" ]; then
    echo "scaling.sh: jobs still queued after $timeout s: $now" >&2
    exit 1
  fi
  sleep 1
done
status=$(cat "$dir/collect.status" 2>/dev/null || echo missing)
if [ "$status" != 0 ]; then
  echo "scaling.sh: the collection failed (status $status); job outputs:" >&2
  tail -n 15 "$dir"/collect-*.out "$dir"/runs/*/slurm-*.out >&2 || true
  exit 1
fi
cat "$dir/scaling.md"
echo "scaling.sh: table $dir/scaling.md, $dir/scaling.csv; plot $dir/scaling.png"
