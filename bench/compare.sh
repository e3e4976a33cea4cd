#!/bin/bash
# Time two perfnav builds side by side on one recording: the text subcommands
# bench/run.sh times against perf, each run alternating the two builds, the
# median of BENCH_RUNS (default 3) wall times.
#
#   bench/compare.sh OLD_BIN NEW_BIN RECORDING
#
# Prints a Markdown table: command, OLD s, NEW s, NEW/OLD.  Used to show a
# change costs no speed (e.g. a restructuring: within 5% on fp-1G).  Outputs
# go to /dev/null; a failing run shows 'fail'.  Never part of make check.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 OLD_BIN NEW_BIN RECORDING" >&2; exit 2; }
old=$1 new=$2 rec=$3
runs=${BENCH_RUNS:-3}

# secs BIN ARGS...: wall seconds of one run, or 'fail'
secs() {
	local t0 t1
	t0=$(date +%s.%N)
	"$@" >/dev/null 2>&1 || { echo fail; return; }
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.4f", b - a }' 
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'
}

cat "$rec" >/dev/null	# into the page cache
echo "| $(basename "$rec") | old s | new s | new/old |"
echo "|---|---:|---:|---:|"
for args in "stats" "stats --index" "dump" "script" "top --no-children --sort sym" "top --children"; do
	a=() b=()
	for _ in $(seq "$runs"); do
		# shellcheck disable=SC2086
		a+=("$(secs "$old" $args "$rec")")
		# shellcheck disable=SC2086
		b+=("$(secs "$new" $args "$rec")")
	done
	if printf '%s\n' "${a[@]}" "${b[@]}" | grep -q fail; then
		echo "| \`perfnav $args\` | fail | fail | |"
		continue
	fi
	ma=$(median "${a[@]}") mb=$(median "${b[@]}")
	echo "| \`perfnav $args\` | $ma | $mb | $(awk -v a="$ma" -v b="$mb" 'BEGIN { printf "%.3f", b / a }') |"
done
