#!/usr/bin/env python3
"""steady_time.py MONITOR_CSV [TOL]: when a run's D and G reached their final values.

Reads a cavity run's monitor.csv (one row per monitor stop) and reports the first row from which
D and G stay within TOL (relative, default 1e-4) of the last row's, the step or iteration count
there and its wall time (count x the run's mean ms per step): the time to steady state "at the
same tolerance on D and G" by which docs/benchmarks.md compares the explicit and the iterative
solver. Prints one line of JSON."""
import csv
import json
import sys


def steady_point(path, tol):
    rows = [{k: float(v) for k, v in r.items()} for r in csv.DictReader(open(path))]
    last = rows[-1]
    first = len(rows) - 1
    for i in range(len(rows) - 1, -1, -1):
        if all(abs(rows[i][k] - last[k]) <= tol * abs(last[k]) for k in ("D", "G")):
            first = i
        else:
            break
    row = rows[first]
    return {"monitor": path, "tol": tol, "D": last["D"], "G": last["G"], "count": int(row["step"]),
            "final_count": int(last["step"]), "ms_per_unit": last["ms_per_step"],
            "seconds": row["step"] * last["ms_per_step"] / 1e3,
            "final_residual": last["residual"]}


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    print(json.dumps(steady_point(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1e-4)))
