#!/usr/bin/env bash
# The slurm/ scripts on a real single-node Slurm cluster (label slurm, CPU backend):
#
#   test_slurm.sh scaling  BOLT SOURCE_DIR WORK_DIR   scaling driver, 1 and 2 ranks, its table
#   test_slurm.sh resubmit BOLT SOURCE_DIR WORK_DIR   run-case.sbatch: SIGUSR1 to the batch shell
#                                                     -> checkpoint -> resubmitted job finishes
#
# The cluster (munged, slurmctld, slurmd from Debian's packages, tools/setup-debian.sh installs
# them) is started by local-slurm.sh and stopped on every exit, failures included. It needs
# root (munged runs as the munge user). A cluster that cannot start fails the test: CI must not
# pass without having run the scripts. Waiting on jobs gives up after LOCAL_SLURM_JOB_TIMEOUT
# seconds (a safety net against a hung cluster, not a performance limit).
set -euo pipefail
what=${1:?usage: test_slurm.sh scaling|resubmit BOLT SOURCE_DIR WORK_DIR}
export BOLT=${2:?} BOLT_ROOT=${3:?}
work=${4:?}

fail() { echo "test_slurm: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root to start munged/slurmctld/slurmd (ctest -LE slurm skips)"

# CPU backend, one core per rank: the CI machine has no GPU and 2 cores.
export BOLT_GPUS_PER_TASK=0 BOLT_CPUS_PER_TASK=1 OMP_NUM_THREADS=1
# The cluster's CPUs: the machine's, at least 2 for the 2-rank run (Slurm lets them exceed the
# cores).
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
export LOCAL_SLURM_CPUS=${LOCAL_SLURM_CPUS:-$((cpus < 2 ? 2 : cpus))}
export LOCAL_SLURM_NO_INSTALL=1 LOCAL_SLURM_JOB_TIMEOUT=600
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck source=tests/slurm/local-slurm.sh
. "$BOLT_ROOT/tests/slurm/local-slurm.sh"
trap 'local_slurm_down' EXIT
local_slurm_up || fail "the Slurm cluster did not start (see above; logs in $LOCAL_SLURM_DIR/log)"

rm -rf "$work"
mkdir -p "$work"
cd "$work"
small=(-grid_n "16,16,1" -vgrid_n 8)

test_scaling() {
  local decomp=()
  # Fix the decomposition where bolt has one, so that both runs land in one group of the table.
  "$BOLT" -help 2>/dev/null | grep -q -- '-decomp' && decomp=(--decomp space)
  "$BOLT_ROOT/slurm/scaling.sh" --wait --timeout 600 --ranks "1 2" --dir "$work/study" \
    "${decomp[@]}" "$BOLT_ROOT/inputs/cavity.yaml" "${small[@]}" -ts_max_steps 20 \
    || fail "slurm/scaling.sh failed"
  /usr/bin/python3 - "$work/study" <<'EOF' || fail "the scaling table is wrong"
import csv, math, os, sys
study = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(study, "scaling.csv"))))
print(f"test_slurm: {len(rows)} row(s) in scaling.csv")
assert sorted(int(r["ranks"]) for r in rows) == [1, 2], rows
for r in rows:
    for key in ("ms_per_step", "speedup", "efficiency"):
        v = float(r[key])
        assert math.isfinite(v) and v > 0, (r["ranks"], key, v)
    assert r["grid"] == "16x16x1" and r["backend"] == "cpu" and r["mode"] == "strong", r
table = open(os.path.join(study, "scaling.md")).read()
assert "| 1 | 16x16x1 |" in table and "| 2 | 16x16x1 |" in table, table
assert os.path.getsize(os.path.join(study, "scaling.png")) > 1000
EOF
  echo "test_slurm: scaling passed"
}

test_resubmit() {
  local job next out=$work/bolt-output/cavity i
  # Long enough (seconds) that the signal arrives while bolt steps; monitor lines every 50 steps
  # are where bolt looks at the stop request.
  job=$(sbatch --parsable --gpus-per-task=0 --cpus-per-task=1 "$BOLT_ROOT/slurm/run-case.sbatch" \
          "$BOLT_ROOT/inputs/cavity.yaml" "${small[@]}" -ts_max_steps 3000 \
          -out_monitor_every 50 -ts_steady_tol 0)
  job=${job%%;*}
  for ((i = 0; i < 1200; i++)); do
    grep -qs '^step' "$out/bolt-$job.log" && break
    [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] || fail "job $job ended before bolt stepped"
    sleep 0.2
  done
  grep -qs '^step' "$out/bolt-$job.log" || fail "bolt did not start stepping in job $job"
  # What --signal=B:USR1@300 does before the time limit: the signal goes to the batch shell.
  scancel --batch --signal=USR1 "$job"
  local_slurm_wait_jobs "$job" || fail "job $job did not complete"
  [ -s "$out/resubmitted" ] || fail "job $job did not resubmit itself ($(cat "bolt-$job.out"))"
  next=$(tail -n 1 "$out/resubmitted")
  local_slurm_wait_jobs "$next" || fail "resubmitted job $next did not complete"
  cat "bolt-$job.out" "bolt-$next.out"
  grep -q "stopped by a signal at step" "bolt-$job.out" || fail "job $job: no stop at a signal"
  grep -q "resubmitted as job $next" "bolt-$job.out" || fail "job $job: no resubmission line"
  grep -q "restarted from $out/checkpoint.h5.restart at step [1-9]" "bolt-$next.out" \
    || fail "job $next did not restart from the checkpoint"
  grep -q '"steps": 3000' "$out/summary.json" || fail "the continued run did not reach step 3000"
  echo "test_slurm: resubmit passed"
}

case $what in
  scaling) test_scaling ;;
  resubmit) test_resubmit ;;
  *) fail "unknown test $what" ;;
esac
