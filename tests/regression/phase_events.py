#!/usr/bin/env python3
"""Checks bolt's per-phase log events (lib/core/phase_events.hpp, docs/output.md "Where the time
goes"): an explicit run with halos (two boxes on one rank) and an iterative run with Anderson and
the synthetic correction, each with -log_view. Every phase of the run must be in the table with a
nonzero count, and the phases must add up to BoltStep, the loop's stretches of steps.

usage: phase_events.py BOLT

Tolerance of the sum: the phases are disjoint by construction (the parts of the synthetic
correction, its Jacobian and its solve, are logged inside it and left out of the sum) and lie inside BoltStep (the
accelerator's too: it pauses after the march's last stretch), so their sum cannot exceed it but
by the timer's resolution; what they leave out is the loop's bookkeeping between phases (sorting
halo messages, the stop check). Measured in 8 runs on two busy cores: 99.8-99.95 % of the step
explicit, 99.9-99.96 % iterative. A phase that lost its event would take several % of a step
(the halo exchange between two boxes of one rank aside, 0.1-0.3 %): 95 % is that loss, 101 % a
phase counted twice or one outside the step.
"""
import os
import re
import sys

import run_case

OUTPUT_EVENTS = {"BoltDiagnostics", "BoltFieldIO", "BoltCheckpoint",
                 # their parts: a monitor row's and a checkpoint's
                 "BoltFieldMoments", "BoltCaseDiagnostics", "BoltModelDiagnostics",
                 "BoltCheckpointState", "BoltCheckpointWrite"}
# Parts of a phase, logged inside it: in the table, not in the sum.
NESTED_EVENTS = {"BoltSyntheticJacobian", "BoltSyntheticSolve"}
LOWEST_SHARE, HIGHEST_SHARE = 0.95, 1.01

CASES = {
    # Two boxes of one rank: halo pack, exchange and unpack beside the boundary fill and the fused
    # streaming and relaxation.
    "explicit": (["-options_file_yaml", os.path.join(run_case.ROOT, "inputs", "shock_tube.yaml"),
                  "-grid_n", "24,8,1", "-grid_hi", "60,20,1",
                  "-geometry_boxes", "0,0,0,8,8,1;8,2,0,16,4,1", "-init_interface", "20",
                  "-stream_order", "2", "-vgrid_n", "8", "-model_conservative", "true",
                  "-ts_final_time", "0", "-ts_max_steps", "30", "-out_monitor_every", "10",
                  "-out_fields_every", "0", "-vgrid_tolerance", "0.3"],
                 ["BoltBoundaryFill", "BoltHaloPack", "BoltHaloExchange", "BoltFusedStep",
                  "BoltHaloUnpack", "BoltFieldMoments", "BoltCaseDiagnostics",
                  "BoltModelDiagnostics", "BoltCheckpointState", "BoltCheckpointWrite"]),
    "iterative": (["-options_file_yaml", os.path.join(run_case.ROOT, "inputs", "cavity.yaml"),
                   "-grid_n", "16,16,1", "-vgrid_n", "12", "-stream_order", "1",
                   "-solver", "iterative", "-iter_accel", "anderson", "-iter_synthetic", "true",
                   "-iter_tol", "1e-30", "-iter_max", "30", "-out_monitor_every", "10"],
                  ["BoltSweepTargets", "BoltSweep", "BoltMomentSums", "BoltIterUpdate",
                   "BoltSynthetic", "BoltSyntheticJacobian", "BoltSyntheticSolve",
                   "BoltAccelerator"]),
}

# A row of -log_view's event table: name, count, its max/min ratio, the time (max over ranks).
ROW = re.compile(r"^(Bolt\w+)\s+(\d+)\s+[\d.]+\s+([\d.]+e[+-]\d+)\s")


def events(log):
    """{name: (count, seconds)} of bolt's events in a -log_view table."""
    found = {}
    with open(log) as f:
        for line in f:
            row = ROW.match(line)
            if row:
                found[row.group(1)] = (int(row.group(2)), float(row.group(3)))
    return found


def check_case(bolt, name, tmp):
    args, phases = CASES[name]
    outdir = os.path.join(tmp, name)
    log = os.path.join(tmp, name + "_log.txt")
    run_case.run(bolt, args + ["-log_view", ":" + log], outdir)
    table = events(log)
    ok = run_case.report("BoltStep" in table, f"{name}: BoltStep in the -log_view table")
    for phase in phases:
        count = table.get(phase, (0, 0.0))[0]
        ok &= run_case.report(count > 0, f"{name}: {phase} logged {count} times")
    if not ok:
        return False
    step = table["BoltStep"][1]
    in_phases = {n: t for n, (c, t) in table.items()
                 if n != "BoltStep" and n not in OUTPUT_EVENTS | NESTED_EVENTS}
    share = sum(in_phases.values()) / step
    print("  " + ", ".join(f"{n} {100 * t / step:.1f} %" for n, t in in_phases.items()))
    return run_case.report(LOWEST_SHARE <= share <= HIGHEST_SHARE,
                           f"{name}: the phases take {100 * share:.2f} % of BoltStep "
                           f"({step:.3g} s), within [{100 * LOWEST_SHARE:g}, {100 * HIGHEST_SHARE:g}] %")


def check_phase_events(bolt, args, tmp):
    ok = True
    for name in CASES:
        ok &= check_case(bolt, name, tmp)
    return ok


if __name__ == "__main__":
    sys.argv[2:2] = ["phase_events"]
    run_case.main({"phase_events": check_phase_events}, __doc__)
