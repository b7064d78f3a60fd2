#!/usr/bin/env python3
"""Judge the regression stage: the outcomes of one run of the suites on the
stock kernel and one on the patched kernel (tests/liburing/run-suite.sh's
"result NAME OUTCOME SECONDS" lines) against tests/liburing/expected.txt.

Usage: compare.py [--partial] EXPECTED STOCK_RESULTS PATCHED_RESULTS

EXPECTED has one line per test, "NAME STOCK PATCHED [REASON...]", where
STOCK and PATCHED are the outcomes expected on each kernel, several joined
by "|" for a test known to be flaky there. A test whose two columns differ,
or that is flaky, must give its REASON. The run fails when a test's
outcome is not one its kernel expects, when a test ran that EXPECTED does
not list or a listed one did not run, or when EXPECTED breaks its rules.
Prints every test that differs from what is expected (and, as notes, those
that came out otherwise on the two kernels as it allows), then a summary line; exits 1
on failure, 2 on bad input. --partial (a run of some tests only, --only
of regress.sh) judges the tests that ran and lets the others be.
"""

import sys

OUTCOMES = ("pass", "skip", "timeout")


def valid_outcome(o):
    return o in OUTCOMES or (
        o.split("-", 1)[0] in ("fail", "signal") and o.split("-", 1)[-1].isdigit()
    )


def read_expected(path):
    exp, errors = {}, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            words = line.split()
            where = f"{path}:{n}"
            if len(words) < 3:
                errors.append(f"{where}: want NAME STOCK PATCHED [REASON]")
                continue
            name, stock, patched = words[0], set(words[1].split("|")), set(words[2].split("|"))
            reason = " ".join(words[3:])
            bad = [o for o in stock | patched if not valid_outcome(o)]
            if bad:
                errors.append(f"{where}: {name}: unknown outcome {', '.join(sorted(bad))}")
            if (stock != patched or len(stock) > 1 or len(patched) > 1) and not reason:
                errors.append(f"{where}: {name}: differs between the kernels or is flaky, "
                              "but gives no reason")
            if name in exp:
                errors.append(f"{where}: {name} listed twice")
            exp[name] = (stock, patched, reason)
    return exp, errors


def read_results(path):
    res = {}
    with open(path) as f:
        for line in f:
            words = line.split()
            if len(words) >= 3 and words[0] == "result":
                res[words[1]] = words[2]
    return res


def main(argv):
    partial = len(argv) > 1 and argv[1] == "--partial"
    if partial:
        argv = argv[:1] + argv[2:]
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    exp, errors = read_expected(argv[1])
    runs = {"stock": read_results(argv[2]), "patched": read_results(argv[3])}
    for e in errors:
        print(f"compare: {e}")
    if errors:
        return 2

    bad = []
    for kernel, col in (("stock", 0), ("patched", 1)):
        res = runs[kernel]
        if not res:
            bad.append(f"{kernel}: no results at all")
        for name, outcome in sorted(res.items()):
            if name not in exp:
                bad.append(f"{name}: ran on {kernel} ({outcome}) but expected.txt does not list it")
                continue
            want = exp[name][col]
            if outcome not in want:
                bad.append(f"{name}: {outcome} on {kernel}, expected {'|'.join(sorted(want))}")
        for name in sorted(set(exp) - set(res)) if not partial else ():
            bad.append(f"{name}: listed in expected.txt but did not run on {kernel}")

    flaky_diff = []
    for name, (stock, patched, reason) in sorted(exp.items()):
        s, p = runs["stock"].get(name), runs["patched"].get(name)
        if s and p and s != p and s in stock and p in patched:
            flaky_diff.append(f"{name}: {s} on stock, {p} on patched (expected: {reason})")

    for line in bad:
        print(f"compare: FAIL {line}")
    for line in flaky_diff:
        print(f"compare: note {line}")
    n = len(set(runs["stock"]) | set(runs["patched"]))
    differ = sum(1 for (s, p, _) in exp.values() if s != p)
    print(f"compare: {n} tests on both kernels, {len(bad)} unexpected outcome(s), "
          f"{differ} expected to differ, {len(flaky_diff)} differed as expected.txt allows")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
