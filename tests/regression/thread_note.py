#!/usr/bin/env python3
"""Checks the notes bolt prints when a rank's host work is held to fewer cores than it could
have (lib/driver/parallel_setup.cpp): mpirun binds each rank to one core by default, where OpenMP
starts one thread, or takes turns with the threads OMP_NUM_THREADS asks for; a slowdown a user
would not see otherwise. One rank bound to one core with two threads must note the turns; without
OMP_NUM_THREADS (on a machine of two cores or more) the one core of its share; both naming the
rank, the counts and the remedies. The same rank unbound must note nothing.

usage: thread_note.py BOLT
"""
import os
import subprocess
import sys
import tempfile

import run_case

TURNS = "bolt: note: rank 0 runs 2 OpenMP threads on 1 core of its CPU affinity"
SHARE = "bolt: note: rank 0 may use 1 of its node's cores (its CPU affinity) where its share is"


def launch(bolt, binding, outdir, threads):
    """stdout of a one-step 2-D cavity on one rank, bound as asked, with OMP_NUM_THREADS=threads
    (None: unset)."""
    env = {k: v for k, v in os.environ.items() if k != "OMP_NUM_THREADS"}
    if threads:
        env["OMP_NUM_THREADS"] = str(threads)
    cmd = ["mpiexec", "-n", "1", "--bind-to", binding, bolt, "-backend", "cpu",
           "-options_file_yaml", os.path.join(run_case.ROOT, "inputs", "cavity.yaml"),
           "-grid_n", "8,8,1", "-vgrid_n", "8", "-ts_max_steps", "1", "-out_dir", outdir]
    print("+", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if done.returncode != 0:
        print(done.stdout, done.stderr)
        raise SystemExit(f"bolt failed with status {done.returncode}")
    return done.stdout


def note(stdout):
    return next((l for l in stdout.splitlines() if l.startswith("bolt: note:")), "")


def check_thread_note(bolt, args, tmp):
    line = note(launch(bolt, "core", os.path.join(tmp, "turns"), 2))
    ok = run_case.report(line.startswith(TURNS) and "--bind-to none" in line
                         and "OMP_NUM_THREADS" in line,
                         f"bound to one core, two threads: {line or 'no note'}")
    if len(os.sched_getaffinity(0)) >= 2 and "SLURM_JOB_ID" not in os.environ:
        line = note(launch(bolt, "core", os.path.join(tmp, "share"), None))
        ok &= run_case.report(line.startswith(SHARE) and "--bind-to none" in line,
                              f"bound to one core, threads unset: {line or 'no note'}")
        line = note(launch(bolt, "none", os.path.join(tmp, "unbound"), 2))
        ok &= run_case.report(not line, f"unbound: {line or 'no note'}")
    return ok


if __name__ == "__main__":
    sys.argv[2:2] = ["thread_note"]
    run_case.main({"thread_note": check_thread_note}, __doc__)
