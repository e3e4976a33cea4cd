#!/bin/bash
# Captures the browser's screens that README.md shows, from the bundled demo
# recording (examples/demo/perf.data with its build-id cache, what
# `./build.sh run` opens), by running ./perfnav in a detached tmux session:
#
#   docs/screens/first.txt   the first screen (the hot functions)
#   docs/screens/flame.txt   the flame graph (key 8)
#
# usage: docs/capture.sh [--check] [PERFNAV]   (default: ./perfnav of this tree,
#        which must be built)
# Then paste the files into README.md's code blocks.  With --check it writes
# nothing and fails unless README.md holds both screens as the program draws
# them now (tests/cli.sh runs that).  Needs tmux; takes a few seconds.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
check=false
if [ "${1:-}" = --check ]; then
	check=true
	shift
fi
bin=${1:-$root/perfnav}
[ -x "$bin" ] || { echo "docs/capture.sh: no $bin (build first: ./build.sh)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "docs/capture.sh: tmux is missing" >&2; exit 1; }

sock=perfnav-capture-$$
out=$root/docs/screens
tmp=$(mktemp -d)
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1; rm -rf "$tmp"' EXIT

screen() { tmux -L "$sock" capture-pane -t cap -p; }

# wait_for REGEX: poll the screen until REGEX (grep -E) shows, 20 s at most.
wait_for()
{
	for ((i = 0; i < 200; i++)); do
		screen | grep -qE -- "$1" && return 0
		sleep 0.1
	done
	echo "docs/capture.sh: /$1/ never showed; the screen:" >&2
	screen >&2
	exit 1
}

# The screen without the title's timings (they change from run to run) and
# without trailing blanks.  The browser runs with no keys file or theme of the
# user's (XDG_CONFIG_HOME is an empty directory) and asks no debuginfod server.
keep() { screen | sed -E 's/ +$//; s/symbols in [0-9.]+ s/symbols in 0.01 s/; s/loaded in [0-9.]+ s/loaded in 0.01 s/' > "$1"; }

tmux -L "$sock" -f /dev/null new-session -d -s cap -x 120 -y 26 \
	"env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME='$tmp' DEBUGINFOD_URLS= \
	'$bin' --buildid-dir examples/demo/buildid examples/demo/perf.data; sleep 60"
tmux -L "$sock" set-option -t cap status off >/dev/null
wait_for 'symbols in [0-9.]+ s'
sleep 0.5
keep "$tmp/first.txt"
tmux -L "$sock" send-keys -t cap 8
wait_for 'Flame graph, top-down'
sleep 0.5
keep "$tmp/flame.txt"
tmux -L "$sock" send-keys -t cap Q

if $check; then
	rc=0
	for f in first flame; do
		if ! awk -v f="$tmp/$f.txt" 'BEGIN { while ((getline l < f) > 0) want = want l "\n" }
			/^```/ { if (inb) { if (blk == want) found = 1; inb = 0 } else { inb = 1; blk = "" }; next }
			inb { blk = blk $0 "\n" } END { exit !found }' README.md; then
			echo "docs/capture.sh: README.md does not hold the $f screen as drawn now:" >&2
			cat "$tmp/$f.txt" >&2
			rc=1
		fi
	done
	exit $rc
fi
mkdir -p "$out"
cp "$tmp/first.txt" "$tmp/flame.txt" "$out/"
echo "docs/capture.sh: wrote docs/screens/first.txt and docs/screens/flame.txt"
