#!/usr/bin/env python3
"""tools/benchmarks_doc.py --import on made-up bolt_bench rows, into a copy of the records:

    test_benchmarks_doc.py TOOL DATA_DIR WORK_DIR

A labelled row (tools/gpu-check.sh) replaces the record with that label, an unlabelled row the
record whose "match" it meets, and a row of a new case is appended; each takes the row's numbers,
device, commit, date and command, and keeps none of the older measurement's fields. --check then
fails on the old page and passes on the new one."""
import json
import os
import shutil
import subprocess
import sys

tool, data, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
shutil.copytree(data, os.path.join(work, "data"))
page = os.path.join(work, "benchmarks.md")
base = [sys.executable, tool, "--data", os.path.join(work, "data"), "--output", page]
subprocess.run(base, check=True)


def row(label, bc, cells, precision, ms):
    return {"label": label, "device": "Test GPU", "backend": "cuda", "precision": precision,
            "bc": bc, "cells": cells, "nv": 13824, "model": "bgk", "order": 1,
            "splitting": "lie", "conservative": 0, "team_size": 256, "steps": 10, "reps": 3,
            "ms_per_step": ms, "ms_per_step_min": ms, "updates_per_s": 6.123456e10,
            "ps_per_update": 16.33, "bytes_per_step": 1.8e9, "achieved_GBps": 555.4,
            "copy_GBps": 4250.2, "copy_buffer_GiB": 2, "fraction_of_copy": 0.13066,
            "finite": True, "mean_density": 1.0}


rows = os.path.join(work, "bench.jsonl")
with open(rows, "w") as f:
    f.write("gpu-check: a line that is not a row\n")
    f.write("BOLT_BENCH_JSON " + json.dumps(row("cavity2d-f32", "cavity", [128, 128, 1], "float",
                                                  3.123456)) + "\n")
    f.write(json.dumps(row("", "periodic", [64, 64, 64], "double", 99.98765)) + "\n")
    f.write(json.dumps(row("cavity2d-bgk-new", "cavity", [96, 96, 1], "float", 1.5)) + "\n")
subprocess.run(base + ["--import", rows, "--commit", "0123abc", "--date", "2099-01-02",
                       "--command", "tools/gpu-check.sh (test)"], check=True)

with open(os.path.join(work, "data", "explicit_step.json")) as f:
    records = json.load(f)["records"]
failures = []


def expect(what, ok):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


labelled = [r for r in records if r.get("label") == "cavity2d-f32"]
expect("one record keeps the label cavity2d-f32", len(labelled) == 1)
r = labelled[0]
expect("it takes the row's numbers (4 significant digits of ms/step, the fraction in %)",
       r["ms_per_step"] == 3.123 and r["fraction_pct"] == 13.1 and r["copy_GBps"] == 4250)
expect("it takes the device, commit, date and command",
       (r["device"], r["commit"], r["date"], r["command"])
       == ("Test GPU", "0123abc", "2099-01-02", "tools/gpu-check.sh (test)"))
expect("it keeps its case and grid", (r["case"], r["grid"]) == ("2-D cavity", "128² × 24³"))
matched = [r for r in records if r.get("label") == "periodic3d-f64"]
expect("the unlabelled row replaced the periodic fp64 record (by its match)",
       len(matched) == 1 and matched[0]["ms_per_step"] == 99.99
       and matched[0]["commit"] == "0123abc")
new = [r for r in records if r.get("label") == "cavity2d-bgk-new"]
expect("a new case is appended with a derived name and grid",
       len(new) == 1 and new[0]["case"] == "2-D cavity" and new[0]["grid"] == "96² × 24³"
       and new[0]["precision"] == "fp32")
with open(page) as f:
    text = f.read()
expect("the page shows the new row", "| 2-D cavity | 96² × 24³ | fp32 | 1.500 | 6.12e10 |" in text)
expect("the page names the new commit", "`0123abc`" in text)
check = subprocess.run([sys.executable, tool, "--data", os.path.join(work, "data"), "--output",
                        page, "--check"])
expect("--check passes on the regenerated page", check.returncode == 0)
with open(page, "a") as f:
    f.write("a hand edit\n")
check = subprocess.run([sys.executable, tool, "--data", os.path.join(work, "data"), "--output",
                        page, "--check"], stderr=subprocess.DEVNULL)
expect("--check fails on a hand-edited page", check.returncode == 1)
sys.exit(1 if failures else 0)
