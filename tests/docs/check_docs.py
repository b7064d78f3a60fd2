#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The docs cannot drift from the code.

1. docs/tutorial.md: every fenced code block preceded by a line
   "<!-- from <path> -->" is a verbatim part of that file.
2. docs/reference.md documents every public function: each symbol of
   runtime/libiocoro.map, each static inline function and function-like
   macro of runtime/include/iocoro.h and bpf-lib/include/iocoro/*.h has a
   heading "### `name`" (or is listed in one, "### `a`, `b`").

Usage: check_docs.py <source dir>
"""
import glob
import os
import re
import sys

root = sys.argv[1]
errors = []


def read(rel):
    with open(os.path.join(root, rel), encoding="utf-8") as f:
        return f.read()


# ---- 1. tutorial blocks
tut = read("docs/tutorial.md").split("\n")
nblocks = 0
i = 0
while i < len(tut):
    m = re.match(r"<!-- from (\S+) -->$", tut[i])
    if not m:
        i += 1
        continue
    src = m.group(1)
    if not tut[i + 1].startswith("```"):
        errors.append("tutorial.md:%d: no code block after the 'from' line" % (i + 1))
        i += 1
        continue
    j = i + 2
    while not tut[j].startswith("```"):
        j += 1
    block = "\n".join(tut[i + 2:j]) + "\n"
    if block not in read(src):
        errors.append("tutorial.md:%d: the block is not a verbatim part of %s" % (i + 3, src))
    nblocks += 1
    i = j + 1
if nblocks < 5:
    errors.append("tutorial.md: only %d checked blocks" % nblocks)

# ---- 2. reference headings
ref = read("docs/reference.md")
documented = set()
for line in ref.split("\n"):
    if line.startswith("### "):
        documented.update(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", line))

public = set()
for line in read("runtime/libiocoro.map").split("\n"):
    m = re.match(r"\s+(iocoro_[a-z_0-9]+);", line)
    if m:
        public.add(m.group(1))
headers = ["runtime/include/iocoro.h"] + sorted(
    os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "bpf-lib/include/iocoro/*.h")))
for h in headers:
    text = read(h)
    public.update(re.findall(r"^(?:static inline|IOCORO_INLINE)[^(]*?\b([a-z_][a-z0-9_]*)\(", text, re.M))
    # function-like macros, except include guards and internal ones (trailing _)
    for name in re.findall(r"^#define ([A-Za-z_][A-Za-z0-9_]*)\(", text, re.M):
        if not name.endswith("_"):
            public.add(name)

missing = sorted(public - documented)
for name in missing:
    errors.append("reference.md: no '### `%s`' heading" % name)

for e in errors:
    print("check_docs: " + e)
print("check_docs: %d tutorial blocks, %d public names checked, %d problems"
      % (nblocks, len(public), len(errors)))
sys.exit(1 if errors else 0)
