#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""unit_docs_fails: check_docs.py fails where it should.

Each case copies the source tree (without .git and build dirs), changes
one thing in the copy, runs check_docs.py on it and expects it to exit 1
with the message that names the change; the unchanged copy passes. Names
are read from the headers when the check runs: a function added to a
copy's iocoro.h may be named by its docs.

Usage: check_docs_test.py <source dir> [--uapi <linux/io_uring.h>]...
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

src = os.path.abspath(sys.argv[1])
extra = sys.argv[2:]
check = os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_docs.py")
failures = []


def ignore(dirpath, names):
    """.git, and any build directory or run output inside the tree"""
    top = os.path.abspath(dirpath) == os.path.abspath(src)
    return [n for n in names if n == ".git" or
            (top and (n.startswith("build") or n == "guest-logs")) or
            os.path.exists(os.path.join(dirpath, n, "CMakeCache.txt"))]


def edit(tree, rel, old, new):
    path = os.path.join(tree, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        sys.exit("check_docs_test: %s has no %r to change" % (rel, old))
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


def append(tree, rel, text):
    with open(os.path.join(tree, rel), "a", encoding="utf-8") as f:
        f.write(text)


def run(tree):
    r = subprocess.run([sys.executable, check, tree] + extra, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True, timeout=120)
    return r.returncode, r.stdout


def case(name, change, expect=None, absent=None, status=1):
    """change(tree) the copy; check_docs exits status, prints expect,
    and does not print absent"""
    with tempfile.TemporaryDirectory() as tmp:
        tree = os.path.join(tmp, "src")
        shutil.copytree(src, tree, symlinks=True, ignore=ignore)
        change(tree)
        rc, out = run(tree)
    bad = []
    if rc != status:
        bad.append("exit %d, expected %d" % (rc, status))
    if expect and expect not in out:
        bad.append("no %r in its output" % expect)
    if absent and absent in out:
        bad.append("%r in its output" % absent)
    print("%s: %s" % ("FAIL" if bad else "ok", name))
    if bad:
        failures.append(name)
        print("  " + "; ".join(bad) + "\n  " + out.replace("\n", "\n  "))


case("the tree as it is passes", lambda t: None, status=0)
case("a function no header declares",
     lambda t: append(t, "docs/reference.md", "\nSee `iocoro_no_such_call()`.\n"),
     "docs/reference.md:%d: names iocoro_no_such_call," % (
         open(os.path.join(src, "docs/reference.md"), encoding="utf-8").read().count("\n") + 2))
case("a function a header declares at check time is known",
     lambda t: (edit(t, "runtime/include/iocoro.h", "const char *iocoro_strerror(int err);",
                     "const char *iocoro_strerror(int err);\nint iocoro_new_call(void);"),
                append(t, "README.md", "\n`iocoro_new_call()`\n")),
     absent="names iocoro_new_call")
case("a ring setup flag io_uring lacks",
     lambda t: append(t, "apps/catchain/README.md", "\n`IORING_SETUP_NO_SUCH`\n"),
     "apps/catchain/README.md:")
case("an IOSQE_ flag io_uring lacks",
     lambda t: append(t, "docs/tutorial.md", "\n`IOSQE_NO_SUCH`\n"), "names IOSQE_NO_SUCH,")
case("an IOCORO_ name the tree lacks",
     lambda t: append(t, "README.md", "\n`IOCORO_NO_SUCH_FLAG`\n"), "names IOCORO_NO_SUCH_FLAG,")
case("a man page's name the tree lacks",
     lambda t: append(t, "runtime/man/iocoro_wait.3", ".PP\nSee\n.BR IORING_ENTER_NO_SUCH .\n"),
     "runtime/man/iocoro_wait.3:")
case("a file tests/README.md names, moved",
     lambda t: os.rename(os.path.join(t, "tests/lib/case.h"), os.path.join(t, "tests/lib/cases.h")),
     "tests/README.md:")
case("a file the tree lacks",
     lambda t: append(t, "README.md", "\nsee `tests/regress/` for more\n"),
     "names tests/regress/, which the tree lacks")
case("a file that was moved",
     lambda t: os.rename(os.path.join(t, "kernel/build.sh"), os.path.join(t, "kernel/make.sh")),
     "names kernel/build.sh, which the tree lacks")
case("a link to a missing file",
     lambda t: append(t, "docs/kernel-series.md", "\n[more](nothing-here.md)\n"),
     "links to nothing-here.md")
case("a link to a missing heading",
     lambda t: append(t, "README.md", "\n[x](docs/reference.md#no-such-heading)\n"),
     "links to docs/reference.md#no-such-heading")
case("a link to a missing heading of the other reference",
     lambda t: append(t, "docs/reference.md", "\n[x](bpf-reference.md#no-such-heading)\n"),
     "links to docs/bpf-reference.md#no-such-heading")
case("a bpf-lib macro without its heading",
     lambda t: edit(t, "docs/bpf-reference.md", "### `iocoro_finish`", "### finishing"),
     "no '### `iocoro_finish`' heading")
case("a user-space function without its heading",
     lambda t: edit(t, "docs/reference.md", "### `iocoro_cancel`", "### cancelling"),
     "no '### `iocoro_cancel`' heading")
case("a ring flag list that lacks one of IOCORO_SETUP_UNUSABLE",
     lambda t: append(t, "docs/reference.md", "\nrefused: SQPOLL, IOPOLL or SQE128 rings\n"),
     "lists the ring flags IOPOLL, SQE128, SQPOLL")
case("such a list in the BPF reference",
     lambda t: append(t, "docs/bpf-reference.md", "\nrefused: SQPOLL, IOPOLL or SQE128 rings\n"),
     "docs/bpf-reference.md:")
case("a man page's list that lacks one",
     lambda t: edit(t, "runtime/man/iocoro_queue_init.3", "IORING_SETUP_SQE128 | ", ""),
     "runtime/man/iocoro_queue_init.3:")
case("IOCORO_SETUP_UNUSABLE changed, the docs not",
     lambda t: edit(t, "runtime/include/iocoro.h", "IORING_SETUP_SQE128 |", ""),
     "README.md:")
with open(os.path.join(src, "runtime/include/iocoro.h"), encoding="utf-8") as f:
    MINOR = int(re.search(r"#define IOCORO_VERSION_MINOR (\d+)", f.read()).group(1))
case("a new minor version in iocoro.h, the map and docs not",
     lambda t: edit(t, "runtime/include/iocoro.h", "#define IOCORO_VERSION_MINOR %d" % MINOR,
                    "#define IOCORO_VERSION_MINOR %d" % (MINOR + 1)),
     "runtime/man/iocoro.7: does not say libiocoro 1.%d" % (MINOR + 1))

if failures:
    print("check_docs_test: %d of the cases failed: %s" % (len(failures), ", ".join(failures)))
    sys.exit(1)
print("check_docs_test: every case as expected")
