#!/bin/sh
# guest_tutorial_orcwc: orcwc ORCWC FILE MISSING FILE2 prints the lines and
# bytes of FILE and FILE2 in argument order, names MISSING on stderr and
# exits 1.
# Usage: orcwc-check.sh ORCWC FILE MISSING FILE2
err=${TMPDIR:-/tmp}/orcwc-check.err
out=$("$1" "$2" "$3" "$4" 2>"$err")
rc=$?
printf '%s\n' "$out"
cat "$err"
want=$(printf '1 %s %s\n2 %s %s' "$(stat -c %s "$2")" "$2" "$(stat -c %s "$4")" "$4")
[ "$rc" = 1 ] || { echo "orcwc: exit $rc, expected 1"; exit 1; }
[ "$out" = "$want" ] || { echo "orcwc: stdout is not: $want"; exit 1; }
grep -qx "orcwc: $3: No such file or directory" "$err" ||
	{ echo "orcwc: no error line for $3"; exit 1; }
echo "orcwc: ok"
