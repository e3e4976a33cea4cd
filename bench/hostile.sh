#!/bin/bash
# perfnav on the hostile inputs of the yardstick tree (its hostile/ directory,
# which is not part of this repository): every text subcommand and
# the TUI on each, with its wall time, peak memory, exit status, the first
# diagnostic on stderr, and whether any raw control character reached the
# terminal (stdout, stderr, or the TUI's screen).
#
# usage: bench/hostile.sh
# environment:
#   PERFNAV_YARDSTICKS  the yardstick tree: the directory holding hostile/ (required;
#            a relative path is from the current directory; .ci/run sets it)
#   LIMIT_S  seconds a run may take (default 10), LIMIT_MB peak RSS (default 1024)
#
# Prints a Markdown table and a last line 'hostile: N ok, M not'.  A row is
# ok when the run ended in time, within memory, said something on stderr
# when the input is hostile, and sent no control character but \t and \n.
# Not part of `make check`: the project's own tests build their inputs.
set -uo pipefail

yard=${PERFNAV_YARDSTICKS:-}
[ -n "$yard" ] || { echo "bench/hostile.sh: set PERFNAV_YARDSTICKS to the yardstick tree (its hostile/)" >&2; exit 1; }
[ -d "$yard" ] || { echo "bench/hostile.sh: PERFNAV_YARDSTICKS: no directory $yard" >&2; exit 1; }
yard=$(cd "$yard" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
LIMIT_S=${LIMIT_S:-10}
LIMIT_MB=${LIMIT_MB:-1024}
h=$yard/hostile
bin=$root/perfnav
[ -x "$bin" ] || { echo "bench/hostile.sh: build perfnav first (./build.sh)" >&2; exit 1; }
[ -d "$h" ] || { echo "bench/hostile.sh: no $h (PERFNAV_YARDSTICKS=$yard)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "bench/hostile.sh: tmux is missing" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'tmux -L hostile kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
sh "$h/make-special.sh" "$tmp/maps" > /dev/null

good=0
bad=0

# Does the file hold a control byte other than \t, \n (and \r in the TUI's
# capture), DEL, or a C1 control (as UTF-8, c2 80-9f)?
raw_controls()
{
	LC_ALL=C grep -qaP '[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]|\xc2[\x80-\x9f]' "$1"
}

# must_say: 1 when the input must draw a diagnostic (something refused or
# damaged), 0 when it is valid (escaped names are no problem)
must_say=1

row()
{
	local what=$1 input=$2 secs=$3 mb=$4 rc=$5 said=$6 raw=$7 verdict=ok
	if [ "$rc" = 124 ] || [ "$rc" -ge 128 ] ||
		awk -v s="$secs" -v l="$LIMIT_S" 'BEGIN { exit !(s > l) }' ||
		[ "$mb" -gt "$LIMIT_MB" ] || [ "$raw" = yes ] ||
		{ [ "$must_say" = 1 ] && [ -z "$said" ]; }; then
		verdict=NOT
		bad=$((bad + 1))
	else
		good=$((good + 1))
	fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$input" "$what" "$secs" "$mb" "$rc" \
		"$raw" "${said:0:90}" "$verdict"
}

# run INPUT LABEL ARGS...: one text subcommand
run()
{
	local input=$1 label=$2
	shift 2
	/usr/bin/time -f '%e %M' -o "$tmp/time" timeout -s KILL $((LIMIT_S * 3)) "$bin" "$@" \
		> "$tmp/out" 2> "$tmp/err"
	local rc=$? secs mb raw=no said
	# time's last line (a non-zero exit adds a line before it)
	read -r secs kb < <(tail -1 "$tmp/time" 2>/dev/null) || { secs=$((LIMIT_S * 3)); kb=0; }
	[[ "$secs" =~ ^[0-9.]+$ ]] || { secs=$((LIMIT_S * 3)); kb=0; }
	mb=$((${kb:-0} / 1024))
	if raw_controls "$tmp/out" || raw_controls "$tmp/err"; then raw=yes; fi
	said=$(grep -m1 -v '^$' "$tmp/err" | tr '|' '/')
	row "$label" "$input" "$secs" "$mb" "$rc" "$said" "$raw"
}

# tui INPUT ARGS...: start the TUI in tmux, visit every pane, quit with q
# (its seconds include the 4.4 s this script waits between keys)
tui()
{
	local input=$1
	shift
	local t0 t1 rc secs raw=no said kb
	tmux -L hostile kill-server 2>/dev/null
	t0=$(date +%s.%N)
	tmux -L hostile new-session -d -x 160 -y 40 \
		"/usr/bin/time -f '%M' -o $tmp/tuitime $bin $* 2> $tmp/tuierr; echo \$? > $tmp/tuirc"
	sleep 2
	: > "$tmp/screens"
	for k in 1 2 3 4 5 1; do
		tmux -L hostile send-keys "$k" 2>/dev/null
		sleep 0.4
		tmux -L hostile capture-pane -p -e >> "$tmp/screens" 2>/dev/null
	done
	tmux -L hostile send-keys q 2>/dev/null
	for _ in $(seq 1 $((LIMIT_S * 10))); do
		[ -s "$tmp/tuirc" ] && break
		sleep 0.1
	done
	t1=$(date +%s.%N)
	tmux -L hostile kill-server 2>/dev/null
	rc=$(cat "$tmp/tuirc" 2>/dev/null || echo 124)
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	# capture-pane -e writes the screen's own colours as SGR sequences:
	# take those out, anything else raw is the recording's
	sed -E 's/\x1b\[[0-9;]*m//g' "$tmp/screens" > "$tmp/screens.txt"
	if raw_controls "$tmp/screens.txt" || raw_controls "$tmp/tuierr"; then raw=yes; fi
	said=$(grep -m1 -v '^$' "$tmp/tuierr" | tr '|' '/')
	kb=$(tail -1 "$tmp/tuitime" 2>/dev/null)
	[[ "$kb" =~ ^[0-9]+$ ]] || kb=0
	row "TUI" "$input" "$secs" "$((kb / 1024))" "$rc" "$said" "$raw"
	rm -f "$tmp/tuirc" "$tmp/tuitime"
}

echo "| input | command | seconds | peak MB | exit | raw controls | first line on stderr | verdict |"
echo "|---|---|---:|---:|---:|---|---|---|"
for f in zstd-bomb-3x256M.data callchain-nr-2e61.data escapes-comm-mmap2.data; do
	case $f in escapes-*) must_say=0 ;; *) must_say=1 ;; esac
	for c in stats "stats --index" header dump top "top --tsv" "top --off-cpu" script tree folded \
		annotate "sched timehist"; do
		# shellcheck disable=SC2086
		run "$f" "$c" $c "$h/$f"
	done
	tui "$f" "$h/$f"
done
must_say=1
jit=$h/jit-anon-pid25634.data
for m in fifo tty zero sparse; do
	for c in top script folded annotate; do
		run "jit, map: $m" "$c" "$c" --perfmap-dir "$tmp/maps/$m" "$jit"
	done
	tui "jit, map: $m" --perfmap-dir "$tmp/maps/$m" "$jit"
done
must_say=0
for c in top script folded annotate; do
	run "jit, map: escapes" "$c" "$c" --perfmap-dir "$h/escapes-perfmap" "$jit"
done
echo
echo "hostile: $good ok, $bad not"
