#!/usr/bin/env python3
"""Convergence study of a bolt case: runs it over a ladder of one parameter (cells, time step,
velocity nodes, lattice points, scheme order, ...) and prints, for each quantity of interest,
its value at each level, the difference to the previous level, the observed order of
convergence and the Richardson-extrapolated value with an error estimate.

usage: convergence.py BOLT --vary OPTION=V1:V2:V3[:...] [--vary ...] --quantity Q [...]
                      [--case FILE.yaml] [--fixed "OPTIONS"] [--backend cpu|cuda]
                      [--mpirun "mpirun -n 2"] [--steady] [--order P] [--ratio R]
                      [--noise REL] [--json OUT.json] [--work-dir DIR] [--timeout S]

example (the 2-D cavity's D and G, first-order streaming, three grids, to steady state):
  tools/convergence.py build/app/bolt --case inputs/cavity.yaml \\
      --vary grid_n=16,16,1:32,32,1:64,64,1 --fixed "-vgrid_n 12 -stream_order 1" \\
      --fixed "-solver iterative" --steady --quantity D --quantity G

Runs with the same options (each option's last value) run once: each has a folder of
--work-dir named by its options (runs/<hash>/, with its options.txt), so the base point shared
by several ladders runs once, and a study repeated in the same --work-dir with more levels runs
only the new ones. A run is reused only by the same bolt executable (its size and modification
time are in options.txt): a rebuilt bolt runs every level again.

Levels go from coarse to fine. Values of a level are separated by ':' (values themselves may
hold commas). Each --vary is a ladder of its own around the --fixed options (one parameter
varied at a time); several are run one after the other. Each run is
  BOLT [-backend B] [-options_file_yaml CASE] FIXED -OPTION VALUE -out_dir DIR -summary FILE
under the --mpirun prefix if given (the varied option comes after the fixed ones: the last
occurrence of an option wins). A quantity is a key of the
summary's "diagnostics" (D, G, D_mean, minus_pxy, reciprocal_thickness, ...; docs/output.md) or
a dotted path into the summary (timing.wall_seconds); it must be a number.

The refinement ratio between two levels comes from the varied option:
  grid_n, vgrid_n       cells / velocity nodes per axis; with several active axes (more than one
                        cell or node) the ratio is the geometric mean of the axes' ratios
  projection_points     lattice points (the order is then in 1/N)
  ts_dt, ts_max_courant, ts_collision_fraction
                        the time step each run reports in its summary ("dt")
Any other option (stream_order, ...) gets values and differences only, unless --ratio gives a
constant ratio. From three successive levels a, b, c with differences e_ab = q_b - q_a and
e_bc = q_c - q_b and ratios r_ab, r_bc, the observed order p solves
  |e_ab / e_bc| = r_bc^p (r_ab^p - 1) / (r_bc^p - 1)      (= r^p for a constant ratio)
(Celik et al., J. Fluids Eng. 130, 078001, 2008), and the Richardson value is
q_c + (q_c - q_b) / (r_bc^p - 1), its distance to q_c the estimated error of the finest level.
p is undefined, and said so, when the differences change sign (oscillation or noise), do not
shrink (the levels are not in the asymptotic range), or are below the noise level (--noise,
relative to the value; default 1e-10 for double runs, 1e-5 for float runs: round-off).

With --steady every run must stop at its steady tolerance (summary "steady"; set
-ts_steady_tol or -iter_tol through --fixed), else the study stops there: values of an
unfinished transient would measure the stopping time, not the discretisation. A failed run
stops the study with its command and the tail of its stderr (exit status 1).
"""
import argparse
import hashlib
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

COUNT_OPTIONS = {"grid_n": "cells per axis", "vgrid_n": "velocity nodes per axis",
                 "projection_points": "lattice points"}
STEP_OPTIONS = ("ts_dt", "ts_max_courant", "ts_collision_fraction")
STDERR_TAIL = 20


class StudyError(Exception):
    pass


# --------------------------------------------------------------------------------------------
# arithmetic: observed order and Richardson extrapolation

def order_equation(p, r_ab, r_bc):
    """log of |e_ab / e_bc| for q = q* + C h^p; increases monotonically with p > 0."""
    return p * math.log(r_bc) + math.log((r_ab ** p - 1.0) / (r_bc ** p - 1.0))


def observed_order(q_a, q_b, q_c, r_ab, r_bc, noise=0.0):
    """Observed order from three levels (coarse to fine) and the ratios h_a/h_b, h_b/h_c.
    Returns (p, None) or (None, reason). noise: differences at or below it are not resolved."""
    e_ab, e_bc = q_b - q_a, q_c - q_b
    if abs(e_ab) <= noise or abs(e_bc) <= noise:
        return None, "differences at the noise level: no order"
    if (e_ab > 0) != (e_bc > 0):
        return None, "differences change sign (oscillation or noise): p undefined"
    target = math.log(abs(e_ab / e_bc))
    lo, hi = 1e-9, 60.0
    if target <= order_equation(lo, r_ab, r_bc):
        return None, "differences do not shrink: not in the asymptotic range, p undefined"
    if target >= order_equation(hi, r_ab, r_bc):
        return hi, f"p above {hi:g} (faster than algebraic, e.g. spectral)"
    for _ in range(200):  # bisection: order_equation is monotone, so this converges
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if order_equation(mid, r_ab, r_bc) < target else (lo, mid)
    return 0.5 * (lo + hi), None


def richardson(q_b, q_c, r_bc, p):
    """Extrapolated value from the two finest levels for order p."""
    return q_c + (q_c - q_b) / (r_bc ** p - 1.0)


def analyse(values, sizes, noise=0.0, order=None):
    """One row per level: value, difference to the previous level, and from the third level on
    the observed order, the Richardson value and the estimated error of this level. sizes: the
    levels' mesh sizes h (any unit), or None when the option has no refinement ratio. order: a
    known (formal) order; adds the Richardson value for it from each pair of levels."""
    rows = []
    for k, q in enumerate(values):
        row = {"value": q, "difference": None, "ratio": None, "p": None, "richardson": None,
               "error_estimate": None, "richardson_formal": None, "note": None}
        if k >= 1:
            row["difference"] = q - values[k - 1]
            if sizes is not None:
                row["ratio"] = sizes[k - 1] / sizes[k]
                if order is not None:
                    row["richardson_formal"] = richardson(values[k - 1], q, row["ratio"], order)
        if k >= 2 and sizes is not None:
            p, note = observed_order(values[k - 2], values[k - 1], q, rows[-1]["ratio"],
                                     row["ratio"], noise * abs(q))
            row["p"], row["note"] = p, note
            if p is not None:
                row["richardson"] = richardson(values[k - 1], q, row["ratio"], p)
                row["error_estimate"] = abs(row["richardson"] - q)
        rows.append(row)
    return rows


# --------------------------------------------------------------------------------------------
# the ladder: which option, its levels, their mesh sizes

def parse_vary(text):
    name, sep, levels = text.partition("=")
    name = name.strip().lstrip("-")
    values = [v.strip() for v in levels.split(":")]
    if not sep or not name or len(values) < 2 or any(not v for v in values):
        raise StudyError(f"--vary {text!r}: expected OPTION=V1:V2[:V3...] (at least two levels, "
                         "coarse to fine, separated by ':')")
    return name, values


def count_size(name, value):
    """Mesh size 1/N of a count option's value; per-axis lists give the geometric mean over
    the active axes (more than one cell or node)."""
    try:
        counts = [int(c) for c in value.split(",")]
    except ValueError:
        raise StudyError(f"--vary {name}: level {value!r} is not a list of integers")
    if min(counts) < 1:
        raise StudyError(f"--vary {name}: level {value!r} has a count below 1")
    active = [c for c in counts if c > 1] or counts
    return math.prod(active) ** (-1.0 / len(active))


def mesh_sizes(name, values, summaries, ratio):
    """h of each level (decreasing), or None when the option has no refinement ratio."""
    if ratio is not None:
        return [ratio ** -k for k in range(len(values))]
    if name in COUNT_OPTIONS:
        sizes = [count_size(name, v) for v in values]
    elif name in STEP_OPTIONS:
        sizes = [s["dt"] for s in summaries]
    else:
        return None
    if any(b >= a for a, b in zip(sizes, sizes[1:])) and name in STEP_OPTIONS:
        raise StudyError(f"--vary {name}: the runs' time steps (summary dt: "
                         f"{', '.join(f'{h:.4g}' for h in sizes)}) do not decrease level by "
                         "level; another setting fixes dt (-ts_dt, -ts_max_courant, "
                         "-ts_collision_fraction)")
    if any(b >= a for a, b in zip(sizes, sizes[1:])):
        raise StudyError(f"--vary {name}: the levels must refine from coarse to fine (mesh sizes "
                         f"{', '.join(f'{h:.4g}' for h in sizes)}); give them in that order")
    return sizes


# --------------------------------------------------------------------------------------------
# running bolt

def level_command(args, name, value, outdir):
    cmd = shlex.split(args.mpirun) if args.mpirun else []
    cmd += [args.bolt]
    if args.backend:
        cmd += ["-backend", args.backend]
    if args.case:
        cmd += ["-options_file_yaml", args.case]
    for fixed in args.fixed:
        cmd += shlex.split(fixed)
    return cmd + [f"-{name}", value, "-out_dir", outdir,
                  "-summary", os.path.join(outdir, "summary.json")]


def is_option_name(token):
    return len(token) > 1 and token[0] == "-" and token[1].isalpha()


def run_options(args, name, value):
    """The options that make a level's run, each with the value that wins (the last), sorted:
    levels of different ladders that set the same options are the same run."""
    prefix = (shlex.split(args.mpirun) if args.mpirun else []) + [args.bolt]
    tokens = level_command(args, name, value, "-")[len(prefix):-4]
    final, k = {}, 0
    while k < len(tokens):
        if k + 1 < len(tokens) and not is_option_name(tokens[k + 1]):
            final[tokens[k]] = [tokens[k + 1]]
            k += 2
        else:
            final[tokens[k]] = []
            k += 1
    return shlex.join(prefix + [t for key in sorted(final) for t in [key] + final[key]])


def run_folder(work, options):
    """Each distinct run has one folder, named by its options: a level shared by several ladders
    (the base point) runs once, and a study repeated with more levels in the same --work-dir
    reuses the runs it has."""
    return os.path.join(work, "runs", hashlib.sha1(options.encode()).hexdigest()[:12])


def executable_stamp(bolt):
    """The bolt executable's size and modification time: a run is reused only by the same build."""
    path = shutil.which(bolt) or bolt
    try:
        st = os.stat(path)
    except OSError:
        return f"{path} (not found)"
    return f"{os.path.realpath(path)} {st.st_size} bytes, modified {st.st_mtime_ns} ns"


def reused_summary(outdir, options):
    try:
        with open(os.path.join(outdir, "options.txt")) as f:
            if f.read() != options:
                return None
        with open(os.path.join(outdir, "summary.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_level(args, name, value, work):
    options = run_options(args, name, value)
    outdir = run_folder(work, options)
    options += "\n" + executable_stamp(args.bolt)
    cmd = level_command(args, name, value, outdir)
    shown = shlex.join(cmd)
    summary = reused_summary(outdir, options)
    if summary is not None:
        print(f"+ (the run of {outdir}) {shown}", flush=True)
        return check_summary(args, name, value, summary, shown), shown
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "options.txt"), "w") as f:
        f.write(options)
    print(f"+ {shown}", flush=True)
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        raise StudyError(f"-{name} {value}: no result within {args.timeout:g} s: {shown}")
    except OSError as e:
        raise StudyError(f"-{name} {value}: cannot start {cmd[0]}: {e.strerror}")
    summary_path = os.path.join(outdir, "summary.json")
    if done.returncode != 0 or not os.path.exists(summary_path):
        tail = "\n".join("  " + line for line in done.stderr.splitlines()[-STDERR_TAIL:])
        raise StudyError(f"-{name} {value}: bolt failed with status {done.returncode}: "
                         f"{shown}\n{tail or '  (no stderr)'}")
    with open(summary_path) as f:
        summary = json.load(f)
    return check_summary(args, name, value, summary, shown), shown


def check_summary(args, name, value, summary, shown):
    if args.steady and not summary.get("steady"):
        raise StudyError(f"-{name} {value}: not steady after {summary.get('steps')} steps "
                         f"(residual {summary.get('residual')}): give a steady tolerance "
                         f"(-ts_steady_tol or -iter_tol) and enough -ts_max_steps or -iter_max: "
                         f"{shown}")
    print(f"  {summary.get('steps')} steps, steady {summary.get('steady')}, "
          f"{summary.get('timing', {}).get('wall_seconds', float('nan')):.3g} s", flush=True)
    return summary


def quantity(summary, key):
    if "." in key:
        node = summary
        for part in key.split("."):
            node = node.get(part) if isinstance(node, dict) else None
    else:
        node = summary.get("diagnostics", {}).get(key, summary.get(key))
    if isinstance(node, bool) or not isinstance(node, (int, float)):
        known = ", ".join(k for k, v in summary.get("diagnostics", {}).items()
                          if isinstance(v, (int, float)) and not isinstance(v, bool))
        raise StudyError(f"--quantity {key}: not a number in the summary (numbers among its "
                         f"diagnostics: {known or 'none'})")
    return float(node)


# --------------------------------------------------------------------------------------------
# report

def fmt(x, spec=".8g"):
    return "-" if x is None else format(x, spec)


def refinement_source(name, ratio):
    if ratio is not None:
        return f"refinement ratio {ratio:g} (--ratio)"
    if name in COUNT_OPTIONS:
        return f"refinement ratio from the {COUNT_OPTIONS[name]}"
    if name in STEP_OPTIONS:
        return "refinement ratio from the time step of each run"
    return None


def print_table(key, name, values, rows, order, source):
    print(f"\n{key} over -{name}" + (f" ({source})" if source else ""))
    head = ["level", f"-{name}", key, "difference", "ratio", "p", "Richardson", "error est."]
    if order is not None:
        head.append(f"Richardson p={order:g}")
    table = [head]
    for value, row in zip(values, rows):
        line = [str(len(table)), value, fmt(row["value"], ".10g"), fmt(row["difference"], ".3e"),
                fmt(row["ratio"], ".3g"), fmt(row["p"], ".3f"), fmt(row["richardson"], ".10g"),
                fmt(row["error_estimate"], ".2e")]
        if order is not None:
            line.append(fmt(row["richardson_formal"], ".10g"))
        table.append(line)
    widths = [max(len(r[c]) for r in table) for c in range(len(head))]
    for r in table:
        print("  ".join(c.rjust(w) for c, w in zip(r, widths)))
    for level, row in enumerate(rows, 1):
        if row["note"]:
            print(f"  note (levels {level - 2}-{level}): {row['note']}")
    estimates = [r["richardson"] for r in rows if r["richardson"] is not None]
    if len(estimates) >= 2:
        print(f"  the last two Richardson values differ by {abs(estimates[-1] - estimates[-2]):.2e}"
              " (the extrapolation's own uncertainty)")
    if source is None:
        print(f"  -{name} has no refinement ratio: values and differences only (--ratio sets one)")


def parse_args(argv):
    doc_head, _usage, doc_rest = __doc__.split("\n\n", 2)  # argparse writes its own usage
    ap = argparse.ArgumentParser(description=doc_head, epilog=doc_rest,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bolt", help="the bolt binary")
    ap.add_argument("--vary", action="append", required=True,
                    help="OPTION=V1:V2:V3..., coarse to fine (repeatable: one ladder each)")
    ap.add_argument("--quantity", action="append", required=True, help="summary key (repeatable)")
    ap.add_argument("--case", help="case file, passed as -options_file_yaml")
    ap.add_argument("--fixed", action="append", default=[], help="options of every run")
    ap.add_argument("--backend", choices=["cpu", "cuda"], help="-backend of every run")
    ap.add_argument("--mpirun", help="launcher prefix, e.g. 'mpirun -n 2'")
    ap.add_argument("--steady", action="store_true", help="every run must end steady")
    ap.add_argument("--order", type=float, help="known order: adds its Richardson value")
    ap.add_argument("--ratio", type=float, help="constant refinement ratio between levels")
    ap.add_argument("--noise", type=float, help="relative noise level of the values")
    ap.add_argument("--json", help="write levels, commands and results to this file")
    ap.add_argument("--work-dir", help="folder of the runs (kept); default a temporary one")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds per run")
    args = ap.parse_args(argv)
    if args.ratio is not None and args.ratio <= 1.0:
        ap.error(f"--ratio {args.ratio:g}: must be > 1 (h of a level over h of the next)")
    if args.order is not None and args.order <= 0.0:
        ap.error(f"--order {args.order:g}: must be > 0")
    return args


def study(args, name, levels, work):
    summaries, commands, values = [], [], {key: [] for key in args.quantity}
    for level in levels:
        summary, command = run_level(args, name, level, work)
        for key in args.quantity:  # a misspelt quantity fails after the first run
            values[key].append(quantity(summary, key))
        summaries.append(summary)
        commands.append(command)
    sizes = mesh_sizes(name, levels, summaries, args.ratio)
    noise = args.noise
    if noise is None:
        noise = 1e-5 if any(s.get("precision") == "float" for s in summaries) else 1e-10
    result = {"option": name, "levels": levels, "mesh_sizes": sizes, "noise": noise,
              "commands": commands, "steps": [s.get("steps") for s in summaries],
              "steady": [s.get("steady") for s in summaries], "quantities": {}}
    for key in args.quantity:
        rows = analyse(values[key], sizes, noise, args.order)
        print_table(key, name, levels, rows, args.order, refinement_source(name, args.ratio))
        result["quantities"][key] = rows
    return result


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    work = args.work_dir or tempfile.mkdtemp(prefix="bolt-convergence-")
    try:
        ladders = [parse_vary(text) for text in args.vary]
        for name, levels in ladders:  # a ladder in the wrong order fails before any run
            if args.ratio is None and name in COUNT_OPTIONS:
                mesh_sizes(name, levels, None, None)
        result = {"studies": [study(args, name, levels, work) for name, levels in ladders]}
    except StudyError as e:
        print(f"convergence.py: error: {e}", file=sys.stderr)
        if not args.work_dir and os.listdir(work):
            print(f"convergence.py: the runs are kept in {work}", file=sys.stderr)
        elif not args.work_dir:
            os.rmdir(work)
        return 1
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
    if not args.work_dir:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
