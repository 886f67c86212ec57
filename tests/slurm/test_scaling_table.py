#!/usr/bin/python3
"""tools/scaling_table.py on made-up summaries, where the answers are known exactly:

    test_scaling_table.py TOOL WORK_DIR

strong scaling (E = t1/(N tN)), weak scaling (E = t1/tN) told apart from the grids, one-rank runs
as the base of every decomposition, repeats (the fastest counts), and the error statuses
(missing rank count, a timing that is not a number, no summaries)."""
import csv
import json
import math
import os
import shutil
import subprocess
import sys

tool, work = sys.argv[1], sys.argv[2]
shutil.rmtree(work, ignore_errors=True)


def summary(path, ranks, ms, grid=(16, 16, 1), decomp=None, case="cav", overlap=None,
            halo_share=None):
    s = {"schema": "bolt-summary-1", "case": case, "case_type": "cavity", "model": "bgk",
         "backend": "cpu", "precision": "double", "ranks": ranks, "grid": list(grid),
         "velocities": 512, "steps": 20,
         "timing": {"wall_seconds": ms * 0.02, "ms_per_step": ms, "updates_per_second": 1e8,
                    "bytes_per_step": 1e6}}
    if decomp:
        s["decomp"] = decomp
    if overlap is not None:
        s["halo_overlap"] = overlap
    if halo_share is not None:
        s["timing"].update(halo_share=halo_share, sum_share=0.0)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(s, f)


def run(*args):
    p = subprocess.run([sys.executable, tool, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def rows(prefix):
    with open(prefix + ".csv") as f:
        return list(csv.DictReader(f))


def close(a, b):
    return math.isclose(float(a), b, rel_tol=1e-5)


# Strong: same grid; 1 rank without decomposition, 2 and 4 ranks with space and velocity,
# and a slower repeat of 2 ranks (space) that must not count.
d = os.path.join(work, "strong")
summary(f"{d}/n1.json", 1, 10.0)
summary(f"{d}/n2s.json", 2, 5.5, decomp="space")
summary(f"{d}/n2s_repeat.json", 2, 8.0, decomp="space")
summary(f"{d}/n4s.json", 4, 3.0, decomp="space", halo_share=0.25)
summary(f"{d}/n2s_serial.json", 2, 6.0, decomp="space", overlap=False)
summary(f"{d}/n4s_serial.json", 4, 4.0, decomp="space", overlap=False)
summary(f"{d}/n2v.json", 2, 5.0, decomp="velocity", overlap=False)
with open(f"{d}/not_a_summary.json", "w") as f:
    json.dump({"something": "else"}, f)
status, out = run("--out", f"{d}/table", "--expect-ranks", "1,2", d)
assert status == 0, out
got = {(r["decomp"], int(r["ranks"])): r for r in rows(f"{d}/table")}
assert sorted(got) == [("space", 1), ("space", 2), ("space", 4), ("space, no overlap", 1),
                       ("space, no overlap", 2), ("space, no overlap", 4),
                       ("velocity", 1), ("velocity", 2)], sorted(got)
assert all(r["mode"] == "strong" for r in got.values())
assert close(got["space", 2]["ms_per_step"], 5.5) and got["space", 2]["runs"] == "2"
assert close(got["space", 4]["speedup"], 10 / 3) and close(got["space", 4]["efficiency"], 10 / 12)
assert close(got["velocity", 2]["efficiency"], 1.0)
assert close(got["space, no overlap", 4]["efficiency"], 10 / 16)
assert close(got["space", 4]["halo_share"], 0.25) and got["space", 2]["halo_share"] == "nan"
assert os.path.getsize(f"{d}/table.png") > 1000
assert "| 4 | 16x16x1 |" in open(f"{d}/table.md").read()
assert "| 25.0 % | 0.0 % |" in open(f"{d}/table.md").read()

# Weak: the grid grows with the ranks along x.
d = os.path.join(work, "weak")
for n, ms in ((1, 10.0), (2, 10.5), (4, 12.5)):
    summary(f"{d}/n{n}.json", n, ms, grid=(16 * n, 16, 1))
status, out = run("--out", f"{d}/table", d)
assert status == 0, out
got = {int(r["ranks"]): r for r in rows(f"{d}/table")}
assert all(r["mode"] == "weak" for r in got.values())
assert close(got[4]["efficiency"], 0.8) and close(got[4]["speedup"], 3.2)
assert close(got[2]["efficiency"], 10 / 10.5)

# Errors: a missing rank count (1), a timing that is not a number (1), nothing to read (2), a
# group that is neither strong nor weak without --mode (2).
status, out = run("--out", f"{work}/x", "--expect-ranks", "1,2,8", os.path.join(work, "weak"))
assert status == 1 and "no run with 8 ranks" in out, out
summary(f"{work}/nan/n1.json", 1, float("nan"))
status, out = run("--out", f"{work}/x", f"{work}/nan")
assert status == 1 and "not a usable timing" in out, out
os.makedirs(f"{work}/empty")
assert run("--out", f"{work}/x", f"{work}/empty")[0] == 2
summary(f"{work}/mixed/n1.json", 1, 10.0)
summary(f"{work}/mixed/n2.json", 2, 6.0, grid=(24, 16, 1))
assert run("--out", f"{work}/x", f"{work}/mixed")[0] == 2
assert run("--mode", "strong", "--out", f"{work}/x", f"{work}/mixed")[0] == 0
print("test_scaling_table: passed")
