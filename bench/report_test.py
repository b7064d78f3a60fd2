#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""unit_bench_report: report.py on a CSV of known numbers gives the
medians, per-round ratios, targets and summary rows those numbers mean."""
import csv
import os
import subprocess
import sys
import tempfile

report = sys.argv[1]
rows = ["case,contender,round,metric,value",
        "info,kernel,,release,6.12.118+", "info,timer,,tsc_khz,1000",
        "info,rounds,,rounds,3",
        "copy_tmpfs,all,,bytes,%d" % (100 << 20)]
# copychain 1 s each round; cp 2, 1, 4 s: per-round ratios 2, 1, 4 -> 2
for r, cp in zip((1, 2, 3), (2.0, 1.0, 4.0)):
    rows += ["copy_tmpfs,copychain,%d,seconds,1.0" % r,
             "copy_tmpfs,copychain,%d,enters,2" % r,
             "copy_tmpfs,cp,%d,seconds,%s" % (r, cp),
             "copy_tmpfs,uring_cp,%d,seconds,0.5" % r,
             "copy_tmpfs,copychain_sync,%d,seconds,2.0" % r,
             "copy_tmpfs,cp_sync,%d,seconds,%s" % (r, cp + 1)]
rows += ["step,bpf,%d,steps_per_s,%d" % (r, 300) for r in (1, 2, 3)]
rows += ["step,loop,%d,steps_per_s,%d" % (r, 100) for r in (1, 2, 3)]
with tempfile.TemporaryDirectory() as d:
    src = os.path.join(d, "bench.csv")
    with open(src, "w") as f:
        f.write("\n".join(rows) + "\n")
    out = subprocess.run([sys.executable, report, src, d], check=True,
                         capture_output=True, text=True).stdout
    errors = []
    for want in ["copychain vs cp: 2.00 (1.00..4.00), target >= 1.0: met",
                 "copychain_sync vs cp_sync: 1.50 (1.00..2.50), target >= 1.0: met",
                 "copychain_sync vs uring_cp: 0.25 (0.25..0.25)\n",
                 "| copychain | 1.000 (1.000..1.000) | 104.9 | 2 | - |",
                 "bpf/loop steps/s: 3.00 (3.00..3.00), target >= 2: met"]:
        if want not in out:
            errors.append("missing: " + want)
    with open(os.path.join(d, "summary.csv")) as f:
        summ = {(r[0], r[1], r[2]): r[3:] for r in csv.reader(f)}
    if summ.get(("copy_tmpfs", "cp", "seconds")) != ["2", "1", "4", "3"]:
        errors.append("summary cp: %s" % summ.get(("copy_tmpfs", "cp", "seconds")))
    with open(os.path.join(d, "headline.md")) as f:
        head = f.read()
    for want in ["| 100 MiB copy, tmpfs | copychain | `cp` (coreutils) | 2.00 (1.00..4.00) |",
                 "| 100 MiB copy, tmpfs | copychain --sync | `cp && sync` | 1.50 (1.00..2.50) |",
                 "| dependent NOP steps | a coroutine, 1 enter a chain | QD1 loop, one enter a step "
                 "| 3.00 (3.00..3.00) |"]:
        if want not in head:
            errors.append("headline.md missing: " + want)
    if errors:
        print(out)
        print("\n".join(errors))
        sys.exit(1)
print("report_test: ok")
