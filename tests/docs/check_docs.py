#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The docs cannot drift from the code.

1. docs/tutorial.md: every fenced code block preceded by a line
   "<!-- from <path> -->" is a verbatim part of that file.
2. docs/reference.md (user space) and docs/bpf-reference.md (bpf-lib)
   document every public function: each symbol of runtime/libiocoro.map,
   each static inline function and function-like macro of
   runtime/include/iocoro.h and bpf-lib/include/iocoro/*.h has a heading
   "### `name`" in one of them (or is listed in one, "### `a`, `b`").
3. runtime/man/ has a man page for each function iocoro.h declares (those
   of libiocoro.map and the static inline ones), and none for anything
   else: `<name>.3`, either the page (.TH <name> 3) or a liburing-style
   link to the page that documents it with others (".so man3/<page>.3").
   A page has NAME, SYNOPSIS, DESCRIPTION, RETURN VALUE and SEE ALSO; its
   NAME lists the functions it documents (the others' files link to it);
   its SYNOPSIS has #include <iocoro.h> and, for each, the header's
   prototype (compared with whitespace normalised). A reference
   "iocoro_x(3)" in any page has its page, iocoro.7 names every function,
   and groff -man -Tutf8 -ww (or man -l --warnings) renders every page,
   links through man3/, without a warning. The version iocoro.7 and
   the reference state is iocoro.h's IOCORO_VERSION_*, the newest
   version node of libiocoro.map.
4. Every list of the ring setup flags libiocoro refuses (two or more of
   SQPOLL, IOPOLL, SQE128, CQE32 in a row) in the docs and man pages is
   iocoro.h's IOCORO_SETUP_UNUSABLE, or the kernel's own refusal (what
   the series' "ctx->flags & (...)" checks name) where the list does not
   mention IOCORO_SETUP_UNUSABLE; and IOCORO_SETUP_UNUSABLE holds the
   kernel's.
5. README.md, docs/*.md and the READMEs of apps/*, bench, tests and
   initramfs name only what the tree has: every iocoro_*, IOCORO_*,
   IORING_* and IOSQE_* name in them and in the man pages (a prefix
   when followed by *, <, [ or {) occurs in the tree's code (C
   without its comments, CMake, scripts), in the patched uapi header
   (--uapi), liburing's, or the series' added lines; every path under a
   top-level directory of the tree exists (a glob where it has *, <x> or
   {a,b}), unless it is a file of the kernel the series changes or is
   written after "the kernel's"; every relative link's file exists, and
   its #anchor is a heading of that file.

Usage: check_docs.py <source dir> [--uapi <linux/io_uring.h>]...
"""
import fnmatch
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

if len(sys.argv) < 2 or len(sys.argv) % 2:
    sys.exit("usage: check_docs.py <source dir> [--uapi <linux/io_uring.h>]...")
root = sys.argv[1]
uapi = [sys.argv[i + 1] for i in range(2, len(sys.argv), 2) if sys.argv[i] == "--uapi"]
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
REFERENCES = ("docs/reference.md", "docs/bpf-reference.md")
documented = set()
for rel in REFERENCES:
    for line in read(rel).split("\n"):
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
    # internal names have a double underscore (iocoro__x, IOCORO__X)
    public.update(n for n in re.findall(r"^(?:static inline|IOCORO_INLINE)[^(]*?\b([a-z_][a-z0-9_]*)\(", text, re.M)
                  if "__" not in n)
    # function-like macros, except include guards and internal ones (trailing _)
    for name in re.findall(r"^#define ([A-Za-z_][A-Za-z0-9_]*)\(", text, re.M):
        if not name.endswith("_") and "__" not in name:
            public.add(name)

missing = sorted(public - documented)
for name in missing:
    errors.append("reference.md, bpf-reference.md: no '### `%s`' heading" % name)

# ---- 3. man pages
MAN = "runtime/man"


def c_decls(text):
    """The functions a C header declares at file scope: name -> prototype
    ("static inline " kept, ";" at the end). Comments and preprocessor
    lines are dropped first; arguments hold no parentheses here."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", "", text, flags=re.M)
    decls = {}
    for m in re.finditer(r"^((?:static inline\s+)?[A-Za-z_][\w \t*]*?)\b"
                         r"([A-Za-z_]\w*)\s*\(([^()]*)\)\s*[;{]", text, re.M):
        decls[m.group(2)] = "%s%s(%s);" % (m.group(1), m.group(2), m.group(3))
    return decls


def normalise(proto):
    """whitespace-normalised: runs collapsed, none next to punctuation"""
    proto = re.sub(r"\s+", " ", proto.strip())
    return re.sub(r" ?([(),;*\[\]]) ?", r"\1", proto)


def troff_args(rest):
    """a macro line's arguments: words, or "quoted" ("" is a quote)"""
    args, i = [], 0
    while i < len(rest):
        if rest[i] in " \t":
            i += 1
        elif rest[i] == '"':
            j, arg = i + 1, ""
            while j < len(rest):
                if rest[j] == '"':
                    if rest[j + 1:j + 2] == '"':
                        arg += '"'
                        j += 2
                        continue
                    break
                arg += rest[j]
                j += 1
            args.append(arg)
            i = j + 1
        else:
            j = i
            while j < len(rest) and rest[j] not in " \t":
                j += 1
            args.append(rest[i:j])
            i = j
    return args


def unescape(text):
    text = re.sub(r"\\f(?:\[[^]]*\]|\(..|.)", "", text)
    text = text.replace("\\-", "-").replace("\\&", "").replace("\\e", "\\")
    return re.sub(r"\\\((..)", lambda m: {"bu": "*", "em": "--"}.get(m.group(1), "?"), text)


def troff_text(line):
    """the text of one line of a man page (None for a request without text)"""
    if line.startswith(".\\\"") or line.startswith("'\\\""):
        return None
    if not line.startswith("."):
        return unescape(line)
    macro, _, rest = line[1:].partition(" ")
    args = troff_args(rest)
    if macro in ("B", "I", "SM", "SB"):
        return unescape(" ".join(args))
    if macro in ("BI", "IB", "BR", "RB", "IR", "RI"):
        return unescape("".join(args))
    return None


def man_sections(lines):
    """section name -> its text lines"""
    secs, cur = {}, None
    for line in lines:
        if line.startswith(".SH "):
            cur = " ".join(troff_args(line[4:]))
            secs[cur] = []
        elif cur is not None:
            t = troff_text(line)
            if t is not None:
                secs[cur].append(t)
    return secs


hdecls = c_decls(read("runtime/include/iocoro.h"))
exported = set()
for line in read("runtime/libiocoro.map").split("\n"):
    m = re.match(r"\s+(iocoro_[a-z_0-9]+);", line)
    if m:
        exported.add(m.group(1))
for name in sorted(exported - set(hdecls)):
    errors.append("iocoro.h: no declaration of %s (exported by libiocoro.map)" % name)
for name, proto in sorted(hdecls.items()):
    if not proto.startswith("static inline") and name not in exported:
        errors.append("iocoro.h: %s is declared but not in libiocoro.map" % name)
functions = set(hdecls)

mandir = os.path.join(root, MAN)
pages = {}      # file name -> (section, lines)
for path in sorted(glob.glob(os.path.join(mandir, "*.[0-9]"))):
    with open(path, encoding="utf-8") as f:
        pages[os.path.basename(path)] = f.read().split("\n")

links = {}      # name.3 -> page.3 it links to
documents = {}  # page.3 -> the names of its NAME section
for fname, lines in sorted(pages.items()):
    stem, sec = fname.rsplit(".", 1)
    where = "%s/%s" % (MAN, fname)
    body = [l for l in lines if l.strip() and not l.startswith('.\\"')]
    if len(body) == 1 and body[0].startswith(".so "):
        m = re.match(r"\.so man%s/([\w.]+\.%s)$" % (sec, sec), body[0])
        if not m:
            errors.append("%s: the link is not '.so man%s/<page>.%s'" % (where, sec, sec))
        else:
            links[fname] = m.group(1)
        if sec == "3" and stem not in functions:
            errors.append("%s: iocoro.h declares no function %s" % (where, stem))
        continue
    if sec == "7":
        if stem != "iocoro":
            errors.append("%s: only iocoro.7 is expected in section 7" % where)
        required = ["NAME", "DESCRIPTION", "SEE ALSO"]
    elif sec == "3":
        if stem not in functions:
            errors.append("%s: iocoro.h declares no function %s" % (where, stem))
        required = ["NAME", "SYNOPSIS", "DESCRIPTION", "RETURN VALUE", "SEE ALSO"]
    else:
        errors.append("%s: a man page of section %s" % (where, sec))
        continue
    th = [troff_args(l[4:]) for l in lines if l.startswith(".TH ")]
    if len(th) != 1 or th[0][:2] != [stem, sec]:
        errors.append("%s: no '.TH %s %s ...'" % (where, stem, sec))
    secs = man_sections(lines)
    for s in required:
        if s not in secs:
            errors.append("%s: no section %s" % (where, s))
    if sec != "3" or "NAME" not in secs or "SYNOPSIS" not in secs:
        continue
    name_line = " ".join(secs["NAME"])
    m = re.match(r"\s*([\w, ]+?)\s+-\s+\S", name_line)
    if not m:
        errors.append("%s: NAME is not 'name[, name...] \\- what it does'" % where)
        continue
    names = [n.strip() for n in m.group(1).split(",")]
    documents[fname] = names
    if stem not in names:
        errors.append("%s: NAME does not list %s" % (where, stem))
    for n in names:
        if n not in functions:
            errors.append("%s: NAME lists %s, which iocoro.h does not declare" % (where, n))
    syn = [l for l in secs["SYNOPSIS"] if l.strip()]
    if "#include <iocoro.h>" not in [l.strip() for l in syn]:
        errors.append("%s: SYNOPSIS has no '#include <iocoro.h>'" % where)
    protos = {}
    text = " ".join(l for l in syn if not l.strip().startswith("#include"))
    for proto in [p.strip() + ";" for p in text.split(";") if p.strip()]:
        pm = re.search(r"(\w+)\s*\(", proto)
        if not pm:
            errors.append("%s: SYNOPSIS: not a prototype: %s" % (where, proto))
            continue
        protos[pm.group(1)] = proto
    for n, proto in sorted(protos.items()):
        if n not in hdecls:
            errors.append("%s: SYNOPSIS declares %s, which iocoro.h does not" % (where, n))
        elif normalise(proto) != normalise(hdecls[n]):
            errors.append("%s: SYNOPSIS of %s differs from iocoro.h:\n    page:     %s\n"
                          "    iocoro.h: %s" % (where, n, " ".join(proto.split()),
                                             " ".join(hdecls[n].split())))
    if sorted(protos) != sorted(names):
        errors.append("%s: SYNOPSIS declares %s, NAME lists %s"
                      % (where, ", ".join(sorted(protos)), ", ".join(sorted(names))))

for fname, target in sorted(links.items()):
    stem = fname.rsplit(".", 1)[0]
    if target not in documents:
        errors.append("%s/%s: links to %s, which is not a page of %s" % (MAN, fname, target, MAN))
    elif stem not in documents[target]:
        errors.append("%s/%s: links to %s, whose NAME does not list %s" % (MAN, fname, target, stem))
for page, names in sorted(documents.items()):
    for n in names:
        if n + ".3" != page and links.get(n + ".3") != page:
            errors.append("%s/%s: documents %s, but %s.3 is not a link to it" % (MAN, page, n, n))
for name in sorted(functions):
    if name + ".3" not in pages:
        errors.append("%s: no man page %s.3 for %s() of iocoro.h" % (MAN, name, name))

# cross references, and the overview's list
for fname, lines in sorted(pages.items()):
    text = " ".join(t for t in map(troff_text, lines) if t)
    for ref, sec in sorted(set(re.findall(r"\b(iocoro\w*)\s*\((\d)\)", text))):
        if "%s.%s" % (ref, sec) not in pages:
            errors.append("%s/%s: refers to %s(%s), which has no page" % (MAN, fname, ref, sec))
    if fname == "iocoro.7":
        for name in sorted(functions - set(re.findall(r"\b(iocoro_\w+)\s*\(3\)", text))):
            errors.append("%s/iocoro.7: does not name %s(3)" % (MAN, name))
if "iocoro.7" not in pages:
    errors.append("%s: no iocoro.7" % MAN)


def render(tool, man_root, page):
    """warnings (and errors) of formatting man_root/page, '' if none"""
    if tool.endswith("groff"):
        cmd = [tool, "-man", "-Tutf8", "-ww", "-z", page]
        env = None
    else:
        cmd = [tool, "--warnings=w", "-l", page]
        env = dict(os.environ, MANWIDTH="80", MANPAGER="cat", PAGER="cat")
    r = subprocess.run(cmd, cwd=man_root, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=30)
    out = r.stderr.strip()
    if r.returncode and not out:
        out = "%s exited %d" % (os.path.basename(tool), r.returncode)
    return out


tool = shutil.which("groff") or shutil.which("man")
if not tool:
    errors.append("%s: neither groff nor man to render the pages with" % MAN)
elif pages:
    # the layout of an install, for the .so links
    with tempfile.TemporaryDirectory() as tmp:
        for sec in sorted({f.rsplit(".", 1)[1] for f in pages}):
            os.symlink(mandir, os.path.join(tmp, "man" + sec))
        for fname in sorted(pages):
            page = "man%s/%s" % (fname.rsplit(".", 1)[1], fname)
            out = render(tool, tmp, page)
            if out:
                errors.append("%s/%s: %s -ww: %s" % (MAN, fname, os.path.basename(tool), out))

# the version the docs state is iocoro.h's, the newest of libiocoro.map
hdr = read("runtime/include/iocoro.h")
major = re.search(r"#define IOCORO_VERSION_MAJOR (\d+)", hdr)
minor = re.search(r"#define IOCORO_VERSION_MINOR (\d+)", hdr)
version = "%s.%s" % (major.group(1), minor.group(1)) if major and minor else "?"
nodes = re.findall(r"^IOCORO_(\d+)\.(\d+) \{", read("runtime/libiocoro.map"), re.M)
newest = max(((int(a), int(b)) for a, b in nodes), default=None)
if newest is None or "%d.%d" % newest != version:
    errors.append("runtime/libiocoro.map: its newest version node is not IOCORO_%s (iocoro.h)" % version)
for rel, pattern in (("runtime/man/iocoro.7", r"This is libiocoro (\d+\.\d+)"),
                     ("docs/reference.md", r"\*\*Versioned symbols\*\*: libiocoro (\d+\.\d+)")):
    vm = re.search(pattern, read(rel))
    if not vm or vm.group(1) != version:
        errors.append("%s: does not say libiocoro %s (iocoro.h's IOCORO_VERSION_*)" % (rel, version))

# ---- 4. the ring flags libiocoro refuses, listed as iocoro.h lists them
FLAG_WORDS = ("SQPOLL", "IOPOLL", "SQE128", "CQE32")


def flag_set(expr):
    """the IORING_SETUP_* words of a C expression, without the prefix"""
    return frozenset(re.findall(r"IORING_SETUP_(\w+)", expr))


m = re.search(r"#define IOCORO_SETUP_UNUSABLE((?:[^\n]*\\\n)*[^\n]*)",
              read("runtime/include/iocoro.h"))
unusable = flag_set(m.group(1)) if m else frozenset()
if not unusable:
    errors.append("iocoro.h: no IOCORO_SETUP_UNUSABLE to compare the docs with")
# the kernel's own refusal: io_uring/bpf.c's "ctx->flags & (...)" checks
kernel_refused = set()
for path in sorted(glob.glob(os.path.join(root, "kernel/patches/*.patch"))):
    with open(path, encoding="utf-8") as f:
        added = "\n".join(l[1:] for l in f.read().split("\n") if l.startswith("+"))
    for expr in re.findall(r"ctx->flags & \((IORING_SETUP_\w+(?:\s*\|\s*IORING_SETUP_\w+)+)\)",
                           added):
        kernel_refused.add(flag_set(expr))
if len(kernel_refused) > 1:
    errors.append("kernel/patches: the series refuses different sets of ring flags: %s"
                  % "; ".join(" ".join(sorted(k)) for k in sorted(kernel_refused, key=sorted)))
kernel_set = min(kernel_refused, key=sorted) if kernel_refused else frozenset()
if not kernel_set <= unusable:
    errors.append("iocoro.h: IOCORO_SETUP_UNUSABLE lacks flags the kernel refuses (%s)"
                  % " ".join(sorted(kernel_set - unusable)))
FLAG_LIST = re.compile(
    r"(?:IORING_SETUP_)?(?:%s)\b(?:(?:[\s`*\\,|/\"]|^\.[BIR]{1,2}\b|\bor\b|\band\b)+"
    r"(?:IORING_SETUP_)?(?:%s)\b)+" % ("|".join(FLAG_WORDS), "|".join(FLAG_WORDS)), re.M)


def doc_files():
    """the docs the names, paths and flag lists are checked in"""
    files = ["README.md"]
    for pattern in ("docs/*.md", "apps/*/README.md", "bench/README.md", "tests/README.md",
                    "initramfs/README.md"):
        files += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, pattern)))
    return files


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


man_docs = sorted(os.path.relpath(p, root) for p in
                  glob.glob(os.path.join(root, "runtime/man/*.[0-9]")) +
                  glob.glob(os.path.join(root, "apps/*/*.1")))
nflaglists = 0
for doc in doc_files() + man_docs:
    text = read(doc)
    for fm in FLAG_LIST.finditer(text):
        listed = frozenset(re.findall(r"(?:%s)\b" % "|".join(FLAG_WORDS), fm.group(0)))
        nflaglists += 1
        near = text[max(0, fm.start() - 200):fm.end() + 200]
        if listed == unusable:
            continue
        if listed == kernel_set and "IOCORO_SETUP_UNUSABLE" not in near:
            continue
        errors.append("%s:%d: lists the ring flags %s; IOCORO_SETUP_UNUSABLE (iocoro.h) is %s%s"
                      % (doc, line_of(text, fm.start()), ", ".join(sorted(listed)),
                         ", ".join(sorted(unusable)),
                         "" if not kernel_set else ", the kernel's refusal (IORING_OP_BPF) %s"
                         % ", ".join(sorted(kernel_set))))

# ---- 5. the names and files the docs mention exist in the tree
SKIP_DIRS = {".git", "results"}
CODE_EXT = (".c", ".h", ".map", ".cmake", ".sh", ".py", ".in", ".txt", ".config")


def strip_c_comments(text):
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", " ", text, flags=re.S))


def tree_files():
    """every file of the tree (not .git, not a build dir inside it)"""
    for dirpath, dirnames, filenames in os.walk(root):
        if "CMakeCache.txt" in filenames and dirpath != root:
            dirnames[:] = []
            continue
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and
                       not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt"))]
        for fname in filenames:
            yield os.path.join(dirpath, fname)


code_names = set()      # identifiers of the code: C without its comments, scripts, CMake
for path in tree_files():
    fname = os.path.basename(path)
    if os.path.relpath(path, root).startswith("tests/docs/"):
        continue        # these checks and their tests name what must not exist
    if not (fname.endswith(CODE_EXT) or fname == "Makefile") or fname == "CMakeCache.txt":
        continue
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        continue
    if fname.endswith((".c", ".h")):
        text = strip_c_comments(text)
    code_names.update(re.findall(r"\b(?:iocoro|IOCORO|IORING|IOSQE)_\w+", text))
uapi_names = set()      # io_uring's uapi: the patched header, liburing's, the series
for path in uapi + ["/usr/include/linux/io_uring.h", "/usr/include/liburing/io_uring.h",
                    "/usr/include/liburing.h"]:
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            uapi_names.update(re.findall(r"\b(?:IORING|IOSQE)_\w+", f.read()))
for path in glob.glob(os.path.join(root, "kernel/patches/*.patch")):
    with open(path, encoding="utf-8") as f:
        uapi_names.update(re.findall(r"^\+.*?\b((?:IORING|IOSQE)_\w+)", f.read(), re.M))
known = code_names | uapi_names


def name_exists(name, prefix):
    """name is known; a prefix (IORING_OP_*, iocoro_ctx_<x>) is one's start"""
    if prefix:
        return any(k.startswith(name) for k in known)
    return name in known


NAME = re.compile(r"\b((?:iocoro|IOCORO|IORING|IOSQE)_\w*)(\*|<|\[|\{)?")
def top_dirs():
    """the tree's top-level directories: git's when it is a clone (build
    outputs such as build-run/ are not the tree's), else those on disk"""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files"], capture_output=True,
                             text=True, check=True).stdout
        tops = {f.split("/", 1)[0] for f in out.splitlines() if "/" in f}
        if tops:
            return sorted(d for d in tops if not d.startswith("."))
    except (OSError, subprocess.CalledProcessError):
        pass
    ignored = []
    if os.path.exists(os.path.join(root, ".gitignore")):
        with open(os.path.join(root, ".gitignore"), encoding="utf-8") as f:
            ignored = [l.strip().strip("/") for l in f if l.startswith("/")]
    return sorted(d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and
                  not d.startswith(".") and
                  not any(fnmatch.fnmatch(d, pat) for pat in ignored) and
                  not os.path.exists(os.path.join(root, d, "CMakeCache.txt")))


TOP = top_dirs()
PATH = re.compile(r"(?<![\w./$~<{-])((?:%s)/[\w.*<>{}/+-]*)" % "|".join(map(re.escape, TOP)))
LINK = re.compile(r"\]\(([^)\s]+)\)")


# the kernel tree's files the series changes, and their directories: a
# doc may name those, or any file of "the kernel's" (so written before it)
kernel_paths = set()
for path in glob.glob(os.path.join(root, "kernel/patches/*.patch")):
    with open(path, encoding="utf-8") as f:
        for kp in re.findall(r"^diff --git a/(\S+)", f.read(), re.M):
            parts = kp.split("/")
            kernel_paths.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))


def kernel_path(text, pm):
    rel = pm.group(1).rstrip(".,:;/")
    return rel in kernel_paths or re.search(r"kernel's\W*$", text[max(0, pm.start() - 20):pm.start()])


def path_exists(base, rel):
    """rel (a glob when it has *, <x> or {a,b}) names a file or dir under base"""
    rel = re.sub(r"<[^>]*>|\{[^}]*\}", "*", rel.rstrip(".,:;"))
    full = os.path.normpath(os.path.join(base, rel))
    if "*" in rel:
        return bool(glob.glob(full))
    return os.path.exists(full)


def slug(heading):
    """GitHub's anchor of a heading"""
    heading = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return heading.replace(" ", "-")


def anchors(rel):
    text = read(rel)
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return {slug(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}


nnames = npaths = 0
for doc in doc_files() + man_docs:
    text = read(doc)
    for nm in NAME.finditer(text):
        name, prefix = nm.group(1), nm.group(2) is not None or nm.group(1).endswith("_")
        nnames += 1
        if not name_exists(name, prefix):
            errors.append("%s:%d: names %s%s, which the tree does not define"
                          % (doc, line_of(text, nm.start()), name, "*" if prefix else ""))
for doc in doc_files():
    text = read(doc)
    docdir = os.path.dirname(doc)
    for pm in PATH.finditer(text):
        npaths += 1
        if not path_exists(root, pm.group(1)) and not kernel_path(text, pm):
            errors.append("%s:%d: names %s, which the tree lacks"
                          % (doc, line_of(text, pm.start()), pm.group(1).rstrip(".,:;")))
    for lm in LINK.finditer(text):
        target = lm.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        npaths += 1
        rel, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(docdir, rel)) if rel else doc
        if rel and not path_exists(os.path.join(root, docdir), rel):
            errors.append("%s:%d: links to %s, which the tree lacks"
                          % (doc, line_of(text, lm.start()), rel))
        elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
            errors.append("%s:%d: links to %s#%s, which has no such heading"
                          % (doc, line_of(text, lm.start()), dest, anchor))

for e in errors:
    print("check_docs: " + e)
print("check_docs: %d tutorial blocks, %d public names checked, %d man pages "
      "(%d functions) checked, %d ring-flag lists, %d names and %d paths in the docs, "
      "%d problems"
      % (nblocks, len(public), len(pages), len(functions), nflaglists, nnames, npaths,
         len(errors)))
sys.exit(1 if errors else 0)
