#!/usr/bin/env python3
"""Tests of tools/convergence.py (tests/tools/CMakeLists.txt).

usage: test_convergence.py arithmetic
       test_convergence.py couette BOLT

arithmetic: the observed order and the Richardson value on synthetic sequences of known order,
the notes where p is undefined, the refinement ratios taken from the varied option.
couette: the tool on a real case, plane Couette flow at delta = 1 (first-order streaming, steady
iterative solver), a ladder of 16 to 128 cells; and its refusals (a failed run, a run that is
not steady).
"""
import csv
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "tools", "convergence.py")


def load_tool():
    spec = importlib.util.spec_from_file_location("convergence", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def report(ok, text):
    print(f"{'ok  ' if ok else 'FAIL'} {text}")
    return ok


def check_arithmetic():
    cv = load_tool()
    ok = True
    # q_h = 1 + 0.3 h^2 on h = 1/4, 1/8, 1/16: p = 2 and the extrapolation 1, exactly up to
    # round-off (the bisection ends at 1e-15 of p; the values carry 1e-16).
    h = [1 / 4, 1 / 8, 1 / 16]
    rows = cv.analyse([1 + 0.3 * x ** 2 for x in h], h)
    ok &= report(abs(rows[2]["p"] - 2) < 1e-9 and abs(rows[2]["richardson"] - 1) < 1e-12,
                 f"q = 1 + 0.3 h^2, r = 2: p {rows[2]['p']:.12f} (2), Richardson "
                 f"{rows[2]['richardson']:.15f} (1)")
    ok &= report(abs(rows[2]["error_estimate"] - 0.3 / 256) < 1e-12,
                 f"  error estimate of the finest level {rows[2]['error_estimate']:.6e} "
                 f"(0.3 h^2 = {0.3 / 256:.6e})")
    # Unequal ratios (h = 0.3, 0.2, 0.12: r = 1.5, 1.667): q = 2 - 0.5 h^1.5.
    h = [0.3, 0.2, 0.12]
    rows = cv.analyse([2 - 0.5 * x ** 1.5 for x in h], h)
    ok &= report(abs(rows[2]["p"] - 1.5) < 1e-9 and abs(rows[2]["richardson"] - 2) < 1e-12,
                 f"q = 2 - 0.5 h^1.5, r = 1.5 then 1.667: p {rows[2]['p']:.12f} (1.5), "
                 f"Richardson {rows[2]['richardson']:.15f} (2)")
    # A known order with two levels: q = 1 + 0.3 h, p = 1 -> 1.
    rows = cv.analyse([1.3, 1.15], [1.0, 0.5], order=1.0)
    ok &= report(abs(rows[1]["richardson_formal"] - 1) < 1e-14,
                 f"--order 1 on q = 1 + 0.3 h, two levels: {rows[1]['richardson_formal']:.15f} (1)")
    # Where p is undefined the row says why and gives no Richardson value.
    for values, noise, words in [([1.0, 1.1, 1.05], 0.0, "change sign"),
                                 ([1.0, 1.1, 1.25], 0.0, "do not shrink"),
                                 ([1.0, 1 + 1e-14, 1 + 1.5e-14], 1e-10, "noise level")]:
        row = cv.analyse(values, [1.0, 0.5, 0.25], noise)[2]
        ok &= report(row["p"] is None and row["richardson"] is None
                     and words in (row["note"] or ""),
                     f"{values}: p {row['p']}, note {row['note']!r} (expected '{words}')")
    # An option without a refinement ratio: differences only.
    rows = cv.analyse([0.35, 0.34, 0.339], None)
    ok &= report(rows[1]["difference"] is not None and all(r["p"] is None for r in rows),
                 "no mesh sizes (e.g. -stream_order): differences, no order")
    # Ratios from the varied option: active axes only, per axis; totals for lattice points.
    for name, coarse, fine, want in [("grid_n", "16,16,1", "32,32,1", 2.0),
                                     ("grid_n", "1,16,1", "1,64,1", 4.0),
                                     ("vgrid_n", "8,24,8", "16,48,16", 2.0),
                                     ("vgrid_n", "12", "18", 1.5),
                                     ("projection_points", "50000", "200000", 4.0)]:
        sizes = cv.mesh_sizes(name, [coarse, fine], None, None)
        ratio = sizes[0] / sizes[1]
        ok &= report(abs(ratio - want) < 1e-12,
                     f"-{name} {coarse} -> {fine}: ratio {ratio:.12g} ({want:g})")
    summaries = [{"dt": 0.02}, {"dt": 0.005}]
    ratio = cv.mesh_sizes("ts_max_courant", ["0.8", "0.2"], summaries, None)
    ok &= report(abs(ratio[0] / ratio[1] - 4) < 1e-12,
                 "-ts_max_courant: ratio from the runs' dt (4)")
    for text in ["grid_n=16,16,1", "grid_n16:32", "=1:2", "grid_n=8::16"]:
        try:
            cv.parse_vary(text)
            ok &= report(False, f"--vary {text!r} accepted")
        except cv.StudyError as e:
            ok &= report(True, f"--vary {text!r} refused: {e}")
    return ok


def bgk_reference():
    with open(os.path.join(ROOT, "tests", "refdata", "couette_plane_shear_stress.csv")) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return next(float(r["minus_pxy"]) for r in rows
                    if r["source_id"] == "BGK_TAB" and float(r["delta"]) == 1.0)


def tool(bolt, args):
    """Runs the tool as a user would, its runs in a folder removed afterwards."""
    with tempfile.TemporaryDirectory() as work:
        return run_tool([sys.executable, TOOL, bolt, "--backend", "cpu", "--work-dir", work] + args)


def run_tool(cmd):
    print("+", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print(done.stdout + done.stderr)
    return done


def check_couette(bolt):
    """Plane Couette flow, delta = 1, first-order upwind streaming solved to its steady state by
    the iterative solver (-iter_tol 1e-6: minus_pxy moves by 7e-9 to 1e-10, far below the
    differences of 1e-3), 8,24,8 velocities, 16, 32, 64, 128 cells, and a second ladder of
    velocity nodes around 32 cells (about 3 s in all).

    Measured minus_pxy (the reduced 2V space, -vgrid_reduce auto): 8 cells 0.352171, 16 0.346426,
    32 0.343431, 64 0.341902, 128 0.341129, 256 0.340740: the differences fall by 1.92, 1.96,
    1.98, 1.99 per halving, observed orders 0.94, 0.97, 0.98, 0.99: the upwind scheme's error C1 h + C2 h^2 tends to first order from
    below as the h^2 share halves with each level. Checks:
    - p of the triples 16-32-64 (0.969) and 32-64-128 (0.984) in [0.9, 1.1]: first order with
      the h^2 remainder of these levels (0.03, 0.016) three times over; order 2 or 1/2, or a
      ratio taken over the wrong axes (2^(1/3) for 1,N,1 would give p = 3), fall far outside;
    - the two Richardson values agree to a tenth of the error they remove at 64 cells (measured
      3.4e-5 against 1.6e-3): the extrapolation is in its asymptotic range;
    - the extrapolated value within 1 % of BGK_TAB (0.33891; measured +0.42 %, the error of the
      8,24,8 velocity grid, which the cell ladder does not refine: run_case.py's couette check
      measures 0.35-0.5 %)."""
    want = bgk_reference()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "study.json")
        done = tool(bolt, ["--case", os.path.join(ROOT, "inputs", "couette.yaml"),
                           "--vary", "grid_n=1,16,1:1,32,1:1,64,1:1,128,1",
                           "--vary", "vgrid_n=8,24,8:12,36,12",
                           "--fixed", "-solver iterative -stream_order 1 -vgrid_n 8,24,8",
                           "--fixed", "-grid_n 1,32,1",
                           "--steady", "--quantity", "minus_pxy", "--json", out])
        if not report(done.returncode == 0 and os.path.exists(out),
                      f"the study ran (status {done.returncode})"):
            return False
        with open(out) as f:
            study, velocities = json.load(f)["studies"]
    rows = study["quantities"]["minus_pxy"]
    # The second ladder runs around the --fixed options: its first level is the same run as the
    # cell ladder's 32-cell level (the varied option overrides the fixed one), bit for bit.
    first = velocities["quantities"]["minus_pxy"][0]["value"]
    if not report(velocities["option"] == "vgrid_n" and first == rows[1]["value"],
                  f"second ladder (-vgrid_n): its first level {first!r} is the 32-cell level "
                  f"{rows[1]['value']!r}"):
        return False
    ok = report(study["steady"] == [True] * 4, f"every level steady ({study['steps']} sweeps)")
    for level in (2, 3):
        p = rows[level]["p"]
        ok &= report(p is not None and 0.9 <= p <= 1.1,
                     f"observed order, levels {level - 1}-{level + 1}: {p} in [0.9, 1.1]")
    if not ok:
        return False
    r3, r4 = rows[2]["richardson"], rows[3]["richardson"]
    ok &= report(abs(r3 - r4) < 0.1 * rows[2]["error_estimate"],
                 f"Richardson {r3:.7f} (16-64) vs {r4:.7f} (32-128): {abs(r3 - r4):.2e} < 0.1 x "
                 f"the 64-cell error estimate {rows[2]['error_estimate']:.2e}")
    ok &= report(abs(r4 / want - 1) < 0.01,
                 f"Richardson {r4:.6f} vs BGK_TAB {want}: {r4 / want - 1:+.2%} (within 1 %)")
    return ok


def check_refusals(bolt):
    """A failed run names its command and bolt's error; a run that stops before its steady
    tolerance under --steady stops the study."""
    case = ["--case", os.path.join(ROOT, "inputs", "couette.yaml"), "--quantity", "minus_pxy"]
    done = tool(bolt, case + ["--vary", "grid_n=1,8,1:1,16,1:1,32",
                              "--fixed", "-solver iterative -stream_order 1 -vgrid_n 8,24,8"])
    ok = report(done.returncode == 1 and "-grid_n 1,32 " in done.stderr
                and "bolt: error: -grid_n" in done.stderr and "status 2" in done.stderr,
                "a failed level: status 1, its command and bolt's error line")
    done = tool(bolt, case + ["--vary", "grid_n=1,8,1:1,16,1:1,32,1", "--steady",
                              "--fixed", "-stream_order 1 -vgrid_n 8,24,8 -ts_max_steps 5"])
    ok &= report(done.returncode == 1 and "not steady after 5 steps" in done.stderr,
                 "--steady: a run stopped by -ts_max_steps ends the study")
    return ok


def check_reuse(bolt):
    """Runs with the same options run once: a study repeated in its --work-dir with one more
    level runs only that level and gives the earlier levels' values unchanged; a rebuilt bolt
    (a copy whose modification time then changes) reuses none of its earlier runs."""
    base = [sys.executable, TOOL, bolt, "--backend", "cpu", "--quantity", "minus_pxy",
            "--case", os.path.join(ROOT, "inputs", "couette.yaml"),
            "--fixed", "-solver iterative -stream_order 1 -vgrid_n 8,24,8"]
    with tempfile.TemporaryDirectory() as work:
        results = []
        for levels in ("1,8,1:1,16,1", "1,8,1:1,16,1:1,32,1"):
            out = os.path.join(work, "study.json")
            done = run_tool(base + ["--work-dir", work, "--json", out, "--vary", "grid_n=" + levels])
            if not report(done.returncode == 0, f"the study of {levels} ran"):
                return False
            with open(out) as f:
                results.append((done.stdout, json.load(f)["studies"][0]["quantities"]["minus_pxy"]))
    (_, first), (log, second) = results
    lines = [line for line in log.splitlines() if line.startswith("+ ")]
    reused = sum(line.startswith("+ (the run of ") for line in lines)
    ran = len(lines) - reused
    ok = report(reused == 2 and ran == 1, f"repeated with a third level: {reused} runs reused "
                f"(2), {ran} run (1)")
    ok &= report([r["value"] for r in second[:2]] == [r["value"] for r in first],
                 "the reused levels give the same values")
    with tempfile.TemporaryDirectory() as work:
        copy = os.path.join(work, "bolt")
        shutil.copy2(bolt, copy)
        logs = []
        for _ in range(2):
            study = [sys.executable, TOOL, copy] + base[3:] + [
                "--work-dir", work, "--vary", "grid_n=1,8,1:1,16,1"]
            done = run_tool(study)
            logs.append(done.stdout)
            os.utime(copy, ns=(os.stat(copy).st_atime_ns, os.stat(copy).st_mtime_ns + 10**9))
        reused = logs[1].count("+ (the run of ")
        ok &= report(done.returncode == 0 and reused == 0,
                     f"after the executable changed: {reused} runs reused (0)")
    return ok


def main():
    if sys.argv[1:] == ["arithmetic"]:
        ok = check_arithmetic()
    elif len(sys.argv) == 3 and sys.argv[1] == "couette":
        ok = check_couette(sys.argv[2])
        ok &= check_refusals(sys.argv[2])
        ok &= check_reuse(sys.argv[2])
    else:
        raise SystemExit(__doc__)
    print("PASS" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
