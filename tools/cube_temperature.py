#!/usr/bin/env python3
"""The temperatures docs/validation.md reports for the supersonic cube (inputs/cube_iterative.yaml)
from a bolt fields_NNNNNN.h5 file:

  * T on the stagnation line ahead of the cube (the mean of the four cells about the box's axis
    y = z = mid), cell by cell up to the cube's front face;
  * the lowest T upstream of the cube's front face (every gas cell with x below it);
  * the lowest T ahead of the shock, in the whole box and in the mid-plane (the two cell layers
    about z = mid): along each row of cells in x, the cells before the first one more than
    --rise above the free stream (the shock's foot). That gas has met no shock, so a temperature
    below the free stream's is a new extremum of the scheme, not physics;
  * the peak T.

The free stream is T0 = 1, or with --free the fields of the same run without the cube: on a
velocity grid the free stream's discrete target is not exactly at T0 and drifts T along the box
by up to a few 1e-3 (12^3 velocities), as much as the extrema sought. With --free the minima are
of T - T(free stream), cell by cell.

  python3 tools/cube_temperature.py bolt-output/cube_iterative/fields_000061.h5 \\
      [--free bolt-output/free/fields_000031.h5] [--json out.json]
"""
import argparse
import json

import h5py
import numpy as np


def read(path):
    with h5py.File(path, "r") as h:
        return {"T": h["T"][...], "fluid": h["fluid"][...].astype(bool),  # [z][y][x]
                "x": h["x"][...], "y": h["y"][...], "z": h["z"][...],
                "sweeps": int(h.attrs["step"])}


def mean_about(values):
    """The value at the middle of the first axis (the mean of the two cells about it if even)."""
    n = values.shape[0]
    return values[n // 2] if n % 2 else 0.5 * (values[n // 2 - 1] + values[n // 2])


def extreme(value, mask, fields, highest=False):
    """The lowest (or highest) value of the cells in mask and where it is; None if mask is empty."""
    if not mask.any():
        return None
    masked = np.where(mask, -value if highest else value, np.inf)
    k, j, i = np.unravel_index(int(masked.argmin()), value.shape)
    return {"value": float(value[k, j, i]), "x": float(fields["x"][i]),
            "y": float(fields["y"][j]), "z": float(fields["z"][k])}


def summarise(fields, free, rise):
    T, fluid, x = fields["T"], fields["fluid"], fields["x"]
    excess = T - (free["T"] if free else 1.0)
    solid_x = x[(~fluid).any(axis=(0, 1))]
    ahead = x < (solid_x.min() if solid_x.size else np.inf)
    before = np.cumsum((excess > rise) | ~fluid, axis=2) == 0  # before each row's shock foot
    mid = np.zeros_like(before)
    n = T.shape[0]
    mid[(n - 1) // 2: n // 2 + 1] = True
    return {
        "sweeps": fields["sweeps"], "reference": "free-stream run" if free else "T0",
        "stagnation_x": [float(v) for v in x[ahead]],
        "stagnation_T": [round(float(v), 4) for v in mean_about(mean_about(T))[ahead]],
        "lowest_upstream": extreme(excess, fluid & ahead[None, None, :], fields),
        "lowest_before_shock": extreme(excess, before & fluid, fields),
        "lowest_before_shock_midplane": extreme(excess, before & fluid & mid, fields),
        "peak_T": extreme(T, fluid, fields, highest=True),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="fields_NNNNNN.h5 of the cube")
    ap.add_argument("--free", help="fields_NNNNNN.h5 of the same run without the cube")
    ap.add_argument("--rise", type=float, default=0.01,
                    help="T - T(free stream) that marks a shock's foot (default %(default)s)")
    ap.add_argument("--json", help="also write the numbers to this file")
    args = ap.parse_args()
    s = summarise(read(args.file), read(args.free) if args.free else None, args.rise)
    s["file"] = args.file
    print(f"{args.file}: {s['sweeps']} sweeps")
    print("  T on the stagnation line ahead of the cube:",
          " ".join(f"{t:.4f}" for t in s["stagnation_T"]))
    what = "T - T(free stream)" if args.free else "T - T0"
    for key, text in (("lowest_upstream", f"lowest {what} upstream of the cube's front"),
                      ("lowest_before_shock", f"lowest {what} ahead of the shock, whole box"),
                      ("lowest_before_shock_midplane", f"lowest {what} ahead of the shock, "
                                                       "mid-plane"),
                      ("peak_T", "peak T")):
        v = s[key]
        if v is None:
            print(f"  {text}: none")
            continue
        value = f"{v['value']:.4f}" if key == "peak_T" else f"{v['value']:+.2e}"
        print(f"  {text}: {value} at x, y, z = {v['x']:.4g}, {v['y']:.4g}, {v['z']:.4g}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(s, out, indent=1)


if __name__ == "__main__":
    main()
