#!/usr/bin/env python3
"""Whether two bolt runs of the same case gave the same numbers, bit for bit: every dataset of
their last checkpoint and last fields file, and the monitor rows' columns except the timings.
A refactoring that must not change results is checked by running the old and the new binary on
the same options (tools/device-ab-runs.sh does so on a GPU).

    python3 tools/compare_runs.py OUT_DIR_A OUT_DIR_B      # exit 1 on the first difference
"""
import csv
import glob
import os
import sys

import h5py
import numpy as np

TIMING_COLUMNS = {"ms_per_step", "updates_per_second", "eta_s"}


def datasets(path):
    found = {}
    with h5py.File(path, "r") as f:
        f.visititems(lambda name, item: found.__setitem__(name, item[()])
                     if isinstance(item, h5py.Dataset) else None)
    return found


def same_file(a, b):
    da, db = datasets(a), datasets(b)
    if da.keys() != db.keys():
        return f"{os.path.basename(a)}: datasets {sorted(da.keys() ^ db.keys())} in one only"
    for name in sorted(da):
        x, y = np.asarray(da[name]), np.asarray(db[name])
        if x.shape != y.shape or x.tobytes() != y.tobytes():
            diff = ""
            if x.shape == y.shape and x.dtype.kind == "f":
                diff = f", largest difference {np.nanmax(np.abs(x - y)):.3g}"
            return f"{os.path.basename(a)}: dataset {name} differs{diff}"
    return None


def monitor_rows(directory):
    with open(os.path.join(directory, "monitor.csv")) as f:
        return [{k: v for k, v in row.items() if k not in TIMING_COLUMNS} for row in csv.DictReader(f)]


def compare(a, b):
    problems = []
    for pattern in ("checkpoint.h5", "fields_*.h5"):
        fa, fb = sorted(glob.glob(os.path.join(a, pattern))), sorted(glob.glob(os.path.join(b, pattern)))
        if not fa or [os.path.basename(p) for p in fa] != [os.path.basename(p) for p in fb]:
            problems.append(f"{pattern}: {len(fa)} files in {a}, {len(fb)} in {b}")
            continue
        problems.append(same_file(fa[-1], fb[-1]))
    if monitor_rows(a) != monitor_rows(b):
        problems.append("monitor.csv rows differ")
    return [p for p in problems if p]


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    problems = compare(sys.argv[1], sys.argv[2])
    for p in problems:
        print(f"compare_runs: {p}")
    print(f"compare_runs: {sys.argv[1]} vs {sys.argv[2]}: "
          + ("identical" if not problems else f"{len(problems)} differences"))
    sys.exit(1 if problems else 0)
