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
readme_table = sys.argv[2] if len(sys.argv) > 2 else None
rows = ["case,contender,round,metric,value",
        "info,kernel,,release,6.12.118+", "info,timer,,tsc_khz,1000",
        "info,rounds,,rounds,3",
        "copy_tmpfs,all,,bytes,%d" % (100 << 20), "small_tmpfs,all,,files,4"]
# 4 files: 24 program runs each round, the work 0.25 s of its 1 s
for r in (1, 2, 3):
    rows += ["small_tmpfs,copychain,%d,seconds,1.0" % r, "small_tmpfs,copychain,%d,steps,24" % r,
             "small_tmpfs,copychain,%d,cpu_seconds,0.002" % r,
             "small_tmpfs,copychain,%d,load_seconds,0.1" % r,
             "small_tmpfs,copychain,%d,verify_seconds,0.08" % r,
             "small_tmpfs,copychain,%d,work_seconds,0.25" % r]
# uring_cc: CPU 0.004, 0.0025, 0.002 s: copychain's CPU over it 0.5, 0.8, 1.0
for r, cpu in zip((1, 2, 3), (0.004, 0.0025, 0.002)):
    rows += ["small_tmpfs,uring_cc,%d,seconds,1.25" % r,
             "small_tmpfs,uring_cc,%d,cpu_seconds,%s" % (r, cpu)]
# copychain 1 s each round; cp 2, 1, 4 s: per-round ratios 2, 1, 4 -> 2
for r, cp in zip((1, 2, 3), (2.0, 1.0, 4.0)):
    rows += ["copy_tmpfs,copychain,%d,seconds,1.0" % r,
             "copy_tmpfs,copychain,%d,enters,2" % r,
             "copy_tmpfs,copychain,%d,steps,%d" % (r, 10 + r),
             "copy_tmpfs,copychain,%d,work_seconds,0.5" % r,
             "copy_tmpfs,cp,%d,seconds,%s" % (r, cp),
             "copy_tmpfs,uring_cp,%d,seconds,0.5" % r,
             "copy_tmpfs,uring_cc,%d,seconds,%s" % (r, (1.3, 0.8, 1.2)[r - 1]),
             "copy_tmpfs,copychain_sync,%d,seconds,2.0" % r,
             "copy_tmpfs,cp_sync,%d,seconds,%s" % (r, cp + 1)]
# B+tree, one lookup in flight: seconds and a lookup's p50 and p99 (us)
for who, secs, p50, p99 in (("bpf", 1, 10, 20), ("pread", 2, 20, 30), ("uring", 1.5, 12, 40)):
    rows += ["btree_tmpfs_d6_q1,%s,%d,%s,%s" % (who, r, m, v) for r in (1, 2, 3)
             for m, v in (("seconds", secs), ("p50_us", p50), ("p99_us", p99))]
rows += ["step,bpf,%d,steps_per_s,%d" % (r, 300) for r in (1, 2, 3)]
rows += ["step,loop,%d,steps_per_s,%d" % (r, 100) for r in (1, 2, 3)]
with tempfile.TemporaryDirectory() as d:
    src = os.path.join(d, "bench.csv")
    with open(src, "w") as f:
        f.write("\n".join(rows) + "\n")
    out = subprocess.run([sys.executable, report, src, d], check=True,
                         capture_output=True, text=True).stdout
    errors = []
    for want in ["copychain vs cp: 2.00 (1.00..4.00; 95% CI 1.00..4.00), target >= 1.0: met",
                 # median 1.2 above the target, the interval's low end 0.8 below
                 "copychain vs uring_cc: 1.20 (0.80..1.30; 95% CI 0.80..1.30), target >= 1.0: "
                 "**not shown** (median above, interval below)",
                 "copychain_sync vs cp_sync: 1.50 (1.00..2.50; 95% CI 1.00..2.50), target >= 1.0: met",
                 "copychain_sync vs uring_cp: 0.25 (0.25..0.25; 95% CI 0.25..0.25)\n",
                 "| copychain | 1.000 (1.000..1.000) | 104.9 | 2 | - |",
                 "bpf/loop steps/s: 3.00 (3.00..3.00; 95% CI 3.00..3.00), target >= 2: met",
                 "- bpf vs pread, p50: 2.00 (2.00..2.00; 95% CI 2.00..2.00), target >= 1.5: met",
                 "- bpf vs uring, p50: 1.20 (1.20..1.20; 95% CI 1.20..1.20), target >= 1.5: **missed**",
                 "- bpf vs uring, p99: 2.00 (2.00..2.00; 95% CI 2.00..2.00), target >= 1.5: met",
                 "- uring: a lookup's time p50 12.0 us (12.0..12.0), p99 40.0 us (40.0..40.0)",
                 "- copychain: 6.00 program runs a file",
                 "- copychain: loading 0.100 s (0.100..0.100), 0.080 s of it verifying and loading the programs",
                 "- copychain: CPU (user + sys, wait4) 0.002 s (0.002..0.002), 500.0 us a file",
                 "- copychain: 0.250 s (0.250..0.250) of it after loading (its --stats)"]:
        if want not in out:
            errors.append("missing: " + want)
    with open(os.path.join(d, "summary.csv")) as f:
        summ = {(r[0], r[1], r[2]): r[3:] for r in csv.reader(f)}
    if summ.get(("copy_tmpfs", "cp", "seconds")) != ["2", "1", "4", "3"]:
        errors.append("summary cp: %s" % summ.get(("copy_tmpfs", "cp", "seconds")))
    with open(os.path.join(d, "headline.md")) as f:
        head = f.read()
    for want in ["| 100 MiB copy, tmpfs | copychain | `cp` (coreutils) | 2.00 (1.00..4.00; 95% CI 1.00..4.00) |",
                 "| 100 MiB copy, tmpfs | copychain --sync | `cp && sync` | 1.50 (1.00..2.50; 95% CI 1.00..2.50) |",
                 "| dependent NOP steps | a coroutine, 1 enter a chain | QD1 loop, one enter a step "
                 "| 3.00 (3.00..3.00; 95% CI 3.00..3.00) |",
                 "| B+tree lookups, depth 6, 1 in flight, tmpfs | coroutine | `pread` loop, serial "
                 "| 2.00 (2.00..2.00; 95% CI 2.00..2.00) |"]:
        if want not in head:
            errors.append("headline.md missing: " + want)
    with open(os.path.join(d, "targets.md")) as f:
        tgt = f.read()
    for want in ["| 100 MiB copy, tmpfs | copychain vs cp | 2.00 (1.00..4.00; 95% CI 1.00..4.00) | >= 1.0 | met |",
                 # a cost: its median 0.8 at the target, the interval's high end 1.0 above
                 "| 4 files x 4 KiB copy, tmpfs | CPU, copychain / uring_cc | 0.80 (0.50..1.00; 95% CI "
                 "0.50..1.00) | <= 0.8 | **not shown** (median below, interval above) |",
                 "| 4 files x 4 KiB copy, tmpfs | copychain vs uring_cc | 1.25 (1.25..1.25; 95% CI "
                 "1.25..1.25) | >= 1.2 | met |",
                 "| B+tree lookups, depth 6, 1 in flight, tmpfs | coroutine vs uring, p50 | 1.20 "
                 "(1.20..1.20; 95% CI 1.20..1.20) | >= 1.5 | **missed** |",
                 "| dependent NOP steps | steps/s vs the QD1 loop | 3.00 (3.00..3.00; 95% CI "
                 "3.00..3.00) | >= 2 | met |"]:
        if want not in tgt:
            errors.append("targets.md missing: " + want)
    if readme_table:
        # the README's table becomes headline.md's; the text around it stays
        readme = os.path.join(d, "README.md")
        with open(readme, "w") as f:
            f.write("# x\n\n| case | iocoro | peer | old |\n| --- |\n| stale | row |\n\nafter\n")
        subprocess.run([sys.executable, readme_table, readme, os.path.join(d, "headline.md")],
                       check=True, capture_output=True)
        with open(readme) as f:
            got = f.read()
        if got != "# x\n\n" + head.rstrip("\n") + "\n\nafter\n":
            errors.append("readme_table.py gave:\n" + got)
    if errors:
        print(tgt)
        print(out)
        print("\n".join(errors))
        sys.exit(1)
print("report_test: ok")
