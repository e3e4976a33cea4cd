#!/bin/bash
# perfnav benchmark: wall time (median of 3) and peak RSS of perfnav's text
# subcommands next to perf's and next to the floor (shared/bench/walk.c) on
# large recordings made here by shared/bench/make-recordings.sh.
#
# usage: bench/run.sh [RECORDING...]
#   RECORDING: fp-10M fp-100M fp-1G dwarf-100M z-100M (default: fp-100M fp-1G)
# environment:
#   BENCH_DIR    where recordings and tools live (default /tmp/perfnav-bench);
#                missing recordings are made there first (fp-1G: ~2 minutes, 1.1 GB)
#   BENCH_RUNS   runs per measurement (default 3; the median is reported)
#   SHARED       the shared tree (default ../shared relative to the repository)
#   BENCH_TOP    1: also time hot functions, perfnav top against perf report
#                (--no-children --sort sym, and --children: perf takes ~20 s
#                and ~60 s per run on fp-1G)
#   BENCH_SCRIPT 1: also time perfnav script against perf script (default
#                fields and callchains, output to /dev/null; perf takes ~30 s
#                per run on fp-1G)
#   BENCH_DWARF  1: also time top --children (default keys, and --sort sym)
#                against perf report's on dwarf-100M (made if missing)
# The TUI's start-up (first screen, every symbol resolved) is bench/tui.sh.
#
# Prints a Markdown table.  A command that fails shows 'fail'.  Timings are
# never part of `make check`.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
BENCH_DIR=${BENCH_DIR:-/tmp/perfnav-bench}
BENCH_RUNS=${BENCH_RUNS:-3}
SHARED=${SHARED:-$root/../shared}
bench_src=$SHARED/bench

die()
{
	echo "bench/run.sh: $*" >&2
	exit 1
}

[ -x /usr/bin/time ] || die "/usr/bin/time is missing (apt-get install time, or run ./build.sh)"
[ -f "$bench_src/make-recordings.sh" ] || die "no $bench_src/make-recordings.sh (set SHARED=DIR)"
command -v perf >/dev/null || die "perf is missing"

recs=("$@")
[ ${#recs[@]} -gt 0 ] || recs=(fp-100M fp-1G)

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
	case $r in
	fp-10M) what=small ;;
	fp-100M) what=100m ;;
	fp-1G) what=1g ;;
	dwarf-100M) what=dwarf ;;
	z-100M) what=z ;;
	*) die "unknown recording '$r' (fp-10M fp-100M fp-1G dwarf-100M z-100M)" ;;
	esac
	if [ ! -s "$BENCH_DIR/rec/$r.data" ]; then
		echo "bench: making $r in $BENCH_DIR/rec (this takes a while)" >&2
		sh "$bench_src/make-recordings.sh" "$BENCH_DIR" "$what" >&2
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure CMD...: runs CMD once untimed, then BENCH_RUNS times (stdout to /dev/null), prints
# "MEDIAN_WALL_S MAX_RSS_MB" or "fail" (wall includes ~1 ms of /usr/bin/time).
measure()
{
	local i walls=() rss=0 w m t0 t1
	# one untimed run first: every command is measured warm (page cache,
	# memory freed by the command before it), perf's as much as ours
	"$@" >/dev/null 2>&1 || true
	for ((i = 0; i < BENCH_RUNS; i++)); do
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
		w=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e9 }')
		walls+=("$w")
		[ "$m" -gt "$rss" ] && rss=$m
	done
	printf '%s %s\n' \
		"$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
		"$(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')"
}

names=("walk count" "walk index" "perf report --stats" "perfnav stats" "perfnav stats --index" "perfnav dump > /dev/null")

echo "| recording | command | wall (s) | x walk count | peak RSS (MB) |"
echo "|---|---|---:|---:|---:|"
for r in "${recs[@]}"; do
	f=$BENCH_DIR/rec/$r.data
	size=$(du -h "$f" | cut -f1)
	cat "$f" >/dev/null # warm the page cache: every run below reads from memory
	results=()
	results+=("$(measure "$walk" count "$f")")
	results+=("$(measure "$walk" index "$f")")
	results+=("$(measure perf report --stats -i "$f")")
	results+=("$(measure ./perfnav stats "$f")")
	results+=("$(measure ./perfnav stats --index "$f")")
	results+=("$(measure ./perfnav dump "$f")")
	base=${results[0]%% *}
	if [ "${BENCH_TOP:-0}" = 1 ]; then
		names+=("perf report --stdio --no-children --sort sym" "perfnav top --no-children --sort sym"
			"perf report --stdio --children" "perfnav top --children"
			"perfnav top --children --path-stats (call paths kept)")
		results+=("$(measure perf report --stdio --no-children --sort sym -i "$f")")
		results+=("$(measure ./perfnav top --no-children --sort sym "$f")")
		results+=("$(measure perf report --stdio --children -i "$f")")
		results+=("$(measure ./perfnav top --children "$f")")
		results+=("$(measure ./perfnav top --children --path-stats "$f")")
	fi
	if [ "${BENCH_SCRIPT:-0}" = 1 ]; then
		names+=("perf script > /dev/null" "perfnav script > /dev/null")
		results+=("$(measure perf script -i "$f")")
		results+=("$(measure ./perfnav script "$f")")
	fi
	for i in "${!names[@]}"; do
		res=${results[$i]}
		if [ "$res" = fail ]; then
			echo "| $r ($size) | \`${names[$i]}\` | fail | | |"
			continue
		fi
		wall=${res%% *}
		mb=${res##* }
		ratio=$(awk -v a="$wall" -v b="$base" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }')
		echo "| $r ($size) | \`${names[$i]}\` | $wall | $ratio | $mb |"
	done
	names=("walk count" "walk index" "perf report --stats" "perfnav stats" "perfnav stats --index" "perfnav dump > /dev/null")
done

if [ "${BENCH_DWARF:-0}" = 1 ]; then
	f=$BENCH_DIR/rec/dwarf-100M.data
	[ -s "$f" ] || sh "$bench_src/make-recordings.sh" "$BENCH_DIR" dwarf >&2
	cat "$f" >/dev/null
	# --sort sym: perfnav files these entries through perf's tree (one core)
	for c in "perf report --stdio --children -i" "./perfnav top --children" \
		"perf report --stdio --children --sort sym -i" "./perfnav top --children --sort sym"; do
		# shellcheck disable=SC2086
		res=$(measure $c "$f")
		echo "| dwarf-100M ($(du -h "$f" | cut -f1)) | \`${c% -i}\` | ${res%% *} | | ${res##* } |"
	done
fi
