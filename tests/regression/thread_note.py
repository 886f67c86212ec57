#!/usr/bin/env python3
"""Checks the note bolt prints when a rank's OpenMP threads outnumber the cores of its CPU
affinity (lib/driver/parallel_setup.cpp): mpirun binds each rank to one core by default, and the
host's share of a run then runs its threads in turns on it, a slowdown a user would not see
otherwise. One rank bound to one core with two threads must print the note, naming the rank,
the counts and the remedies; the same rank unbound (on a machine of two cores or more) must not.

usage: thread_note.py BOLT
"""
import os
import subprocess
import sys
import tempfile

import run_case

NOTE = "bolt: note: rank 0 runs 2 OpenMP threads on 1 core of its CPU affinity"


def launch(bolt, binding, outdir):
    """stdout of a one-step 2-D cavity on one rank with two threads, bound as asked."""
    env = dict(os.environ, OMP_NUM_THREADS="2")
    cmd = ["mpiexec", "-n", "1", "--bind-to", binding, bolt, "-backend", "cpu",
           "-options_file_yaml", os.path.join(run_case.ROOT, "inputs", "cavity.yaml"),
           "-grid_n", "8,8,1", "-vgrid_n", "8", "-ts_max_steps", "1", "-out_dir", outdir]
    print("+", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    if done.returncode != 0:
        print(done.stdout, done.stderr)
        raise SystemExit(f"bolt failed with status {done.returncode}")
    return done.stdout


def check_thread_note(bolt, args, tmp):
    bound = launch(bolt, "core", os.path.join(tmp, "bound"))
    line = next((l for l in bound.splitlines() if l.startswith("bolt: note:")), "")
    ok = run_case.report(line.startswith(NOTE) and "--bind-to none" in line
                         and "OMP_NUM_THREADS" in line,
                         f"bound to one core: {line or 'no note'}")
    if len(os.sched_getaffinity(0)) >= 2:
        unbound = launch(bolt, "none", os.path.join(tmp, "unbound"))
        ok &= run_case.report("bolt: note:" not in unbound, "unbound: no note")
    return ok


if __name__ == "__main__":
    sys.argv[2:2] = ["thread_note"]
    run_case.main({"thread_note": check_thread_note}, __doc__)
