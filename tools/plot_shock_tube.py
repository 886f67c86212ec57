#!/usr/bin/env python3
"""The two-section shock tube (inputs/shock_tube.yaml, paper 003 Figs. 3b and 4): the shock Mach
number along the test section against time, with the one-dimensional theory value, and the
density and temperature fields of one output file (cells outside the sections left blank).

  python3 tools/plot_shock_tube.py bolt-output/shock_tube/summary.json \
      bolt-output/shock_tube/fields_001800.h5 -o docs/figures/shock_tube.png
"""
import argparse
import json

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("summary", help="run summary (JSON) of a shock_tube case")
    ap.add_argument("fields", help="fields_NNNNNN.h5 to show")
    ap.add_argument("-o", "--output", default="shock_tube.png", help="output PNG")
    args = ap.parse_args()

    d = json.load(open(args.summary))["diagnostics"]
    # null: no shock in the test section yet, or no earlier position to difference with
    t = np.array(d["shock_time"], dtype=float)
    mach = np.array([np.nan if m is None else m for m in d["shock_mach_history"]])
    x = np.array([np.nan if v is None else v for v in d["shock_position"]])
    with h5py.File(args.fields, "r") as h:
        xf, yf = h["x_faces"][:], h["y_faces"][:]
        fluid = h["fluid"][0] > 0.5
        n = np.where(fluid, h["n"][0], np.nan)
        T = np.where(fluid, h["T"][0], np.nan)
        time = float(h.attrs["time"])

    fig = plt.figure(figsize=(11, 8))
    ax = fig.add_subplot(3, 1, 1)
    shown = np.isfinite(mach)
    ax.plot(t[shown], mach[shown], "o-", ms=3, label="bolt (centre line of the test section)")
    ax.axhline(d["mach_theory_1d"], color="k", ls="--",
               label=f"1-D theory (exact Riemann solution): M = {d['mach_theory_1d']:.3f}")
    ax.set_xlabel("t (lambda / c0)")
    ax.set_ylabel("shock Mach number")
    ax.legend()
    ax2 = ax.twinx()
    ax2.plot(t, x, color="0.6", lw=0.8)
    ax2.set_ylabel("shock position x (lambda)", color="0.5")
    for row, (value, label) in enumerate(((n, "density n / n_B"), (T, "temperature T / T0"))):
        axf = fig.add_subplot(3, 1, 2 + row)
        mesh = axf.pcolormesh(xf, yf, value, shading="flat", cmap="viridis")
        fig.colorbar(mesh, ax=axf, label=label)
        axf.set_aspect("equal")
        axf.set_ylabel("y (lambda)")
        axf.set_title(f"{label} at t = {time:.1f}")
    axf.set_xlabel("x (lambda)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot_shock_tube: wrote {args.output}")


if __name__ == "__main__":
    main()
