#!/bin/bash
# The benchmark cases, run in the guest by bench/run.sh (and, tiny, by the
# smoke test bench_smoke): every contender of a case once per round, in
# an order shuffled anew each round from a recorded seed, after warm-up
# rounds that are run and checked but not recorded as rounds (their
# rows say round w1, w2, ...), each copy checked against its source.
# Writes CSV rows case,contender,round,metric,value to OUT.
#
# Usage: guest.sh --bin DIR --khz KHZ --out CSV [--rounds R] [--warmup W]
#                 [--seed S] [--big-mib N]
#                 [--small N] [--tiny N] [--disk DEV] [--steps N]
#                 [--scale "1 64 ..."] [--lookups N] [--direct-lookups N]
#                 [--sweep "1 4 ..."] [--cases "..."] [--tools yes|no|auto]
#
#   --bin DIR    the build dir (copychain, step_bench, uring_cp, bench_time, ...)
#   --rounds R   recorded rounds of each case (10); --warmup W rounds before
#                them (1); --seed S the order's seed (default: random; the
#                CSV's info,order row keeps it)
#   --khz KHZ    the host's TSC rate: rdtsc is the only honest clock here
#   --disk DEV   also run the copy cases on an ext4 filesystem on DEV
#                (mounted here, page cache dropped before every run);
#                --disk-cache MODE: how the host attached it (the CSV's
#                info,disk row: none, writeback)
#   --cases "..." the cases to run (default "step scale copy small tiny cat
#                btree sweep"); small: --small files of 4 KiB, tiny: --tiny
#                files of 1 KiB (20000); sweep: the B+tree lookups and the
#                small-file copies at each count in flight of --sweep
#                ("1 4 16 64 256"; copies at most 128 files)
#   --tools      the peers that are other programs than the build's and
#                cp/cat: uutils cp (rust-coreutils), rsync, fio. yes: each
#                must be there (bench/run.sh puts them in the image); auto
#                (default): the ones missing are left out, said once
#   --lookups N  the B+tree lookups' random keys per run (200000: every mode
#                runs a second or more, so the timer and start-up do not
#                weigh); --direct-lookups N those of the disk's O_DIRECT
#                cases (5000: each level a device read) and a tenth of
#                --lookups at each point of the sweep
set -euo pipefail

bin='' khz='' out='' disk='' disk_cache=''
rounds=10 warmup=1 seed='' big_mib=1024 small=10000 tiny=20000 steps=10000 lookups=200000
direct_lookups=5000
scale="1 64 1024 10000 100000"
sweep="1 4 16 64 256"
cases="step scale copy small tiny cat btree sweep"
tools=auto
while [ $# -gt 0 ]; do
	case "$1" in
	--bin) bin=$2 ;;
	--khz) khz=$2 ;;
	--out) out=$2 ;;
	--rounds) rounds=$2 ;;
	--warmup) warmup=$2 ;;
	--seed) seed=$2 ;;
	--big-mib) big_mib=$2 ;;
	--small) small=$2 ;;
	--tiny) tiny=$2 ;;
	--tools) tools=$2 ;;
	--disk) disk=$2 ;;
	--disk-cache) disk_cache=$2 ;;
	--steps) steps=$2 ;;
	--scale) scale=$2 ;;
	--cases) cases=$2 ;;
	--lookups) lookups=$2 ;;
	--direct-lookups) direct_lookups=$2 ;;
	--sweep) sweep=$2 ;;
	*) echo "guest.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift 2
done
if [ -z "$bin" ] || [ -z "$khz" ] || [ -z "$out" ]; then
	echo "guest.sh: --bin, --khz and --out are required" >&2
	exit 2
fi

cc=$bin/apps/copychain/copychain
cat_chain=$bin/apps/catchain/catchain
bt=$bin/apps/btree-lookup/btree-lookup
ubt=$bin/bench/btree/uring_btree
ucp=$bin/bench/copy/uring_cp
ucc=$bin/bench/copy/uring_cc
ucat=$bin/bench/copy/uring_cat
btime=$bin/bench/copy/bench_time
step=$bin/bench/step/step_bench
for f in "$cc" "$cat_chain" "$bt" "$ubt" "$ucp" "$ucc" "$ucat" "$btime" "$step"; do
	[ -x "$f" ] || { echo "guest.sh: $f missing" >&2; exit 1; }
done
# copychain's depth, chunk and files in flight, for the peers run at them
cc_qd=2 cc_bs=$((1 << 20)) cc_jobs=64

# the other tools: uutils cp (Debian's rust-coreutils), rsync, fio
uucp=/usr/lib/cargo/bin/coreutils/cp
tool_peers=()
for t in "uu_cp:$uucp" rsync:rsync fio:fio; do
	if command -v "${t#*:}" > /dev/null; then
		tool_peers+=("${t%%:*}")
	elif [ "$tools" = yes ]; then
		echo "guest.sh: ${t#*:} missing (--tools yes)" >&2
		exit 1
	elif [ "$tools" = auto ]; then
		echo "guest.sh: no ${t#*:}: its rows are left out" >&2
	fi
done
[ "$tools" != no ] || tool_peers=()
# tool WHO...: the words that are contenders here, the tools kept if present
tool() {
	local w t
	for w in "$@"; do
		for t in "${tool_peers[@]}"; do
			[ "$w" = "$t" ] && echo "$w"
		done
	done
}

work=${TMPDIR:-/tmp}/bench
rm -rf "$work"
mkdir -p "$work"
: > "$out"
row() { echo "$1,$2,$3,$4,$5" >> "$out"; }
# progress, with the time since the run began (minutes:seconds)
say() { printf 'bench: [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }

# time_run CASE WHO ROUND DROP CMD...: one timed run; seconds to the CSV
# (builtins where a fork would do: every process costs ~0.5 s on the
# debug kernel the smoke test runs on)
time_run() {
	local cas=$1 who=$2 round=$3 drop=$4 t=$work/time secs cpu csw line
	shift 4
	: > "$t"
	if [ "$drop" = 1 ]; then
		sync
		echo 3 > /proc/sys/vm/drop_caches
	fi
	if ! "$btime" "$khz" "$t" "$@" > "$work/out" 2>&1; then
		echo "bench: $cas $who round $round failed:" >&2
		cat "$work/out" >&2
		exit 1
	fi
	read -r secs cpu csw < "$t"
	row "$cas" "$who" "$round" seconds "$secs"
	# user + system CPU and context switches (wait4(): threads and
	# io_uring workers included)
	row "$cas" "$who" "$round" cpu_seconds "$cpu"
	row "$cas" "$who" "$round" context_switches "$csw"
	# what a contender's --stats lines say of itself: io_uring_enter()
	# calls; program runs (steps) and, copychain's, the copies' own time
	# after loading (work_seconds) and what loading took (load_seconds,
	# verify_seconds: its programs verified and loaded, attach_seconds)
	local enters=''
	while IFS= read -r line; do
		[[ $line =~ ^(copychain|catchain):.*\ ([0-9]+)\ steps, ]] &&
			row "$cas" "$who" "$round" steps "${BASH_REMATCH[2]}"
		[[ $line =~ ^copychain:.*\ bytes\ in\ ([0-9.]+)\ s\ \( ]] &&
			row "$cas" "$who" "$round" work_seconds "${BASH_REMATCH[1]}"
		# the files in flight, time-weighted (each from its start's
		# submit to its end, as its decider sees the end)
		[[ $line =~ ^(copychain|uring_cc):\ mean\ ([0-9.]+)\ files\ in\ flight ]] &&
			row "$cas" "$who" "$round" inflight_mean "${BASH_REMATCH[2]}"
		if [[ $line =~ ^copychain:\ loading\ took\ ([0-9.]+)\ s:.*\ verify\ and\ load\ ([0-9.]+),\ attach\ ([0-9.]+), ]]; then
			row "$cas" "$who" "$round" load_seconds "${BASH_REMATCH[1]}"
			row "$cas" "$who" "$round" verify_seconds "${BASH_REMATCH[2]}"
			row "$cas" "$who" "$round" attach_seconds "${BASH_REMATCH[3]}"
		fi
		[ -z "$enters" ] || continue
		if [[ $line =~ \ ([0-9]+)\ io_uring_enter\ calls ]] ||
			[[ $line =~ ^uring_c[pc]:\ ([0-9]+)\ io_uring_submit_and_wait\ calls$ ]] ||
			[[ $line =~ ^uring_cat:\ ([0-9]+)\ io_uring_submit_and_wait\ calls$ ]]; then
			enters=${BASH_REMATCH[1]}
			row "$cas" "$who" "$round" enters "$enters"
		fi
	done < "$work/out"
}

# the rounds of a case: w1..wW (warm-up), then 1..R
round_ids() {
	local r
	for ((r = 1; r <= warmup; r++)); do echo "w$r"; done
	for ((r = 1; r <= rounds; r++)); do echo "$r"; done
}

# order WORD...: the words in a random order into ORDER (Fisher-Yates on
# $RANDOM, which the seed set once; not in a subshell, where bash would
# draw from a copy of the generator)
order() {
	local i j t
	ORDER=("$@")
	for ((i = ${#ORDER[@]} - 1; i > 0; i--)); do
		j=$((RANDOM % (i + 1)))
		t=${ORDER[i]} ORDER[i]=${ORDER[j]} ORDER[j]=$t
	done
}

# one big file: each contender copies SRC to DST
big_case() {
	local cas=$1 dir=$2 drop=$3 r who src dst
	src=$dir/big.src
	dst=$dir/big.dst
	say "$cas: ${big_mib} MiB, $rounds rounds"
	head -c "${big_mib}M" /dev/urandom > "$src"
	row "$cas" all "" bytes "$(stat -c %s "$src")"
	for r in $(round_ids); do
		order copychain cp uring_cc copychain_sync cp_sync uring_cc_sync uring_cp uring_cp_ccdepth rw_loop $(tool uu_cp fio)
		for who in "${ORDER[@]}"; do
			rm -f "$dst"
			case $who in
			copychain) time_run "$cas" "$who" "$r" "$drop" "$cc" --stats "$src" "$dst" ;;
			cp) time_run "$cas" "$who" "$r" "$drop" cp "$src" "$dst" ;;
			uu_cp) time_run "$cas" "$who" "$r" "$drop" "$uucp" "$src" "$dst" ;;
			fio)
				# the ceiling: the same bytes read and written at
				# copychain's depth and chunk, no copy between them
				time_run "$cas" "$who" "$r" "$drop" fio --thread --ioengine=io_uring \
					--iodepth="$cc_qd" --bs="$cc_bs" --output=/dev/null \
					--name=rd --filename="$src" --rw=read \
					--name=wr --filename="$dst" --rw=write --size="$(stat -c %s "$src")"
				;;
			copychain_sync) time_run "$cas" "$who" "$r" "$drop" "$cc" --sync --stats "$src" "$dst" ;;
			cp_sync) time_run "$cas" "$who" "$r" "$drop" sh -c 'cp "$0" "$1" && sync' "$src" "$dst" ;;
			uring_cc) time_run "$cas" "$who" "$r" "$drop" "$ucc" --stats "$src" "$dst" ;;
			uring_cc_sync) time_run "$cas" "$who" "$r" "$drop" "$ucc" --sync --stats "$src" "$dst" ;;
			uring_cp) time_run "$cas" "$who" "$r" "$drop" "$ucp" --fsync --stats "$src" "$dst" ;;
			uring_cp_ccdepth) time_run "$cas" "$who" "$r" "$drop" "$ucp" --fsync --stats --qd "$cc_qd" --bs "$cc_bs" "$src" "$dst" ;;
			rw_loop) time_run "$cas" "$who" "$r" "$drop" dd if="$src" of="$dst" bs=128K conv=fsync status=none ;;
			esac
			# fio writes bytes of its own: no copy to check
			[ "$who" = fio ] || cmp "$src" "$dst" ||
				{ echo "bench: $cas: $who's copy differs" >&2; exit 1; }
		done
	done
	rm -f "$src" "$dst"
}

# many small files: each contender copies the SRC directory's N files of
# SIZE bytes
small_case() {
	local cas=$1 dir=$2 drop=$3 n=$4 size=$5 r who
	say "$cas: $n files of $size bytes, $rounds rounds"
	mkdir -p "$dir/small.src"
	head -c $((n * size)) /dev/urandom | split -b "$size" -a 5 -d - "$dir/small.src/f"
	row "$cas" all "" files "$n"
	# the serial peer (one fsync'd file at a time) only for 4 KiB files:
	# at 20,000 files on the disk it would take 2 minutes a round
	local serial=uring_cp
	[ "$size" = 4096 ] || serial=''
	for r in $(round_ids); do
		order copychain cp uring_cc copychain_dt uring_cc_dt copychain_sync cp_sync uring_cc_sync $serial $(tool uu_cp rsync fio)
		for who in "${ORDER[@]}"; do
			rm -rf "$dir/small.dst"
			mkdir "$dir/small.dst"
			case $who in
			copychain) time_run "$cas" "$who" "$r" "$drop" "$cc" --stats "$dir"/small.src/* "$dir/small.dst" ;;
			cp) time_run "$cas" "$who" "$r" "$drop" cp -r "$dir/small.src/." "$dir/small.dst" ;;
			uu_cp)
				# uutils 0.0.17 cannot copy SRC/. into DIR: it makes
				# DST from SRC, the same copy
				rm -r "$dir/small.dst"
				time_run "$cas" "$who" "$r" "$drop" "$uucp" -r "$dir/small.src" "$dir/small.dst"
				;;
			rsync) time_run "$cas" "$who" "$r" "$drop" rsync -r "$dir/small.src/" "$dir/small.dst/" ;;
			fio)
				# the ceiling: every file read, as many written, at
				# copychain's files in flight, no copy between them
				time_run "$cas" "$who" "$r" "$drop" fio --thread --ioengine=io_uring \
					--iodepth="$cc_jobs" --openfiles="$cc_jobs" --bs="$size" \
					--file_service_type=sequential --output=/dev/null \
					--name=rd --opendir="$dir/small.src" --rw=read \
					--name=wr --directory="$dir/small.dst" --nrfiles="$n" \
					--filesize="$size" --rw=write --create_on_open=1
				;;
			copychain_sync) time_run "$cas" "$who" "$r" "$drop" "$cc" --sync --stats "$dir"/small.src/* "$dir/small.dst" ;;
			cp_sync) time_run "$cas" "$who" "$r" "$drop" sh -c 'cp -r "$0" "$1" && sync' "$dir/small.src/." "$dir/small.dst" ;;
			uring_cc) time_run "$cas" "$who" "$r" "$drop" "$ucc" --stats "$dir"/small.src/* "$dir/small.dst" ;;
			# both sides on a SINGLE_ISSUER | DEFER_TASKRUN ring
			copychain_dt) time_run "$cas" "$who" "$r" "$drop" "$cc" --defer-taskrun --stats "$dir"/small.src/* "$dir/small.dst" ;;
			uring_cc_dt) time_run "$cas" "$who" "$r" "$drop" "$ucc" --defer-taskrun --stats "$dir"/small.src/* "$dir/small.dst" ;;
			uring_cc_sync) time_run "$cas" "$who" "$r" "$drop" "$ucc" --sync --stats "$dir"/small.src/* "$dir/small.dst" ;;
			uring_cp) time_run "$cas" "$who" "$r" "$drop" "$ucp" --fsync --stats "$dir"/small.src/* "$dir/small.dst" ;;
			esac
			[ "$who" = fio ] || diff -r "$dir/small.src" "$dir/small.dst" > /dev/null ||
				{ echo "bench: $cas: $who's copies differ" >&2; exit 1; }
		done
	done
	rm -rf "$dir/small.src" "$dir/small.dst"
}

# many small files read: catchain next to cat, both to /dev/null
# shellcheck disable=SC2016 # the sh -c scripts expand their own arguments
cat_case() {
	local cas=$1 dir=$2 drop=$3 r who
	say "$cas: $small files of 4 KiB, $rounds rounds"
	mkdir -p "$dir/cat.src"
	head -c $((small * 4096)) /dev/urandom | split -b 4096 -a 5 -d - "$dir/cat.src/f"
	row "$cas" all "" files "$small"
	for r in $(round_ids); do
		order catchain cat uring_cat
		for who in "${ORDER[@]}"; do
			case $who in
			catchain) time_run "$cas" "$who" "$r" "$drop" sh -c '"$0" --stats "$@" > /dev/null' "$cat_chain" "$dir"/cat.src/* ;;
			uring_cat) time_run "$cas" "$who" "$r" "$drop" sh -c '"$0" --stats "$@" > /dev/null' "$ucat" "$dir"/cat.src/* ;;
			cat) time_run "$cas" "$who" "$r" "$drop" sh -c 'cat "$@" > /dev/null' sh "$dir"/cat.src/* ;;
			esac
		done
	done
	# the bytes, once
	"$cat_chain" "$dir"/cat.src/* | cmp - <(cat "$dir"/cat.src/*) ||
		{ echo "bench: $cas: catchain's output differs from cat's" >&2; exit 1; }
	"$ucat" "$dir"/cat.src/* | cmp - <(cat "$dir"/cat.src/*) ||
		{ echo "bench: $cas: uring_cat's output differs from cat's" >&2; exit 1; }
	rm -rf "$dir/cat.src"
}

# dependent reads: btree-lookup's coroutine next to its peers, the pread
# and user-space io_uring loops of uring_btree (--pread, --uring), on
# trees of depth 3 and 6 (fanout 8), with 256 lookups in flight (case
# btree_*_dD) and with one (btree_*_dD_q1: the coroutine and the io_uring
# loop at --inflight 1); the time is the lookups' own (--stats), without
# loading, and each run's median and 99th-percentile lookup time. On the
# disk (DIRECT=1) the depth-6 tree is also read with O_DIRECT
# (btree_disk_d6_direct*, --direct-lookups keys): every level a read of
# the device.
bt_case() {
	local cas=$1 dir=$2 drop=$3 direct=${4:-0} spec depth keys f q sub
	for spec in "3 500" "6 40000"; do
		read -r depth keys <<< "$spec"
		f=$dir/tree$depth
		"$bt" build --seed 42 --fanout 8 "$f" "$keys" > /dev/null
		for q in 256 1; do
			sub=${cas}_d$depth
			[ "$q" = 256 ] || sub=${sub}_q$q
			say "$sub: depth $depth ($keys keys), $q in flight, $lookups lookups, $rounds rounds"
			bt_rounds "$sub" "$f" "$drop" "$q" "$lookups" bpf pread uring
			if [ "$direct" = 1 ] && [ "$depth" = 6 ]; then
				sub=${cas}_d${depth}_direct
				[ "$q" = 256 ] || sub=${sub}_q$q
				say "$sub: O_DIRECT, $q in flight, $direct_lookups lookups, $rounds rounds"
				bt_rounds "$sub" "$f" "$drop" "$q" "$direct_lookups" bpf pread uring --direct
			fi
		done
		rm -f "$f"
	done
}

# bt_rounds CASE TREE DROP INFLIGHT LOOKUPS MODE... [--direct]: the rounds
# of one B+tree case, the modes (bpf, pread, uring) in a random order
bt_rounds() {
	local cas=$1 f=$2 drop=$3 q=$4 n=$5 r who line extra=() modes=()
	shift 5
	for who in "$@"; do
		case $who in
		--*) extra+=("$who") ;;
		*) modes+=("$who") ;;
		esac
	done
	row "$cas" all "" lookups "$n"
	row "$cas" all "" inflight "$q"
	for r in $(round_ids); do
		order "${modes[@]}"
		for who in "${ORDER[@]}"; do
			local cmd=("$ubt" "--$who")
			[ "$who" != bpf ] || cmd=("$bt" lookup)
			if [ "$drop" = 1 ]; then
				sync
				echo 3 > /proc/sys/vm/drop_caches
			fi
			"${cmd[@]}" "${extra[@]}" --inflight "$q" --stats --random "$n" \
				--seed "${r#w}" "$f" > "$work/bt.$who" 2> "$work/bt.err" ||
				{ echo "bench: $cas: $who failed:" >&2; cat "$work/bt.err" >&2; exit 1; }
			line=$(grep ' lookups/s$' "$work/bt.err")
			[[ $line =~ ,\ ([0-9]+)\ io_uring_enter\ calls,\ ([0-9.]+)\ s,\ p50\ ([0-9.]+)\ us,\ p99\ ([0-9.]+)\ us, ]] ||
				{ echo "bench: $cas: no stats line: $line" >&2; exit 1; }
			row "$cas" "$who" "$r" enters "${BASH_REMATCH[1]}"
			row "$cas" "$who" "$r" seconds "${BASH_REMATCH[2]}"
			row "$cas" "$who" "$r" p50_us "${BASH_REMATCH[3]}"
			row "$cas" "$who" "$r" p99_us "${BASH_REMATCH[4]}"
		done
		for who in "${modes[@]:1}"; do
			cmp -s "$work/bt.${modes[0]}" "$work/bt.$who" ||
				{ echo "bench: $cas: $who's answers differ from ${modes[0]}'s" >&2; exit 1; }
		done
	done
}

# the curves: at each count in flight of --sweep, the depth-6 B+tree's
# lookups (coroutine and io_uring loop; case sweep_btree_qQ) and the
# small-file copies (copychain and the io_uring copier at --jobs Q, at most
# 128; sweep_small_qQ, --small / 2 files of 4 KiB), on tmpfs
sweep_case() {
	local dir=$1 f=$1/tree6 q r who n=$((small / 2)) jobs
	"$bt" build --seed 42 --fanout 8 "$f" 40000 > /dev/null
	for q in $sweep; do
		say "sweep_btree_q$q: depth 6, $q in flight, $((lookups / 10)) lookups, $rounds rounds"
		bt_rounds "sweep_btree_q$q" "$f" 0 "$q" "$((lookups / 10))" bpf uring
	done
	rm -f "$f"
	mkdir -p "$dir/sweep.src"
	head -c $((n * 4096)) /dev/urandom | split -b 4096 -a 5 -d - "$dir/sweep.src/f"
	for q in $sweep; do
		jobs=$((q > 128 ? 128 : q))
		say "sweep_small_q$jobs: $n files of 4 KiB, $jobs in flight, $rounds rounds"
		row "sweep_small_q$jobs" all "" files "$n"
		row "sweep_small_q$jobs" all "" inflight "$jobs"
		for r in $(round_ids); do
			order copychain uring_cc
			for who in "${ORDER[@]}"; do
				rm -rf "$dir/sweep.dst"
				mkdir "$dir/sweep.dst"
				case $who in
				copychain) time_run "sweep_small_q$jobs" "$who" "$r" 0 "$cc" --jobs "$jobs" --stats "$dir"/sweep.src/* "$dir/sweep.dst" ;;
				uring_cc) time_run "sweep_small_q$jobs" "$who" "$r" 0 "$ucc" --jobs "$jobs" --stats "$dir"/sweep.src/* "$dir/sweep.dst" ;;
				esac
				diff -r "$dir/sweep.src" "$dir/sweep.dst" > /dev/null ||
					{ echo "bench: sweep_small_q$jobs: $who's copies differ" >&2; exit 1; }
			done
		done
		[ "$jobs" != 128 ] || break
	done
	rm -rf "$dir/sweep.src" "$dir/sweep.dst"
}

# step_bench's rows as they are (case step, and its memory case)
step_case() {
	local csv=$work/step.csv
	say "step: $steps dependent steps, $rounds rounds"
	"$step" --rounds "$rounds" --steps "$steps" --coroutines 0 \
		--tsc-khz "$khz" --csv "$csv" > "$work/step.txt"
	sed 1d "$csv" >> "$out"
}

# kernel memory with M coroutines in flight: step_bench's memory case
scale_case() {
	local m csv=$work/scale.csv
	for m in $scale; do
		say "scale: $m coroutines in flight"
		"$step" --rounds 1 --steps 100 --coroutines "$m" --tsc-khz "$khz" \
			--csv "$csv" > "$work/scale.txt"
		awk -F, -v m="$m" '$1 == "memory" { print "scale," $2 "," m "," $4 "," $5 }' \
			"$csv" >> "$out"
	done
}

[ -n "$seed" ] || seed=$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')
RANDOM=$seed
row info kernel "" release "$(uname -r)"
row info timer "" tsc_khz "$khz"
row info rounds "" rounds "$rounds"
row info rounds "" warmup "$warmup"
row info order "" seed "$seed"
[ -z "$disk_cache" ] || row info disk "" cache "$disk_cache"
want() { case " $cases " in *" $1 "*) return 0 ;; esac; return 1; }
if [ -n "$disk" ]; then
	mkdir -p /mnt/bench
	mount -t ext4 "$disk" /mnt/bench
fi
! want step || step_case
! want scale || scale_case
! want copy || big_case copy_tmpfs "$work" 0
! want small || small_case small_tmpfs "$work" 0 "$small" 4096
! want tiny || small_case tiny_tmpfs "$work" 0 "$tiny" 1024
! want cat || cat_case cat_tmpfs "$work" 0
! want btree || bt_case btree_tmpfs "$work" 0
! want sweep || sweep_case "$work"
if [ -n "$disk" ]; then
	! want copy || big_case copy_disk /mnt/bench 1
	! want small || small_case small_disk /mnt/bench 1 "$small" 4096
	! want tiny || small_case tiny_disk /mnt/bench 1 "$tiny" 1024
	! want cat || cat_case cat_disk /mnt/bench 1
	! want btree || bt_case btree_disk /mnt/bench 1 1
	umount /mnt/bench
fi
say "done: $(wc -l < "$out") rows in $out"
