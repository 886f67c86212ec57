#!/usr/bin/env python3
"""docs/benchmarks.md, rendered from the benchmark records (python3 standard library only).

    python3 tools/benchmarks_doc.py            # write docs/benchmarks.md
    python3 tools/benchmarks_doc.py --check    # exit 1 if docs/benchmarks.md is not what the
                                               # records render (CI: ctest -R docs_benchmarks)
    python3 tools/benchmarks_doc.py --import OUT/bench.jsonl --table explicit_step \\
        --commit abc1234 --command "BOLT_BENCH_STEPS=10 BOLT_BENCH_REPS=3 tools/gpu-check.sh" \\
        [--device "NVIDIA H200"] [--date 2026-12-01]
                                               # put bolt_bench rows into a table, then write

The records live in docs/data/benchmarks/: one NAME.json per table and template.md, the
hand-written text with a line `{{table NAME}}` where each table goes. A table file holds

    {"identity": [keys that name a row and survive an import],
     "columns": [{"title": ..., "cell": "{key} ({other} %)", "align": "right"}, ...],
     "records": [{"case": ..., "device": ..., "commit": ..., "date": ..., "command": ...,
                  numbers ...}, ...]}

Numbers are kept as written (decimal.Decimal), so "113.0" renders as 113.0. A cell whose keys
are missing from a record renders as "–"; a list [a, b] renders as the range "a–b"; the format
spec "sci" writes 6.95e10 and "x10" writes 5.02·10¹⁰. Device, commit, date and command are
stated once above a table when every row shares them, else as columns (commands as numbered
notes below the table).

--import reads bolt_bench's JSON rows (bench.jsonl of tools/gpu-check.sh, or any log with
"BOLT_BENCH_JSON {...}" lines). A row replaces the record with the same "label" (gpu-check's
case name) or, for unlabelled rows, the record whose "match" object equals the row's fields;
other rows are appended. The replaced record keeps its identity keys and takes the row's
measurement, device, commit, date and command: nothing of the older measurement stays.
"""
import argparse
import datetime
import decimal
import json
import os
import re
import sys
from decimal import Decimal

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
META = ("device", "commit", "date", "command")
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
PLACEHOLDER = re.compile(r"^\{\{table ([a-z0-9_]+)\}\}$")


# ---------------------------------------------------------------- reading and writing records
def load_table(path):
    with open(path, encoding="utf-8") as f:
        table = json.load(f, parse_float=Decimal)
    for key in ("identity", "columns", "records"):
        if key not in table:
            raise SystemExit(f"benchmarks_doc: {path}: no '{key}'")
    return table


def encode(value):
    """JSON text of a value, numbers exactly as held (Decimal keeps its digits)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{encode(k)}: {encode(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(encode(v) for v in value) + "]"
    if isinstance(value, Decimal):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def dump_table(table):
    """The canonical file: one column and one record per line."""
    lines = ["{", f'  "identity": {encode(table["identity"])},', '  "columns": [']
    lines += [f"    {encode(c)}," for c in table["columns"]]
    lines[-1] = lines[-1].rstrip(",")
    lines.append("  ],")
    lines.append('  "records": [')
    lines += [f"    {encode(r)}," for r in table["records"]]
    if table["records"]:
        lines[-1] = lines[-1].rstrip(",")
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------- rendering
class Value:
    """A record's value inside a cell's format string."""

    def __init__(self, v):
        self.v = v

    def __format__(self, spec):
        v = self.v
        if isinstance(v, list):
            return "–".join(format(Value(x), spec) for x in v)
        if spec in ("sci", "x10") and isinstance(v, (Decimal, int)):
            sign, digits, exponent = Decimal(v).as_tuple()
            power = len(digits) + exponent - 1
            mantissa = "".join(map(str, digits))
            mantissa = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
            mantissa = ("-" if sign else "") + mantissa
            if spec == "sci":
                return f"{mantissa}e{power}"
            return f"{mantissa}·10{str(power).translate(SUPERSCRIPT)}"
        if spec:
            raise SystemExit(f"benchmarks_doc: unknown format spec '{spec}'")
        return str(v)


class Missing(Exception):
    pass


class Fields(dict):
    def __missing__(self, key):
        raise Missing(key)


def cell(template, record):
    fields = Fields({k: Value(v) for k, v in record.items() if v is not None})
    try:
        return template.format_map(fields)
    except Missing:
        return "–"


def render_table(name, table):
    records = table["records"]
    if not records:
        return [f"(no records in docs/data/benchmarks/{name}.json)"]
    columns = [(c["title"], c["cell"], c.get("align") == "right") for c in table["columns"]]
    shared = {k: records[0].get(k) for k in META
              if all(r.get(k) == records[0].get(k) for r in records) and records[0].get(k)}
    for key in ("device", "commit", "date"):
        if key not in shared:
            columns.append((key, "`{commit}`" if key == "commit" else "{" + key + "}", False))
    commands = []
    if "command" not in shared:
        for r in records:
            if r.get("command") and r["command"] not in commands:
                commands.append(r["command"])
        columns.append(("command", "{command_ref}", False))
    if any(r.get("note") for r in records):
        columns.append(("note", "{note}", False))

    out = []
    said = []  # what every row shares, said once above the table
    for key, text in (("device", "Device: {}."), ("commit", "Commit: `{}`."), ("date", "Date: {}."),
                      ("command", "Command: `{}`")):
        if key in shared:
            said.append(text.format(shared[key]))
    if said:
        out += [" ".join(said), ""]
    out.append("| " + " | ".join(t for t, _, _ in columns) + " |")
    out.append("|" + "|".join("---:" if right else "---" for _, _, right in columns) + "|")
    for r in records:
        row = dict(r)
        if commands and r.get("command"):
            row["command_ref"] = f"[{commands.index(r['command']) + 1}]"
        out.append("| " + " | ".join(cell(c, row) for _, c, _ in columns) + " |")
    if commands:
        out.append("")
        out += [f"[{i + 1}] `{c}`" + ("  " if i + 1 < len(commands) else "")
                for i, c in enumerate(commands)]
    return out


def render(data_dir):
    with open(os.path.join(data_dir, "template.md"), encoding="utf-8") as f:
        template = f.read().splitlines()
    names = sorted(f[:-5] for f in os.listdir(data_dir) if f.endswith(".json"))
    used = []
    out = []
    for line in template:
        m = PLACEHOLDER.match(line.strip())
        if not m:
            out.append(line)
            continue
        name = m.group(1)
        if name not in names:
            raise SystemExit(f"benchmarks_doc: template.md names table '{name}', "
                             f"but {data_dir}/{name}.json does not exist")
        used.append(name)
        out += render_table(name, load_table(os.path.join(data_dir, name + ".json")))
    unused = sorted(set(names) - set(used))
    if unused:
        raise SystemExit(f"benchmarks_doc: tables not in template.md: {', '.join(unused)}")
    return "\n".join(out).rstrip("\n") + "\n"


# ---------------------------------------------------------------- importing bolt_bench rows
def significant(x, digits):
    """x to `digits` significant digits, as a Decimal that keeps trailing zeros (113.0)."""
    if x == 0:
        return Decimal(0)
    d = Decimal(repr(float(x)))
    exponent = d.adjusted() - digits + 1
    return d.quantize(Decimal(1).scaleb(exponent), rounding=decimal.ROUND_HALF_EVEN)


def power_text(n):
    """'24³' for 13824, '128²' for 16384: the side of a square or cube when n is one."""
    for p, mark in ((3, "³"), (2, "²")):
        side = round(n ** (1 / p))
        if side > 1 and side ** p == n:
            return f"{side}{mark}"
    return str(n)


def derived_identity(row):
    cells = [c for c in row["cells"] if c > 1]
    if len(set(cells)) == 1:
        grid = power_text(cells[0] ** len(cells))
    else:
        grid = " × ".join(map(str, cells))
    bc = row["bc"]
    kind = {"cavity": "cavity", "periodic": "periodic box"}.get(bc, bc)
    return {"case": f"{len(cells)}-D {kind}" if bc in ("cavity", "periodic") else bc,
            "grid": f"{grid} × {power_text(row['nv'])}",
            "precision": {"float": "fp32", "double": "fp64"}.get(row["precision"],
                                                                    row["precision"]),
            "label": row.get("label", "")}


def measurement(row):
    m = {"ms_per_step": significant(row["ms_per_step"], 4),
         "updates_per_s": significant(row["updates_per_s"], 3),
         "ps_per_update": significant(row["ps_per_update"], 3),
         "achieved_GBps": Decimal(round(row["achieved_GBps"])),
         "copy_GBps": Decimal(round(row["copy_GBps"]))}
    if row.get("copy_GBps", 0) > 0:
        m["fraction_pct"] = Decimal(f"{100 * row['fraction_of_copy']:.1f}")
    if row.get("triad_GBps", 0) > 0:  # the CPU backend: STREAM, the best step against it
        m["best_GBps"] = significant(row["achieved_GBps_best"], 3)
        m["ms_best"] = significant(row["ms_per_step_min"], 4)
        m["copy_GBps"] = significant(row["copy_GBps"], 3)
        m["triad_GBps"] = significant(row["triad_GBps"], 3)
        m["copy_pct"] = Decimal(f"{100 * row['fraction_of_copy_best']:.1f}")
        m["triad_pct"] = Decimal(f"{100 * row['fraction_of_triad_best']:.1f}")
        m["threads"] = row["threads"]
    if not row.get("finite", True):
        m["note"] = "NOT FINITE"
    return m


def read_rows(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("BOLT_BENCH_JSON "):
                line = line[len("BOLT_BENCH_JSON "):]
            if line.startswith("{"):
                rows.append(json.loads(line))
    return rows


def matches(record, row):
    if row.get("label"):
        return record.get("label") == row["label"]
    want = record.get("match")
    return bool(want) and all(row.get(k) == v for k, v in want.items())


def import_rows(table, rows, commit, command, date, device=None):
    for row in rows:
        meta = {"device": device or row["device"], "commit": commit, "date": date,
                "command": command}
        new = dict(meta, **measurement(row))
        for i, record in enumerate(table["records"]):
            if matches(record, row):
                keep = {k: record[k] for k in table["identity"] if k in record}
                table["records"][i] = dict(keep, **new)
                break
        else:
            identity = derived_identity(row)
            table["records"].append(
                dict({k: v for k, v in identity.items() if k in table["identity"]}, **new))
    return table


# ---------------------------------------------------------------- command line
def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true",
                   help="exit 1 if the output file differs from what the records render")
    p.add_argument("--data", default=os.path.join(ROOT, "docs", "data", "benchmarks"),
                   help="folder of template.md and the tables' JSON files")
    p.add_argument("--output", default=os.path.join(ROOT, "docs", "benchmarks.md"))
    p.add_argument("--import", dest="rows", metavar="JSONL",
                   help="bolt_bench JSON rows (bench.jsonl, or logs with BOLT_BENCH_JSON lines)")
    p.add_argument("--table", default="explicit_step", help="the table the rows go into")
    p.add_argument("--commit", help="commit of the binary measured (with --import)")
    p.add_argument("--command", help="the command that produced the rows (with --import)")
    p.add_argument("--date", default=datetime.datetime.now(datetime.timezone.utc)
                   .strftime("%Y-%m-%d"), help="date of the measurement (default: today, UTC)")
    p.add_argument("--device", help="device name (default: the rows' own)")
    a = p.parse_args(argv)

    if a.rows:
        if a.check:
            p.error("--import and --check do not go together")
        if not a.commit or not a.command:
            p.error("--import needs --commit and --command")
        path = os.path.join(a.data, a.table + ".json")
        rows = read_rows(a.rows)
        if not rows:
            raise SystemExit(f"benchmarks_doc: no bolt_bench rows in {a.rows}")
        table = import_rows(load_table(path), rows, a.commit, a.command, a.date, a.device)
        with open(path, "w", encoding="utf-8") as f:
            f.write(dump_table(table))
        print(f"benchmarks_doc: {len(rows)} row(s) into {path}")

    text = render(a.data)
    if a.check:
        try:
            with open(a.output, encoding="utf-8") as f:
                current = f.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print(f"benchmarks_doc: {a.output} is not what docs/data/benchmarks renders; "
                  "run python3 tools/benchmarks_doc.py", file=sys.stderr)
            return 1
        return 0
    with open(a.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
