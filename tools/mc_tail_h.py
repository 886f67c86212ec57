#!/usr/bin/env python3
"""How large the deviation h of a hs_mc run is, by velocity, from a checkpoint.

    python3 tools/mc_tail_h.py bolt-output/<case>/checkpoint.h5 [epsilon]

The checkpoint holds f (cells x velocities) and, for hs_mc, h itself in /state
(docs/output.md); an older one holds f only, and then h ~ (f / median - 1) / epsilon, the median
of f_v over the cells standing in for the equilibrium value Phi0(xi_v) (h is small in most cells).
The median also orders the velocities below.
Prints, per decile of velocities ordered by that value (the far tail of the box first), the
largest |h| and the largest root-mean-square h over the cells, and the ten largest |h|.
"""
import sys

import h5py
import numpy as np


def main():
    path = sys.argv[1]
    epsilon = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    with h5py.File(path, "r") as file:
        f = file["f"]
        stored = file["state"] if file.attrs.get("state_variable", b"") in ("h", b"h") else None
        nv = f.shape[1]
        median, largest, rms = np.zeros(nv), np.zeros(nv), np.zeros(nv)
        block = 648  # velocities read at a time (a few hundred MB for ~4e4 cells)
        for v0 in range(0, nv, block):
            values = f[:, v0:v0 + block]
            m = np.median(values, axis=0)
            h = stored[:, v0:v0 + block] if stored is not None else (values / m - 1.0) / epsilon
            median[v0:v0 + block] = m
            largest[v0:v0 + block] = np.abs(h).max(axis=0)
            rms[v0:v0 + block] = np.sqrt((h * h).mean(axis=0))
    order = np.argsort(median)
    print("velocities by equilibrium value f_v (median over cells): decile, f range, "
          "max |h|, max rms h")
    for d in range(10):
        sel = order[d * nv // 10:(d + 1) * nv // 10]
        print(f"  decile {d}: f {median[sel].min():.2e}..{median[sel].max():.2e}  "
              f"max|h| {largest[sel].max():.3e}  rms h {rms[sel].max():.3e}")
    top = np.argsort(-largest)[:10]
    print("largest max|h|:", [(int(v), f"{median[v]:.1e}", f"{largest[v]:.2e}") for v in top])


if __name__ == "__main__":
    main()
