#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Put a run's headline.md into the README's benchmark table.

Usage: readme_table.py README.md HEADLINE.md

The table is the block of lines that starts with the header line
"| case | iocoro | peer | ..." and ends before the first line that does
not start with "|". It is replaced by HEADLINE.md's table lines; the
rest of the README is left as it is. Exits 1 (the README untouched)
when either file has no such table.
"""
import sys

HEADER = "| case | iocoro | peer |"


def table_span(lines):
    """first and one-past-last index of the table, or None"""
    for i, line in enumerate(lines):
        if line.startswith(HEADER):
            end = i
            while end < len(lines) and lines[end].startswith("|"):
                end += 1
            return i, end
    return None


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    readme, headline = sys.argv[1], sys.argv[2]
    with open(readme) as f:
        lines = f.read().split("\n")
    with open(headline) as f:
        head = f.read().split("\n")
    dst, src = table_span(lines), table_span(head)
    if dst is None or src is None:
        print("readme_table.py: no \"%s\" table in %s" % (
            HEADER, readme if dst is None else headline), file=sys.stderr)
        return 1
    lines[dst[0]:dst[1]] = head[src[0]:src[1]]
    with open(readme, "w") as f:
        f.write("\n".join(lines))
    print("readme_table.py: %s: %d rows" % (readme, src[1] - src[0] - 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
