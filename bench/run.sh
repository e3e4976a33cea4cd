#!/bin/bash
# perfnav benchmark: perfnav's text subcommands side by side with perf's, in
# one run, on large recordings made here (by the yardstick tree's
# bench/make-recordings.sh, and fp-4G, the same workload recorded longer), next
# to the floor (a bare header walk, the yardstick tree's bench/walk.c).  Each
# command runs once untimed (its peak anonymous memory is sampled then, every 10 ms, file pages excluded),
# then BENCH_RUNS times, perfnav and perf alternated; the table gives the
# median wall time and the peak RSS (file pages included, /usr/bin/time).
#
# usage: bench/run.sh [RECORDING...]
#   RECORDING: fp-10M fp-100M fp-1G fp-4G fp-10G fp-10G-same dwarf-100M z-100M br-200k
#              (fp-10G: copies of fp-1G merged to 10 GiB by perfnav merge and
#              laid end to end in time by bench/end_to_end; fp-10G-same: the
#              copies as merged, all at the same times with the same threads)
#              (default: fp-100M fp-1G dwarf-100M z-100M)
#              br-200k: 200,000 byte-built samples of 16 branches each
#              (tests/mk-brhist.py --big; no PMU here for perf record -b), for
#              --branch-history with the fixtures' build-id cache
# environment:
#   BENCH_DIR        where recordings and tools live (default /tmp/perfnav-bench);
#                    missing recordings are made there first (fp-1G: ~2 minutes,
#                    fp-4G: ~9 minutes and 3.5 GB of disk)
#   BENCH_RUNS       timed runs per command (default 3; the median is reported)
#   BENCH_PERF_RUNS  timed runs of perf's commands (default BENCH_RUNS; on fp-4G,
#                    perf report -D alone takes ~8 minutes a run)
#   BENCH_ONLY       space-separated subset of: stats dump self children cached script
#                    (cached: top --children from the cache of its rows, docs/cache.md,
#                    against its first run; every other perfnav command runs with
#                    --no-cache, so it is timed as a first run)
#   BENCH_WARM       1 (default): an untimed run of perf's command first; 0: none
#                    (perfnav's untimed run, which samples its memory, stays)
#   PERFNAV_YARDSTICKS  the yardstick tree, which is not part of this repository:
#                    the directory holding bench/make-recordings.sh and bench/walk.c
#                    (required; a relative path is from the current directory)
# The TUI's start-up (first screen, every symbol resolved, keys meanwhile) is
# bench/tui.sh.  Prints what a first touch of memory costs here (bench/touch),
# then a Markdown table; a command that fails shows 'fail'.
# Timings are never part of `make check`.
set -euo pipefail

yard=${PERFNAV_YARDSTICKS:-}
[ -z "$yard" ] || [ ! -d "$yard" ] || yard=$(cd "$yard" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BENCH_DIR=${BENCH_DIR:-/tmp/perfnav-bench}
BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_PERF_RUNS=${BENCH_PERF_RUNS:-$BENCH_RUNS}
BENCH_ONLY=${BENCH_ONLY:-stats dump self children cached script}

die()
{
	echo "bench/run.sh: $*" >&2
	exit 1
}

[ -x /usr/bin/time ] || die "/usr/bin/time is missing (apt-get install time, or run ./build.sh)"
[ -n "$yard" ] || die "set PERFNAV_YARDSTICKS to the yardstick tree (bench/make-recordings.sh, bench/walk.c)"
[ -d "$yard" ] || die "PERFNAV_YARDSTICKS: no directory $yard"
bench_src=$yard/bench
[ -f "$bench_src/make-recordings.sh" ] || die "no $bench_src/make-recordings.sh (PERFNAV_YARDSTICKS=$yard)"
command -v perf >/dev/null || die "perf is missing"

recs=("$@")
[ ${#recs[@]} -gt 0 ] || recs=(fp-100M fp-1G dwarf-100M z-100M)

mkdir -p "$BENCH_DIR"
BENCH_DIR=$(cd "$BENCH_DIR" && pwd)

# The floor: walk, rebuilt when walk.c is newer.
walk=$BENCH_DIR/walk
if [ ! -x "$walk" ] || [ "$bench_src/walk.c" -nt "$walk" ]; then
	echo "bench: building $walk" >&2
	gcc -O2 -g -Wall -o "$walk" "$bench_src/walk.c" -lzstd
fi

# perfnav itself: an optimised, sanitizer-free build.
if [ ! -x ./perfnav ]; then
	./build.sh >&2
fi
if grep -q -- "--enable-asan" config.status 2>/dev/null; then
	echo "bench: warning: ./perfnav is a sanitizer build; numbers will be slow" >&2
fi

# Make the missing recordings.
for r in "${recs[@]}"; do
	[ -s "$BENCH_DIR/rec/$r.data" ] && continue
	echo "bench: making $r in $BENCH_DIR/rec (this takes a while)" >&2
	case $r in
	fp-10M) sh "$bench_src/make-recordings.sh" "$BENCH_DIR" small >&2 ;;
	fp-100M) sh "$bench_src/make-recordings.sh" "$BENCH_DIR" 100m >&2 ;;
	fp-1G) sh "$bench_src/make-recordings.sh" "$BENCH_DIR" 1g >&2 ;;
	dwarf-100M) sh "$bench_src/make-recordings.sh" "$BENCH_DIR" dwarf >&2 ;;
	z-100M) sh "$bench_src/make-recordings.sh" "$BENCH_DIR" z >&2 ;;
	fp-4G)
		# fp-1G's command, recorded ~4 times longer (the workload is built by
		# make-recordings.sh: make fp-10M first if $BENCH_DIR/work is missing)
		[ -x "$BENCH_DIR/work" ] || sh "$bench_src/make-recordings.sh" "$BENCH_DIR" small >&2
		(cd "$BENCH_DIR" && HOME="$BENCH_DIR/home" perf record -e cpu-clock -F 50000 -g \
			-o rec/fp-4G.data -- ./work mix 2 500 >rec/fp-4G.log 2>&1)
		tail -1 "$BENCH_DIR/rec/fp-4G.log" >&2
		;;
	fp-10G | fp-10G-same)
		# 10 GiB: copies of fp-1G merged into one recording by perfnav merge
		# (each copy's records in turn, each input's timestamps and threads as
		# recorded: fp-10G-same, as a fleet's captures of one moment); fp-10G
		# then lays them end to end in time with threads of their own
		# (bench/end_to_end), as one recording of the workload 31 times longer
		[ -s "$BENCH_DIR/rec/fp-1G.data" ] || sh "$bench_src/make-recordings.sh" "$BENCH_DIR" 1g >&2
		one=$(stat -c %s "$BENCH_DIR/rec/fp-1G.data")
		n=$(( (10 * 1024 * 1024 * 1024 + one - 1) / one ))
		ins=()
		for ((i = 0; i < n; i++)); do ins+=("$BENCH_DIR/rec/fp-1G.data"); done
		./perfnav merge -o "$BENCH_DIR/rec/$r.data" "${ins[@]}" >&2
		if [ "$r" = fp-10G ]; then
			make -s bench/end_to_end >&2
			bench/end_to_end "$BENCH_DIR/rec/$r.data" "$n" >&2
		fi
		;;
	br-200k)
		mkdir -p "$BENCH_DIR/rec"
		bin=$(ls -d tests/data/buildid/tmp/perfnav-fixtures/cpu/*/elf | head -1)
		python3 tests/mk-brhist.py --big 200000 "$BENCH_DIR/rec/br-200k.data" "$bin"
		;;
	*) die "unknown recording '$r' (fp-10M fp-100M fp-1G fp-4G fp-10G fp-10G-same dwarf-100M z-100M br-200k)" ;;
	esac
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# perfnav's cache (docs/cache.md) in the temporary directory, never the user's
export XDG_CACHE_HOME=$tmp/cache

# anon_peak CMD...: runs CMD once (stdout to /dev/null), prints its peak
# RssAnon in MB, sampled every 10 ms (bash builtins only while it runs).
anon_peak()
{
	local pid peak=0 k v rest
	"$@" >/dev/null 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		while read -r k v rest; do
			if [ "$k" = RssAnon: ]; then
				[ "$v" -gt "$peak" ] && peak=$v
				break
			fi
		done <"/proc/$pid/status" 2>/dev/null || true
		sleep 0.01
	done
	wait "$pid" 2>/dev/null || true
	echo $((peak / 1024))
}

# median: the median of the numbers on standard input, or "fail" if none.
median()
{
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "fail" }'
}

# timed CMD...: runs CMD once (stdout to /dev/null), prints "WALL_S MAX_RSS_MB" or "fail".
timed()
{
	local w m t0 t1
	# /usr/bin/time gives the peak RSS; its %e has only 10 ms
	# resolution, so the wall time is taken around it in ns.
	t0=$(date +%s%N)
	if ! /usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err"; then
		echo "bench: failed: $* ($(tail -1 "$tmp/err" 2>/dev/null))" >&2
		echo fail
		return
	fi
	t1=$(date +%s%N)
	read -r w m <"$tmp/time"
	printf '%s %s\n' "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')" \
		"$(awk -v k="$m" 'BEGIN { printf "%.0f", k / 1024 }')"
}

# row REC WHAT TARGET "PERF CMD" "PERFNAV CMD": one line of the table, perf's
# and perfnav's runs alternated (perf first), each after one untimed run.
row()
{
	local rec=$1 what=$2 target=$3 pcmd=$4 ncmd=$5 f=$BENCH_DIR/rec/$1.data
	local pw=() nw=() prss=0 nrss=0 anon res i ratio pm nm
	# shellcheck disable=SC2086
	{
		[ "${BENCH_WARM:-1}" = 0 ] || $pcmd "$f" >/dev/null 2>&1 || true
		anon=$(anon_peak $ncmd "$f")
		for ((i = 0; i < BENCH_RUNS || i < BENCH_PERF_RUNS; i++)); do
			if [ "$i" -lt "$BENCH_PERF_RUNS" ]; then
				res=$(timed $pcmd "$f")
				[ "$res" != fail ] && pw+=("${res%% *}") && [ "${res##* }" -gt "$prss" ] && prss=${res##* }
			fi
			if [ "$i" -lt "$BENCH_RUNS" ]; then
				res=$(timed $ncmd "$f")
				[ "$res" != fail ] && nw+=("${res%% *}") && [ "${res##* }" -gt "$nrss" ] && nrss=${res##* }
			fi
		done
	}
	pm=$( ((${#pw[@]})) && printf '%s\n' "${pw[@]}" | median || echo fail)
	nm=$( ((${#nw[@]})) && printf '%s\n' "${nw[@]}" | median || echo fail)
	ratio=$(awk -v a="$pm" -v b="$nm" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.1fx", a / b; else print "-" }')
	pcmd=${pcmd% -i}
	echo "| $rec ($(du -h "$f" | cut -f1)) | $what | \`${pcmd/#$BENCH_DIR\//}\` | $pm | \`$ncmd\` | $nm | $ratio | $target | $prss / $nrss | $anon |"
}

wants() { [[ " $BENCH_ONLY " == *" $1 "* ]]; }

# The machine's memory, for reading the figures: what a first touch of
# 256 MB costs, again at once, and again after 5 s idle (a VM whose host
# takes free memory back makes every run after a long perf run pay the
# first and last kind for its index and tables: bench/touch.c)
[ -x bench/touch ] || make bench/touch >/dev/null 2>&1 || true
if [ -x bench/touch ]; then
	echo "Memory not touched yet (bench/touch 256 5):"
	echo
	bench/touch 256 5 | sed 's/^/    /'
	echo
fi
echo "| recording | what | perf (or the floor) | s | perfnav | s | faster by | target | peak RSS MB (perf / perfnav) | perfnav peak anon MB |"
echo "|---|---|---|---:|---|---:|---:|---|---:|---:|"
for r in "${recs[@]}"; do
	f=$BENCH_DIR/rec/$r.data
	cat "$f" >/dev/null # warm the page cache: every run below reads from memory
	case $r in
	br-200k)
		row "$r" "--branch-history" "" \
			"perf --buildid-dir tests/data/buildid report --stdio --branch-history --no-children -i" \
			"./perfnav top --no-cache --buildid-dir tests/data/buildid --branch-history --no-children"
		continue
		;;
	dwarf-100M | z-100M)
		target="15x"
		[ "$r" = dwarf-100M ] && target="6x"
		wants children && row "$r" "hot functions, children" "$target" \
			"perf report --stdio --children -i" "./perfnav top --no-cache --children"
		continue
		;;
	esac
	if wants stats; then
		row "$r" "stats vs the header walk" "within 1.2x (0.83x)" "$walk count" "./perfnav stats --no-cache"
		row "$r" "stats" "" "perf report --stats -i" "./perfnav stats --no-cache"
		row "$r" "full index" "" "$walk index" "./perfnav stats --no-cache --index"
	fi
	wants dump && row "$r" "dump" "20x" "perf report -D -i" "./perfnav dump --no-cache"
	wants self && row "$r" "hot functions, self" "15x" \
		"perf report --stdio --no-children --sort sym -i" "./perfnav top --no-cache --no-children --sort sym"
	wants children && row "$r" "hot functions, children" "25x" \
		"perf report --stdio --children -i" "./perfnav top --no-cache --children"
	# the first run (written into the cache by the untimed run) against the rows read back
	wants cached && row "$r" "children, from the cache vs a first run" "5x (0.2x)" \
		"./perfnav top --no-cache --children" "./perfnav top --children"
	wants script && row "$r" "script" "15x" "perf script -i" "./perfnav script --no-cache"
done
