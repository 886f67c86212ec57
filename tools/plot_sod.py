#!/usr/bin/env python3
"""Sod / Riemann tube: density, velocity and temperature profiles from bolt summary.json files
(several delta) against the exact Euler solution for gamma = 5/3, computed here with an exact
Riemann solver (Toro, ch. 4). bolt's units: p_Euler = n T / 2, rho = n (docs/physics.md), so
Sod's (1, 0, 1) | (0.125, 0, 0.1) is (n, u, T) = (1, 0, 2) | (0.125, 0, 1.6).

  python3 tools/plot_sod.py sod_d10/summary.json sod_d100/summary.json -o sod.png
  python3 tools/plot_sod.py --check     # star states vs tests/refdata/sod_shock_tube.md
"""
import argparse
import json
import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def _f(p, rho, pk, gamma):
    """Toro's pressure function f_K(p) and its derivative."""
    a = math.sqrt(gamma * pk / rho)
    if p > pk:  # shock
        A, B = 2.0 / ((gamma + 1) * rho), (gamma - 1) / (gamma + 1) * pk
        root = math.sqrt(A / (p + B))
        return (p - pk) * root, root * (1 - 0.5 * (p - pk) / (p + B))
    ratio = p / pk  # rarefaction
    return (2 * a / (gamma - 1) * (ratio ** ((gamma - 1) / (2 * gamma)) - 1),
            1 / (rho * a) * ratio ** (-(gamma + 1) / (2 * gamma)))


def star_state(left, right, gamma):
    """(p*, u*, rho*_L, rho*_R) of the Riemann problem; left/right = (rho, u, p)."""
    (rl, ul, pl), (rr, ur, pr) = left, right
    p = 0.5 * (pl + pr)
    for _ in range(100):
        fl, dl = _f(p, rl, pl, gamma)
        fr, dr = _f(p, rr, pr, gamma)
        new = max(1e-14, p - (fl + fr + ur - ul) / (dl + dr))
        done = abs(new - p) < 1e-15 * (new + p)
        p = new
        if done:
            break
    fl, _ = _f(p, rl, pl, gamma)
    fr, _ = _f(p, rr, pr, gamma)
    u = 0.5 * (ul + ur) + 0.5 * (fr - fl)
    g = (gamma - 1) / (gamma + 1)

    def rho_star(rho, pk):
        return rho * (p / pk + g) / (g * p / pk + 1) if p > pk else rho * (p / pk) ** (1 / gamma)

    return p, u, rho_star(rl, pl), rho_star(rr, pr)


def sample(left, right, gamma, star, s):
    """(rho, u, p) at x/t = s."""
    p, u, rsl, rsr = star
    g1, g2 = (gamma - 1) / (gamma + 1), (gamma - 1) / (2 * gamma)
    if s <= u:
        rho, uk, pk = left
        a = math.sqrt(gamma * pk / rho)
        if p > pk:
            speed = uk - a * math.sqrt((gamma + 1) / (2 * gamma) * p / pk + g2)
            return (rho, uk, pk) if s < speed else (rsl, u, p)
        head, tail = uk - a, u - a * (p / pk) ** g2
        if s < head:
            return rho, uk, pk
        if s > tail:
            return rsl, u, p
        c = 2 / (gamma + 1) + g1 / a * (uk - s)
        return rho * c ** (2 / (gamma - 1)), 2 / (gamma + 1) * (a + (gamma - 1) / 2 * uk + s), pk * c ** (2 * gamma / (gamma - 1))
    rho, uk, pk = right
    a = math.sqrt(gamma * pk / rho)
    if p > pk:
        speed = uk + a * math.sqrt((gamma + 1) / (2 * gamma) * p / pk + g2)
        return (rho, uk, pk) if s > speed else (rsr, u, p)
    head, tail = uk + a, u + a * (p / pk) ** g2
    if s > head:
        return rho, uk, pk
    if s < tail:
        return rsr, u, p
    c = 2 / (gamma + 1) - g1 / a * (uk - s)
    return rho * c ** (2 / (gamma - 1)), 2 / (gamma + 1) * (-a + (gamma - 1) / 2 * uk + s), pk * c ** (2 * gamma / (gamma - 1))


def check():
    """Star states of Sod's problem against tests/refdata/sod_shock_tube.md."""
    sod = ((1.0, 0.0, 1.0), (0.125, 0.0, 0.1))
    ref = {1.4: (0.30313018, 0.92745262, 0.42631943, 0.26557371),
           5 / 3: (0.29394519, 0.84119485, 0.47968906, 0.22980575),
           3.0: (0.27290947, 0.60856697, 0.64864369, 0.17070364)}
    ok = True
    for gamma, expected in ref.items():
        got = star_state(*sod, gamma)
        err = max(abs(a - b) for a, b in zip(got, expected))
        ok &= err < 2e-8
        print(f"gamma {gamma:.4g}: p*, u*, rho*L, rho*R = " + ", ".join(f"{v:.8f}" for v in got) + f"  (max diff {err:.1e})")
    print("star states agree with sod_shock_tube.md" if ok else "MISMATCH")
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("summaries", nargs="*", help="summary.json files of riemann runs (same initial data)")
    ap.add_argument("--left", default="1,0,2", help="left state n,u,T in bolt units (default %(default)s)")
    ap.add_argument("--right", default="0.125,0,1.6", help="right state n,u,T (default %(default)s)")
    ap.add_argument("--x0", type=float, default=0.5, help="initial discontinuity (default %(default)s)")
    ap.add_argument("--gamma", type=float, default=5 / 3, help="ratio of specific heats (default 5/3)")
    ap.add_argument("--check", action="store_true", help="check the solver against the reference star states")
    ap.add_argument("-o", "--output", default="sod.png", help="output PNG")
    args = ap.parse_args()
    if args.check:
        raise SystemExit(0 if check() else 1)
    if not args.summaries:
        ap.error("give summary.json files (or --check)")

    nl, ul, tl = map(float, args.left.split(","))
    nr, ur, tr = map(float, args.right.split(","))
    left, right = (nl, ul, nl * tl / 2), (nr, ur, nr * tr / 2)  # (rho, u, p = n T / 2)
    star = star_state(left, right, args.gamma)
    runs = sorted((json.load(open(p)) for p in args.summaries), key=lambda s: s["delta"])
    t = runs[0]["time"]
    xe = np.linspace(min(runs[0]["diagnostics"]["profile_coordinate"]), max(runs[0]["diagnostics"]["profile_coordinate"]), 2000)
    exact = np.array([sample(left, right, args.gamma, star, (x - args.x0) / t) for x in xe])
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.3))
    names = (("density n", "profile_n"), ("velocity u_x", "profile_ux"), ("temperature T", "profile_T"))
    exact_q = (exact[:, 0], exact[:, 1], 2 * exact[:, 2] / exact[:, 0])  # T = 2 p / n
    for ax, (title, key), qe in zip(axes, names, exact_q):
        ax.plot(xe, qe, "k-", lw=1.2, label=f"Euler exact, gamma={args.gamma:.4g}, t={t:.4g}")
        for s in runs:
            d = s["diagnostics"]
            extra = f" (L1 err {d['density_l1_vs_euler']:.3f})" if key == "profile_n" and "density_l1_vs_euler" in d else ""
            ax.plot(d["profile_coordinate"], d[key], "-", lw=1, label=f"bolt {s['model']} δ={s['delta']:g}{extra}")
        ax.set_title(title)
        ax.set_xlabel("x (L)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print("wrote", args.output)


if __name__ == "__main__":
    main()
