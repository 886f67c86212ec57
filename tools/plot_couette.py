#!/usr/bin/env python3
"""Plane Couette flow: -P_xy / (p0 dv / c0) (summary key `minus_pxy`) against delta from several
bolt summary.json files, with the BGK reference rows of couette_plane_shear_stress.csv and the
free-molecular (1/sqrt(pi)) and hydrodynamic (1/delta) limits.

  python3 tools/plot_couette.py run_*/summary.json -o couette.png
"""
import argparse
import csv
import json
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_REF = os.path.join(ROOT, "tests", "refdata", "couette_plane_shear_stress.csv")


def read_reference(path, model="BGK"):
    rows = [line for line in open(path) if not line.startswith("#")]
    data = {}
    for r in csv.DictReader(rows):
        if r["model"] == model:
            data.setdefault(r["source_id"], []).append((float(r["delta"]), float(r["minus_pxy"])))
    return {k: sorted(v) for k, v in data.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("summaries", nargs="+", help="summary.json files of couette runs")
    ap.add_argument("--ref", default=DEFAULT_REF, help="reference CSV (default: %(default)s)")
    ap.add_argument("-o", "--output", default="couette.png", help="output PNG")
    args = ap.parse_args()

    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    if os.path.exists(args.ref):
        for source, pts in read_reference(args.ref).items():
            d, v = zip(*pts)
            ax.plot(d, v, "s" if source == "BGK_TAB" else "^", mfc="none", label=f"reference {source}")
    else:
        print("no reference file", args.ref)
    runs = sorted((json.load(open(p)) for p in args.summaries), key=lambda s: s["delta"])
    by_model = {}
    for s in runs:
        by_model.setdefault(s["model"], []).append((s["delta"], s["diagnostics"]["minus_pxy"]))
    for model, pts in by_model.items():
        d, v = zip(*pts)
        ax.plot(d, v, "o-", label=f"bolt {model}")
        for di, vi in pts:
            print(f"{model} delta={di:g} minus_pxy={vi:.5f}")
    dd = np.logspace(-2, 2.1, 100)
    ax.plot(dd, np.full_like(dd, 1 / np.sqrt(np.pi)), "k:", lw=0.8, label="free molecular 1/sqrt(pi)")
    ax.plot(dd[dd > 1], 1 / dd[dd > 1], "k--", lw=0.8, label="hydrodynamic 1/delta")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("delta = p0 H / (mu0 c0)")
    ax.set_ylabel("-P_xy / (p0 dv / c0)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
