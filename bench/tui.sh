#!/bin/bash
# perfnav benchmark of the TUI's start-up: for each recording, the time from
# starting `perfnav FILE` in a terminal (tmux, 160x50) until its first screen
# is drawn (the title line is there: a long load's loading screen), until the
# panes are (their tabs are there), and until every symbol is resolved (the
# title says "symbols in S s"), median of BENCH_RUNS; how long a key (4, the
# header pane) takes to show while symbols resolve; the peak RSS and peak
# anonymous memory (file pages excluded, sampled with the screen); next to
# perf report's time to its first output (perf report --stdio prints nothing
# until it has processed the whole recording, so its time to first output is
# its whole run, measured by bench/run.sh).  Then the flame graph pane's
# times on each recording at 200x60 (bench/flame_bench: its tree, layout,
# and draws), the timeline's (bench/timeline_bench: its lanes and a draw's
# bucket counts) and applying a time scope once symbols are in
# (bench/scope_bench: the recount, the hot rows and the flame graph); each
# made here if it is not built.
#
# The start-up table is without the cache (--no-cache); a second table gives
# the first and the second open with the cache of loaded recordings
# (docs/cache.md) in an empty XDG_CACHE_HOME each round: the first loads,
# resolves and writes the index and the finished hist, the second reads
# them; each with its CPU time (user + sys, the writer thread included),
# since on a shared machine wall times vary with the load, and the peak
# anonymous memory of each (the highest of the runs).
#
# usage: bench/tui.sh [RECORDING...]   (default: fp-1G; made by bench/run.sh)
# environment: BENCH_DIR (default /tmp/perfnav-bench), BENCH_RUNS (default 3),
# BENCH_PANES (default 1; 0: the start-up tables alone), BENCH_CACHE (default
# 1; 0: no cache table).
# Prints a Markdown table.  Never part of `make check`.
set -euo pipefail

cd "$(dirname "$0")/.."
BENCH_DIR=${BENCH_DIR:-/tmp/perfnav-bench}
BENCH_RUNS=${BENCH_RUNS:-3}
recs=("$@")
[ ${#recs[@]} -gt 0 ] || recs=(fp-1G)
command -v tmux >/dev/null || { echo "bench/tui.sh: needs tmux" >&2; exit 1; }
[ -x ./perfnav ] || ./build.sh >&2

sock=perfnav-bench-$$
tmp=$(mktemp -d)
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT

now() { date +%s%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# anon_mb PID: its RssAnon now in MB (bash builtins), 0 if gone.
anon_mb()
{
	local k v rest
	while read -r k v rest; do
		[ "$k" = RssAnon: ] && { echo $((v / 1024)); return; }
	done <"/proc/$1/status" 2>/dev/null || true
	echo 0
}

# one_run FILE [CACHE_HOME]: prints "FIRST_S PANES_S ALL_S RSS_MB ANON_MB KEY_MS CPU_S"
# (FIRST_S: the first screen, the loading screen of a long load; PANES_S:
# the first screen with the panes' tabs)
# or "fail"; with --no-cache, else with XDG_CACHE_HOME=CACHE_HOME.  While
# symbols resolve, 4 is pressed once (the header pane) and KEY_MS is the time
# until it shows (screen polled every ~10 ms; "-" if symbols were in first);
# ALL_S is the title's own "symbols in S s".
one_run()
{
	local f=$1 t0 t1 t2 t3 tk tk1= i screen rss pid= anon=0 a run
	run="./perfnav --no-cache '$f'"
	[ -z "${2:-}" ] || run="env XDG_CACHE_HOME='$2' ./perfnav '$f'"
	rm -f "$tmp/rss"
	tmux -L "$sock" kill-server >/dev/null 2>&1 || true
	t0=$(now)
	tmux -L "$sock" -f /dev/null new-session -d -x 160 -y 50 \
		"/usr/bin/time -f '%M %U %S' -o '$tmp/rss' $run 2>/dev/null; sleep 60"
	t1=
	t3=
	tk=
	for ((i = 0; i < 120000; i++)); do
		screen=$(tmux -L "$sock" capture-pane -p 2>/dev/null || true)
		[ -n "$pid" ] || pid=$(pgrep -n -f "^./perfnav .*$f" || true)
		if [ -n "$pid" ]; then
			a=$(anon_mb "$pid")
			[ "$a" -gt "$anon" ] && anon=$a
		fi
		if [ -z "$t1" ] && grep -q '^ perfnav  ' <<<"$screen"; then
			t1=$(now)
		fi
		if [ -z "$t3" ] && grep -q '^ 1 Hot' <<<"$screen"; then
			t3=$(now)
		fi
		if grep -q 'symbols in [0-9.]* s' <<<"$screen"; then
			# the title's own figure (from perfnav's start): exact however
			# seldom the screen is looked at
			t2=$(grep -o 'symbols in [0-9.]* s' <<<"$screen" | head -1 | awk '{ print $3 }')
			break
		fi
		if [ -n "$t1" ] && [ -z "$tk" ] && grep -q 'symbols [0-9]*%' <<<"$screen"; then
			tk=$(now)
			tmux -L "$sock" send-keys 4
		elif [ -n "$tk" ] && [ -z "$tk1" ] && grep -q '^ header ' <<<"$screen"; then
			tk1=$(now)
			tmux -L "$sock" send-keys 1
		fi
		# every 10 ms until the panes are there and while a key is out, then
		# every 0.2 s: looking costs CPU (tmux, capture-pane, ~10 ms a look),
		# which the browser's two cores would miss (every symbol is the
		# title's own figure, exact however seldom it is looked at)
		if [ -z "$t3" ] || { [ -n "$tk" ] && [ -z "$tk1" ]; }; then
			sleep 0.01
		else
			sleep 0.2
		fi
	done
	[ -n "$t1" ] && [ -n "$t3" ] && [ -n "${t2:-}" ] || { echo fail; return; }
	tmux -L "$sock" send-keys q
	for ((i = 0; i < 3000; i++)); do
		[ -s "$tmp/rss" ] && break
		sleep 0.01
	done
	read -r rss cu cs < <(tail -1 "$tmp/rss" 2>/dev/null || echo "0 0 0")
	echo "$(secs "$t0" "$t1") $(secs "$t0" "$t3") $t2 $(awk -v k="$rss" 'BEGIN { printf "%.0f", k / 1024 }')" \
		"$anon $([ -n "$tk1" ] && awk -v a="$tk" -v b="$tk1" 'BEGIN { printf "%.0f", (b - a) / 1e6 }' || echo -)" \
		"$(awk -v u="${cu:-0}" -v s="${cs:-0}" 'BEGIN { printf "%.2f", u + s }')"
}

echo "| recording | TUI: first screen (s) | TUI: the panes (s) | TUI: every symbol resolved (s) | CPU (s) | key while resolving (ms) | peak RSS (MB) | peak anon (MB) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for r in "${recs[@]}"; do
	f=$BENCH_DIR/rec/$r.data
	[ -s "$f" ] || { echo "bench/tui.sh: no $f (bench/run.sh $r makes it)" >&2; exit 1; }
	cat "$f" >/dev/null
	one_run "$f" >/dev/null # warm-up, untimed
	firsts=() panes=() alls=() keys=() cpus=() rss=0 anon=0
	for ((k = 0; k < BENCH_RUNS; k++)); do
		read -r a p b m n kms c <<<"$(one_run "$f")"
		[ "$a" != fail ] || { echo "| $r | fail | fail | fail | | | | |"; continue 2; }
		cpus+=("$c")
		firsts+=("$a")
		panes+=("$p")
		alls+=("$b")
		[ "$kms" != - ] && keys+=("$kms")
		[ "$m" -gt "$rss" ] && rss=$m
		[ "$n" -gt "$anon" ] && anon=$n
	done
	echo "| $r ($(du -h "$f" | cut -f1)) | $(printf '%s\n' "${firsts[@]}" | median) |" \
		"$(printf '%s\n' "${panes[@]}" | median) |" \
		"$(printf '%s\n' "${alls[@]}" | median) | $(printf '%s\n' "${cpus[@]}" | median) |" \
		"$( ((${#keys[@]})) && printf '%s\n' "${keys[@]}" | median || echo -) | $rss | $anon |"
done

if [ "${BENCH_CACHE:-1}" = 1 ]; then
	echo
	echo "| recording | first open: the panes (s) | every symbol (s) | CPU (s) | peak anon (MB) | second open: the panes (s) | every symbol (s) | CPU (s) | peak anon (MB) | second/first, every symbol | second/first, CPU |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
	for r in "${recs[@]}"; do
		f=$BENCH_DIR/rec/$r.data
		s1=() a1=() c1=() s2=() a2=() c2=() n1=0 n2=0
		for ((k = 0; k < BENCH_RUNS; k++)); do
			rm -rf "$tmp/xdg"
			mkdir -m 700 "$tmp/xdg"
			read -r a p b m n kms c <<<"$(one_run "$f" "$tmp/xdg")"
			[ "$a" != fail ] || { echo "| $r | fail | | | | | | | | | |"; continue 2; }
			s1+=("$p") a1+=("$b") c1+=("$c")
			[ "$n" -gt "$n1" ] && n1=$n
			read -r a p b m n kms c <<<"$(one_run "$f" "$tmp/xdg")"
			[ "$a" != fail ] || { echo "| $r | | | | | fail | | | | | |"; continue 2; }
			s2+=("$p") a2+=("$b") c2+=("$c")
			[ "$n" -gt "$n2" ] && n2=$n
		done
		m1=$(printf '%s\n' "${a1[@]}" | median) m2=$(printf '%s\n' "${a2[@]}" | median)
		u1=$(printf '%s\n' "${c1[@]}" | median) u2=$(printf '%s\n' "${c2[@]}" | median)
		echo "| $r | $(printf '%s\n' "${s1[@]}" | median) | $m1 | $u1 | $n1 |" \
			"$(printf '%s\n' "${s2[@]}" | median) | $m2 | $u2 | $n2 |" \
			"$(awk -v a="$m1" -v b="$m2" 'BEGIN { printf "%.2fx", b / a }') |" \
			"$(awk -v a="$u1" -v b="$u2" 'BEGIN { printf "%.2fx", b / a }') |"
	done
	rm -rf "$tmp/xdg"
fi

echo
[ "${BENCH_PANES:-1}" = 1 ] || exit 0
for b in flame_bench timeline_bench scope_bench; do
	[ -x bench/$b ] || make -s bench/$b >&2
done
for r in "${recs[@]}"; do
	bench/flame_bench "$BENCH_DIR/rec/$r.data" 200 60
	bench/timeline_bench "$BENCH_DIR/rec/$r.data"
	bench/scope_bench "$BENCH_DIR/rec/$r.data" 200
done
