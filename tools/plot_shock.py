#!/usr/bin/env python3
"""Normal shock structure from bolt summary.json files: n, u_x and T normalised as
(q - q1)/(q2 - q1) against x, with q1 the upstream state and q2 the Rankine-Hugoniot downstream
state (`rankine_hugoniot_downstream`); dotted lines mark 0 and 1 (the Rankine-Hugoniot limits).
x is shifted so that the density midpoint (`centre`) is at 0.

  python3 tools/plot_shock.py bolt-output/shock_mach3/summary.json -o shock.png
"""
import argparse
import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("summaries", nargs="+", help="summary.json files of shock runs")
    ap.add_argument("--hs-mfp", action="store_true",
                    help="x in upstream hard-sphere mean free paths: x delta / (8 / (5 sqrt(pi)))")
    ap.add_argument("--labels", help="comma-separated legend label per summary (default: case, model)")
    ap.add_argument("--xlim", type=float, help="show |x - x_c| up to this")
    ap.add_argument("-o", "--output", default="shock.png", help="output PNG")
    args = ap.parse_args()

    fig, ax = plt.subplots(figsize=(7, 4.5))
    styles = {"n": "-", "ux": "--", "T": "-."}
    labels = args.labels.split(",") if args.labels else [None] * len(args.summaries)
    for path, label in zip(args.summaries, labels):
        s = json.load(open(path))
        d = s["diagnostics"]
        x = np.asarray(d["profile_coordinate"]) - d["centre"]
        xlabel = "x - x_c (L)"
        if args.hs_mfp:
            x = x * s["delta"] / (8.0 / (5.0 * np.sqrt(np.pi)))
            xlabel = "(x - x_c) / lambda_HS"
        up, rh = d["upstream"], d["rankine_hugoniot_downstream"]
        for k, (name, key) in enumerate((("n", "profile_n"), ("ux", "profile_ux"), ("T", "profile_T"))):
            q = (np.asarray(d[key]) - up[k]) / (rh[k] - up[k])
            run = label or f"{s['case']} M={d['mach']:g} {s['model']}"
            ax.plot(x, q, styles[name], color=f"C{labels.index(label) if label else 0}"
                    if args.labels else None, label=f"{name}  {run}")
        ax.set_xlabel(xlabel)
    if args.xlim:
        ax.set_xlim(-args.xlim, args.xlim)
    for level in (0.0, 1.0):
        ax.axhline(level, color="k", lw=0.8, ls=":")
    ax.set_ylabel("(q - q1) / (q2 - q1)")
    ax.set_title("normal shock; 0 and 1: Rankine-Hugoniot far states")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
