# shellcheck shell=bash
# Stage runner shared by scripts/test.sh and scripts/run-main.sh (sourced;
# tests/liburing/ sources it for stage_key).
#
#   stages_init LOGDIR
#   stage NAME [--needs "A B"] -- CMD...   run CMD (bash errexit, pipefail)
#                                         with its output shown and saved in
#                                         LOGDIR/NAME.log; skipped when a
#                                         stage it needs did not pass
#   stage_ok NAME                         true if NAME passed
#   stages_summary TITLE                  table of stages, results, times;
#                                         returns 1 if any stage failed or
#                                         was skipped
#   stage_key [-s STR|-x PAT|PATH]...     the key of a stage's cached result:
#                                         a hash of the strings, files and
#                                         directories named

stages_init() {
	STAGE_LOGDIR=$1
	STAGE_NAMES=()
	declare -gA STAGE_RESULT=() STAGE_TIME=()
	STAGE_T0=$(date +%s)
	mkdir -p "$STAGE_LOGDIR"
}

stage_ok() {
	[ "${STAGE_RESULT[$1]:-}" = ok ]
}

stage() {
	local name=$1 needs="" dep start rc
	shift
	if [ "${1:-}" = --needs ]; then
		needs=$2
		shift 2
	fi
	[ "${1:-}" = -- ] && shift
	STAGE_NAMES+=("$name")
	for dep in $needs; do
		if ! stage_ok "$dep"; then
			STAGE_RESULT[$name]="skipped ($dep did not pass)"
			STAGE_TIME[$name]=0
			printf '\n==> [%s] skipped: %s did not pass\n' "$name" "$dep"
			return 0
		fi
	done
	printf '\n==> [%s] %s\n' "$name" "$*"
	start=$(date +%s)
	# Not in an if/|| context, so errexit stays on inside the subshell.
	set +e
	(
		set -euo pipefail
		"$@"
	) 2>&1 | tee "$STAGE_LOGDIR/$name.log"
	rc=${PIPESTATUS[0]}
	set -e
	STAGE_TIME[$name]=$(($(date +%s) - start))
	if [ "$rc" -eq 0 ]; then
		STAGE_RESULT[$name]=ok
	else
		STAGE_RESULT[$name]="FAILED (exit $rc)"
	fi
	printf '==> [%s] %s in %ss (log: %s)\n' "$name" "${STAGE_RESULT[$name]}" \
		"${STAGE_TIME[$name]}" "$STAGE_LOGDIR/$name.log"
	return 0
}

stages_summary() {
	local title=$1 name bad=() total
	total=$(($(date +%s) - STAGE_T0))
	printf '\n==== %s: summary ====\n' "$title"
	printf '%-12s %-32s %8s\n' stage result time
	for name in "${STAGE_NAMES[@]}"; do
		printf '%-12s %-32s %7ss\n' "$name" "${STAGE_RESULT[$name]}" "${STAGE_TIME[$name]}"
		stage_ok "$name" || bad+=("$name")
	done
	printf '%-12s %-32s %7ss\n' total "" "$total"
	printf 'logs: %s\n' "$STAGE_LOGDIR"
	if [ ${#bad[@]} -eq 0 ]; then
		printf '%s: PASSED\n' "$title"
		return 0
	fi
	printf '%s: FAILED (%s)\n' "$title" "${bad[*]}"
	return 1
}

# build_kernel FLAVOUR FILE: kernel/build.sh FLAVOUR, whose last line of
# output is the obj dir; that dir, checked to hold a bzImage, goes to FILE.
# (Not read back from the stage log: tee may not have written it yet.)
build_kernel() {
	local flavour=$1 out=$2 dir
	dir=$(kernel/build.sh "$flavour" | tee /dev/stderr | tail -n 1)
	if [ ! -f "$dir/arch/x86/boot/bzImage" ]; then
		echo "kernel/build.sh $flavour printed no obj dir with a bzImage" >&2
		return 1
	fi
	echo "$dir" >"$out"
}

# stage_key [-s STRING | -x PATTERN | PATH]...: 16 hex digits naming a
# stage's inputs, for the caches that let a stage skip work it did before
# (a suite built, a test run that passed). Hashes, in argument order,
# each STRING as a line, each file's bytes, and each directory as
# "sha256sum ./<file>" lines of every file under it (in C order), leaving
# out the paths (./<file>) that match a -x PATTERN given before it
# (find -path). A PATH it cannot read fails it (with pipefail on).
stage_key() {
	local ex=() arg
	while [ $# -gt 0 ]; do
		case "$1" in
		-s) printf '%s\n' "$2"; shift 2 ;;
		-x) ex+=(! -path "$2"); shift 2 ;;
		*)
			arg=$1
			shift
			if [ -d "$arg" ]; then
				(cd "$arg" && find . -type f "${ex[@]}" -print0 |
					LC_ALL=C sort -z | xargs -0r sha256sum) || exit 1
			else
				cat "$arg" || exit 1
			fi
			;;
		esac
	done | sha256sum | cut -c1-16
}
