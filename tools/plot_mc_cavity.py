#!/usr/bin/env python3
"""D(t) and centre-line profiles of the semi-regular Monte Carlo cavity runs (paper 000).

    python3 tools/plot_mc_cavity.py [docs/data/mc_cavity] [docs/figures]

Reads <case>_summary.json and <case>_monitor.csv for the cases below, prints the steady-state
statistics over t >= t_from (mean, standard deviation of the snapshots) next to the paper's
values (tests/refdata/cavity_frezzotti2011_table1.csv, copied below) and writes
mc_cavity_D_t.png and mc_cavity_profiles.png.
"""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# (case file stem, delta, label, steady from t); paper 000 table 1: D_semi, D_e, G_semi, G_e.
CASES = [
    ("d0p1_sampled", 0.1, "δ = 0.1 (sampled self-loss)", 5.0),
    ("d1_sampled", 1.0, "δ = 1 (sampled self-loss)", 5.0),
    ("d1_expected", 1.0, "δ = 1 (expected self-loss)", 4.0),
    ("d10_expected", 10.0, "δ = 10 (expected self-loss)", 4.5),
]
# Runs that also monitor D_top_row (Eq. 27 over the P_xy of the cells next to the lid, at their
# centres): (stem, delta, steady from t).
TOP_ROW = [
    ("d0p1_expected_toprow", 0.1, 5.0),
    ("d1_expected_toprow", 1.0, 4.0),
    ("d10_expected_toprow", 10.0, 4.5),
]
PAPER = {0.1: (0.6712, 0.6815, 0.0955, 0.0977), 1.0: (0.6266, 0.6389, 0.1017, 0.1039),
         10.0: (0.4096, 0.4176, 0.1427, 0.1451)}
# Grid refinement: (delta, what is refined, coarse stem, fine stem, h_fine / h_coarse, order of
# the error in that h, window [t0, t1]). Both runs are averaged over the same window, and
# D_inf = D_f + (D_f - D_c) r^p / (1 - r^p) (first order: the paper's upwind scheme).
REFINEMENTS = [
    (0.1, "space 160² → 240²", "d0p1_sampled", "d0p1_240x240_sampled", 2 / 3, 1, (3.5, 6.0)),
    (1.0, "space 160² → 240²", "d1_expected", "d1_240x240_expected", 2 / 3, 1, (4.0, 6.0)),
    (10.0, "space 192² → 288²", "d10_expected", "d10_288x288_expected", 2 / 3, 1, (4.5, 7.0)),
]


def monitor(path, *extra):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    column = lambda name: [float(r[name]) for r in rows]  # noqa: E731
    return (column("time"), column("D"), column("G")) + tuple(column(name) for name in extra)


def stats(values):
    mean = sum(values) / len(values)
    var = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return mean, var ** 0.5


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else "docs/data/mc_cavity"
    out = sys.argv[2] if len(sys.argv) > 2 else "docs/figures"
    fig_d, ax_d = plt.subplots(figsize=(7, 4))
    fig_p, ax_p = plt.subplots(figsize=(5, 5))
    print("| case | steady from t | D | std(D)/D | D vs paper | D vs D_e | G | G vs paper "
          "| G vs G_e |")
    print("|---|---|---|---|---|---|---|---|---|")
    for stem, delta, label, t_from in CASES:
        t, d, g = monitor(os.path.join(data, stem + "_monitor.csv"))
        late = [i for i, ti in enumerate(t) if ti >= t_from]
        dm, ds = stats([d[i] for i in late])
        gm, gs = stats([g[i] for i in late])
        dp, de, gp, ge = PAPER[delta]
        print(f"| {label} | {t_from} | {dm:.4f} | {100 * ds / dm:.3f} % "
              f"| {100 * (dm / dp - 1):+.2f} % | {100 * (dm / de - 1):+.2f} % | {gm:.4f} "
              f"| {100 * (gm / gp - 1):+.2f} % | {100 * (gm / ge - 1):+.2f} % |")
        ax_d.plot(t, [x / dp for x in d], label=label)
        with open(os.path.join(data, stem + "_summary.json")) as f:
            s = json.load(f)["diagnostics"]
        ax_p.plot(s["centre_line_ux_over_vw"], s["centre_line_y"], label=label)
    print()
    print("| δ | steady from t | D (lid flux) | D_top_row | std(D_top_row)/D_top_row "
          "| D_top_row vs paper | D vs D_e | G | G vs paper |")
    print("|---|---|---|---|---|---|---|---|---|")
    for stem, delta, t_from in TOP_ROW:
        t, d, g, row = monitor(os.path.join(data, stem + "_monitor.csv"), "D_top_row")
        late = [i for i, ti in enumerate(t) if ti >= t_from]
        dm = stats([d[i] for i in late])[0]
        rm, rs = stats([row[i] for i in late])
        gm = stats([g[i] for i in late])[0]
        dp, de, gp, _ = PAPER[delta]
        print(f"| {delta:g} | {t_from} | {dm:.4f} | {rm:.4f} | {100 * rs / rm:.3f} % "
              f"| {100 * (rm / dp - 1):+.2f} % | {100 * (dm / de - 1):+.2f} % | {gm:.4f} "
              f"| {100 * (gm / gp - 1):+.2f} % |")
        ax_d.plot(t, [x / dp for x in row], "--",
                  label=f"δ = {delta:g}, D_top_row (Eq. 27 at the top row)")
    print()
    print("| δ | refined | window | D coarse | D fine | D extrapolated | vs D_e | G coarse "
          "| G fine | G extrapolated | vs G_e |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for delta, what, coarse, fine, ratio, order, (t0, t1) in REFINEMENTS:
        _, de, _, ge = PAPER[delta]
        means = []
        for stem in (coarse, fine):
            t, d, g = monitor(os.path.join(data, stem + "_monitor.csv"))
            window = [i for i, ti in enumerate(t) if t0 <= ti <= t1]
            means.append((stats([d[i] for i in window])[0], stats([g[i] for i in window])[0]))
        factor = ratio ** order / (1 - ratio ** order)
        d_inf = means[1][0] + (means[1][0] - means[0][0]) * factor
        g_inf = means[1][1] + (means[1][1] - means[0][1]) * factor
        print(f"| {delta:g} | {what} | {t0:g}–{t1:g} | {means[0][0]:.4f} | {means[1][0]:.4f} "
              f"| {d_inf:.4f} | {100 * (d_inf / de - 1):+.2f} % | {means[0][1]:.4f} "
              f"| {means[1][1]:.4f} | {g_inf:.4f} | {100 * (g_inf / ge - 1):+.2f} % |")
    ax_d.axhline(1.0, color="k", lw=0.8)
    ax_d.set_xlabel("t / (L / c0)")
    ax_d.set_ylabel("D / D (paper 000, table 1)")
    ax_d.set_ylim(0.85, 1.1)
    ax_d.legend(fontsize=8)
    ax_d.set_title("Semi-regular Boltzmann cavity, paper grids, H200, float")
    fig_d.tight_layout()
    fig_d.savefig(os.path.join(out, "mc_cavity_D_t.png"), dpi=120)
    ax_p.set_xlabel("u_x / V_w on x = L/2")
    ax_p.set_ylabel("y / L")
    ax_p.legend(fontsize=8)
    ax_p.set_title("Centre-line velocity (paper 000, Fig. 2a)")
    fig_p.tight_layout()
    fig_p.savefig(os.path.join(out, "mc_cavity_profiles.png"), dpi=120)


if __name__ == "__main__":
    main()
