#!/usr/bin/env python3
"""Lid-driven cavity: centre-line u_x/V_w against y from one or more bolt summary.json files, and,
when monitor.csv files are given (or found beside the summaries), D(t) and G(t).

  python3 tools/plot_cavity.py run1/summary.json run2/summary.json -o cavity.png
"""
import argparse
import csv
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_monitor(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in ("time", "D", "G")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("summaries", nargs="+", help="summary.json files of cavity runs")
    ap.add_argument("--monitor", nargs="*", help="monitor.csv files (default: beside each summary)")
    ap.add_argument("-o", "--output", default="cavity.png", help="output PNG")
    args = ap.parse_args()

    monitors = args.monitor
    if monitors is None:
        monitors = [os.path.join(os.path.dirname(os.path.abspath(s)), "monitor.csv") for s in args.summaries]
        monitors = [m for m in monitors if os.path.exists(m)]
    fig, axes = plt.subplots(1, 3 if monitors else 1, figsize=(15 if monitors else 5.5, 4.5), squeeze=False)
    ax = axes[0][0]
    for path in args.summaries:
        s = json.load(open(path))
        d = s["diagnostics"]
        label = f"{s['case']} δ={s['delta']:g} (D={d['D']:.4f}, G={d['G']:.4f})"
        ax.plot(d["centre_line_ux_over_vw"], d["centre_line_y"], "o-", ms=3, label=label)
    ax.axvline(0, color="grey", lw=0.5)
    ax.set_xlabel("u_x / V_w on the vertical centre line")
    ax.set_ylabel("y / L")
    ax.legend(fontsize=8)
    for m in monitors:
        mon = read_monitor(m)
        name = os.path.basename(os.path.dirname(os.path.abspath(m)))
        axes[0][1].plot(mon["time"], mon["D"], label=name)
        axes[0][2].plot(mon["time"], mon["G"], label=name)
    if monitors:
        for a, q in ((axes[0][1], "D"), (axes[0][2], "G")):
            a.set_xlabel("t (L/c0)")
            a.set_ylabel(q)
            a.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
