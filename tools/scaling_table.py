#!/usr/bin/python3
"""Scaling table and plot from bolt run summaries (summary.json, schema "bolt-summary-1").

    /usr/bin/python3 tools/scaling_table.py --out study/scaling study/runs
    /usr/bin/python3 tools/scaling_table.py --mode weak --expect-ranks 1,2,4,8 a.json b.json ...

Arguments are summary files or directories (searched recursively for *.json with that schema).
Runs are grouped by case, model, backend, decomposition ("decomp", "space" when absent; a run
with halos not overlapped, "halo_overlap": false, is "<decomp>, no overlap") and
precision (one-rank runs, which have no decomposition, join every decomposition of theirs); in
each group the run with the fewest ranks n0 (time t0) is the base. Per rank count
(the fastest run when there are repeats):
  strong scaling (same grid):             speed-up S = t0 / tN,  efficiency E = S / (N / n0)
  weak scaling (same work per rank):      efficiency E = t0 / tN, speed-up S = E * N / n0
(with n0 = 1: S = t1/tN and E = t1/(N tN) for strong, E = t1/tN for weak). --mode auto tells
them apart from the phase-space size: constant = strong, proportional to the ranks = weak.

Writes PREFIX.md (Markdown, also printed), PREFIX.csv and PREFIX.png (speed-up and efficiency
versus GPUs). Exit status 1 when a summary has a timing that is not a finite positive number or
an --expect-ranks count is missing from a group, 2 for bad arguments or no summaries at all.
"""
import argparse
import csv
import json
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display on clusters and in CI
import matplotlib.pyplot as plt  # noqa: E402

SCHEMA = "bolt-summary-1"
GROUP_KEYS = ("case", "model", "backend", "decomp", "precision")
CSV_COLUMNS = ("case", "model", "backend", "decomp", "precision", "mode", "ranks", "grid",
               "velocities", "ms_per_step", "speedup", "efficiency", "updates_per_second",
               "halo_share", "sum_share", "runs", "summary")


def fail(status, message):
    print(f"scaling_table: error: {message}", file=sys.stderr)
    sys.exit(status)


def summary_files(paths):
    """The JSON files named, and those found under the directories named, sorted."""
    found = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                found += [os.path.join(root, n) for n in names if n.endswith(".json")]
        elif os.path.isfile(path):
            found.append(path)
        else:
            fail(2, f"no such file or directory: {path}")
    return sorted(set(found))


def read_run(path):
    """One run as a flat dict, or None when the file is not a bolt summary."""
    try:
        with open(path) as f:
            s = json.load(f)
    except (OSError, ValueError) as e:
        print(f"scaling_table: skipping {path}: {e}", file=sys.stderr)
        return None
    if not isinstance(s, dict) or s.get("schema") != SCHEMA:
        return None
    try:
        run = {k: str(s.get(k, "space" if k == "decomp" else "?")) for k in GROUP_KEYS}
        if s.get("halo_overlap") is False and run["decomp"] != "velocity":
            run["decomp"] += ", no overlap"
        run["ranks"] = int(s["ranks"])
        run["grid"] = [int(n) for n in s["grid"]]
        run["velocities"] = int(s["velocities"])
        # The warm rate leaves out the first stretch of steps (one-time set-up costs such as
        # NCCL connections); older summaries have only the mean over all steps.
        timing = s["timing"]
        run["ms_per_step"] = float(timing.get("ms_per_step_warm", timing["ms_per_step"]))
        run["updates_per_second"] = float(s["timing"].get("updates_per_second", float("nan")))
        # The shares of the step in halo exchange and moment sums (absent on one rank).
        for phase in ("halo", "sum"):
            run[f"{phase}_share"] = float(timing.get(f"{phase}_share", float("nan")))
    except (KeyError, TypeError, ValueError) as e:
        fail(1, f"{path}: incomplete summary ({e!r})")
    if not (math.isfinite(run["ms_per_step"]) and run["ms_per_step"] > 0 and run["ranks"] > 0):
        fail(1, f"{path}: ranks {run['ranks']}, ms_per_step {run['ms_per_step']}: "
                "not a usable timing")
    run["summary"] = path
    run["size"] = math.prod(run["grid"]) * run["velocities"]
    return run


def scaling_mode(runs, requested):
    """strong or weak for one group (runs sorted by ranks, one per rank count)."""
    if requested != "auto":
        return requested
    if all(r["size"] == runs[0]["size"] for r in runs):
        return "strong"
    if all(r["size"] * runs[0]["ranks"] == runs[0]["size"] * r["ranks"] for r in runs):
        return "weak"
    fail(2, f"group {group_name(runs[0])}: the phase-space size is neither constant nor "
            "proportional to the ranks; pass --mode strong or --mode weak")


def group_name(run):
    return " / ".join(run[k] for k in GROUP_KEYS)


def grouped(runs):
    """Runs by GROUP_KEYS. A one-rank run has no decomposition (whatever its summary says): it
    is the base of every decomposition of its case, model, backend and precision."""
    decomp = GROUP_KEYS.index("decomp")
    def without_decomp(key):
        return key[:decomp] + key[decomp + 1:]
    groups = {}
    for run in runs:
        if run["ranks"] > 1:
            groups.setdefault(tuple(run[k] for k in GROUP_KEYS), []).append(run)
    for run in runs:
        if run["ranks"] == 1:
            key = tuple(run[k] for k in GROUP_KEYS)
            same = [g for g in groups if without_decomp(g) == without_decomp(key)]
            for g in same or [key]:
                groups.setdefault(g, []).append(run)
    return groups


def analyse(runs, requested_mode):
    """Groups with their rows: speed-up and efficiency against the smallest rank count."""
    groups = grouped(runs)
    result = []
    for key in sorted(groups):
        best, count = {}, {}
        for run in groups[key]:  # repeats of one rank count: keep the fastest
            n = run["ranks"]
            count[n] = count.get(n, 0) + 1
            if n not in best or run["ms_per_step"] < best[n]["ms_per_step"]:
                best[n] = run
        # the group's keys: a one-rank base row is listed under each decomposition it serves
        rows = [dict(best[n], runs=count[n], **dict(zip(GROUP_KEYS, key))) for n in sorted(best)]
        mode = scaling_mode(rows, requested_mode)
        n0, t0 = rows[0]["ranks"], rows[0]["ms_per_step"]
        for r in rows:
            ideal = r["ranks"] / n0
            if mode == "strong":
                r["speedup"] = t0 / r["ms_per_step"]
                r["efficiency"] = r["speedup"] / ideal
            else:
                r["efficiency"] = t0 / r["ms_per_step"]
                r["speedup"] = r["efficiency"] * ideal
            r["mode"] = mode
        result.append((key, mode, rows))
    return result


def share(value):
    return "–" if math.isnan(value) else f"{100 * value:.1f} %"


def grid_text(run):
    return "x".join(str(n) for n in run["grid"])


def markdown(groups):
    lines = []
    for key, mode, rows in groups:
        unit = "GPUs" if rows[0]["backend"] == "cuda" else "ranks"
        lines += [f"### {' / '.join(key)}: {mode} scaling",
                  "",
                  f"| {unit} | grid | velocities | ms/step | speed-up | efficiency | halo | sums |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|"]
        for r in rows:
            lines.append(f"| {r['ranks']} | {grid_text(r)} | {r['velocities']} | "
                         f"{r['ms_per_step']:.4g} | {r['speedup']:.3f} | "
                         f"{100 * r['efficiency']:.1f} % | {share(r['halo_share'])} | "
                         f"{share(r['sum_share'])} |")
        lines.append("")
    lines.append("Speed-up and efficiency against the smallest rank count of each group; "
                 "weak scaling: efficiency = t1/tN. Halo, sums: the shares of the step spent in "
                 "the halo exchange (overlapped with the interior cells unless \"no overlap\") "
                 "and in the moment sums.")
    return "\n".join(lines) + "\n"


def write_csv(path, groups):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        for _, _, rows in groups:
            for r in rows:
                w.writerow([grid_text(r) if c == "grid" else
                            (f"{r[c]:.6g}" if isinstance(r[c], float) else r[c])
                            for c in CSV_COLUMNS])


def plot(path, groups):
    fig, (ax_s, ax_e) = plt.subplots(1, 2, figsize=(10, 4))
    top = 1
    for key, mode, rows in groups:
        n = [r["ranks"] for r in rows]
        label = f"{' / '.join(key)} ({mode})"
        ax_s.plot(n, [r["speedup"] for r in rows], "o-", label=label)
        ax_e.plot(n, [100 * r["efficiency"] for r in rows], "o-", label=label)
        ax_s.plot(n, [x / n[0] for x in n], ":", color="grey")
        top = max(top, max(n))
    unit = "GPUs" if any(rows[0]["backend"] == "cuda" for _, _, rows in groups) else "ranks"
    ax_s.set(xlabel=unit, ylabel="speed-up", title="speed-up (dotted: ideal)")
    best = max(100 * r["efficiency"] for _, _, rows in groups for r in rows)
    ax_e.set(xlabel=unit, ylabel="efficiency (%)", title="parallel efficiency",
             ylim=(0, max(110, best + 10)))
    ax_s.set_yscale("log", base=2)
    ticks = [2 ** k for k in range(int(math.log2(top)) + 1)]
    for ax in (ax_s, ax_e):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ticks)
        ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.grid(alpha=0.3)
    ax_s.set_yticks(ticks)
    ax_s.get_yaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax_e.legend(fontsize="small", loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("paths", nargs="+", help="summary files or directories")
    p.add_argument("--mode", choices=("auto", "strong", "weak"), default="auto")
    p.add_argument("--out", default="scaling", help="output prefix (.md, .csv, .png)")
    p.add_argument("--expect-ranks", default="",
                   help="comma-separated rank counts every group must have (else status 1)")
    a = p.parse_args()

    runs = [r for r in map(read_run, summary_files(a.paths)) if r is not None]
    if not runs:
        fail(2, f"no {SCHEMA} summaries in {' '.join(a.paths)}")
    groups = analyse(runs, a.mode)
    if os.path.dirname(a.out):
        os.makedirs(os.path.dirname(a.out), exist_ok=True)
    text = markdown(groups)
    with open(a.out + ".md", "w") as f:
        f.write(text)
    write_csv(a.out + ".csv", groups)
    plot(a.out + ".png", groups)
    print(text, end="")
    print(f"scaling_table: wrote {a.out}.md, {a.out}.csv, {a.out}.png")

    expected = sorted({int(n) for n in a.expect_ranks.split(",") if n.strip()})
    missing = [(key, n) for key, _, rows in groups for n in expected
               if n not in {r["ranks"] for r in rows}]
    for key, n in missing:
        print(f"scaling_table: error: {' / '.join(key)}: no run with {n} ranks", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
