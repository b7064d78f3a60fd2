# shellcheck shell=bash
# Stage runner shared by scripts/test.sh and scripts/run-main.sh (sourced;
# tests/liburing/ sources it for stage_key).
#
#   stages_init LOGDIR [--brief COUNT]
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
#
# --brief (COUNT stages in all): a stage's output goes to its log only and
# the stage prints one line, "[i/COUNT] NAME result time", as the summary
# table does; on a terminal that line shows the time so far and the log's
# last line while the stage runs. A failed stage adds its log's last lines
# and its path. stages_summary then prints only the verdict and total time.

stages_init() {
	STAGE_LOGDIR=$1
	STAGE_NAMES=()
	declare -gA STAGE_RESULT=() STAGE_TIME=()
	STAGE_T0=$(date +%s)
	STAGE_BRIEF=0
	if [ "${2:-}" = --brief ]; then
		STAGE_BRIEF=$3
	fi
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
			if [ "$STAGE_BRIEF" != 0 ]; then
				printf '%s ' "$(stage_label "$name")"
				stage_result "$name"
			else
				printf '\n==> [%s] skipped: %s did not pass\n' "$name" "$dep"
			fi
			return 0
		fi
	done
	start=$(date +%s)
	# Not in an if/|| context, so errexit stays on inside the stage's
	# subshell.
	set +e
	if [ "$STAGE_BRIEF" != 0 ]; then
		stage_brief "$name" "$@"
	else
		stage_verbose "$name" "$@"
	fi
	rc=$?
	set -e
	STAGE_TIME[$name]=$(($(date +%s) - start))
	if [ "$rc" -eq 0 ]; then
		STAGE_RESULT[$name]=ok
	else
		STAGE_RESULT[$name]="FAILED (exit $rc)"
	fi
	if [ "$STAGE_BRIEF" = 0 ]; then
		printf '==> [%s] %s in %ss (log: %s)\n' "$name" "${STAGE_RESULT[$name]}" \
			"${STAGE_TIME[$name]}" "$STAGE_LOGDIR/$name.log"
		return 0
	fi
	stage_result "$name"
	if [ "$rc" -ne 0 ]; then
		tail -n 20 "$STAGE_LOGDIR/$name.log" | sed 's/^/    /'
		printf '    (log: %s)\n' "$STAGE_LOGDIR/$name.log"
	fi
	return 0
}

# stage_verbose NAME CMD...: CMD's output shown and saved in NAME's log;
# returns CMD's status (run with errexit off, as stage does)
stage_verbose() {
	local name=$1
	shift
	printf '\n==> [%s] %s\n' "$name" "$*"
	(
		set -euo pipefail
		"$@"
	) 2>&1 | tee "$STAGE_LOGDIR/$name.log"
	return "${PIPESTATUS[0]}"
}

# stage_brief NAME CMD...: CMD's output in NAME's log only (stdin
# /dev/null: nothing can wait for an answer nobody sees), a progress line
# on a terminal meanwhile; returns CMD's status (run with errexit off)
stage_brief() {
	local name=$1 log=$STAGE_LOGDIR/$1.log ticker="" rc
	shift
	: >"$log"
	if [ -t 1 ]; then
		stage_ticker "$(stage_label "$name")" "$log" &
		ticker=$!
	else
		printf '%s ' "$(stage_label "$name")"
	fi
	(
		set -euo pipefail
		"$@"
	) >"$log" 2>&1 </dev/null
	rc=$?
	if [ -n "$ticker" ]; then
		kill "$ticker"
		wait "$ticker" 2>/dev/null || true
		printf '\r\033[K%s ' "$(stage_label "$name")"
	fi
	return "$rc"
}

# "[i/COUNT] NAME", padded
stage_label() {
	printf '[%d/%d] %-10s' "${#STAGE_NAMES[@]}" "$STAGE_BRIEF" "$1"
}

# the rest of a finished stage's line in --brief mode, after its label
stage_result() {
	printf '%-32s %5ss\n' "${STAGE_RESULT[$1]}" "${STAGE_TIME[$1]}"
}

# stage_ticker LABEL LOG: every second, LABEL, the seconds so far and LOG's
# last line, cut to the terminal's width, over the same terminal line
stage_ticker() {
	local label=$1 log=$2 t0=$SECONDS width last
	width=$(($(tput cols 2>/dev/null || echo 80) - ${#label} - 10))
	while sleep 1; do
		last=$(tail -n 1 "$log" | tr -cd '[:print:]' | cut -c "1-$((width > 1 ? width : 1))")
		printf '\r\033[K%s %4ss %s' "$label" $((SECONDS - t0)) "$last"
	done
}

stages_summary() {
	local title=$1 name bad=() total
	total=$(($(date +%s) - STAGE_T0))
	if [ "$STAGE_BRIEF" != 0 ]; then
		for name in "${STAGE_NAMES[@]}"; do
			stage_ok "$name" || bad+=("$name")
		done
		if [ ${#bad[@]} -eq 0 ]; then
			printf '%s: PASSED in %ss\n' "$title" "$total"
			return 0
		fi
		printf '%s: FAILED (%s) in %ss\n' "$title" "${bad[*]}" "$total"
		return 1
	fi
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
