#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn the rows bench/guest.sh wrote into the report.

Usage: report.py BENCH.csv OUTDIR [VERSIONS.txt]

Writes OUTDIR/table.md (the ratios, medians and spreads, the targets and
whether they were met), OUTDIR/targets.md (every target in one table),
OUTDIR/headline.md (every case against every peer, one ratio a row: the
README's table), OUTDIR/summary.csv (case,contender,metric,median,
min,max,n) and, with gnuplot, OUTDIR/<case>.png. A ratio is the median of
the per-round ratios (contenders of one round ran back to back), with the
min..max of those ratios and a 95 % bootstrap interval of that median
(2,000 resamples of the rounds, a fixed seed: the report is the same for
the same CSV). A target is met only where the interval's low end is at
or above it (a target on a cost, CPU a file: the high end at or below).
"""
import collections
import csv
import os
import random
import re
import statistics
import subprocess
import sys

src, outdir = sys.argv[1], sys.argv[2]
versions = sys.argv[3] if len(sys.argv) > 3 else None
os.makedirs(outdir, exist_ok=True)

rows = collections.defaultdict(dict)      # (case, who, metric) -> {round: v}
info = {}
with open(src, newline="") as f:
    for r in csv.reader(f):
        if len(r) != 5 or r[0] == "case":
            continue
        cas, who, rnd, metric, val = r
        if cas == "info":
            info[who + "." + metric] = val
            continue
        try:
            v = float(val)
        except ValueError:
            continue
        rows[(cas, who, metric)][rnd] = v


def per_round(cas, who, metric):
    return {k: v for k, v in rows.get((cas, who, metric), {}).items()
            if k.isdigit()}


def stat(vals):
    vals = list(vals)
    return statistics.median(vals), min(vals), max(vals), len(vals)


def boot_ci(vals, reps=2000):
    """95 % bootstrap interval of the median of vals"""
    rng = random.Random(29)
    meds = sorted(statistics.median(rng.choices(vals, k=len(vals)))
                  for _ in range(reps))
    return meds[int(0.025 * reps)], meds[int(0.975 * reps) - 1]


def ratio(cas, num, den, metric="seconds", invert=False):
    """median, min, max, n, interval low, high over rounds of den/num
    (times: num faster if > 1)"""
    a, b = per_round(cas, num, metric), per_round(cas, den, metric)
    rs = [(b[k] / a[k]) if not invert else (a[k] / b[k])
          for k in a if k in b and a[k] > 0 and b[k] > 0]
    return stat(rs) + boot_ci(rs) if rs else None


def fmt_ratio(r):
    return "n/a" if r is None else "%.2f (%.2f..%.2f; 95%% CI %.2f..%.2f)" % (r[:3] + r[4:6])


def met(r, target):
    if r is None:
        return "no data"
    if r[4] >= target:
        return "met"
    return "**not shown** (median above, interval below)" if r[0] >= target else "**missed**"


def met_le(r, target):
    """a target on a cost: met only where the interval's high end is at
    or below it"""
    if r is None:
        return "no data"
    if r[5] <= target:
        return "met"
    return "**not shown** (median below, interval above)" if r[0] <= target else "**missed**"


summary = []
# targets.md: every target in one table, (case, what, ratio, target, verdict)
targets = []
lines = ["# iocoro benchmarks", ""]
if info:
    if "order.seed" in info:
        order = "after %s warm-up, the contenders of a round in a random order (seed %s)" % (
            info.get("rounds.warmup", "0"), info["order.seed"])
    else:   # a CSV of the guest.sh before the seed: no warm-up, rotation
        order = "no warm-up, the order of the contenders rotating each round"
    lines += ["Kernel %s (release flavour) in QEMU TCG; rdtsc at %s kHz; %s rounds, %s. "
              "Times under TCG are not hardware times: read the ratios." % (
                  info.get("kernel.release", "?"), info.get("timer.tsc_khz", "?"),
                  info.get("rounds.rounds", "?"), order), ""]
    if "disk.cache" in info:
        lines += ["The disk cases run on ext4 on a virtio disk QEMU attached with cache=%s%s." % (
            info["disk.cache"], ": O_DIRECT on the host, so a read the guest's page cache "
            "misses reaches the host's disk" if info["disk.cache"] == "none" else
            ": the host's page cache keeps the image, so \"page cache dropped\" reads "
            "come from host RAM"), ""]

# ---- case 1: decision latency (step_bench)
step_who = ["bpf", "loop", "link"]
if any(per_round("step", w, "steps_per_s") for w in step_who):
    lines += ["## 1. Decision latency: a chain of dependent NOP steps", "",
              "| contender | steps/s median (min..max) | io_uring_enter per chain |",
              "| --- | --- | --- |"]
    for w in step_who:
        v = per_round("step", w, "steps_per_s")
        e = per_round("step", w, "enters")
        if v:
            m = stat(v.values())
            summary.append(("step", w, "steps_per_s") + m)
            lines.append("| %s | %.0f (%.0f..%.0f) | %s |" % (
                w, m[0], m[1], m[2], "%.0f" % statistics.median(e.values()) if e else "?"))
    r1 = ratio("step", "bpf", "loop", "steps_per_s", invert=True)
    r2 = ratio("step", "bpf", "link", "steps_per_s", invert=True)
    lines += ["", "bpf/loop steps/s: %s, target >= 2: %s. bpf/link: %s, target >= 1.5: %s "
              "(the link chain decides nothing)." % (fmt_ratio(r1), met(r1, 2.0), fmt_ratio(r2),
                                                     met(r2, 1.5)), ""]
    targets += [("step", "steps/s vs the QD1 loop", r1, ">= 2", met(r1, 2.0)),
                ("step", "steps/s vs the `IOSQE_IO_LINK` chain", r2, ">= 1.5", met(r2, 1.5))]

# ---- cases 2, 3, 4: each a main contender against its peers, in seconds
# a peer is (peer, target) against the case's main contender, or
# (contender, peer, target): copychain --sync is compared with the peers
# that make their copies durable too (cp && sync, uring_cc --sync,
# uring_cp --fsync). uring_cc is copychain at the same concurrency with
# its decisions in user space: the value of deciding in the kernel.
# uu_cp is uutils cp (rust-coreutils), fio the ceiling: the same reads
# and writes at copychain's depth or files in flight, with nothing copied
# between them (and fio's own start-up, ~0.6 s under TCG, in its time).
copy_peers = [("uring_cc", 1.0), ("cp", 1.0), ("uu_cp", None), ("fio", None),
              ("copychain_sync", "uring_cc_sync", 1.0),
              ("copychain_sync", "cp_sync", 1.0), ("copychain_sync", "uring_cp", None)]
# issue 30's targets: 1.2x the same-concurrency peer; 2x cp -r on the
# (cache=none) disk, 1x on tmpfs (where cp copies with copy_file_range())
small_peers = [("uring_cc", 1.2), ("cp", 1.0), ("uu_cp", None), ("rsync", None), ("fio", None),
               ("copychain_dt", "uring_cc_dt", 1.2),
               ("copychain_sync", "uring_cc_sync", 1.0),
               ("copychain_sync", "cp_sync", 1.0), ("copychain_sync", "uring_cp", None)]
small_disk_peers = [p if p[0] != "cp" else ("cp", 2.0) for p in small_peers]
cat_peers = [("uring_cat", 1.2), ("cat", 1.0)]
timed_cases = [
    ("copy_tmpfs", "2. Big-file copy, tmpfs", "copychain", copy_peers),
    ("copy_disk", "2. Big-file copy, ext4 on a virtio disk, page cache dropped", "copychain",
     copy_peers),
    ("small_tmpfs", "3. Many small files copied, tmpfs", "copychain", small_peers),
    ("small_disk", "3. Many small files copied, ext4 on a virtio disk, page cache dropped", "copychain",
     small_disk_peers),
    ("tiny_tmpfs", "3. Many tiny files copied, tmpfs", "copychain", small_peers),
    ("tiny_disk", "3. Many tiny files copied, ext4 on a virtio disk, page cache dropped", "copychain",
     small_disk_peers),
    ("cat_tmpfs", "3. Many small files read, tmpfs", "catchain", cat_peers),
    ("cat_disk", "3. Many small files read, ext4 on a virtio disk, page cache dropped", "catchain",
     cat_peers),
    ("btree_tmpfs_d3", "4. Dependent reads, depth 3, 256 in flight, tmpfs (page cache warm)", "bpf",
     [("pread", None), ("uring", None)]),
    ("btree_tmpfs_d6", "4. Dependent reads, depth 6, 256 in flight, tmpfs (page cache warm)", "bpf",
     [("pread", 1.5), ("uring", 1.2)]),
    ("btree_tmpfs_d3_q1", "4. Dependent reads, depth 3, 1 in flight, tmpfs (page cache warm)", "bpf",
     [("pread", None), ("uring", None)]),
    ("btree_tmpfs_d6_q1", "4. Dependent reads, depth 6, 1 in flight, tmpfs (page cache warm)", "bpf",
     [("pread", 1.5), ("uring", 1.5)]),
    ("btree_disk_d3", "4. Dependent reads, depth 3, 256 in flight, ext4 on a virtio disk, "
     "page cache dropped", "bpf", [("pread", None), ("uring", None)]),
    ("btree_disk_d6", "4. Dependent reads, depth 6, 256 in flight, ext4 on a virtio disk, "
     "page cache dropped", "bpf", [("pread", 1.5), ("uring", 1.2)]),
    ("btree_disk_d3_q1", "4. Dependent reads, depth 3, 1 in flight, ext4 on a virtio disk, "
     "page cache dropped", "bpf", [("pread", None), ("uring", None)]),
    ("btree_disk_d6_q1", "4. Dependent reads, depth 6, 1 in flight, ext4 on a virtio disk, "
     "page cache dropped", "bpf", [("pread", 1.5), ("uring", 1.5)]),
    ("btree_disk_d6_direct", "4. Dependent reads, depth 6, 256 in flight, ext4 on a virtio disk, "
     "O_DIRECT", "bpf", [("pread", None), ("uring", 1.2)]),
    ("btree_disk_d6_direct_q1", "4. Dependent reads, depth 6, 1 in flight, ext4 on a virtio disk, "
     "O_DIRECT", "bpf", [("pread", 1.5), ("uring", 1.5)]),
]


def per_file_lines(cas, whos, files):
    """CPU and program runs a file, the work's own time without loading"""
    out = []
    for w in whos:
        steps, work = per_round(cas, w, "steps"), per_round(cas, w, "work_seconds")
        cpu = per_round(cas, w, "cpu_seconds")
        if cpu:
            m = stat(cpu.values())
            summary.append((cas, w, "cpu_seconds") + m)
            out.append("- %s: CPU (user + sys, wait4) %.3f s (%.3f..%.3f)%s" % (
                (w,) + m[:3] + ((", %.1f us a file" % (m[0] / files * 1e6)) if files else "",)))
        csw = per_round(cas, w, "context_switches")
        if csw and files:
            m = stat(v / files for v in csw.values())
            summary.append((cas, w, "context_switches_per_file") + m)
            out.append("- %s: %.2f context switches a file (wait4, its threads and io_uring "
                       "workers)" % (w, m[0]))
        inflight = per_round(cas, w, "inflight_mean")
        if inflight:
            m = stat(inflight.values())
            summary.append((cas, w, "inflight_mean") + m)
            out.append("- %s: %.1f files in flight on average (%.1f..%.1f; each from its start's "
                       "submit to its end as its decider sees it)" % ((w,) + m[:3]))
        if steps and files:
            m = stat(v / files for v in steps.values())
            summary.append((cas, w, "steps_per_file") + m)
            out.append("- %s: %.2f program runs a file" % (w, m[0]))
        if work:
            m = stat(work.values())
            summary.append((cas, w, "work_seconds") + m)
            out.append("- %s: %.3f s (%.3f..%.3f) of it after loading (its --stats)" % ((w,) + m[:3]))
        load, verify = per_round(cas, w, "load_seconds"), per_round(cas, w, "verify_seconds")
        if load and verify:
            ml, mv = stat(load.values()), stat(verify.values())
            summary.append((cas, w, "load_seconds") + ml)
            summary.append((cas, w, "verify_seconds") + mv)
            out.append("- %s: loading %.3f s (%.3f..%.3f), %.3f s of it verifying and loading "
                       "the programs" % ((w,) + ml[:3] + (mv[0],)))
    return out + [""] if out else []


def latency_lines(cas, main, peers, whos):
    """a lookup's p50 and p99 (median over rounds), and the ratios"""
    out = []
    for w in [main] + [w for w in whos if w != main]:
        p50, p99 = per_round(cas, w, "p50_us"), per_round(cas, w, "p99_us")
        if not p50 or not p99:
            continue
        m50, m99 = stat(p50.values()), stat(p99.values())
        summary.append((cas, w, "p50_us") + m50)
        summary.append((cas, w, "p99_us") + m99)
        out.append("- %s: a lookup's time p50 %.1f us (%.1f..%.1f), p99 %.1f us (%.1f..%.1f)" % (
            (w,) + m50[:3] + m99[:3]))
    for peer, tgt in peers:
        # a serial peer's lookup waits for no other: its time is only
        # comparable with one lookup in flight
        if peer == "pread" and not cas.endswith("_q1"):
            continue
        for q in ("p50_us", "p99_us"):
            r = ratio(cas, main, peer, q)
            if r is None:
                continue
            line = "- %s vs %s, %s: %s" % (main, peer, q[:3], fmt_ratio(r))
            out.append(line if tgt is None else "%s, target >= %.1f: %s" % (line, tgt, met(r, tgt)))
            if tgt is not None:
                targets.append((cas, "coroutine vs %s, %s" % (peer, q[:3]), r, ">= %.1f" % tgt,
                                met(r, tgt)))
    return out + [""] if out else []
charts = []
for cas, title, main, peers in timed_cases:
    whos = sorted({w for (c, w, m) in rows if c == cas and m == "seconds"})
    if not whos:
        continue
    size = rows.get((cas, "all", "bytes"), {}).get("")
    files = rows.get((cas, "all", "files"), {}).get("")
    nlook = rows.get((cas, "all", "lookups"), {}).get("")
    if size:
        what, unit, count = "%.0f MiB" % (size / 2**20), "MB/s", size / 1e6
    elif files:
        what, unit, count = "%d files" % files, "files/s", files
    elif nlook:
        what, unit, count = "%d lookups" % nlook, "lookups/s", nlook
    else:
        what, unit, count = "", "1/s", 1
    lines += ["## %s (%s)" % (title, what), "",
              "| contender | seconds median (min..max) | %s | io_uring_enter | %s's speed vs it |" % (unit, main),
              "| --- | --- | --- | --- | --- |"]
    chart = []
    for w in [main] + [w for w in whos if w != main]:
        t = per_round(cas, w, "seconds")
        if not t:
            continue
        m = stat(t.values())
        summary.append((cas, w, "seconds") + m)
        e = per_round(cas, w, "enters")
        r = None if w == main else ratio(cas, main, w)
        lines.append("| %s | %.3f (%.3f..%.3f) | %.1f | %s | %s |" % (
            w, m[0], m[1], m[2], count / m[0] if m[0] > 0 else 0,
            "%.0f" % statistics.median(e.values()) if e else "-",
            "-" if w == main else fmt_ratio(r)))
        chart.append((w, m[0], m[1], m[2]))
    lines.append("")
    for p in peers:
        who, peer, tgt = p if len(p) == 3 else (main,) + p
        r = ratio(cas, who, peer)
        if r is None and who != main:
            continue    # a run without that contender
        if tgt is None:
            lines.append("- %s vs %s: %s" % (who, peer, fmt_ratio(r)))
        else:
            lines.append("- %s vs %s: %s, target >= %.1f: %s" % (who, peer, fmt_ratio(r), tgt, met(r, tgt)))
            targets.append((cas, "coroutine vs %s, lookups/s" % peer if who == "bpf" else
                            "%s vs %s" % (who, peer), r, ">= %.1f" % tgt, met(r, tgt)))
    if cas.startswith(("small_", "tiny_")) and "uring_cc" in whos:
        # issue 30: copychain's CPU a file at most 0.8x uring_cc's
        r = ratio(cas, "uring_cc", main, "cpu_seconds")
        if r:
            lines += ["- CPU, %s / uring_cc: %s, target <= 0.8: %s" % (main, fmt_ratio(r), met_le(r, 0.8)), ""]
            targets.append((cas, "CPU, %s / uring_cc" % main, r, "<= 0.8", met_le(r, 0.8)))
    lines.append("")
    lines += per_file_lines(cas, whos, files)
    lines += latency_lines(cas, main, [p for p in peers if len(p) == 2], whos)
    charts.append((cas, title, chart))

# ---- case 5: scale (kernel memory per coroutine in flight)
scale = collections.defaultdict(dict)
for (c, w, m), d in rows.items():
    if c == "scale":
        for k, v in d.items():
            scale[(w, int(k))][m] = v
if scale:
    lines += ["## 5. Scale: kernel memory with M in flight", "",
              "bpf: coroutines, each waiting in a 60 s TIMEOUT it queued; timeout: bare "
              "TIMEOUTs from user space (the floor). Slab growth from /proc/meminfo.", "",
              "| contender | M | Slab kB | bytes per one |", "| --- | --- | --- | --- |"]
    for (w, m) in sorted(scale):
        d = scale[(w, m)]
        if "slab_kb_inflight" in d and "slab_kb_before" in d:
            kb = d["slab_kb_inflight"] - d["slab_kb_before"]
            lines.append("| %s | %d | %+.0f | %.0f |" % (w, m, kb, kb * 1024 / m))
            summary.append(("scale", w, "slab_bytes_per_one_M%d" % m, kb * 1024 / m, kb * 1024 / m, kb * 1024 / m, 1))
    lines.append("")

# ---- case 6: the curves over the count in flight (sweep_btree_qQ,
# sweep_small_qQ): each side's rate at each count, and the ratio
sweeps = [("sweep_btree", "B+tree lookups, depth 6, tmpfs", "lookups", "bpf", "uring"),
          ("sweep_small", "small files copied (4 KiB), tmpfs", "files", "copychain", "uring_cc")]
curves = []
for pre, title, unit, main, peer in sweeps:
    qs = sorted({int(c[len(pre) + 2:]) for (c, w, m) in rows
                 if c.startswith(pre + "_q") and c[len(pre) + 2:].isdigit()})
    if not qs:
        continue
    if not any(l.startswith("## 6.") for l in lines):
        lines += ["## 6. Concurrency: the same work at 1 to 256 in flight", "",
                  "Each count in flight is a case of its own (every round both sides, in a "
                  "random order). The io_uring peers keep that many in flight and decide in "
                  "user space.", ""]
    lines += ["### %s" % title, "",
              "| in flight | %s %s/s median (min..max) | %s %s/s median (min..max) | %s's speed vs %s |" % (
                  main, unit, peer, unit, main, peer),
              "| --- | --- | --- | --- |"]
    pts = []
    for q in qs:
        cas = "%s_q%d" % (pre, q)
        n = rows.get((cas, "all", unit), {}).get("")
        cells, pt = [], [q]
        for w in (main, peer):
            t = per_round(cas, w, "seconds")
            if not t or not n:
                cells.append("-")
                pt += [0, 0, 0]
                continue
            m = stat(n / v for v in t.values() if v > 0)
            summary.append((cas, w, unit + "_per_s") + m)
            cells.append("%.0f (%.0f..%.0f)" % m[:3])
            pt += list(m[:3])
        r = ratio(cas, main, peer)
        lines.append("| %d | %s | %s | %s |" % (q, cells[0], cells[1], fmt_ratio(r)))
        pts.append(pt)
    lines.append("")
    curves.append((pre, title, unit, main, peer, pts))

if versions and os.path.exists(versions):
    lines += ["## Versions", "", "```"] + open(versions).read().rstrip().split("\n") + ["```", ""]

# ---- headline.md: every case against every peer, one ratio a row (the
# README's table): iocoro's speed over the peer's, above 1 iocoro wins
peer_names = {
    "cp": "`cp` (coreutils)", "uu_cp": "uutils `cp`", "rsync": "`rsync -r`",
    "uring_cc": "io_uring copier, same concurrency",
    "uring_cp": "io_uring copier, serial (fsyncs)",
    "uring_cp_ccdepth": "io_uring copier, serial, copychain's depth (fsyncs)",
    "rw_loop": "`dd` read/write loop (fsyncs)",
    "fio": "fio read + write, no copy (ceiling)",
    "cp_sync": "`cp && sync`", "uring_cc_sync": "io_uring copier, same concurrency, `--sync`",
    "uring_cc_dt": "io_uring copier, same concurrency, `DEFER_TASKRUN`",
    "cat": "`cat`", "uring_cat": "io_uring cat, same concurrency",
    "pread": "`pread` loop, serial", "uring": "io_uring loop, same lookups in flight",
    "loop": "QD1 loop, one enter a step", "link": "`IOSQE_IO_LINK` chain (decides nothing)",
}
head = ["| case | iocoro | peer | iocoro's speed vs peer |", "| --- | --- | --- | --- |"]
if any(per_round("step", w, "steps_per_s") for w in step_who):
    for w in ("loop", "link"):
        r = ratio("step", "bpf", w, "steps_per_s", invert=True)
        if r:
            head.append("| dependent NOP steps | a coroutine, 1 enter a chain | %s | %s |" % (
                peer_names[w], fmt_ratio(r)))


def short_case(cas):
    """1 GiB copy, ext4 cold; 10,000 x 4 KiB copy, tmpfs; ..."""
    size = rows.get((cas, "all", "bytes"), {}).get("")
    files = rows.get((cas, "all", "files"), {}).get("")
    where = "tmpfs" if "tmpfs" in cas else "ext4, cold cache"
    if cas.startswith("copy_") and size:
        return "%.0f MiB copy, %s" % (size / 2**20, where)
    if cas.startswith(("small_", "tiny_")) and files:
        return "%s files x %s copy, %s" % (format(int(files), ","),
                                           "4 KiB" if cas.startswith("small_") else "1 KiB", where)
    if cas.startswith("cat_") and files:
        return "%s files x 4 KiB read, %s" % (format(int(files), ","), where)
    if cas.startswith("btree_"):
        m = re.match(r"btree_[a-z]+_d(\d+)(_direct)?(?:_q(\d+))?$", cas)
        if m:
            return "B+tree lookups, depth %s, %s in flight, %s" % (
                m.group(1), m.group(3) or "256", "ext4, O_DIRECT" if m.group(2) else where)
    return cas


for cas, title, main, peers in timed_cases:
    whos = {w for (c, w, m) in rows if c == cas and m == "seconds"}
    if main not in whos:
        continue
    for w in [w for w in peer_names if w in whos] + sorted(whos - set(peer_names)):
        if w in (main, main + "_sync", main + "_dt"):
            continue
        serial_sync = w.endswith("_sync") or w in ("uring_cp", "uring_cp_ccdepth", "rw_loop")
        mine = main + "_sync" if serial_sync else main + "_dt" if w.endswith("_dt") else main
        r = ratio(cas, mine, w) if mine in whos else None
        if r:
            head.append("| %s | %s | %s | %s |" % (
                short_case(cas), "coroutine" if mine == "bpf" else
                mine.replace("_sync", " --sync").replace("_dt", " --defer-taskrun"),
                peer_names.get(w, w), fmt_ratio(r)))
with open(os.path.join(outdir, "headline.md"), "w") as f:
    f.write("\n".join(head) + "\n")

# ---- targets.md: every target, its ratio and interval, met or not
tgt_lines = ["| case | measure | ratio (min..max; 95% CI) | target | verdict |",
             "| --- | --- | --- | --- | --- |"]
for cas, what, r, tgt, verdict in targets:
    tgt_lines.append("| %s | %s | %s | %s | %s |" % (
        "dependent NOP steps" if cas == "step" else short_case(cas),
        what, fmt_ratio(r), tgt, verdict))
with open(os.path.join(outdir, "targets.md"), "w") as f:
    f.write("\n".join(tgt_lines) + "\n")

with open(os.path.join(outdir, "table.md"), "w") as f:
    f.write("\n".join(lines))
with open(os.path.join(outdir, "summary.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["case", "contender", "metric", "median", "min", "max", "n"])
    for s in summary:
        w.writerow([s[0], s[1], s[2]] + ["%.6g" % x for x in s[3:6]] + [s[6]])

# ---- charts: median seconds with min..max, per copy case
for cas, title, chart in charts:
    dat = os.path.join(outdir, cas + ".dat")
    with open(dat, "w") as f:
        for i, (w, med, lo, hi) in enumerate(chart):
            f.write("%d %s %g %g %g\n" % (i, w, med, lo, hi))
    script = """set terminal pngcairo size 1000,460 noenhanced
set output '%s'
set title "%s\\n(lower is better; bars: median, whiskers: min..max)"
set ylabel 'seconds (QEMU TCG)'
set style fill solid 0.6
set boxwidth 0.6
set yrange [0:*]
set xtics rotate by -20
plot '%s' using 1:3:xtic(2) with boxes notitle, '' using 1:3:4:5 with yerrorbars lc rgb 'black' pt -1 notitle
""" % (os.path.join(outdir, cas + ".png"), title, dat)
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("report.py: no chart for %s: %s" % (cas, e), file=sys.stderr)
    os.unlink(dat)

# ---- curves: rate against the count in flight, both sides, log x
for pre, title, unit, main, peer, pts in curves:
    dat = os.path.join(outdir, pre + ".dat")
    with open(dat, "w") as f:
        for p in pts:
            f.write("%d %g %g %g %g %g %g\n" % tuple(p))
    script = """set terminal pngcairo size 1000,460 noenhanced
set output '%s'
set title "%s\\n(higher is better; points: median, whiskers: min..max)"
set xlabel 'in flight'
set ylabel '%s/s (QEMU TCG)'
set logscale x 2
set yrange [0:*]
set key top left
plot '%s' using 1:2:3:4 with yerrorlines title '%s', '' using 1:5:6:7 with yerrorlines title '%s'
""" % (os.path.join(outdir, pre + ".png"), title, unit, dat, main, peer)
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        print("report.py: no chart for %s: %s" % (pre, e), file=sys.stderr)
    os.unlink(dat)

print("\n".join(lines))
