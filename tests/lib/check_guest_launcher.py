#!/usr/bin/env python3
"""Every guest test runs through tests/lib/guest-test.sh (host test, label
unit), so that the kernel-log gate can name the test of a splat.

Usage: check_guest_launcher.py CTEST BUILD_DIR LAUNCHER

Lists the tests of BUILD_DIR (ctest --show-only=json-v1) and fails unless
each one labelled guest has the command LAUNCHER <its name> CMD...; then
checks that the launcher passes a command's exit status through.
"""
import json
import subprocess
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    ctest, build_dir, launcher = sys.argv[1:]
    out = subprocess.run([ctest, "--test-dir", build_dir,
                          "--show-only=json-v1"], check=True,
                         capture_output=True, text=True).stdout
    bad = []
    nguest = 0
    for test in json.loads(out)["tests"]:
        labels = []
        for prop in test.get("properties", []):
            if prop["name"] == "LABELS":
                labels = prop["value"]
        if "guest" not in labels:
            continue
        nguest += 1
        cmd = test.get("command", [])
        if len(cmd) < 3 or cmd[0] != launcher or cmd[1] != test["name"]:
            bad.append("%s: %s" % (test["name"], " ".join(cmd)))
    if not nguest:
        sys.exit("no test labelled guest in %s" % build_dir)
    if bad:
        sys.exit("guest tests not run through %s %s (use "
                 "iocoro_guest_add_test() of cmake/testing.cmake):\n  %s"
                 % (launcher, "NAME CMD...", "\n  ".join(bad)))
    for rc in (0, 3):
        got = subprocess.run([launcher, "unit_guest_launcher", "sh", "-c",
                              "exit %d" % rc]).returncode
        if got != rc:
            sys.exit("%s with a command that exits %d: exit %d"
                     % (launcher, rc, got))
    print("%d guest tests, all through %s" % (nguest, launcher))


main()
