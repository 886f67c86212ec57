#!/usr/bin/env python3
"""A 2-D field of a bolt fields_NNNNNN.h5 file as a colour map, optionally with streamlines of
(u_x, u_y): e.g. the speed of the cavity flow. Fields: any dataset (n, ux, uy, uz, T, p, Pxx, ...,
qx, qy, qz) or `speed` = sqrt(ux^2 + uy^2). Takes the z layer --k of an (x, y) grid.

  python3 tools/plot_fields.py bolt-output/cavity/fields_002500.h5 --field speed --streamlines -o f.png
"""
import argparse

import h5py
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="fields_NNNNNN.h5")
    ap.add_argument("--field", default="speed", help="dataset name or 'speed' (default: %(default)s)")
    ap.add_argument("--k", type=int, default=0, help="z layer (default 0)")
    ap.add_argument("--streamlines", action="store_true", help="overlay streamlines of (ux, uy)")
    ap.add_argument("-o", "--output", default="fields.png", help="output PNG")
    args = ap.parse_args()

    with h5py.File(args.file, "r") as h:
        x, y = h["x"][:], h["y"][:]
        xf, yf = h["x_faces"][:], h["y_faces"][:]
        ux, uy = h["ux"][args.k], h["uy"][args.k]
        value = np.hypot(ux, uy) if args.field == "speed" else h[args.field][args.k]
        step, time = int(h.attrs["step"]), float(h.attrs["time"])
    if len(x) < 2 or len(y) < 2:
        raise SystemExit("plot_fields: needs a grid with more than one cell in x and y")
    fig, ax = plt.subplots(figsize=(6, 5))
    mesh = ax.pcolormesh(xf, yf, value, shading="flat", cmap="viridis")
    fig.colorbar(mesh, ax=ax, label=args.field)
    if args.streamlines:
        # streamplot needs a uniform grid: resample the cell-centred velocity onto one.
        xu = np.linspace(x[0], x[-1], len(x))
        yu = np.linspace(y[0], y[-1], len(y))
        ux_u = np.array([np.interp(xu, x, row) for row in ux])
        uy_u = np.array([np.interp(xu, x, row) for row in uy])
        ux_u = np.array([np.interp(yu, y, col) for col in ux_u.T]).T
        uy_u = np.array([np.interp(yu, y, col) for col in uy_u.T]).T
        ax.streamplot(xu, yu, ux_u, uy_u, color="w", linewidth=0.7, density=1.2)
    ax.set_aspect("equal")
    ax.set_xlabel("x (L)")
    ax.set_ylabel("y (L)")
    ax.set_title(f"{args.field}, step {step}, t = {time:.4g}")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
