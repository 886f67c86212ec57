# shellcheck shell=bash
# bolt-job.sh: the body shared by the slurm/*.sbatch scripts (sourced inside the job, not run).
#
# bolt_job_main CASE.yaml [bolt options...] runs bolt on every task of the allocation with one
# srun, forwards the checkpoint signal to it, and resubmits the job from the checkpoint when bolt
# was stopped by that signal. The scripts differ only in their #SBATCH header.
#
# Why each piece is here:
# - Slurm sends SIGUSR1 to the batch shell only (#SBATCH --signal=B:USR1@300): srun would get no
#   signal of its own. The shell traps it (from its start: USR1's default action would kill it)
#   and forwards it to srun, which passes it to every task; bolt finishes its step, writes the
#   checkpoint, prints "stopped by a signal" and exits with status 4.
# - SIGTERM (scancel, or the hard time limit) is not trapped: the shell dies and nothing is
#   resubmitted, so scancel really cancels.
# - The resubmitted job gets the same shape (nodes, tasks, CPUs, GPUs, time, partition, name,
#   output pattern) even when those came from the sbatch command line, not from the header.
#
# Environment (all optional):
#   BOLT_ROOT            bolt checkout             (default: the directory above this script)
#   BOLT                 bolt executable           (default: $BOLT_ROOT/build/app/bolt)
#   BOLT_OUT_DIR         output directory          (default: bolt-output/<case>[-n<tasks>])
#   BOLT_GPUS_PER_TASK   GPUs per task; 0 = CPU backend: no --gpus-per-task/--gpu-bind on srun,
#                        `-backend cpu` for bolt   (default: the allocation's, else 1)
#   BOLT_GPU_BIND        srun --gpu-bind value     (default: none, see below)
#   BOLT_SRUN_MPI        srun --mpi value, e.g. pmix (default: the cluster's MpiDefault)
#   BOLT_MAX_RESUBMITS   give up resubmitting after this many (default 20)
#   BOLT_RESTART         checkpoint to continue from (set by the resubmission)

# One field of this job's record in slurmctld (Command: the script that was submitted; the job
# runs a spooled copy of it, $0, elsewhere).
_bolt_job_field() {
  scontrol -o show job "$SLURM_JOB_ID" 2>/dev/null | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

# sbatch from inside a job: without this job's SLURM_* variables, which would otherwise leak into
# the new job (srun reads some of them, e.g. SLURM_CPUS_PER_TASK).
bolt_sbatch() {
  local v unset_env=()
  for v in $(compgen -e | grep '^SLURM_' | grep -v '^SLURM_CONF$'); do unset_env+=(-u "$v"); done
  env "${unset_env[@]}" sbatch "$@"
}

# Sets the paths and launch flags of this job.
bolt_job_setup() {
  local case_file=$1 name a
  shift
  bolt_case_file=$case_file
  bolt_script=$(_bolt_job_field Command)
  [ -n "$bolt_script" ] && [ -f "$bolt_script" ] || bolt_script=$0
  BOLT_ROOT=${BOLT_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
  bolt_exe=${BOLT:-$BOLT_ROOT/build/app/bolt}
  if [ ! -x "$bolt_exe" ]; then
    echo "bolt-job: no executable $bolt_exe (build bolt or set BOLT)" >&2
    exit 2
  fi
  [ -f "$case_file" ] || { echo "bolt-job: no case file $case_file" >&2; exit 2; }
  for a in "$@"; do
    case $a in -out_dir|-out_checkpoint)
      echo "bolt-job: set the output directory with BOLT_OUT_DIR, not $a (the checkpoint to" \
           "resubmit from is <out_dir>/checkpoint.h5)" >&2
      exit 2 ;;
    esac
  done
  name=$(basename "$case_file" .yaml)
  [ "${SLURM_NTASKS:-1}" -gt 1 ] && name=$name-n$SLURM_NTASKS
  bolt_out_dir=${BOLT_OUT_DIR:-$SLURM_SUBMIT_DIR/bolt-output/$name}
  bolt_checkpoint=$bolt_out_dir/checkpoint.h5
  bolt_log=$bolt_out_dir/bolt-$SLURM_JOB_ID.log
  mkdir -p "$bolt_out_dir"

  BOLT_GPUS_PER_TASK=${BOLT_GPUS_PER_TASK:-${SLURM_GPUS_PER_TASK:-1}}
  bolt_srun_flags=(--ntasks="${SLURM_NTASKS:-1}")
  # Since Slurm 22.05 srun no longer inherits the job's --cpus-per-task: ask again.
  [ -n "${SLURM_CPUS_PER_TASK:-}" ] && bolt_srun_flags+=(--cpus-per-task="$SLURM_CPUS_PER_TASK")
  bolt_backend_flags=()
  if [ "$BOLT_GPUS_PER_TASK" -gt 0 ]; then
    # bolt picks its GPU itself: node-local rank modulo the visible GPUs, and refuses two ranks
    # of a node on one GPU (lib/driver/parallel_setup.cpp). Both bindings work: none (every task sees
    # the step's GPUs and takes the one of its local rank) and per-task binding (each task sees
    # only its own). none is the default: it leaves NCCL every GPU of the node to find peers.
    bolt_srun_flags+=(--gpus-per-task="$BOLT_GPUS_PER_TASK" --gpu-bind="${BOLT_GPU_BIND:-none}")
  else
    bolt_backend_flags=(-backend cpu)
  fi
  [ -n "${BOLT_SRUN_MPI:-}" ] && bolt_srun_flags+=(--mpi="$BOLT_SRUN_MPI")
  # OpenMP threads of the CPU backend: the task's CPUs, unless set.
  export OMP_NUM_THREADS=${OMP_NUM_THREADS:-${SLURM_CPUS_PER_TASK:-1}}
  echo "bolt-job: job $SLURM_JOB_ID, $SLURM_NTASKS task(s) on $SLURM_JOB_NUM_NODES node(s)" \
       "($SLURM_JOB_NODELIST), $BOLT_GPUS_PER_TASK GPU(s) per task, output in $bolt_out_dir"
}

_bolt_forward() {
  bolt_signalled=1
  _bolt_trapped=1
  if [ -n "${bolt_pid:-}" ]; then
    echo "bolt-job: got SIG$1, forwarding it to bolt (srun pid $bolt_pid)"
    kill -s "$1" "$bolt_pid" 2>/dev/null || true
  else
    echo "bolt-job: got SIG$1 before bolt started"
  fi
}

# Runs bolt on all tasks; sets bolt_status and bolt_stopped (1 if it stopped at a checkpoint).
bolt_job_run() {
  local restart=() tee_pid
  [ -n "${BOLT_RESTART:-}" ] && restart=(-restart "$BOLT_RESTART")
  bolt_stopped=0
  if [ "$bolt_signalled" = 1 ]; then
    echo "bolt-job: the time-limit signal came before bolt started (is the time limit shorter" \
         "than the --signal lead time?); not starting it" >&2
    bolt_status=1
    return 0
  fi
  # bolt's output goes to the job's output and to a log of this job, read below.
  exec 3> >(tee "$bolt_log")
  tee_pid=$!
  # The paths and the restart come last, so they win over the same options given by the user
  # (a -restart among the arguments would otherwise restart every resubmission from there).
  srun "${bolt_srun_flags[@]}" "$bolt_exe" -options_file_yaml "$bolt_case_file" "$@" \
       "${bolt_backend_flags[@]}" -out_dir "$bolt_out_dir" -out_checkpoint "$bolt_checkpoint" \
       "${restart[@]}" >&3 2>&1 &
  bolt_pid=$!
  while :; do
    _bolt_trapped=0
    wait "$bolt_pid"
    bolt_status=$?
    # A trapped signal interrupts wait (status > 128) while srun still runs: wait again.
    if [ "$_bolt_trapped" = 1 ] && [ "$bolt_status" -gt 128 ] \
       && kill -0 "$bolt_pid" 2>/dev/null; then
      continue
    fi
    break
  done
  exec 3>&-
  wait "$tee_pid" 2>/dev/null || true
  # Exit status 4: stopped by the signal with its checkpoint written.
  [ "$bolt_status" = 4 ] && grep -q "stopped by a signal" "$bolt_log" && bolt_stopped=1
  return 0
}

# Submits this script again, continuing from a copy of the checkpoint (bolt writes the new
# checkpoint to the same path while it reads the old one).
bolt_job_resubmit() {
  local count=${BOLT_RESUBMIT_COUNT:-0} max=${BOLT_MAX_RESUBMITS:-20} flags=() v new
  if [ "$count" -ge "$max" ]; then
    echo "bolt-job: stopped at a checkpoint, but $count resubmissions reached" \
         "BOLT_MAX_RESUBMITS=$max; continue by hand with BOLT_RESTART=$bolt_checkpoint" >&2
    return 1
  fi
  cp "$bolt_checkpoint" "$bolt_checkpoint.restart" || return 1
  flags=(--parsable --nodes="$SLURM_JOB_NUM_NODES" --ntasks="$SLURM_NTASKS"
         --gpus-per-task="$BOLT_GPUS_PER_TASK" --job-name="$SLURM_JOB_NAME")
  [ -n "${SLURM_NTASKS_PER_NODE:-}" ] && flags+=(--ntasks-per-node="$SLURM_NTASKS_PER_NODE")
  [ -n "${SLURM_CPUS_PER_TASK:-}" ] && flags+=(--cpus-per-task="$SLURM_CPUS_PER_TASK")
  [ -n "${SLURM_JOB_PARTITION:-}" ] && flags+=(--partition="$SLURM_JOB_PARTITION")
  [ -n "${SLURM_JOB_ACCOUNT:-}" ] && flags+=(--account="$SLURM_JOB_ACCOUNT")
  v=$(_bolt_job_field TimeLimit)
  [ -n "$v" ] && [ "$v" != UNLIMITED ] && flags+=(--time="$v")
  v=$(_bolt_job_field StdOut)  # this job's output file: its job id back to the %j pattern
  [ -n "$v" ] && flags+=(--output="${v//$SLURM_JOB_ID/%j}")
  new=$(BOLT_RESTART="$bolt_checkpoint.restart" BOLT_RESUBMIT_COUNT=$((count + 1)) \
        BOLT_OUT_DIR="$bolt_out_dir" BOLT_GPUS_PER_TASK="$BOLT_GPUS_PER_TASK" \
        bolt_sbatch "${flags[@]}" --export=ALL "$bolt_script" "$bolt_case_file" "$@") || return 1
  new=${new%%;*}
  echo "$new" >>"$bolt_out_dir/resubmitted"  # the scaling collector waits for these
  echo "bolt-job: stopped at a checkpoint; resubmitted as job $new from $bolt_checkpoint.restart"
}

bolt_job_main() {
  [ $# -ge 1 ] || { echo "usage: sbatch $0 CASE.yaml [bolt options...]" >&2; exit 2; }
  local case_file=$1
  shift
  # Trap at once: USR1's default action would kill the shell before srun is running.
  bolt_signalled=0
  bolt_pid=""
  trap '_bolt_forward USR1' USR1
  bolt_job_setup "$case_file" "$@"
  bolt_job_run "$@"
  if [ "$bolt_stopped" = 1 ]; then
    bolt_job_resubmit "$@" || exit 1
    exit 0  # the run goes on in the resubmitted job
  fi
  exit "$bolt_status"
}
