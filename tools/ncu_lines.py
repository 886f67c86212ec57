#!/usr/bin/env python3
"""Where a kernel's instructions go, from Nsight Compute's CSV pages (tools/profile-fused-step.sh):

    python3 tools/ncu_lines.py DETAILS.csv SOURCE.csv [UPDATES [LINES]]

DETAILS.csv (`ncu -i REP --page details --csv`) gives the kernel's summary metrics; SOURCE.csv
(`ncu -i REP --page source --csv --print-source cuda,sass`, a -lineinfo build) its executed warp
instructions and stall samples per source line. Prints the summary (with UPDATES, the
phase-space updates of the launch: its warp instructions times 32 per update), the share of each
source file and the LINES (default 30) source lines that execute the most instructions. The
shares are of the source page's total, in which an instruction of inlined code may count on more
than one line."""
import collections
import csv
import sys

SUMMARY = ("Duration", "Executed Instructions", "Registers Per Thread", "Theoretical Occupancy",
           "Achieved Occupancy", "No Eligible", "Eligible Warps Per Scheduler",
           "Warp Cycles Per Issued Instruction", "DRAM Throughput", "L2 Hit Rate",
           "L1/TEX Hit Rate", "Local Memory Spilling Requests", "Block Limit Registers",
           "Block Limit Shared Mem", "Dynamic Shared Memory Per Block")


def summary(path):
    with open(path) as file:
        rows = list(csv.reader(file))
    column = {name: i for i, name in enumerate(rows[0])}
    for row in rows[1:]:
        name = row[column["Metric Name"]]
        if name in SUMMARY:
            yield name, row[column["Metric Value"]], row[column["Metric Unit"]]


def source_lines(path):
    """(warp instructions, stall samples, file, line, source) of every source line."""
    header, name = None, None
    with open(path) as file:
        for row in csv.reader(file):
            if not row:
                continue
            if row[0] == "File Path":
                name = row[1].rsplit("/", 1)[-1]
            elif row[0] == "Line No":
                header = row
                executed = header.index("Instructions Executed")
                samples = header.index("Warp Stall Sampling (All Samples)")
            elif row[0] and header and row[0] != "Function Name":
                try:
                    yield int(row[executed]), int(row[samples]), name, row[0], row[1].strip()
                except ValueError:
                    continue


def main():
    details, source = sys.argv[1], sys.argv[2]
    updates = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    shown = int(sys.argv[4]) if len(sys.argv) > 4 else 30
    for name, value, unit in summary(details):
        print(f"{name}: {value} {unit}")
        if name == "Executed Instructions" and updates > 0:
            print(f"warp instructions x 32 per update: "
                  f"{32 * float(value.replace(',', '')) / updates:.1f}")
    lines = sorted(source_lines(source), reverse=True)
    total = sum(line[0] for line in lines) or 1
    samples = sum(line[1] for line in lines) or 1
    per_file = collections.Counter()
    for line in lines:
        per_file[line[2]] += line[0]
    print("\ninstructions by file:")
    for name, count in per_file.most_common(12):
        print(f"  {100 * count / total:5.1f} %  {name}")
    print("\ninstructions  stall samples  line")
    for count, stalls, name, number, text in lines[:shown]:
        print(f"  {100 * count / total:5.1f} %  {100 * stalls / samples:5.1f} %  "
              f"{name}:{number}  {text[:80]}")


if __name__ == "__main__":
    main()
