#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Instructions per operation from two bench/guest.sh runs under icount.

Usage: instructions.py SMALL.csv LARGE.csv > instructions.md

bench/run-icount.sh runs the cases twice in a guest whose clock advances
1 ns per instruction (QEMU -icount shift=0), at N and 3N files or
lookups. A time there is a count of instructions; the difference between
the sizes over the extra files (lookups) is what one more costs, with
loading, start-up and exit cancelled out. "wall" counts every instruction
the guest ran while the contender ran (its own, its io_uring workers',
interrupts, anything else scheduled); "CPU" those of its process (wait4's
user + system time, io_uring workers included), and its context
switches (wait4's voluntary and involuntary, one more operation's). A
step's count is step_bench's own: a chain of 20,000 steps after one enter.
"""
import collections
import csv
import statistics
import sys


def load(path):
    rows = collections.defaultdict(dict)
    with open(path, newline="") as f:
        for r in csv.reader(f):
            if len(r) != 5:
                continue
            cas, who, rnd, metric, val = r
            try:
                rows[(cas, who, metric)][rnd] = float(val)
            except ValueError:
                pass
    return rows


def med(rows, cas, who, metric):
    v = [x for k, x in rows.get((cas, who, metric), {}).items() if k.isdigit()]
    return statistics.median(v) if v else None


a, b = load(sys.argv[1]), load(sys.argv[2])
cases = [
    ("small_tmpfs", "4 KiB file copied, tmpfs", "files", "copychain", "uring_cc"),
    ("tiny_tmpfs", "1 KiB file copied, tmpfs", "files", "copychain", "uring_cc"),
    ("cat_tmpfs", "4 KiB file read, tmpfs", "files", "catchain", "uring_cat"),
    ("btree_tmpfs_d6", "B+tree lookup, depth 6, 256 in flight, tmpfs", "lookups", "bpf", "uring"),
    ("btree_tmpfs_d6_q1", "B+tree lookup, depth 6, 1 in flight, tmpfs", "lookups", "bpf", "uring"),
    ("btree_tmpfs_d3", "B+tree lookup, depth 3, 256 in flight, tmpfs", "lookups", "bpf", "uring"),
    ("btree_tmpfs_d3_q1", "B+tree lookup, depth 3, 1 in flight, tmpfs", "lookups", "bpf", "uring"),
]
out = ["# Instructions per operation (QEMU -icount)", "",
       "Guest instructions (kernel and user space) one more operation costs: the "
       "difference between a run at N and one at 3N operations over the 2N extra "
       "(bench/run-icount.sh; the method is in bench/instructions.py). Median of the "
       "rounds; thousands of instructions.", "",
       "| operation | contender | k-instructions, wall | of them its process (CPU) | "
       "context switches | the peer's over iocoro's (wall) |",
       "| --- | --- | --- | --- | --- | --- |"]
st = "step"
if (st, "bpf", "steps_per_s") in b:
    base = None
    for who, label in (("bpf", "coroutine step"), ("loop", "QD1 loop"), ("link", "IOSQE_IO_LINK chain")):
        s = med(b, st, who, "steps_per_s")
        if not s:
            continue
        k = 1e6 / s     # 1e9 instructions a second, in thousands
        base = base or k
        out.append("| dependent NOP step | %s | %.2f | - | - | %s |" % (
            label, k, "-" if who == "bpf" else "%.2f" % (k / base)))
for cas, title, unit, main, peer in cases:
    na = a.get((cas, "all", unit), {}).get("")
    nb = b.get((cas, "all", unit), {}).get("")
    if not na or not nb or nb <= na:
        continue
    whos = sorted({w for (c, w, m) in b if c == cas and m == "seconds"},
                  key=lambda w: (not w.startswith(main), w != peer, w))
    mine = {}
    for who in whos:
        cells = []
        for metric, scale in (("seconds", 1e6), ("cpu_seconds", 1e6), ("context_switches", 1)):
            sa, sb = med(a, cas, who, metric), med(b, cas, who, metric)
            cells.append(None if sa is None or sb is None else (sb - sa) / (nb - na) * scale)
        if cells[0] is None:
            continue
        # a variant (_dt, _sync) against iocoro's same variant
        suffix = next((x for x in ("_dt", "_sync") if who.endswith(x)), "")
        if who in (main, main + suffix):
            mine[suffix] = cells[0]
        ref = mine.get(suffix) if suffix in mine else mine.get("")
        rel = "-" if who == main + suffix or not ref else "%.2f" % (cells[0] / ref)
        out.append("| %s | %s | %.1f | %s | %s | %s |" % (
            title, who, cells[0], "-" if cells[1] is None else "%.1f" % cells[1],
            "-" if cells[2] is None else "%.2f" % cells[2], rel))
out += ["", "Above 1 in the last column the peer runs more instructions than iocoro for the "
        "same operation (a `_dt` or `_sync` peer against iocoro's same variant). N: %s." % ", ".join(
            "%s %d" % (c, a[(c, "all", u)][""]) for c, _, u, _, _ in cases if (c, "all", u) in a), ""]
print("\n".join(out))
