#!/usr/bin/env python3
"""Runs that survive (issue 27): checkpoints that cannot be corrupted silently, signals, and a
run killed again and again. Used by ctest (tests/regression/CMakeLists.txt).

usage: survival.py BOLT CHECK [bolt options...]

checks:
  checkpoints  -out_checkpoint_keep 3: a byte flipped in /f and a changed header attribute are
               refused by -restart FILE; -restart latest passes over them to the checkpoint before;
               a truncated file and one of another configuration are refused, naming the reason
  signals      SIGTERM and SIGINT: exit status 4 and a checkpoint at the step the run was in (not
               at the next monitor stop), from which the run continues bit-identically
  kill         SIGKILL at 20 random moments (checkpoints every 2 steps, so some land in a write),
               each time continued with -restart latest: the end equals an uninterrupted run bit
               for bit, and the temporary files of the killed writes are gone
  guard        a step too large for the gas stops with status 5 and a dump of the fields
  output_faults  writes into a full device: nothing written before is lost, the failure is
               reported, -out_on_error stop|continue
  mpi_signals  2 ranks under tools/bolt-mpirun, a state of 262 MB: Ctrl-C to the process group,
               SIGTERM to the launcher, and SIGTERM to the launcher and every rank at once (as
               Slurm delivers it) stop within a step with a checkpoint and status 4
  shared_out_dir  a second run into the -out_dir of a running one is refused (status 2, the
               directory and the other run's pid named); the first ends with its monitor.csv intact
  configuration  -restart latest refuses a run whose physics differs from the checkpoint's (the
               rarefaction, a wall's velocity or temperature, the case, the scheme, ...), naming
               the option, and continues one that changes only what may change on a restart or
               writes the same values otherwise (boxes with other blanks, 1.0 for 1)
"""
import glob
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_case import main as run_checks, report, run  # noqa: E402


def final_f(path):
    import h5py
    with h5py.File(path, "r") as f:
        return f["f"][...], int(f.attrs["step"])


def bitwise_equal(a, b):
    import numpy as np
    return a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def attempt(bolt, args, outdir):
    """One bolt run that is expected to fail: (status, stderr)."""
    cmd = [bolt, "-backend", "cpu"] + args + ["-out_dir", outdir]
    print("+", " ".join(cmd), flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    print("   " + (done.stderr.strip() or done.stdout.strip().splitlines()[-1])[:300])
    return done.returncode, done.stderr + done.stdout


def temporaries(path):
    """The temporary files of writes of `path` (<path>.tmp.<host>.<pid>) that exist."""
    return glob.glob(glob.escape(path) + ".tmp.*")


def check_checkpoints(bolt, args, tmp):
    import h5py
    out = os.path.join(tmp, "run")
    path = os.path.join(out, "checkpoint.h5")
    base = args + ["-out_checkpoint_every", "10", "-out_checkpoint_keep", "3"]
    run(bolt, base + ["-ts_max_steps", "40"], out)
    kept = sorted(name for name in os.listdir(out) if name.startswith("checkpoint.h5"))
    ok = report(kept == ["checkpoint.h5", "checkpoint.h5.000000000020", "checkpoint.h5.000000000030"],
                f"three checkpoints kept: {kept}")
    more = base + ["-ts_max_steps", "50"]
    # A byte flipped inside /f's data of the newest checkpoint.
    with h5py.File(path, "r") as f:
        offset = f["f"].id.get_offset()
        size = f["f"].id.get_storage_size()
    with open(path, "r+b") as f:
        f.seek(offset + size // 2)
        byte = f.read(1)
        f.seek(offset + size // 2)
        f.write(bytes([byte[0] ^ 0x10]))
    status, text = attempt(bolt, more + ["-restart", path], os.path.join(tmp, "a"))
    ok &= report(status == 2 and "checksum" in text and path in text,
                 f"flipped byte in /f: status {status}, refused naming the file and the checksum")
    status, text = attempt(bolt, more + ["-restart", "latest", "-summary",
                                         os.path.join(tmp, "latest.json")], out)
    ok &= report(status == 0 and "restarted from " + path + ".000000000030" in text,
                 f"-restart latest passes over it to step 30: status {status}")
    # A header attribute changed without its checksum.
    damaged = os.path.join(tmp, "header.h5")
    subprocess.run(["cp", path + ".000000000030", damaged], check=True)
    with h5py.File(damaged, "r+") as f:
        f.attrs["time"] = f.attrs["time"] + 1.0
    status, text = attempt(bolt, more + ["-restart", damaged], os.path.join(tmp, "b"))
    ok &= report(status == 2 and "header does not match its checksum" in text,
                 f"changed header: status {status}")
    # A truncated file.
    truncated = os.path.join(tmp, "truncated.h5")
    with open(path + ".000000000030", "rb") as f:
        data = f.read()
    with open(truncated, "wb") as f:
        f.write(data[: len(data) // 2])
    status, text = attempt(bolt, more + ["-restart", truncated], os.path.join(tmp, "c"))
    ok &= report(status == 2 and truncated in text, f"truncated file: status {status}")
    # Another configuration.
    status, text = attempt(bolt, more + ["-restart", path + ".000000000030", "-vgrid_n", "10"],
                           os.path.join(tmp, "d"))
    ok &= report(status == 2 and "another configuration" in text and "vgrid" in text,
                 f"another velocity grid: status {status}")
    return ok


def start(bolt, args, outdir, log):
    cmd = [bolt, "-backend", "cpu"] + args + ["-out_dir", outdir]
    print("+", " ".join(cmd), flush=True)
    return subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)


def wait_for_steps(outdir, process, least=2, timeout=60):
    """Waits until monitor.csv has `least` rows (the run is stepping)."""
    monitor = os.path.join(outdir, "monitor.csv")
    t0 = time.time()
    while time.time() - t0 < timeout and process.poll() is None:
        if os.path.exists(monitor) and sum(1 for _ in open(monitor)) > least:
            return True
        time.sleep(0.05)
    return False


def check_signals(bolt, args, tmp):
    ok = True
    # Monitor rows every step, other stops every 1000 steps: a stop between two of those is the
    # per-step check, not the end of a stretch.
    base = args + ["-out_monitor_every", "1", "-out_checkpoint_every", "1000"]
    reference = os.path.join(tmp, "reference")
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        out = os.path.join(tmp, sig.name)
        with open(os.path.join(tmp, sig.name + ".log"), "w") as log:
            process = start(bolt, base + ["-ts_max_steps", "100000"], out, log)
            stepping = wait_for_steps(out, process, least=5)
            process.send_signal(sig)
            status = process.wait(timeout=120)
        text = open(os.path.join(tmp, sig.name + ".log")).read()
        f_stop, step = final_f(os.path.join(out, "checkpoint.h5"))
        ok &= report(stepping and status == 4 and "stopped by a signal at step" in text,
                     f"{sig.name}: exit status {status} at step {step}")
        ok &= report(step % 1000 != 0, f"{sig.name}: stopped within the stretch (step {step})")
        # The run continues from that checkpoint as if it had never stopped.
        end = step + 3
        run(bolt, base + ["-ts_max_steps", str(end), "-restart", os.path.join(out, "checkpoint.h5"),
                          "-out_checkpoint", os.path.join(out, "end.h5")], out)
        run(bolt, base + ["-ts_max_steps", str(end), "-out_checkpoint", reference + ".h5"],
            reference)
        a, _ = final_f(os.path.join(out, "end.h5"))
        b, _ = final_f(reference + ".h5")
        ok &= report(bitwise_equal(a, b), f"{sig.name}: continued to step {end} bit-identically")
    return ok


def check_kill(bolt, args, tmp):
    steps = 20000
    base = args + ["-ts_max_steps", str(steps), "-out_monitor_every", "5",
                   "-out_checkpoint_every", "2", "-out_checkpoint_keep", "2"]
    reference = os.path.join(tmp, "reference")
    run(bolt, base, reference)
    out = os.path.join(tmp, "killed")
    path = os.path.join(out, "checkpoint.h5")
    rng = random.Random(27)
    kills = in_write = 0
    with open(os.path.join(tmp, "kill.log"), "w") as log:
        while kills < 20:
            restart = ["-restart", "latest"] if os.path.exists(path) else []
            started = time.time()
            process = start(bolt, base + restart, out, log)
            time.sleep(rng.uniform(0.2, 1.2))
            if process.poll() is not None:
                break  # finished before the kill: the remaining kills are not needed
            process.kill()
            process.wait()
            kills += 1
            # A kill inside a write leaves the temporary file of that process behind.
            in_write += any(os.path.getmtime(name) >= started for name in temporaries(path))
    ok = report(kills == 20, f"{kills} SIGKILLs before the run ended")
    ok &= report(in_write > 0, f"{in_write} of them during a checkpoint write")
    run(bolt, base + (["-restart", "latest"] if os.path.exists(path) else []), out)
    a, step_a = final_f(path)
    b, step_b = final_f(os.path.join(reference, "checkpoint.h5"))
    ok &= report(step_a == step_b == steps and bitwise_equal(a, b),
                 f"after {kills} kills the run ends at step {step_a} bit-identical to the "
                 f"uninterrupted one")
    # Each kill inside a write left a temporary file of its process; the next run removed it.
    ok &= report(not temporaries(path), f"no temporary checkpoint left: {temporaries(path)}")
    return ok


def check_guard(bolt, args, tmp):
    """A step too large for the gas (a cold gas pushed by a body force: the explicit force term
    turns f negative) is stopped at the first monitor step that sees it: status 5, one line
    naming the cell, the quantity and the likely cause, the fields of that step written as a
    dump, no NaN in the monitor."""
    import h5py
    import numpy as np
    out = os.path.join(tmp, "guard")
    status, text = attempt(bolt, args + ["-init_type", "uniform", "-init_temperature", "0.05",
                                         "-model_force", "0.2,0,0", "-ts_dt", "1.2",
                                         "-vgrid_half_width", "2", "-out_monitor_every", "1",
                                         "-ts_max_steps", "20"], out)
    ok = report(status == 5, f"exit status {status}")
    ok &= report("the temperature is not positive in cell (0, 0, 0)" in text
                 and "-model_force" in text, "the message names the cell, T and the force")
    dumps = [name for name in os.listdir(out) if name.startswith("fields_")]
    ok &= report(len(dumps) == 1, f"the fields of the failing step: {dumps}")
    with h5py.File(os.path.join(out, dumps[0]), "r") as f:
        ok &= report(float(np.min(f["T"][...])) < 0.0, "the dump shows the negative temperature")
    monitor = open(os.path.join(out, "monitor.csv")).read().lower()
    ok &= report("nan" not in monitor, "no NaN in monitor.csv")
    # Checkpoints between monitor rows: the guard checks each state before it replaces the last
    # checkpoint, so the run stops at the first bad step and keeps a sound checkpoint.
    out = os.path.join(tmp, "guard_checkpoints")
    status, text = attempt(bolt, args + ["-init_type", "uniform", "-init_temperature", "0.05",
                                         "-model_force", "0.2,0,0", "-ts_dt", "1.2",
                                         "-vgrid_half_width", "2", "-out_monitor_every", "10",
                                         "-out_checkpoint_every", "1", "-ts_max_steps", "20"], out)
    ok &= report(status == 5, f"checkpoint every step, monitor every 10: exit status {status}")
    checkpoint = os.path.join(out, "checkpoint.h5")
    if os.path.exists(checkpoint):
        f, step = final_f(checkpoint)
        ok &= report(bool(np.all(np.isfinite(f))) and checkpoint in text,
                     f"the last checkpoint (step {step}) is finite and named as the last one")
    else:
        ok &= report("last checkpoint: none written" in text, "no checkpoint, and the message says so")
    return ok


class FullDisk:
    """A tmpfs of `size` mounted at `path` for the duration (needs a user who may mount)."""

    def __init__(self, path, size):
        self.path, self.size = path, size

    def __enter__(self):
        os.makedirs(self.path, exist_ok=True)
        self.mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size}", "tmpfs",
                                       self.path], capture_output=True).returncode == 0
        return self.mounted

    def __exit__(self, *exc):
        if self.mounted:
            subprocess.run(["umount", self.path])


def check_output_faults(bolt, args, tmp):
    """A write that fails loses nothing written before and is reported (on a small tmpfs that
    fills up; the test needs a user who may mount one, as CI's root):
      1. the fields fill the disk: exit status 7 naming the file and the lack of space, every
         fields file before it readable, a checkpoint of that step written (elsewhere), from
         which the run continues;
      2. the same with -out_on_error continue: exit status 0, a warning per lost output;
      3. the second checkpoint does not fit beside the first: exit status 7, the first intact
         (-restart verifies its checksums), no temporary left."""
    import h5py
    base = args + ["-out_monitor_every", "10", "-out_fields_every", "10"]

    def fields_step(path):
        with h5py.File(path, "r") as f:
            return int(f.attrs["step"])

    def fields_files(folder):
        return sorted(name for name in os.listdir(folder) if name.startswith("fields_"))

    ok = True
    disk = os.path.join(tmp, "disk")
    with FullDisk(disk, "400k") as mounted:
        if not mounted:
            return report(False, "cannot mount a tmpfs: run this test as a user who may")
        out, checkpoint = os.path.join(disk, "stop"), os.path.join(tmp, "stop_checkpoint.h5")
        status, text = attempt(bolt, base + ["-ts_max_steps", "100", "-out_checkpoint",
                                             checkpoint], out)
        written = fields_files(out)
        ok &= report(status == 7 and "No space left on device" in text and "fields_0000" in text,
                     f"the fields fill the disk: exit status {status}, file and cause named")
        ok &= report(len(written) >= 2 and all(fields_step(os.path.join(out, name)) ==
                                               int(name[7:13]) for name in written),
                     f"every fields file before it is readable: {written}")
        _, step = final_f(checkpoint)
        ok &= report(step == int(written[-1][7:13]) + 10,
                     f"a checkpoint of the failing step ({step}) was written")
        run(bolt, base + ["-ts_max_steps", "100", "-restart", checkpoint],
            os.path.join(tmp, "continued"))
        ok &= report(True, "the run continued from it to its end")
    with FullDisk(disk, "400k"):
        out = os.path.join(disk, "continue")
        status, text = attempt(bolt, base + ["-ts_max_steps", "100", "-out_on_error", "continue",
                                             "-out_checkpoint", os.path.join(tmp, "c.h5")], out)
        ok &= report(status == 0 and "going on without it" in text and
                     "outputs of this run were not written" in text,
                     f"-out_on_error continue: exit status {status}, the lost outputs reported")
    with FullDisk(disk, "5500k"):
        out = os.path.join(disk, "checkpoint")
        path = os.path.join(out, "checkpoint.h5")
        base = args + ["-out_monitor_every", "10", "-out_checkpoint_every", "10"]
        status, text = attempt(bolt, base + ["-ts_max_steps", "20"], out)
        ok &= report(status == 7 and "checkpoint.h5.tmp" in text,
                     f"the second checkpoint does not fit: exit status {status}, file named")
        ok &= report(not temporaries(path), "no temporary checkpoint left")
        _, step = final_f(path)
        ok &= report(step == 10, f"the checkpoint of step 10 is intact (step {step})")
        run(bolt, base + ["-ts_max_steps", "20", "-restart", path, "-out_checkpoint",
                          os.path.join(tmp, "again.h5")], os.path.join(tmp, "again"))
        ok &= report(True, "-restart verified its checksums and continued from it")
    with FullDisk(disk, "64k"):
        # The summary does not fit beside an earlier one: that one stays whole.
        summary = os.path.join(disk, "summary.json")
        previous = '{"schema": "bolt-summary-1", "steps": 10}\n'
        open(summary, "w").write(previous)
        try:
            with open(os.path.join(disk, "filler"), "wb") as filler:
                while True:
                    filler.write(b"x" * 4096)
                    filler.flush()
        except OSError:
            pass
        status, text = attempt(bolt, args + ["-ts_max_steps", "10", "-summary", summary],
                               os.path.join(tmp, "summary_full"))
        ok &= report(status == 7 and "-summary" in text,
                     f"the summary does not fit: exit status {status}, the option named")
        ok &= report(open(summary).read() == previous, "the earlier summary is intact")
        ok &= report(not [n for n in os.listdir(disk) if ".tmp" in n], "no temporary left")
    return ok


def checkpoint_step(path):
    import h5py
    with h5py.File(path, "r") as f:
        return int(f.attrs["step"])


def monitor_steps(outdir):
    """The step of each row of monitor.csv; -1 for a row that does not start with one."""
    with open(os.path.join(outdir, "monitor.csv"), "rb") as f:
        rows = f.read().split(b"\n")[1:]
    steps = [row.split(b",")[0] for row in rows if row]
    return [int(step) if step.isdigit() else -1 for step in steps]


def descendants(pid, name=None):
    """The processes below process `pid` (called `name`, when given: the ranks of a launcher)."""
    children = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        parent = int(stat[stat.rindex(")") + 2:].split()[1])
        children.setdefault(parent, []).append((int(entry), comm))
    found, todo = [], [pid]
    while todo:
        for child, comm in children.get(todo.pop(), []):
            todo.append(child)
            if name in (None, comm):
                found.append(child)
    return found


def check_mpi_signals(bolt, args, tmp):
    """Two ranks under tools/bolt-mpirun with a state of 262 MB (f of a 64 x 64 x 20^3 cavity):
    SIGINT to the launcher's process group (Ctrl-C), SIGTERM to the launcher, and SIGTERM to
    the launcher and to each rank at once (as Slurm delivers scancel and the time limit: to each
    task and again through srun) each stop the run with status 4 and a checkpoint of the step
    that was running or the next, within 60 s."""
    launcher = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                            "bolt-mpirun")
    ok = True
    for name in ("SIGINT to the process group", "SIGTERM to the launcher",
                 "SIGTERM to the launcher and the ranks"):
        out = os.path.join(tmp, name.replace(" ", "_"))
        cmd = [launcher, "--oversubscribe", "-n", "2", bolt, "-backend", "cpu"] + args + [
            "-ts_max_steps", "100000", "-out_monitor_every", "1", "-out_dir", out]
        print("+", " ".join(cmd), flush=True)
        with open(out + ".log", "w") as log:
            process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
            try:
                stepping = wait_for_steps(out, process, least=2)
                seen = monitor_steps(out)[-1] if stepping else -1
                signalled = time.time()
                if name.startswith("SIGINT"):
                    os.killpg(process.pid, signal.SIGINT)
                else:
                    ranks = descendants(process.pid, "bolt")
                    process.send_signal(signal.SIGTERM)
                    if name.endswith("ranks"):
                        for rank in ranks:
                            os.kill(rank, signal.SIGTERM)
                status = process.wait(timeout=60)
            finally:
                # mpirun and the ranks are in process groups of their own: a launcher that did
                # not end must not leave them running.
                if process.poll() is None:
                    for pid in descendants(process.pid) + [process.pid]:
                        try:
                            os.kill(pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    process.wait()
        seconds = time.time() - signalled
        path = os.path.join(out, "checkpoint.h5")
        step = checkpoint_step(path) if os.path.exists(path) else None
        ok &= report(stepping and status == 4 and step is not None and seen <= step <= seen + 2,
                     f"{name}: exit status {status} after {seconds:.1f} s, checkpoint at step "
                     f"{step} (monitor at step {seen} when signalled)")
        ok &= report(os.path.getsize(path) >= 200e6 if step is not None else False,
                     f"{name}: the checkpoint holds at least 200 MB")
    return ok


def check_shared_out_dir(bolt, args, tmp):
    """Two runs into one -out_dir: the second is refused at its start with status 2 and one line
    naming the directory and the first run's pid; the first goes on undisturbed (stopped by
    SIGTERM afterwards: status 4), its monitor.csv intact: its own rows, in order, no NUL bytes."""
    out = os.path.join(tmp, "shared")
    every = 10
    base = args + ["-out_monitor_every", str(every)]
    with open(os.path.join(tmp, "first.log"), "w") as log:
        first = start(bolt, base + ["-ts_max_steps", "1000000"], out, log)
        stepping = wait_for_steps(out, first, least=2)
        cmd = [bolt, "-backend", "cpu"] + base + ["-ts_max_steps", "20", "-out_dir", out]
        print("+", " ".join(cmd), flush=True)
        second = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
        time.sleep(1)  # the first run goes on writing
        still_running = first.poll() is None
        first.send_signal(signal.SIGTERM)
        first_status = first.wait(timeout=120)
    errors = [line for line in second.stderr.splitlines() if line.startswith("bolt: error:")]
    print("   " + " | ".join(errors))
    ok = report(stepping and second.returncode == 2 and len(errors) == 1 and
                f"-out_dir {out}" in errors[0] and f"pid {first.pid}" in errors[0],
                f"the second run: exit status {second.returncode}, refused naming the directory "
                f"and the first run's pid")
    with open(os.path.join(out, "monitor.csv"), "rb") as f:
        intact = b"\0" not in f.read()
    rows = monitor_steps(out)
    last = checkpoint_step(os.path.join(out, "checkpoint.h5"))
    ok &= report(still_running and first_status == 4 and intact and
                 rows == list(range(every, last + 1, every))[:len(rows)] and
                 last - every <= rows[-1] <= last,
                 f"the first run: exit status {first_status} at step {last}, monitor.csv intact "
                 f"({len(rows)} rows, NUL bytes: {not intact})")
    return ok


# Options that change the physics, each a restart must refuse, naming it (issue 38, item 5).
PHYSICS_CHANGES = [
    ["-model_delta", "0.5"],
    ["-model_omega", "0.7"],
    ["-bc_y_high_velocity", "0.02,0,0"],
    ["-bc_x_low_temperature", "1.1"],
    ["-bc_x_high_accommodation", "0.9"],
    ["-bc_y_low", "specular"],
    ["-case", "generic"],
    ["-ts_splitting", "strang"],
    ["-stream_order", "2"],
    ["-model_force", "0.001,0,0"],
    ["-model_conservative", "true"],
    ["-geometry_solid_temperature", "1.1"],
    ["-geometry_solids", "2,2,0,2,3,1"],
]


def check_configuration(bolt, args, tmp):
    """A run of 20 steps with a solid block in the cavity, then continuations with -restart
    latest: one with each option of PHYSICS_CHANGES is refused (status 2, one line naming the
    option; bolt once continued them silently), one that changes only options free on a restart
    (docs/output.md) and writes the geometry and delta otherwise continues from step 20."""
    outdir = os.path.join(tmp, "run")
    base = args + ["-geometry_solids", "2,2,0,2,2,1"]
    run(bolt, base + ["-ts_max_steps", "20"], outdir)
    ok = True
    for change in PHYSICS_CHANGES:
        status, text = attempt(bolt, base + change + ["-ts_max_steps", "40", "-restart", "latest"],
                               outdir)
        errors = [line for line in text.splitlines() if line.startswith("bolt: error:")]
        named = change[0][1:] + ":"
        ok &= report(status == 2 and len(errors) == 1 and "another configuration" in errors[0] and
                     named in errors[0], f"restart with {' '.join(change)}: status {status}, "
                     f"{'named' if errors and named in errors[0] else 'not named'}")
    same = ["-geometry_solids", " 2, 2,0,2,2,1 ;", "-model_delta", "1.0", "-ts_max_steps", "40",
            "-out_monitor_every", "7", "-init_temperature", "1.01", "-case_name", "renamed",
            "-decomp", "space", "-ts_max_courant", "0.5", "-restart", "latest"]
    status, text = attempt(bolt, args + same, outdir)
    ok &= report(status == 0 and "at step 20" in text,
                 f"restart changing only free options, the boxes written with other blanks: "
                 f"status {status}")
    return ok


CHECKS = {"checkpoints": check_checkpoints, "signals": check_signals, "kill": check_kill,
          "guard": check_guard, "output_faults": check_output_faults,
          "mpi_signals": check_mpi_signals, "shared_out_dir": check_shared_out_dir,
          "configuration": check_configuration}


if __name__ == "__main__":
    run_checks(CHECKS, __doc__)
