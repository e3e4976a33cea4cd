#!/bin/bash
# perfnav benchmark: off-CPU time's cost.  Records about a million
# sched_switch samples with callchains (bench/pingpong.c: two threads
# passing a byte through pipes, perf record -e sched:sched_switch -g -a with
# a filter on their comm), then times, alternated, `perfnav top` and
# `perfnav top --off-cpu` (and their --children forms) on that file, and
# prints the median wall times and their ratio (issue 26: --off-cpu within
# 1.5x of top).  Each timed run is --no-cache: top's rows from the cache
# would time a second run, not the work.  Timings are never part of `make check`.
#
# usage: bench/offcpu.sh
# environment:
#   BENCH_DIR     where the recording and the workload live (default /tmp/perfnav-bench)
#   BENCH_RUNS    timed runs per command (default 5; the median is reported)
#   OFFCPU_ROUNDS pingpong round trips (default 500000: about a million switches)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
BENCH_DIR=${BENCH_DIR:-/tmp/perfnav-bench}
BENCH_RUNS=${BENCH_RUNS:-5}
OFFCPU_ROUNDS=${OFFCPU_ROUNDS:-500000}
bin=$root/perfnav
rec=$BENCH_DIR/offcpu-1M.data

die()
{
	echo "bench/offcpu.sh: $*" >&2
	exit 1
}

[ -x "$bin" ] || die "no $bin: build first (./build.sh)"
command -v perf >/dev/null || die "perf is missing"
mkdir -p "$BENCH_DIR"
if [ ! -s "$rec" ]; then
	gcc -O2 -g -fno-omit-frame-pointer -pthread -o "$BENCH_DIR/pingpong" "$root/bench/pingpong.c"
	echo "== recording $rec ($OFFCPU_ROUNDS round trips)" >&2
	(cd "$BENCH_DIR" && perf record -q -o "$rec" -e sched:sched_switch \
		--filter 'prev_comm == "pingpong" || next_comm == "pingpong"' -g -a -m 1024 \
		-- ./pingpong "$OFFCPU_ROUNDS" >/dev/null)
fi

# secs CMD...: the wall time of one run, in seconds
secs()
{
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f\n", b - a }'
}

median()
{
	sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

samples=$("$bin" stats "$rec" 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
size=$(stat -c %s "$rec")
printf '%s: %s bytes, %s sched_switch samples; median of %s runs, alternated\n\n' \
	"$(basename "$rec")" "$size" "$samples" "$BENCH_RUNS"
printf '| command | top | top --off-cpu | ratio |\n|---|---|---|---|\n'
for mode in --no-children --children; do
	declare -a a=() b=()
	"$bin" top $mode "$rec" >/dev/null 2>&1 || true	# warm the page cache
	for ((i = 0; i < BENCH_RUNS; i++)); do
		a+=("$(secs "$bin" top --no-cache $mode --kallsyms /dev/null "$rec")")
		b+=("$(secs "$bin" top --no-cache $mode --kallsyms /dev/null --off-cpu "$rec")")
	done
	ma=$(printf '%s\n' "${a[@]}" | median)
	mb=$(printf '%s\n' "${b[@]}" | median)
	printf '| top %s | %.3f s | %.3f s | %.2fx |\n' "$mode" "$ma" "$mb" "$(awk -v a="$ma" -v b="$mb" 'BEGIN { print b / a }')"
done
