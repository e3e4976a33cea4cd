#!/bin/bash
# End-to-end tests of the TUI: run perfnav in a detached tmux session of a
# fixed size on the project's fixtures, send keys, and assert what a user
# sees in capture-pane: the title, the hot functions (the hottest symbol on
# the first screen once symbols are resolved, call paths, the samples of a
# symbol, zooms (by file of a merged recording too), } and { between events, Tab between panes), the event list, a process's threads
# and their hot functions after drilling in, the first bytes of a record in
# its hex view (a directory-mode record's data.N file), the events filter's
# unknown keys and r on its time order, the header's hostname, the help
# screen, resizing (also below 80x24), the recording on standard input, and
# that quitting restores the terminal.
# Skips (77) without tmux.  Run by make check (PERFNAV = the built program);
# under ASan, leaks and errors in the TUI fail the test.
set -uo pipefail

command -v tmux >/dev/null 2>&1 || { echo "tmux not installed: skipped"; exit 77; }

top=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
bin=${PERFNAV:-$PWD/perfnav}
[ -x "$bin" ] || bin=$top/perfnav
data=$top/tests/data
tmp=$(mktemp -d)
# the cache of loaded recordings goes to the temporary directory, not the home (perfnav cache)
export XDG_CACHE_HOME="$tmp/cache"
sock=perfnav-e2e-$$
nsess=0
pass=0
fail=0
# Slower under sanitizers: generous timeouts.
timeout=${TUI_E2E_TIMEOUT:-15}

cleanup()
{
	tmux -L "$sock" kill-server >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); echo "ok: $*"; }
ko() {
	fail=$((fail + 1))
	echo "FAIL: $*"
	echo "----- screen"
	tmux -L "$sock" capture-pane -t e2e -p 2>/dev/null
	echo "-----"
}

screen() { tmux -L "$sock" capture-pane -t e2e -p; }

# wait_for REGEX [what]: poll the screen until REGEX (grep -E) shows.
wait_for()
{
	local re=$1 what=${2:-$1} i
	for ((i = 0; i < timeout * 10; i++)); do
		if screen | grep -qE -- "$re"; then
			ok "$what"
			return 0
		fi
		sleep 0.1
	done
	ko "$what (waited for /$re/)"
	return 1
}

# wait_gone REGEX what: poll until REGEX is no longer on screen.
wait_gone()
{
	local re=$1 what=$2 i
	for ((i = 0; i < timeout * 10; i++)); do
		if ! screen | grep -qE -- "$re"; then
			ok "$what"
			return 0
		fi
		sleep 0.1
	done
	ko "$what (/$re/ still there)"
	return 1
}

keys() { tmux -L "$sock" send-keys -t e2e "$@"; sleep 0.2; }

# start ARGS...: a fresh 100x30 session running perfnav ARGS; afterwards the
# shell prints the exit status and whether the tty is sane again.
start()
{
	tmux -L "$sock" kill-server >/dev/null 2>&1
	# a server of its own per run: a dying one must not take the next command
	nsess=$((nsess + 1))
	sock=perfnav-e2e-$$-$nsess
	local cmd="cd '$tmp' && env LANG=C.UTF-8 LC_ALL=C.UTF-8 $*"
	cmd+=" 2>'$tmp/stderr'; echo \"EXIT=\$?\";"
	cmd+=" if stty -a | grep -qE '(^| )icanon' && stty -a | grep -qE '(^| )echo( |;|\$)'; then echo TTY-SANE; else echo TTY-RAW; fi;"
	cmd+=" sleep 600"
	tmux -L "$sock" -f /dev/null new-session -d -s e2e -x 100 -y 30 "$cmd"
	tmux -L "$sock" set-option -t e2e status off >/dev/null
}

# finish: quit with Q (from any view) and check the exit status, the terminal, stderr.
finish()
{
	local what=$1 want=${2:-0}
	keys Q
	if wait_for "EXIT=$want" "$what: exits with $want"; then
		wait_for "TTY-SANE" "$what: terminal restored (echo, icanon)"
		wait_gone "perfnav  " "$what: the TUI is gone from the screen (alternate screen left)"
	fi
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$tmp/stderr" 2>/dev/null; then
		ko "$what: sanitizer report"
		cat "$tmp/stderr"
	fi
}

# ---- plain.data: title, events, hex, header, help, resize ----
start "'$bin' '$data/plain.data'"
wait_for "perfnav  plain\.data \| perf 6\.1\.187 \| cpu-clock" "title: file, perf version, event"
wait_for "^ 1 +2 +3 +4 +5 +6 +7 +8 +9 +0 +I *$" "tab line (at 100 columns, tabs are their keys: 0 the tenth, I the Summary)"
wait_for "^ hot \[1/" "the hot functions first"
wait_for "cpu-clock \| [0-9]+ samples \| symbols in [0-9.]+ s" "title: symbols resolved"
wait_for "symbols in [0-9.]+ s \| span [0-9.]+ s" "title: every field labelled (span)"
keys 3
wait_for "PERF_RECORD_SAMPLE\(IP" "events list shows PERF_RECORD_SAMPLE rows"
wait_for "^ *- +- +- +PERF_RECORD_ID_INDEX nr: 2" "first record on the first row"
wait_for "^ events \[1/" "status line: where we are"
keys x
wait_for "PERF_RECORD_ID_INDEX at 0x108, 80 bytes" "x: hex view of the record at 0x108"
wait_for "^00000108  45 00 00 00 00 00 50 00" "hex: the record's first bytes"
wait_for "0000 header\.type" "hex: decoded fields beside the bytes"
wait_for "events > hex 0x108" "status: the drill-down path"
keys Down Down
wait_for "^header\.size = 80" "moving through fields selects header.size"
keys x
wait_for "PERF_RECORD_ID_INDEX nr: 2" "x in hex: back to the decoded record"
wait_gone "events > hex" "the path is back to events"
keys 4
wait_for "HOSTNAME +0x[0-9a-f]+ +[0-9]+ ok +vm" "header pane: HOSTNAME vm with offset, size, status"
wait_for "Events \(attrs\)" "header pane: the attrs"
keys / B U I L D _ I D
keys Enter +
wait_for "build id +d4aec36f" "header pane: the build ids listed"
keys / d 4 a e c
keys Enter =
wait_for "Value: d4aec36f57664181c7762a6851ef1dd35510a091 /tmp/perfnav-fixtures/cpu" \
	"= shows the selected row whole: a build id's 40 digits and its file"
keys x
wait_gone "the row's full text" "any key closes the row's text"
keys '?'
wait_for "q +quit +leave the view" "help generated from the key table"
wait_for "Esc, Backspace, DEL, C-h, Left +back " "help: the Keys column holds the longest keys whole"
keys G
wait_for "s +time-mark +timeline, flame scope" "help lists pane maps: the last, the flame scope's"
keys / h e x Space k e y s Enter
wait_for "x, Enter +record" "help lists pane maps"
keys Escape
wait_gone "quit perfnav" "Esc closes the help"
keys 3 f
keys -l "type:COMM"
keys Enter
wait_for "filter 'type:COMM': [0-9]+ rows" "filter by type"
wait_for "PERF_RECORD_COMM exec: cpu" "filtered list shows COMM records"
keys F
wait_for "filter cleared" "F clears the filter"
keys /
keys -l "EXIT"
keys Enter
wait_for "PERF_RECORD_EXIT" "incremental search finds a record"
tmux -L "$sock" resize-window -t e2e -x 60 -y 20
wait_for "needs at least 80x24 \(now 60x20\)" "below 80x24: a clear message"
tmux -L "$sock" resize-window -t e2e -x 120 -y 40
wait_for "perfnav  plain\.data" "resized larger: redrawn"
tmux -L "$sock" resize-window -t e2e -x 80 -y 24
wait_for "^ perfnav  plain\.data \| .*[0-9]+ samples \| span [0-9.]+ s" \
	"80 columns: the title keeps the samples and span"
if screen | head -1 | grep -q "loaded in\|records"; then
	ko "80 columns: the load time and record count go first ($(screen | head -1))"
else
	ok "80 columns: the load time and record count go first"
fi
# the shared objects at 80 columns (plain.data's ld.so has a sample of its own)
keys 1 s
wait_for "^Overhead +Samples +Shared Object +Path *$" "s: the shared objects"
wait_for " /usr/lib/x86_64-lin.+ld-linux-x86-64\.so\.2 *$" "80 columns: a long path cut in its middle"
keys ]
wait_for "^Overhead +Samples +Shared Object +Path \+[0-9]+ *$" "]: the Path column scrolled (the header says by how much)"
wait_for "x86_64-linux-gnu/ld-linux-x86-64\.so\.2 *$" "]: the path's end in view, whole"
keys [
wait_for "^Overhead +Samples +Shared Object +Path *$" "[: scrolled back"
keys s
tmux -L "$sock" resize-window -t e2e -x 100 -y 30
wait_for "perfnav  plain\.data" "resized back"
finish "plain.data"

# ---- fp.data: the hottest symbol, its callers, its samples, zooms ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "perfnav  fp\.data \| perf 6\.1\.187 \| cpu-clock \| 186 samples \| symbols in" \
	"fp.data: symbols resolved (title)"
wait_for "^Children +Self +Samples Command +Shared Object +Symbol" "perf report's columns"
wait_for "^ +98\.92% +0\.00% +0 cpu +libc\.so\.6 +. \[\.\] __libc_start_call_main" \
	"children first, as perf report"
wait_for "^ +74\.19% +74\.19% +138 cpu +cpu +. \[\.\] mix_one" \
	"the hottest symbol on the first screen"
wait_for "Samples: 186 of event 'cpu-clock'" "the event line"
keys Down Down +
wait_for "\(no callees; b: callers\)" "+ expands a symbol into its call paths: callees first"
keys b
wait_for "^ +74\.19% +138 +cpu +. <- \[\.\] main" "b: its callers, main"
keys Down Enter
wait_for "no sample ends in \[\.\] main itself: it is on these paths as a caller" \
	"Enter on a caller no sample ends in: said, as for a top-level row (no empty list)"
keys Up
keys C
wait_gone "<- \[\.\] main" "C collapses everything"
keys Enter
wait_for "hot > samples mix_one \[1/138 filtered\]" "Enter: the samples of the symbol"
wait_for "25671/25671 cpu +mix_one\+0x[0-9a-f]+ \(cpu\)  PERF_RECORD_SAMPLE\(IP, 0x2\)" \
	"as an event list, each sample led by its symbol as perf script prints it"
keys x
wait_for "PERF_RECORD_SAMPLE at 0x[0-9a-f]+, 80 bytes" "x: a sample's hex view"
wait_for "samples mix_one > hex 0x" "the path: hot > samples > hex"
keys Escape
wait_for "hot > samples mix_one \[" "Esc: back to the samples"
keys f C-u
keys -l "type:SAMPLE sym:fill"
keys Enter
wait_for "hot > events 'type:SAMPLE sym:fill' \[1/24 filtered\]" \
	"a new filter: the path names it, not the old one"
keys F
wait_for "hot > events \[[0-9]+/[0-9]+\]  filter cleared" "F: the path says the filter is gone"
keys Escape
wait_for "^ hot \[3/19\]" "back to the hot functions, on the same row"
keys d
wait_for "^ hot > dso cpu \[1/6\]" "d zooms the scope into the DSO (its samples, as top --dsos cpu)"
wait_for "perfnav  fp\.data \[dso cpu\] " "the zoom in the title"
keys Down Down d
wait_for "the scope has dso cpu already" "d again on a row of cpu: said, no second step"
keys Escape
wait_for "^ hot \[" "Esc takes the zoom back"
wait_gone "\[dso cpu\]" "the title without the zoom"
keys s
wait_for "^ +98\.92% +184 +cpu +/tmp/perfnav-fixtures/cpu" "s: the shared objects"
wait_for "^Overhead +Samples +Shared Object +Path *$" "s: the shared objects' own headers (no Children, Command, Symbol)"
wait_gone "ld-linux-x86-64" "s: no DSO without samples of its own (ld.so is only a caller)"
keys Escape 2 Enter
wait_for "procs > pid 25671 cpu" "processes: into the process"
keys Enter
wait_for "procs > pid 25671 cpu > hot" "Enter again on the zoomed process: its hot functions"
wait_for "74\.19% +74\.19% +138 cpu +cpu +. \[\.\] mix_one" "a process's symbols after drilling in"
keys Home Down Down a
wait_for "5 .* a Annotate" "a: the annotate view of the selected symbol"
wait_for "^ Percent +Samples +Address +Instruction" "annotate's columns"
wait_for "mix_one in cpu, cpu-clock: 138 samples of one process" "the function, its samples"
wait_for "^ +23\.19% +32 +1188 +lea +\(%rcx,%rdx,1\),%eax" "perf annotate's hottest instruction"
wait_for "annotate mix_one \[[0-9]+/[0-9]+\]" "the path names it; the cursor on the hottest"
wait_for "^ +cpu\.c:[0-9]+" "source lines between the instructions"
keys Enter
wait_for "annotate mix_one > samples at 1188 \[1/32 filtered\]" "Enter: the samples at the instruction"
wait_for "25671/25671 cpu +mix_one\+0x14 \(cpu\)  PERF_RECORD_SAMPLE" "each at mix_one+0x14"
keys Escape
wait_for "annotate mix_one \[[0-9]+/[0-9]+\]" "Esc: back to the annotate view"
keys Escape
wait_for "procs > pid 25671 cpu > hot \[3/" "Esc: back to the same row"
finish "fp.data"

# ---- multi.data: } and { switch events, Tab panes ----
start "'$bin' --buildid-dir '$data/buildid' '$data/multi.data'"
wait_for "Samples: 92 of event 'cpu-clock' \(1 of 2, }: next\)" "multi.data: the first event"
wait_for "^ +71\.74% +66 cpu +cpu +\[\.\] mix_one" "cpu-clock's rows (self only: one column)"
keys '}'
wait_for "event 2 of 2: task-clock" "}: the next event"
wait_for "Samples: 92 of event 'task-clock' \(2 of 2" "task-clock's table"
wait_for "^ +75\.00% +69 cpu +cpu +\[\.\] mix_one" "task-clock's rows"
keys '{'
wait_for "Samples: 92 of event 'cpu-clock'" "{: back to the first event"
keys Tab
wait_for "^ procs \[" "Tab: the next pane, in the hot functions too"
keys 1
wait_for "Samples: 92 of event 'cpu-clock'" "1: back to the hot functions"
keys 2
wait_for "^ procs \[" "number keys still switch panes"
finish "multi.data"

# ---- the Summary (I): the recording at a glance, each row a jump ----
start "'$bin' --buildid-dir '$data/buildid' '$data/multi.data'"
wait_for "symbols in [0-9.]+ s" "summary: symbols resolved"
keys I
wait_for "^ summary \[1/" "I: the Summary"
wait_for "^ +Samples +184 " "summary: the samples, as perf report --stats counts them"
wait_for "^ +Lost samples +0 " "summary: no samples lost"
wait_for "^ +cpu-clock +92 +50\.00% period 92000000" "summary: an event, its samples and period"
wait_for "^. Hot functions +task-clock" "summary: a section of hot functions per event"
keys / r e d u c e Enter
wait_for "^ +reduce +6 +6\.52% cpu" "summary: cpu-clock's third hottest function"
keys Enter
wait_for "^ summary > hot reduce \[3/4\]" "summary: Enter lands on the function in the hot functions"
wait_for "Samples: 92 of event 'cpu-clock'" "summary: in its event"
keys Escape
wait_for "^ summary \[" "summary: Esc back to the summary"
keys n
keys Enter
wait_for "Samples: 92 of event 'task-clock'" "summary: a task-clock function opens its event"
wait_for "^ summary > hot reduce \[3/4\]" "summary: and lands on it there too"
keys Escape
keys / 2 6 1 6 7 Enter
keys Enter
wait_for "\[task-clock > pid 26167 cpu\]" "summary: Enter on a process zooms the hot functions into it"
wait_for "^ summary > pid 26167 cpu \[1/4\]" "summary: the zoom is a step of the path"
keys Escape
wait_gone "pid 26167 cpu\]" "summary: Esc takes the zoom back"
keys Escape
wait_gone "\[task-clock" "summary: and then the event its function chose"
finish "summary"

# ---- start options: a scope and the table's keys, as perfnav top gives them ----
want=$("$bin" top --time 10%/3 --comms forkexec --buildid-dir "$data/buildid" "$data/fork.data" |
	awk '/\[\.\] spin$/ { gsub(/\./, "\\.", $1); gsub(/\./, "\\.", $2); print "^ +" $1 " +" $2 " +" $3 " forkexec .*\\[\\.\\] spin"; exit }')
start "'$bin' --time 10%/3 --comms forkexec --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "\[time 10%/3, comms forkexec\]" "--time/--comms: the scope in the title"
wait_for "$want" "--time/--comms: spin's row as perfnav top --time --comms prints it"
finish "start scope"
start "'$bin' --sort sym --no-children -g callee --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "^Overhead +Samples Symbol" "--sort sym --no-children: those columns only"
wait_for "^ +74\.19% +138 +. \[\.\] mix_one" "--sort sym: mix_one's row"
keys +
wait_for "<- \[\.\] main" "-g callee: the paths go to the callers"
finish "start keys"
start "'$bin' --time 1%-x '$data/fp.data'"
wait_for "EXIT=2" "a bad --time: usage error"
grep -q "bad value '1%-x' for --time" "$tmp/stderr" && ok "--time's message on stderr" || ko "--time's message on stderr"

# ---- pipe.data: process -> its threads -> a thread's events -> hex ----
start "'$bin' '$data/pipe.data'"
wait_for "perfnav  pipe\.data" "pipe.data opens"
keys 2
wait_for "PID/TID +Comm +Samples" "processes pane"
wait_for "25943 +threads +231 +100\.00" "the process with its samples"
keys Enter
wait_for "procs > pid 25943 threads" "Enter drills into the process"
wait_for "25943/25945 +threads +58 " "its threads after drilling in"
wait_for "25943/25947 +threads" "all of its threads"
keys Down Down Enter
wait_for "procs > pid 25943 threads > thread 25945 threads" "Enter on a thread: its hot functions"
wait_for "Samples: 231 of event 'cpu-clock'" "the hot functions of the thread"
wait_for "25\.11% +0\.00% +0 threads +libc\.so\.6 +. \[\.\] start_thread" "the thread's rows only"
keys Escape v
wait_for "events tid 25945" "v on a thread: its events"
wait_for "25943/25945 threads +.*\(threads\)  PERF_RECORD_SAMPLE" "only that thread's records"
keys Enter
wait_for "PERF_RECORD_SAMPLE at 0x" "Enter on a record: its hex view"
keys Escape
wait_for "events tid 25945" "Esc goes back"
keys Left
wait_for "procs > pid 25943 threads \[" "Left goes back again"
keys BSpace
wait_for "^ procs \[" "Backspace back to the root"
finish "pipe.data"

# ---- zstd.data: a record from a COMPRESSED container ----
start "'$bin' '$data/zstd.data'"
wait_for "perfnav  zstd\.data" "zstd.data opens"
keys 3 f
keys -l "type:SAMPLE"
keys Enter x
wait_for "decompressed from PERF_RECORD_COMPRESSED at 0x" "hex view says where decompressed bytes came from"
finish "zstd.data"

# ---- dir.data (perf record --threads): a record's data.N file; the events filter and r ----
start "'$bin' '$data/dir.data'"
wait_for "perfnav  dir\.data" "dir.data opens"
keys 3 f
keys -l "type:SAMPLE tid:26124 foo:bar"
keys Enter
wait_for "unknown filter key 'foo:', not used \(keys: type: pid: " "an unknown filter key is said"
wait_for "events \[1/62 filtered\]" "and left out: tid 26124's 62 samples"
keys x
wait_for "PERF_RECORD_SAMPLE in data\.1 at 0, 72 bytes" "hex: a directory-mode record names its data.N file"
wait_for "events > hex data\.1 at 0" "hex: the path names the file too"
keys x F
wait_for "filter cleared" "F clears the filter"
keys r
wait_for "sorted by Time, descending" "r reverses the events' own (time) order"
keys f
keys -l "event:#1 type:SAMPLE"
keys Enter
wait_for "filter 'event:#1 type:SAMPLE': 227 rows" "event:#1 is the first (the only) event"
finish "dir.data"

# ---- standard input: curses on /dev/tty ----
start "cat '$data/plain.data' | '$bin' -"
wait_for "perfnav  \(stdin\)" "recording from standard input"
keys 3 j
wait_for "events \[2/" "keys work with the recording on stdin"
finish "stdin"

# ---- a long load: its own screen at once, which answers its keys ----
# (the recording's bytes held back 5 s: the load waits for them; under load, time enough
# for the screen to be seen)
printf '%s\n' "head -c 4096 '$data/plain.data'; sleep 5; tail -c +4097 '$data/plain.data'" > "$tmp/slow.sh"
slow="sh '$tmp/slow.sh' | '$bin' -"
start "$slow"
wait_for "perfnav  \(stdin\) \| loading \| [0-9.]+ MiB \| [0-9.]+ s" "a load that takes a while shows a screen of its own at once"
wait_for "The panes come once every record is indexed\.  q: stop and quit" "which says what comes and how to leave"
tmux -L "$sock" resize-window -t e2e -x 30 -y 5
wait_for "^ perfnav  \(stdin\) \| loading *$" "5 lines of 30 columns: the title keeps its row, the bytes and seconds go first"
tmux -L "$sock" resize-window -t e2e -x 100 -y 30
keys 3	# the events pane's key: the loading screen takes it, nothing is left for later
wait_for "perfnav  \(stdin\) \| perf 6\.1\.187" "the panes come once it is loaded"
wait_for "^ hot \[1/" "the hot functions first, as after a quick load (a key pressed while loading is not kept)"
finish "a long load"
start "$slow"
wait_for "perfnav  \(stdin\) \| loading" "the loading screen again"
keys q
if wait_for "EXIT=0" "q on the loading screen stops the load and quits"; then
	wait_for "TTY-SANE" "q while loading: terminal restored"
	if [ -s "$tmp/stderr" ]; then
		ko "q while loading: nothing to say on stderr, got: $(head -c 300 "$tmp/stderr")"
	else
		ok "q while loading: nothing said on stderr"
	fi
fi
# the same with the recording named by its path (a FIFO, slow to read) and the cache on
mkfifo "$tmp/slow.fifo"
start "'$bin' '$tmp/slow.fifo'"
timeout 20 sh "$tmp/slow.sh" > "$tmp/slow.fifo" &
wait_for "perfnav  slow\.fifo \| loading" "a path slow to read: the loading screen"
keys q
wait_for "EXIT=0" "q there stops the load and leaves (no cache entry to look at)"
wait
# diff mode: NEW slow to read gets the loading screen too
start "'$bin' '$data/plain.data' '$tmp/slow.fifo'"
timeout 20 sh "$tmp/slow.sh" > "$tmp/slow.fifo" &
wait_for "perfnav  slow\.fifo \| loading" "diff mode: NEW slow to read, its loading screen"
keys q
wait_for "EXIT=0" "diff mode: q there leaves"
wait

# ---- a damaged recording opens and shows what is valid ----
head -c 5000 "$data/plain.data" > "$tmp/cut.data"
start "'$bin' '$tmp/cut.data'"
wait_for "cut\.data \[damaged\]" "a truncated file opens, marked damaged"
keys 3
wait_for "PERF_RECORD_" "its valid records are listed"
keys 4
wait_for "Diagnostics .*damaged +[1-9]" "the header pane lists the diagnostics first"
wait_for "error +0x1380 .*runs pas" "each with its offset"
finish "damaged"

# ---- a DSO path that is a FIFO (core/safefile.h): refused and said, q still quits ----
mkdir -p "$tmp/symfs/tmp/perfnav-fixtures"
mkfifo "$tmp/symfs/tmp/perfnav-fixtures/cpu"
start "'$bin' --buildid-dir /nonexistent --kallsyms /dev/null --symfs '$tmp/symfs' '$data/fp.data'"
wait_for "cpu refused: is a FIFO, not a regular file; see the header pane" \
	"a FIFO DSO path: refused, said on the status line"
wait_for "symbols in [0-9.]+ s" "symbols resolved all the same"
keys 4
wait_for "Refused files +refused +1 file not read for symbols" "header pane: the refused files first"
wait_for "cpu +refused +is a FIFO, not a regular file \\(/tmp/" "header pane: the file and its reason"
finish "refused FIFO"
if grep -qF "perfnav: $tmp/symfs/tmp/perfnav-fixtures/cpu: refused: is a FIFO, not a regular file" \
	"$tmp/stderr"; then
	ok "refused FIFO: said on stderr after the TUI ends"
else
	ko "refused FIFO: not on stderr"; cat "$tmp/stderr"
fi

# ---- themes and NO_COLOR ----
start "NO_COLOR=1 '$bin' --theme high-contrast '$data/fork.data'"
wait_for "perfnav  fork\.data" "NO_COLOR with a theme file"
# an explicit --theme wins over NO_COLOR: its colours are drawn (issue 16's trial)
if tmux -L "$sock" capture-pane -t e2e -p -e | grep -qE $'\033\\[([0-9;]*;)?(3[0-7]|38;5;[0-9]+|9[0-7])[;m]'; then
	ok "NO_COLOR with --theme: the theme's colours"
else
	ko "NO_COLOR with --theme: no colour drawn"
fi
finish "NO_COLOR"
start "NO_COLOR=1 '$bin' '$data/fork.data'"
wait_for "perfnav  fork\.data" "NO_COLOR alone"
if tmux -L "$sock" capture-pane -t e2e -p -e | grep -qE $'\033\\[([0-9;]*;)?(3[0-7]|38;5;[0-9]+|9[0-7])[;m]'; then
	ko "NO_COLOR alone: colours drawn"
else
	ok "NO_COLOR alone: no colour"
fi
finish "NO_COLOR alone"
start "'$bin' --theme '$top/themes/light.theme' '$data/fork.data'"
wait_for "perfnav  fork\.data" "--theme PATH"
finish "light theme"
if "$bin" --theme no-such-theme "$data/plain.data" > /dev/null 2> "$tmp/err"; then
	ko "unknown theme accepted"
elif grep -q "theme 'no-such-theme' not found" "$tmp/err"; then
	ok "unknown theme: an error"
else
	ko "unknown theme: message"; cat "$tmp/err"
fi
if "$bin" "$tmp/nonexistent.data" > /dev/null 2> "$tmp/err"; then
	ko "missing file accepted"
else
	ok "missing file: exit status $?"
fi

# ---- fp.data: a symbol's call paths in either order, a sample's stack ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "symbols in [0-9.]+ s" "call paths: symbols resolved"
keys Down e
wait_for "^ +74\.19% +74\.19% +138 +cpu +. +-> \[\.\] mix_one" \
	"e on main: its callees, each with the samples of its own path"
wait_for "^ +4\.30% +4\.30% +8 +cpu .*-> \[\.\] mix$" "main's other callee"
wait_for "\| call paths: callees, % of event" "the event line names the order"
keys b
wait_for "call paths towards the callers \(perf's callee order; b: callees\)" "b: the callers"
wait_for "^ +78\.49% +146 +libc\.so\.6 .*<- \[\.\] __libc_start_call_main" \
	"main's caller, with main's 146 samples"
wait_gone "-> \[\.\] mix_one" "no callee left"
keys p
wait_for "^ +100\.00% +146 +libc\.so\.6 .*<- \[\.\] __libc_start_call_main" \
	"p: percentages of the symbol's total"
wait_for "\| call paths: callers, % of symbol" "the event line says so"
keys b
wait_for "^ +94\.52% +94\.52% +138 +cpu .*-> \[\.\] mix_one" "b again: callees, of main's total"
keys 3 f
keys -l "type:SAMPLE sym:mix_one"
keys Enter
wait_for "filter 'type:SAMPLE sym:mix_one': 138 rows" "the samples of mix_one"
keys +
wait_for "^ +[0-9a-f]+ +mix_one\+0x[0-9a-f]+ \(/tmp/perfnav-fixtures/cpu\)$" \
	"+ on a sample: its stack, as perf script prints it"
wait_for "^ +[0-9a-f]+ +__libc_start_call_main\+0x[0-9a-f]+ \(/usr/lib/" \
	"down to its outermost frame"
keys Down Down Enter
wait_for "events > hot main \[2/" "Enter on a frame: its function in the hot functions"
keys Escape Up a
wait_for "mix_one in cpu, cpu-clock: 138 samples" "a on a frame: its function's annotate view"
keys Escape c
wait_gone "^ +[0-9a-f]+ +mix_one\+0x" "c closes the stack"
finish "call paths and stacks"

# ---- call trees: top-down and bottom-up, transforms undone with Esc ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "186 samples \| symbols in" "call trees: symbols resolved"
keys 6
wait_for "^Children +Self +Samples Shared Object +Function" "top-down: its columns"
wait_for "^ +98\.92% +0\.00% +184 libc\.so\.6 +. __libc_start_call_main" \
	"top-down: the outermost caller first, with the samples through it"
wait_for "^ +74\.19% +74\.19% +138 cpu +mix_one" "the hottest path open down to mix_one"
wait_for "^ +0\.54% +0\.00% +1 ld-linux.* . _dl_start_user" "other paths closed"
wait_for "Top-down: 186 of 186 samples of 'cpu-clock'" "the line under the tree"
keys End Up Right
wait_for "^ +0\.54% +0\.00% +1 ld-linux.* . _dl_sysdep_start" "Right expands a node"
keys Home Down o
wait_for "perfnav  fp\.data \[focus main\] \| .*samples" "o: focus on main, said in the title"
wait_for "^ +78\.49% +0\.00% +146 cpu +. main" "main is the root, with all its samples (a share of the event's)"
wait_for "^ topdown > focus main \[" "the transform is a step of the history"
keys Down D
wait_for "\[focus main > drop mix_one\]" "D drops mix_one's samples"
wait_for "Top-down: 8 of 186 samples" "mix's samples left"
keys Escape
wait_for "perfnav  fp\.data \[focus main\] \| .*samples" "Esc undoes the drop"
wait_for "^ +74\.19% +74\.19% +138 cpu +mix_one" "mix_one is back (as the hot functions give it)"
keys Escape
wait_for "perfnav  fp\.data \| perf" "Esc again: no transform left"
wait_for "^ +98\.92% +0\.00% +184 libc\.so\.6 +. __libc_start_call_main" "the whole tree again"
keys 7
wait_for "^ +74\.19% +74\.19% +138 cpu +. mix_one" "bottom-up: where samples were taken, first, their Self its own"
wait_for "^ +74\.19% +138 cpu +. main" "its caller below it, open, no Self"
wait_for "Bottom-up: 186 of 186 samples" "the bottom-up line"
keys m
wait_for "\[merge mix_one\]" "m merges mix_one into its callers"
wait_for "^ +74\.19% +74\.19% +138 cpu {16}. main" "main takes its samples: a root now"
keys T
wait_for "bottomup > merge mix_one > top-down main" "T: main in the top-down tree"
wait_for "^ +78\.49% +74\.19% +146 cpu +. main" "main selected, mix_one's samples its own now"
keys Escape Escape
wait_gone "\[merge mix_one\]" "back out of both steps"
wait_for "undone: merge mix_one" "the step undone is said"
wait_for "^ bottomup \[" "in the bottom-up tree again"
keys '?' /
keys -l "no-recursion"
keys Enter
wait_for "R +no-recursion +call paths: collapse direct recursion" "help lists the transform keys"
keys Escape
finish "call trees"
# ---- the flame graph (tab 8): move, zoom in and out, search, flip, 80x24, ASCII ----
start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/fp.data'"
wait_for "symbols in [0-9.]+ s" "flame: symbols resolved"
keys 8
wait_for "Flame graph, top-down \(b\) \| cpu-clock \| 186 samples" "flame: 8 opens it"
wait_for "^▏all *$" "flame: the whole at full width on the top row"
wait_for "^▏main +▏fill +▏reduce *$" "flame: main, fill, reduce side by side, widest first"
wait_for "^▏mix_one +▏mix *$" "flame: main's callees below it"
wait_for "^ all \| total 100\.00%  self 0\.00% \| 186 samples, 0 self" "flame: the selection's line"
wait_for "^ flame \[1/7\]" "flame: the status line counts frames"
keys j j
wait_for "^ main  cpu \(user\) \| total 78\.49%  self 0\.00% \| 146 samples, 0 self" \
	"flame: j j selects main (function, DSO, kind, total, self, samples)"
keys l
wait_for "^ fill  cpu \(user\) \| total 12\.90%" "flame: l goes to the frame beside"
keys Enter
wait_for "zoom 1: fill \(Esc: out\)" "flame: Enter zooms"
wait_for "^▏fill *$" "flame: the zoomed frame at full width"
wait_for "12\.90%  self 12\.90% \| 24 samples, 24 self \| 100\.00% of the zoom" \
	"flame: its share of the zoom"
keys Escape
wait_gone "zoom 1:" "flame: Esc zooms back out"
wait_for "^▏main +▏fill +▏reduce *$" "flame: the whole graph again"
wait_for "^ fill  cpu" "flame: the frame zoomed into stays selected"
keys k
wait_for "^ [^ ]*__libc_start_call_main|^ 0x[0-9a-f]+  libc" "flame: k goes up to the caller"
keys / m i x Enter
wait_for "/mix: 2 frames, 78\.49%" "flame: / highlights the matches and gives their share"
wait_for "^ mix_one  cpu \(user\)" "flame: / selects the first match"
keys n
wait_for "^ mix  cpu \(user\) \| total 4\.30%" "flame: n goes to the next match"
keys b
wait_for "Flame graph, bottom-up \(b\)" "flame: b flips to bottom-up"
wait_for "^▏mix_one +▏fill +▏reduce *▏mix *$" "flame: where samples were taken on the top row"
keys j
wait_for "^ mix_one  cpu \(user\) \| total 74\.19%  self 74\.19%" \
	"flame: bottom-up: the samples taken in mix_one"
keys j
wait_for "^ main  cpu \(user\) \| total 74\.19%  self 0\.00%" \
	"flame: bottom-up: below mix_one, its caller, none taken in it"
keys b
wait_for "Flame graph, top-down \(b\)" "flame: b flips back"
keys Escape
wait_for "at the start of the history" "flame: Esc without a zoom goes back in the history"
tmux -L "$sock" resize-window -t e2e -x 80 -y 24
wait_for "^▏main +▏fill +▏redu… *$" "flame: 80x24 draws, names cut with …"
wait_for "^ all \| total 100\.00%" "flame: 80x24: the selection's line"
finish "flame graph"
start "env LANG=C LC_ALL=C '$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/fp.data'"
wait_for "symbols in [0-9.]+ s" "flame ASCII: symbols resolved"
keys 8
wait_for "^\|main +\|fill +\|reduce *$" "flame: ASCII bars where the locale is not UTF-8"
finish "flame graph ASCII"

# ---- the timeline (tab 9) and the flame scope (tab 10) on switch.data ----
# mouse B X Y: an X10 mouse report (B 0 press, 3 release; X, Y from 0), as a
# terminal sends it.
mouse()
{
	local b=$1 x=$2 y=$3
	tmux -L "$sock" send-keys -t e2e -l $'\e[M'"$(printf "\\$(printf %o $((32 + b)))\\$(printf %o $((33 + x)))\\$(printf %o $((33 + y)))")"
	sleep 0.2
}
# tab N: click tab number N.
tab()
{
	local x
	x=$(screen | sed -n 2p | awk -v t=" $1 " '{ print index($0 " ", t) }')
	mouse 0 "$x" 1
	mouse 3 "$x" 1
}
# top_time A B [OPTION...]: perfnav top's rows for --time A,B ("pct samples symbol"; with
# --latency "latency pct samples symbol").
top_time()
{
	"$bin" top --buildid-dir "$data/buildid" --kallsyms /dev/null --time "$1,$2" "${@:3}" \
		"$data/switch.data" 2>/dev/null
}
start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/switch.data'"
wait_for "symbols in [0-9.]+ s" "timeline: symbols resolved"
tab 9
wait_for "Timeline by process \(p\) \| 228 samples of the event \| 983\.164494-983\.250730" \
	"timeline: the tab opens it over the samples' span"
wait_for "^ +\|983\.164494 +\|983\.1" "timeline: the time axis in perf script's times"
wait_for "^  all +[▁▂▃▄▅▆▇█ ]+$" "timeline: every sample's row in block glyphs"
wait_for "^▾ 26216 threads +[▁▂▃▄▅▆▇█ ]" "timeline: the process, expanded"
wait_for "^   26216/26218 threads +[▁▂▃▄▅▆▇█ ─]+$" "timeline: a thread below it"
wait_for "^   26216/26216 threads +▂─+$" "timeline: the main thread off CPU (switch records) after its sample"
# the browser's off-CPU event (from the switch records, approximate) beside cpu-clock: the lanes are cpu-clock's
wait_for "off-CPU \(-\)" "timeline: the header says off-CPU gaps are drawn"
keys Down
keys +
wait_for "^▸ 26216 threads" "timeline: + collapses the process's threads"
wait_gone "26216/26218" "timeline: its threads are gone"
keys +
wait_for "26216/26218" "timeline: + again shows them"
keys Right Right s Right Right Right
wait_for "range 983\.[0-9]+-983\.[0-9]+: [0-9]+ samples \(Enter: apply" "timeline: s marks, Right extends"
range=$(screen | grep -oE "range 983\.[0-9]+-983\.[0-9]+: [0-9]+ samples" | head -1)
ra=$(echo "$range" | sed -E 's/range ([0-9.]+)-.*/\1/')
rb=$(echo "$range" | sed -E 's/range [0-9.]+-([0-9.]+):.*/\1/')
rn=$(echo "$range" | sed -E 's/.*: ([0-9]+) samples/\1/')
if top_time "$ra" "$rb" | grep -q "^# Samples: $rn "; then
	ok "timeline: the range's count ($rn) is perfnav top --time $ra,$rb's"
else
	ko "timeline: the range's count ($rn) is not perfnav top --time $ra,$rb's"
fi
keys Enter
wait_for "timeline > time $ra-$rb" "timeline: Enter applies the range: a step in the path"
wait_for "Timeline by process \(p\) \| $rn samples of the event \| $ra-" "timeline: the view is the range, its samples only"
keys Escape
wait_gone "> time 983" "timeline: Esc removes the step"
wait_for "Timeline by process \(p\) \| 228 samples of the event \| 983\.164494-983\.250730" \
	"timeline: the whole span again"
keys z
wait_gone "983\.164494-983\.250730 \(z" "timeline: z zooms in"
keys Z
wait_for "983\.164494-983\.250730 \(z" "timeline: Z zooms back out"
keys p
wait_for "Timeline by CPU \(p\)" "timeline: p switches to CPU lanes"
wait_for "^  cpu \? +[▁▂▃▄▅▆▇█ ]+$" "timeline: samples without a CPU in one lane"
keys p
wait_for "Timeline by process \(p\)" "timeline: p switches back"
keys Down Down Down F
wait_for "Heat map of 26216/26218 threads \| columns of 2 ms .* \| 61 samples" \
	"timeline: F opens the flame scope of the selected thread"
wait_for "timeline > fscope 26216/26218 threads" "timeline: the flame scope of a thread is a step of the path"
keys Escape
wait_for "Timeline by process \(p\)" "flame scope: Esc goes back to the timeline"
mouse 0 40 5
mouse 3 60 5
wait_for "timeline > time 983\.[0-9]+-983\.[0-9]+" "timeline: a mouse drag over the axis applies a range"
keys Escape
tab 0
wait_for "Heat map \| columns of 2 ms \(z/Z\), rows of [0-9.]+ us \| 228 samples" \
	"flame scope: the tab opens it, columns short enough for the 86 ms recording"
wait_for "^\+0 ms +█" "flame scope: offsets on the left, cells in block glyphs"
keys s Down Down Enter
wait_for "fscope > time 983\.164494-983\.[0-9]+" "flame scope: s, Down, Enter applies the cells' range"
keys Escape
wait_gone "> time 983" "flame scope: Esc removes the step"
keys Z Z Z
wait_for "columns of 20 ms" "flame scope: Z makes the columns longer"
keys z
wait_for "columns of 10 ms" "flame scope: z makes them shorter"
finish "timeline and flame scope"

# ---- a range of the timeline in the hot functions: perfnav top --time's rows ----
# (needs the app's recount of a time step, the lead's part: skipped without it)
if grep -rqs hist_rescope "$top"/tui/*.c; then
	start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/switch.data'"
	wait_for "symbols in [0-9.]+ s" "timeline scope: symbols resolved"
	tab 9
	wait_for "Timeline by process" "timeline scope: the timeline"
	keys Right Right Right s Right Right Right Right Right Right Right Right
	wait_for "range 983\.[0-9]+-983\.[0-9]+: [0-9]+ samples" "timeline scope: a range marked"
	range=$(screen | grep -oE "range 983\.[0-9]+-983\.[0-9]+: [0-9]+ samples" | head -1)
	ra=$(echo "$range" | sed -E 's/range ([0-9.]+)-.*/\1/')
	rb=$(echo "$range" | sed -E 's/range [0-9.]+-([0-9.]+):.*/\1/')
	rn=$(echo "$range" | sed -E 's/.*: ([0-9]+) samples/\1/')
	keys Enter
	wait_for "timeline > time $ra-$rb" "timeline scope: applied"
	keys 1
	wait_for "Samples: $rn of event 'cpu-clock'" "timeline scope: the hot functions count the range's $rn samples"
	# switch.data has switch events: a Latency column after Overhead (top --latency's first)
	top_time "$ra" "$rb" --latency | grep -E '^ +[0-9.]+%' | head -3 >"$tmp/top"
	[ -s "$tmp/top" ] || ko "timeline scope: perfnav top --time $ra,$rb has rows"
	while read -r lat pct n comm dso kind sym; do
		kre=$(printf '%s' "$kind" | sed 's/[].[]/\\&/g')
		if screen | grep -qE "^ +$pct +$lat +$n +$comm +$dso +$kre $sym"; then
			ok "timeline scope: hot functions row $pct $lat $n $sym as perfnav top --latency --time"
		else
			ko "timeline scope: hot functions row $pct $lat $n $sym as perfnav top --latency --time"
		fi
	done <"$tmp/top"
	finish "timeline scope in the hot functions"
else
	echo "skipped: the hot functions of a time step (the app does not recount for it yet)"
fi

# ---- the timeline in ASCII where the locale is not UTF-8 ----
start "env LANG=C LC_ALL=C '$bin' '$data/switch.data'"
wait_for "perfnav  switch\.data" "timeline ASCII: started"
tab 9
wait_for "^  all +[.:=+*#@ -]+$" "timeline ASCII: .:-=+*#@ for the density"
wait_for "^   26216/26216 threads +:-+$" "timeline ASCII: - off CPU"
finish "timeline ASCII"

# ---- diff mode: perfnav OLD NEW on the diff fixtures (two builds of diffwork.c) ----
dopts="--buildid-dir '$data/buildid' --kallsyms /dev/null"
"$bin" diff --tsv --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/diff-a.data" \
	"$data/diff-b.data" >"$tmp/diff.tsv" 2>/dev/null
# the moved hot path: spin's Delta as perfnav diff --tsv prints it
sd=$(awk -F'\t' '$4 == "diffwork" && $5 == "[.] spin" { print $3 }' "$tmp/diff.tsv")
sb=$(awk -F'\t' '$4 == "diffwork" && $5 == "[.] spin" { print $2 }' "$tmp/diff.tsv")
[ -n "$sd" ] || ko "diff: perfnav diff --tsv has spin's row"
sdre=$(printf '%s' "$sd" | sed 's/[+.]/\\&/g')
sbre=$(printf '%s' "$sb" | sed 's/[.]/\\&/g')
start "'$bin' $dopts '$data/diff-a.data' '$data/diff-b.data'"
wait_for "perfnav  diff-a\.data vs diff-b\.data \[OLD, % of totals\] \| .*182 samples" "diff: title OLD vs NEW, OLD shown"
wait_for "^ Baseline +New +Delta +Shared Object +Symbol" "diff: hot functions with Baseline, New and Delta"
wait_for "^ +${sbre}% +[0-9.]+% +${sdre}% diffwork +[^[]*\[\.\] spin *$" "diff: spin's Delta $sd as perfnav diff --tsv"
screen | sed -n 4p | grep -qE "\[\.\] spin *$" && ok "diff: the biggest change first" || ko "diff: the biggest change first"
wait_for "new_only  \(NEW only\)" "diff: a function of NEW only"
wait_for "Diff of event 'cpu-clock': OLD 182 samples, NEW 149" "diff: events paired by name (cpu-clock, cpu-clock:u)"
keys A
wait_for "\[OLD, periods\]" "diff: A: the title says periods"
wait_for "^ +78000000 +55500000 +-22500000 diffwork +[^[]*\[\.\] spin" "diff: A: spin's periods and their difference"
keys A
wait_for "\[OLD, % of totals\]" "diff: A again: percents"
keys Enter
wait_for "hot > OLD samples spin \[1/[0-9]+ filtered\]" "diff: Enter lists OLD's samples of spin"
wait_for "spin\+0x[0-9a-f]+ \(diffwork\)" "diff: OLD's samples in spin"
keys w
wait_for "\[NEW, % of totals\] \| .*149 samples" "diff: w shows NEW"
wait_for "hot > NEW samples spin \[1/[0-9]+ filtered\]" "diff: w lists NEW's samples of spin"
keys 4
wait_for "diff-b\.data" "diff: NEW's header"
keys w
wait_for "\[OLD, % of totals\] \| .*182 samples" "diff: w back to OLD"
keys 6
wait_for "^ Baseline +New +Delta +Shared Object +Function" "diff: top-down with Baseline, New and Delta"
wait_for "^ +85\.71% +74\.50% +${sdre}% diffwork +spin *$" "diff: top-down main > spin's Delta as the hot functions'"
wait_for "old_only  \(OLD only\)" "diff: top-down: a path of OLD only"
wait_for "\| NEW-only paths 1\.34% \| OLD shown" "diff: top-down: NEW's own paths"
keys 7
wait_for "^ +85\.71% +74\.50% +${sdre}% diffwork +. spin *$" "diff: bottom-up spin's Delta"
keys 8
wait_for "Differential flame graph, top-down \(b\) \| cpu-clock \| NEW's shape \(O: OLD's\) \| red grew, blue shran…" "diff: flame graph: NEW's shape, its colour key (cut: …)"
wait_for "149 samples" "diff: flame graph: NEW's samples"
keys Down Down
wait_for "^ main .*NEW - OLD -7\.50%" "diff: flame graph: the selected frame's change"
keys O
wait_for "OLD's shape \(O: NEW's\)" "diff: O: OLD's shape"
finish "diff mode"

# diff mode with the start's scope options: each recording scoped against its own span
# (--time's percents) or its own part of --time A,B:C,D; the hot table is perfnav diff --tsv's
diff_scope()
{
	local what=$1 titlere=$2 re
	shift 2
	"$bin" diff --tsv --buildid-dir "$data/buildid" --kallsyms /dev/null "$@" \
		"$data/diff-a.data" "$data/diff-b.data" >"$tmp/diffs.tsv" 2>/dev/null
	[ "$(grep -vc '^#' "$tmp/diffs.tsv")" -ge 3 ] || ko "diff $what: perfnav diff --tsv has rows"
	start "'$bin' $dopts $* '$data/diff-a.data' '$data/diff-b.data'"
	wait_for "diff-a\.data vs diff-b\.data \[OLD, % of totals\] \[$titlere\]" \
		"diff $what: the title shows the scope"
	# each row of perfnav diff --tsv, as the hot table shows it (Baseline, New, Delta)
	while IFS= read -r re; do
		wait_for "$re" "diff $what: as perfnav diff --tsv: $re"
	done < <(awk -F'\t' '!/^#/ {
		s = $5; gsub(/[][.+*()]/, "\\\\&", s); b = $2; gsub(/[.]/, "\\\\.", b)
		d = $3; gsub(/[.+]/, "\\\\&", d)
		if (b == "")
			print "^ +[0-9.]+% +" d "% " $4 " +[^[]*" s "  \\(NEW only\\)"
		else if (d == "")
			print "^ +" b "% +" $4 " +[^[]*" s "  \\(OLD only\\)"
		else
			print "^ +" b "% +[0-9.]+% +" d "% " $4 " +[^[]*" s " *$"
	}' "$tmp/diffs.tsv")
	finish "diff $what"
}
diff_scope "--comms --time" "comms diffwork, time 10%-90%" --comms diffwork --time 10%-90%
# (at 100 columns the scope is shortened in its middle: the event stays on the line)
diff_scope "--time A,B:C,D" "time 1742\.06,1.*1743\.20,1743\.26" \
	--time 1742.06,1742.14:1743.20,1743.26

# diff mode: + opens a hot function's callees with Baseline, New and Delta per level
# (dwarf.data against itself: mix calls mix_one, 63.92% as perfnav top --children gives it)
start "'$bin' $dopts '$data/dwarf.data' '$data/dwarf.data'"
wait_for "^ +59\.79% +59\.79% +\+0\.00% cpu +[^[]*\[\.\] mix_one *$" "diff callees: both resolved, the table in"
keys E
wait_for "^ +63\.92% +63\.92% +\+0\.00% cpu +[^m]*mix_one *$" "diff callees: E opens mix > mix_one"
wait_for "\(no callees\)" "diff callees: a leaf says so"
keys C
wait_gone "\(no callees\)" "diff callees: C closes them"
finish "diff callees"

start "'$bin' '$data/plain.data'"
wait_for "symbols in [0-9.]+ s" "one recording: symbols resolved"
keys w
wait_for "one recording: perfnav OLD NEW compares two" "one recording: w says what it is for"
finish "one recording: w"

# While symbols resolve on the workers (slowed down: 300 ms a slice of 16 records,
# about 4 s for fp.data), the UI thread answers keys at once: tabs switch, the
# header shows, the title follows the progress; then the rows come in.  Without the
# cache: fp.data's hist, kept by an open above, would be read back with nothing to resolve.
start "PERFNAV_TEST_SYMBOLS_DELAY_MS=300 '$bin' --no-cache --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "cpu-clock \| 186 samples \| symbols [0-9]+%" "resolving: the title shows the progress"
keys 4
if screen | grep -qE "^ header " && screen | grep -qE "symbols [0-9]+%"; then
	ok "resolving: 4 shows the header at once (within 0.2 s), symbols still resolving"
else
	ko "resolving: 4 shows the header at once (within 0.2 s), symbols still resolving"
fi
keys 3
if screen | grep -qE "PERF_RECORD_SAMPLE\(IP" && screen | grep -qE "symbols [0-9]+%"; then
	ok "resolving: 3 shows the events at once, symbols still resolving"
else
	ko "resolving: 3 shows the events at once, symbols still resolving"
fi
keys 1
wait_for "symbols in [0-9.]+ s" "resolving: the workers finish"
wait_for "^ +74\.19% +74\.19% +138 cpu +cpu +. \[\.\] mix_one" "resolving: then the rows are those of one pass"
finish "resolving"

# A first open keeps its index entry as soon as the load is done, while the workers resolve,
# and then reads its index from the entry's pages (not from anonymous memory).
cp "$data/fp.data" "$tmp/early.data"
start "PERFNAV_TEST_SYMBOLS_DELAY_MS=300 '$bin' --buildid-dir '$data/buildid' '$tmp/early.data'"
wait_for "symbols [0-9]+%" "early save: the workers resolve"
saved=no mapped=no
for _ in $(seq 40); do
	"$bin" cache list 2>/dev/null | grep -q "early\.data" && saved=yes
	for pid in $(pgrep -f "early\.data" || true); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = perfnav ] &&
			grep -qE "/idx-[0-9a-f]+\.pnc$" "/proc/$pid/maps" 2>/dev/null && mapped=yes
	done
	[ $saved$mapped = yesyes ] && break
	sleep 0.05
done
if [ $saved = yes ] && screen | grep -qE "symbols [0-9]+%"; then
	ok "early save: the entry is there while the symbols resolve"
else
	ko "early save: the entry is there while the symbols resolve"
fi
if [ $mapped = yes ]; then
	ok "early save: the index is read from the entry's pages"
else
	ko "early save: the index is read from the entry's pages"
fi
wait_for "symbols in [0-9.]+ s" "early save: the workers finish"
finish "early save"
# an entry over --cache-size: the browser says on its message line that it is not kept
python3 "$top/tests/mk-brhist.py" --big 50000 "$tmp/big.data" \
	"$(ls -d "$data"/buildid/tmp/perfnav-fixtures/cpu/*/elf | head -1)"
start "'$bin' --cache-size 1M '$tmp/big.data'"
wait_for "not cached: its index entry \(1\.[0-9] MiB\) is larger than --cache-size" \
	"an entry over --cache-size is said"
# ... and its index is still read from a file of the cache directory, one never named
spilled=no
for _ in $(seq 40); do
	for pid in $(pgrep -f "big\.data" || true); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = perfnav ] &&
			grep -qE " $XDG_CACHE_HOME/perfnav/.* \(deleted\)$" "/proc/$pid/maps" 2>/dev/null &&
			spilled=yes
	done
	[ $spilled = yes ] && break
	sleep 0.05
done
if [ $spilled = yes ] && ! "$bin" cache list 2>/dev/null | grep -q "big\.data"; then
	ok "an index over --cache-size is read from a file never named, not kept"
else
	ko "an index over --cache-size is read from a file never named, not kept"
fi
finish "cache size"
rm -f "$tmp/big.data"

# Annotate shows a kernel address whole (16 hex digits; it was cut to 12): a kernel function
# from a kallsyms of our own, no disassembly, so the rows are the sampled addresses.
printf 'ffffffff816a7a00 T kfunc_test\nffffffff816a8000 T kfunc_next\n' > "$tmp/kallsyms"
start "'$bin' --kallsyms '$tmp/kallsyms' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "kfunc_test" "annotate: the kernel function is a row"
keys / k f u n c _ t e s t
keys Enter
keys a
wait_for "100\.00% +1 ffffffff816a7a27 " "annotate: a kernel address whole"
finish "annotate kernel address"

# The summary cuts a long C++ name in its middle, as the hot pane does, so that its end (the
# function) shows: a kernel function of our own kallsyms named as a C++ member.
printf 'ffffffff816a7a00 T std::__detail::_Map_base<std::string, std::pair<std::string const, unsigned long>>::operator[]\n' \
	> "$tmp/kallsyms-cxx"
start "'$bin' --kallsyms '$tmp/kallsyms-cxx' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "symbols in [0-9.]+ s" "summary C++: symbols resolved"
keys I
wait_for "^ +std::__detail:.*>::operator\[\] +1 +0\.54% \[kernel\.kallsyms\]" \
	"summary: a long C++ name cut in its middle, its end kept"
finish "summary C++ name"

# q as in perf report: it leaves annotate (and help), and quits only at the top; Q quits from
# anywhere; the hints say what q does here, with the keys as bound (a keys file rebinding q).
start "'$bin' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "symbols in [0-9.]+ s" "q: symbols resolved"
wait_for "\?:help q:quit" "q: the hint at the top says quit"
keys / m i x _ o n e
keys Enter
keys a
wait_for "mix_one in cpu, cpu-clock" "q: annotate open"
wait_for "\?:help q:back Q:quit" "q: the hint in annotate says back, Q quits"
keys q
wait_for "^ +74\.19% +74\.19% +138 cpu +cpu +. \[\.\] mix_one" "q leaves annotate for the hot functions"
keys ?
wait_for "Global keys" "q: help open"
keys q
wait_gone "Global keys" "q closes the help"
keys q
if wait_for "EXIT=0" "q at the top quits"; then
	wait_for "TTY-SANE" "q at the top: terminal restored"
fi
mkdir -p "$tmp/xdg/perfnav"
printf 'bind global x quit\nunbind global q\n' > "$tmp/xdg/perfnav/keys"
start "XDG_CONFIG_HOME='$tmp/xdg' '$bin' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "\?:help x:quit" "a rebound quit: the hint names its key"
finish "rebound quit"

# Leader sampling, an event group: perf report --group's table, a column per member, each
# with its own periods; } reaches the member, whose table is the group's.
start "'$bin' --buildid-dir '$data/buildid' '$data/leader.data'"
wait_for "^Children +Children +Self +Self +Samples +Samples Command" "leader sampling: a column per member"
wait_for "65\.59% +65\.58% +65\.59% +65\.58% +61 +61 cpu +cpu +. \[\.\] mix_one" \
	"leader sampling: the leader's and the member's own periods, as perfnav top"
wait_for "Samples: 186 of events 'anon group \{ task-clock, cpu-clock \}'" "leader sampling: perf's group line"
keys '}'
wait_for "\(2 of 2, \}: next\)" "leader sampling: } reaches the member"
wait_for "65\.59% +65\.58% +65\.59% +65\.58% +61 +61 cpu" "leader sampling: the member's table is the group's"
finish "leader sampling"

# A perf stat record file opens on its counters, as perfnav stat prints them; S reaches
# them from any pane; a recording of samples says it has none.
start "'$bin' '$data/stat.data'"
wait_for "S Counters" "stat file: opens on the counters pane"
wait_for "85\.20 +msec +cpu-clock +0\.996 CPUs utilized" "stat file: cpu-clock with perf's metric"
keys 1
wait_for "^ hot" "stat file: 1 leaves for the hot functions"
keys S
wait_for "85\.21 +msec +task-clock" "stat file: S comes back to the counters"
finish "stat file"
start "'$bin' '$data/stat-cpu.data'"
wait_for "0\.020125 +1 +1 +page-faults +49\.318 /sec" "stat -I -A: per cpu and interval, rate per second"
finish "stat -I -A"
start "'$bin' '$data/stat-core-int.data'"
wait_for "S0-D0-C1 \\(1 cpu\\)" "stat --per-core: the pane names each core and its cpus"
finish "stat --per-core"
start "'$bin' '$data/plain.data'"
keys S
wait_for "no counts: not a perf stat record recording" "samples: S says there are no counts"
finish "samples: S"

# Branch stacks (tests/mk-brmem.py): the hot functions are perf's branch targets; s, s: the
# branch table, source and target per row; s again goes back.
start "'$bin' '$data/branch.data'"
wait_for "33\.33% +9 brtest +libbr\.so +\[\.\] 0x0+400200" "branch stacks: the targets' rows"
keys s
wait_for "s:branches" "branch stacks: the DSOs offer the branch table"
keys s
wait_for "Source Symbol +Target Symbol +Cycles" "branch table: perf's branch columns"
wait_for "22\.22% +6 brtest +libbr\.so +\[\.\] 0x0+100 +\[\.\] 0x0+200 +3" "branch table: perf's first row"
wait_for "perfnav  branch\.data \| .*12 samples \(table: 27 branch entries\)" \
	"branch table: the title says what the table counts beside the samples"
keys s
wait_for "33\.33% +9 brtest +libbr\.so +\[\.\] 0x0+400200" "branch table: s goes back"
finish "branch table"

# A chain of 12 processes (tests/data/nest.data): at 80 columns every pid of the deep tree
# stays whole (the tree column widens; rows deeper than it has room for show their depth).
start "'$bin' '$data/nest.data'"
wait_for "perfnav  nest\.data" "deep process tree: opens (before the resize: one it can see)"
tmux -L "$sock" resize-window -t e2e -x 80 -y 24
keys 2 E
wait_for "^ +\[12\] +5562 +nest +74 +91\.36" "processes: the deepest pid of a 12-level tree whole at 80 columns"
wait_for "▾ 5561 +nest +1 " "processes: its parent's pid whole too"
finish "deep process tree"

# ---- one scope (fork.data): a zoom made in any pane is every pane's, shown in the title;
# panes switched keep it; a time step joins it; Esc undoes the steps in the order made ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "symbols in [0-9.]+ s" "scope: symbols resolved"
keys 2
wait_for "26195 +forkexec +59 " "scope: the processes"
keys Down t
wait_for "perfnav  fork\.data \[pid 26195 forkexec\]" "scope: t on a process: the title names the zoom"
wait_for "32\.60% +32\.60% +59 forkexec +forkexec +. \[\.\] spin" "scope: its hot functions"
keys 1
wait_for "^ hot \[" "scope: 1 on the hot pane"
wait_for "32\.60% +32\.60% +59 forkexec +forkexec +. \[\.\] spin" "scope: 1 keeps the zoom"
keys 6
wait_for "Top-down: 59 of 181 samples" "scope: the top-down tree is the zoom's"
keys 7
wait_for "Bottom-up: 59 of 181 samples" "scope: the bottom-up tree too"
keys 9
wait_for "\[pid 26195 forkexec\]" "scope: the timeline under the same scope"
wait_for "Timeline by process \(p\) \| 59 samples" "scope: the timeline counts the zoom's samples only"
keys 0
wait_for "Heat map of 26195 .* \| 59 samples" "scope: the heat map too"
keys 9
keys s Right Right Right Right Right Right Right Right Right Right Right Right Enter
wait_for "\[pid 26195 forkexec > time [0-9.]+-[0-9.]+\]" "scope: a time step joins the zoom"
keys 1
wait_for "^ *[0-9.]+% +[0-9.]+% +[0-9]+ forkexec +forkexec +. \[\.\] spin" "scope: hot functions of both"
keys y
wait_for "The same numbers from the command line:" "scope: y shows the command line"
cmd=$(screen | sed -n '/The same numbers from the command line:/,/^ *$/p' | sed '1d;/^ *$/d' |
	sed 's/^  //' | tr -d '\n' | sed 's/ \\ */ /g')
want=$(cd "$tmp" && eval "'$bin'${cmd#perfnav}" 2>/dev/null | grep -m1 '\[\.\] spin' | awk '{print $3}')
keys Escape
if [ -n "$want" ] && screen | grep -qE "^ *[0-9.]+% +[0-9.]+% +$want forkexec +forkexec +. \[\.\] spin"; then
	ok "scope: the command line ($cmd) prints the pane's numbers ($want samples of spin)"
else
	ko "scope: the command line ($cmd) gives '$want' samples of spin"
fi
keys Escape
wait_for "undone: " "scope: Esc undoes the last step"
wait_for "perfnav  fork\.data \[pid 26195 forkexec\] " "scope: the time step went first"
wait_for "32\.60% +32\.60% +59 forkexec +forkexec +. \[\.\] spin" "scope: the zoom's counts again"
keys Escape
wait_gone "\[pid 26195" "scope: then the zoom"
wait_for "98\.90% +98\.90% +179 forkexec +forkexec +. \[\.\] spin" "scope: every sample again"
finish "one scope"

# ---- the typed scope (:) and its errors; the title at 80 columns ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "symbols in [0-9.]+ s" "typed scope: symbols resolved"
keys :
wait_for "^scope:" "typed scope: : opens the scope line"
keys -- "--tid nope" Enter
wait_for "bad value 'nope' for --tid" "typed scope: a bad word is said in the line"
wait_for "^scope: --tid nope" "typed scope: the line stays open"
keys C-u
keys -- "--tid 26196 --time 10%-60%"
keys Enter
wait_for "\[thread 26196 forkexec > time 980\.8136[0-9]+-980\.8366[0-9]+\]" \
	"typed scope: one step of a thread and a time range"
want=$("$bin" top --tid 26196 --time 10%-60% --buildid-dir "$data/buildid" "$data/fork.data" |
	grep -m1 '\[\.\] spin' | awk '{print $1, $2, $3}')
wait_for "^ *${want// / +} forkexec +forkexec +. \[\.\] spin" "typed scope: top's numbers ($want)"
tmux -L "$sock" resize-window -t e2e -x 80 -y 24
wait_for "^ perfnav  fork\.data \[thread 26196 .*….*980\.8366[0-9]+\] \| cpu-clock" \
	"typed scope: at 80 columns shortened in its middle, never dropped, the event kept"
keys Escape
wait_gone "\[thread 26196" "typed scope: Esc undoes the step"
finish "typed scope"

# ---- a scope's recount in steps between keys: the panes wait for it, keys are answered ----
start "PERFNAV_TEST_RECOUNT_DELAY_MS=150 '$bin' --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "symbols in [0-9.]+ s" "recount: symbols resolved"
keys :
keys -- "--tid 26196 --time 10%-60%"
keys Enter
wait_for "recounting the scope's samples: [0-9]+% \(Q quits\)" "recount: the pane waits, how far it is shown"
keys 4 Down
wait_for "recounting the scope: 2 keys kept for after" \
	"recount: keys meanwhile are answered, kept for after"
if screen | grep -qE "^ header "; then
	ko "recount: no pane is switched to meanwhile"
else
	ok "recount: no pane is switched to meanwhile"
fi
wait_for "^ header \[" "recount: then the keys typed, in order (4: the header pane)"
keys 1
want=$("$bin" top --tid 26196 --time 10%-60% --buildid-dir "$data/buildid" "$data/fork.data" |
	grep -m1 '\[\.\] spin' | awk '{print $1, $2, $3}')
wait_for "^ *${want// / +} forkexec +forkexec +. \[\.\] spin" "recount: then top's numbers ($want)"
# Esc takes the step back: a recount too, the view entered once it is done
keys Escape
wait_for "recounting the scope's samples: [0-9]+%" "recount: Esc's undo recounts in steps too"
wait_gone "recounting the scope" "recount: the undo's recount ends"
want=$("$bin" top --buildid-dir "$data/buildid" "$data/fork.data" |
	grep -m1 '\[\.\] spin' | awk '{print $1, $2}')
wait_for "^ *${want// / +} +[0-9]+ .*\[\.\] spin" "recount: then the whole recording's rows ($want)"
keys :
keys -- "--time 0%-90%"
keys Enter
wait_for "recounting the scope's samples: [0-9]+%" "recount: another scope, another recount"
finish "recount: Q while it goes on"

# ---- every sort key: a table of its own, built in the background, as perfnav top prints it ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "symbols in [0-9.]+ s" "sort keys: symbols resolved"
keys :
keys -- "--sort bogus" Enter
wait_for "unknown key 'bogus'" "sort keys: a bad key is said in the line"
keys C-u
keys -- "--sort pid,cpu --time 0%-50%" Enter
wait_for "^Children +Self +Samples Pid:Command +CPU" "sort keys: the columns of the keys, in their order"
want=$("$bin" top --sort pid,cpu --time 0%-50% --buildid-dir "$data/buildid" "$data/fork.data" |
	grep -v '^#' | grep -m1 . | awk '{print $1, $2, $3, $4}')
wait_for "^ *${want// / +} +0" "sort keys: top's first row ($want)"
wait_for "by pid,cpu" "sort keys: the info line names the keys"
keys a
wait_for "a table by pid,cpu" "sort keys: a key that needs a function says why not"
keys y
wait_for "perfnav top .*--sort pid,cpu" "sort keys: y gives the command with the keys"
keys q
keys Escape
wait_for "^Children +Self +Samples Command +Shared Object +Symbol" "sort keys: Esc: the default keys again"
finish "sort keys"

# ---- a merged recording: Enter on an input of --sort file zooms into it, every pane its samples ----
(cd "$data" && "$bin" merge -o "$tmp/m.data" fp.data fork.data 2>/dev/null)
start "'$bin' --sort file --buildid-dir '$data/buildid' '$tmp/m.data'"
wait_for "symbols in [0-9.]+ s" "zoom by file: symbols resolved"
wait_for "^ +50\.68% +50\.68% +186 fp\.data *$" "zoom by file: a row per input"
keys Enter
wait_for "perfnav  m\.data \[file fp\.data \| sort file\]" "zoom by file: Enter zooms into the input, the title names it"
wait_for "^ +100\.00% +100\.00% +186 fp\.data *$" "zoom by file: its samples are the totals (top --files fp.data)"
keys 6
wait_for "^ +98\.92% +0\.00% +184 libc\.so\.6 +. __libc_start_call_main" "zoom by file: the top-down tree is fp.data's alone"
keys 1
keys Escape
wait_for "undone: file fp\.data" "zoom by file: Esc undoes it"
wait_for "^ +49\.32% +49\.32% +181 fork\.data *$" "zoom by file: every input again"
finish "zoom by file"

# ---- diff mode: d zooms both recordings into a DSO (by its name); y gives perfnav diff ----
start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/diff-a.data' '$data/diff-b.data'"
wait_for "^ +[0-9.]+% +[0-9.]+% +-[0-9.]+% diffwork +. \[\.\] spin" "diff scope: the diff's rows"
keys d
wait_for "diff-a\.data vs diff-b\.data \[OLD, % of totals\] \[dso diffwork\]" \
	"diff scope: d zooms into the row's DSO"
keys w
wait_for "diff-a\.data vs diff-b\.data \[NEW, % of totals\] \[dso diffwork\]" \
	"diff scope: NEW took the zoom by the DSO's name"
keys y
wait_for "The same numbers from the command line:" "diff scope: y"
cmd=$(screen | sed -n '/The same numbers from the command line:/,/^ *$/p' | sed '1d;/^ *$/d' |
	sed 's/^  //' | tr -d '\n' | sed 's/ \\ */ /g')
case $cmd in
*" -c "*) ko "diff scope: y gives '$cmd' (the pane sorts by the size of the change: delta-abs)" ;;
*"perfnav diff "*"--dsos diffwork "*"diff-a.data "*"diff-b.data"*)
	ok "diff scope: y gives perfnav diff with the zoom both take ($cmd)" ;;
*) ko "diff scope: y gives '$cmd'" ;;
esac
keys Escape
keys A
wait_for "diff-a\.data vs diff-b\.data \[NEW, periods\]" "diff scope: A shows periods"
keys y
wait_for "A's periods and their order are the" "diff scope: y in A says the command prints percents"
keys Escape
keys X C-u
keys "diff.txt" Enter
wait_for "wrote diff\.txt: [0-9]+ rows?" "diff scope: the diff's rows exported"
if grep -qE '^# perfnav Hot functions of .*diff-a\.data vs .*diff-b\.data, scope: .*dso diffwork' "$tmp/diff.txt" &&
	grep -qE '^Baseline +New +Delta ' "$tmp/diff.txt"; then
	ok "diff scope: the export's title names both recordings"
else
	ko "diff scope: diff.txt: $(head -3 "$tmp/diff.txt" 2>&1)"
fi
finish "diff scope"

# ---- diff mode: a zoom's recount in steps too, the other recording's after the shown one's ----
start "PERFNAV_TEST_RECOUNT_DELAY_MS=100 '$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/diff-a.data' '$data/diff-b.data'"
wait_for "^ +[0-9.]+% +[0-9.]+% +-[0-9.]+% diffwork +. \[\.\] spin" "diff recount: the diff's rows"
keys d
wait_for "recounting the scope's samples: [0-9]+% \(Q quits\)" "diff recount: the panes wait, how far it is shown"
wait_for "recounting the scope's samples: [5-9][0-9]%" "diff recount: then the other recording's (past half way)"
wait_gone "recounting the scope" "diff recount: both done"
wait_for "diff-a\.data vs diff-b\.data \[OLD, % of totals\] \[dso diffwork\]" "diff recount: the zoom's rows"
keys w
wait_for "diff-a\.data vs diff-b\.data \[NEW, % of totals\] \[dso diffwork\]" "diff recount: NEW took it"
finish "diff recount"

# ---- annotate navigation: Enter on a call and on a jump, the jump's arrow, v, H, n/N, s ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "symbols in [0-9.]+ s" "annotate nav: symbols resolved"
keys Home Down Down Down Down Down a
wait_for "^ mix in cpu, cpu-clock: 8 samples" "annotate nav: mix annotated"
wait_for "hot > annotate mix \[11/21\]" "annotate nav: on mix's hottest line, its call of mix_one"
keys y
wait_for "this view's rows have no command of their own" "y in annotate: says its line is the scope's hot functions"
keys Escape
keys Enter
wait_for "^ mix_one in cpu, cpu-clock: 138 samples" "Enter on a call: the callee's annotate view"
wait_for "hot > annotate mix > annotate mix_one \[10/16\]" "the callee: a view of the history, on its hottest"
keys Escape
wait_for "hot > annotate mix \[11/21\]" "Esc: back to the caller, on the call"
keys H
wait_for "hot > annotate mix \[11/21\]" "H: the hottest line"
keys n
wait_for "hot > annotate mix \[12/21\]" "n: the next line with samples"
keys n n n
wait_for "hot > annotate mix \[11/21\]" "n: round to the first line with samples"
keys N
wait_for "hot > annotate mix \[15/21\]" "N: the previous line with samples"
keys / j n e Enter
wait_for "hot > annotate mix \[16/21\]" "annotate nav: the search on the jne"
wait_for "^ +0\.00% +0 +11a9 +┌> mov +\(%rbx\),%edi" "the jump's arrow: its head on the target"
wait_for "^ +50\.00% +4 +11ab +│ +call" "the jump's arrow: over the rows between"
wait_for "^ +0\.00% +0 +11b9 +└─ jne +11a9 <mix\+0x15>" "the jump's arrow: its tail on the jump"
keys Enter
wait_for "hot > annotate mix > jump to 11a9 \[10/21\]" "Enter on a jump: its target line, a step of the history"
wait_gone "└─ jne" "the arrow goes with the selection"
wait_for "^ +0\.00% +0 +11b9 +↑ +jne +11a9" "a jump not selected: the way to its target (perf's ↑)"
keys Escape
wait_for "hot > annotate mix \[16/21\]" "Esc: back on the jump"
keys v
wait_for "no samples at 11b9" "v: the samples of the line (none on the jne)"
keys s
wait_for "source lines only \(s: instructions only\)" "s: source lines only"
wait_for "^ +62\.50% +5 +cpu\.c:39$" "source only: a line's samples summed"
wait_for "^ +37\.50% +3 +cpu\.c:38$" "source only: a line's instructions summed wherever they lie"
wait_gone "11ab" "source only: no instruction"
keys s
wait_for "instructions only \(s: source and instructions\)" "s again: instructions only"
wait_gone "cpu\.c:" "instructions only: no source row"
wait_for "^ +50\.00% +4 +11ab +call +1174 <mix_one>" "instructions only: the instructions"
keys s
wait_for "^ +cpu\.c:37$" "s a third time: both again"
finish "annotate nav"

# ---- annotate: the jump's arrow in ASCII without a UTF-8 locale ----
start "env LANG=C LC_ALL=C '$bin' --buildid-dir '$data/buildid' '$data/fp.data'"
wait_for "symbols in [0-9.]+ s" "ASCII arrows: symbols resolved"
keys Home Down Down Down Down Down a
wait_for "^ mix in cpu, cpu-clock: 8 samples" "ASCII arrows: mix annotated"
keys / j n e Enter
wait_for "^ +0\.00% +0 +11a9 \+> mov" "ASCII arrows: the head"
wait_for "^ +50\.00% +4 +11ab \|  call" "ASCII arrows: the line between"
wait_for "^ +0\.00% +0 +11b9 \+- jne" "ASCII arrows: the tail"
finish "ASCII arrows"

# ---- annotate: e opens $EDITOR (a script writing its arguments) at the selected source line ----
printf '#!/bin/sh\nprintf "%%s\\n" "$@" > "%s/edargs"\n' "$tmp" > "$tmp/ed.sh"
chmod +x "$tmp/ed.sh"
start "EDITOR='$tmp/ed.sh' '$bin' --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "symbols in [0-9.]+ s" "editor: symbols resolved"
keys Home a
wait_for "hot > annotate spin \[17/27\]" "editor: spin annotated, on its hottest instruction"
# the DWARF names tests/fixtures-src/forkexec.c, relative: not there from $tmp
keys e
wait_for "source file not found: tests/fixtures-src/forkexec\.c" "e: a source file not there is said"
[ ! -e "$tmp/edargs" ] && ok "e: no editor for a file not there" || ko "e: the editor ran"
mkdir -p "$tmp/tests"
ln -s "$top/tests/fixtures-src" "$tmp/tests/fixtures-src"
keys e
for ((i = 0; i < timeout * 10; i++)); do [ -s "$tmp/edargs" ] && break; sleep 0.1; done
if [ "$(cat "$tmp/edargs" 2>/dev/null)" = "$(printf '+25\ntests/fixtures-src/forkexec.c')" ]; then
	ok "e: \$EDITOR +25 FILE"
else
	ko "e: the editor's arguments: $(cat "$tmp/edargs" 2>/dev/null)"
fi
wait_for "hot > annotate spin \[17/27\]" "e: the view back after the editor"
wait_for "^ +37\.99% +68 +11dc +add" "e: the screen redrawn"
keys Up Up Up e
wait_for "hot > annotate spin \[14/27\]" "e: on a source row"
sleep 0.5
[ "$(head -1 "$tmp/edargs")" = "+25" ] && ok "e: a source row's own line" || ko "e on a source row: $(cat "$tmp/edargs")"
finish "editor"
rm -f "$tmp/edargs"
# an editor with arguments goes through sh -c, the file as "$@"
start "EDITOR='$tmp/ed.sh --wait' '$bin' --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "symbols in [0-9.]+ s" "editor with arguments: symbols resolved"
keys Home a
wait_for "hot > annotate spin \[17/27\]" "editor with arguments: spin annotated"
keys e
for ((i = 0; i < timeout * 10; i++)); do [ -s "$tmp/edargs" ] && break; sleep 0.1; done
if [ "$(cat "$tmp/edargs" 2>/dev/null)" = "$(printf -- '--wait\n+25\ntests/fixtures-src/forkexec.c')" ]; then
	ok "e: \$EDITOR's own arguments, then +25 FILE"
else
	ko "e with arguments: $(cat "$tmp/edargs" 2>/dev/null)"
fi
wait_for "hot > annotate spin \[17/27\]" "editor with arguments: back"
finish "editor with arguments"
rm -f "$tmp/edargs" "$tmp/ed.sh" "$tmp/tests/fixtures-src"
rmdir "$tmp/tests"

# ---- off-CPU time (offcpu.data: sched_switch with callchains): an event beside the recorded ones ----
start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/offcpu.data'"
wait_for "of event 'sched:sched_switch' \\(1 of 2, \\}: next\\)" "off-cpu: symbols in, two events"
keys '}'
wait_for "Samples: [0-9]+ of event 'off-cpu', 1\\.67[0-9] s off CPU" "off-cpu: } reaches the event, its time said"
wait_for "\\[off-cpu\\]" "off-cpu: the title names the scope's event"
wait_for "offcpu +\\[kernel\\.kallsyms\\]|offcpu +libc\\.so\\.6" "off-cpu: the hot functions of the time off CPU"
keys 8
wait_for "Flame graph, top-down \\(b\\) \\| off-cpu \\(2 of 2, \\}\\) \\| [0-9]+ samples, 1\\.67[0-9] s off CPU" \
	"off-cpu: the flame graph of it"
keys 2
wait_for "Off-CPU" "off-cpu: the processes' Off-CPU column"
wait_for "778/784 +offcpu +[0-9]+ +[0-9.]+ .* [0-9.]+ ms" "off-cpu: a thread's time off CPU"
# the legend comes last on the header line: a wider window holds it whole
tmux -L "$sock" resize-window -t e2e -x 120 -y 30
keys 9
wait_for "\\| off-CPU -S =D ~R\\+$" "off-cpu: the timeline's gaps by state"
wait_for "778/784 offcpu .*─" "off-cpu: a thread's gaps drawn"
finish "off-cpu"

# ---- the wall view (offcpu-sw.data: cpu-clock and --switch-events): on and off CPU in one flame graph ----
start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/offcpu-sw.data'"
wait_for "of event 'cpu-clock' \\(1 of 2, \\}: next\\)" "wall: symbols in, cpu-clock and off-cpu"
keys 8
wait_for "Flame graph, top-down \\(b\\) \\| cpu-clock" "wall: the flame graph of cpu-clock"
keys L
wait_for "Wall view \\(L\\), top-down \\(b\\) \\| [0-9.]+ ms on CPU \\(cpu-clock\\) \\+ 1\\.[0-9]+ s off CPU" \
	"wall: L shows on and off CPU in one graph"
keys Down
wait_for "total [0-9]{1,2}\\.[0-9]+%" "wall: shares of the graph's whole time"
keys L
wait_for "Flame graph, top-down \\(b\\) \\| cpu-clock" "wall: L again, cpu-clock alone"
finish "wall"

# ---- perf 6.15's latency and parallelism (switch.data: switch events) ----
start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/switch.data'"
wait_for "symbols in [0-9.]+ s" "latency: symbols resolved"
wait_for "^Overhead +Latency +Samples +Command" "latency: the hot functions' Latency column beside Overhead"
"$bin" top --latency --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/switch.data" 2>/dev/null |
	grep -E '^ +[0-9.]+%' | head -3 >"$tmp/toplat"
[ -s "$tmp/toplat" ] || ko "latency: perfnav top --latency has rows"
while read -r lat pct n comm dso kind sym; do
	kre=$(printf '%s' "$kind" | sed 's/[].[]/\\&/g')
	if screen | grep -qE "^ +$pct +$lat +$n +$comm +$dso +$kre $sym"; then
		ok "latency: row $pct $lat $n $sym as perfnav top --latency"
	else
		ko "latency: row $pct $lat $n $sym as perfnav top --latency"
	fi
done <"$tmp/toplat"
keys L
wait_for "\| by latency \(L\)" "latency: L sorts the rows by latency"
if screen | sed -n 4p | grep -qE "^ +34\.21% +40\.20% +78 +threads +threads +\[\.\] worker_div"; then
	ok "latency: the first row is top --latency's"
else
	ko "latency: the first row is top --latency's"
fi
keys y
wait_for "[-]-latency( |$)" "latency: the scope command says --latency"
keys q
keys L
wait_for "\| by period \(L\)" "latency: L again sorts by period"
keys :
keys -l -- "--sort parallelism"
keys Enter
wait_for "^Overhead +Latency +Samples +Parallelism" "latency: --sort parallelism's table, with Latency"
wait_for "^ +34\.21% +50\.98% +78 +1 *$" "latency: level 1's row as top --sort parallelism --latency"
wait_for "^ +65\.79% +49\.02% +150 +2 *$" "latency: level 2's row"
keys 9
wait_for "Timeline by process \(p\) \|" "parallelism: the timeline"
keys P
wait_for "Timeline by process \(p\), threads running \(P\): 1 2 \|" \
	"parallelism: P colours by threads running, the legend on the header"
wait_for "[0-9] threads? running$" "parallelism: the cursor's column's threads running"
keys P
wait_gone "threads running" "parallelism: P again colours by density"
finish "latency"
# ---- who woke whom (wakers.data: sched_switch and sched_waking with callchains): W ----
start "'$bin' --buildid-dir '$data/buildid' --kallsyms /dev/null '$data/wakers.data'"
wait_for "of event 'sched:sched_switch' \\(1 of 3, \\}: next\\)" "wakers: symbols in, three events"
keys W
wait_for "W lists who woke a function of the off-cpu event" "wakers: W wants the off-cpu event"
keys '}' '}'
wait_for "Samples: [0-9]+ of event 'off-cpu', 2\\.047 s off CPU" "wakers: } reaches the off-cpu event"
keys / waiter Enter
keys W
wait_for "hot > wakers of waiter" "wakers: W opens the view of the selected function"
wait_for "^ +Off-CPU +Share +Spans +Waker / its stacks" "wakers: its columns"
wait_for "156\\.46 ms +69\\.54% +30 ▸ offcpu 25488$" "wakers: the holder's thread ended most of waiter's waits"
keys Right
wait_for "156\\.46 ms +69\\.54% +30 +▸ __GI___lll_lock_wake < start_thread$" "wakers: a waker's stacks"
keys Down Right
wait_for "^ +__GI___lll_lock_wake\\+0x13 \\(libc\\.so\\.6\\)$" "wakers: a stack's frames, as perf script prints them"
keys Escape
wait_for "^ hot \\[[0-9]+/[0-9]+\\]" "wakers: Esc returns to the hot functions"
keys 9
wait_for "25479/25488 offcpu +[^ ]*─↑" "wakers: the timeline marks where a thread was woken"
keys 6 E / waiter Enter
keys W
wait_for "topdown > wakers of waiter \\(frame\\)" "wakers: W on a frame of the top-down tree"
wait_for "156\\.46 ms +69\\.54% +30 [▸▾] offcpu 25488$" "wakers: the frame's wakers"
finish "wakers"

# ---- diff mode: annotate with Baseline, New, Delta (by source line for two builds, by offset for one) ----
start "'$bin' --buildid-dir '$data/buildid' '$data/diff-a.data' '$data/diff-b.data'"
wait_for "Diff of event 'cpu-clock': OLD 182 samples, NEW 149" "diff annotate: the table"
keys Home a
wait_for "spin in diffwork, cpu-clock: 156 samples; OLD and NEW paired by source line \(two builds\)" \
	"diff annotate: two builds pair by source line"
wait_for "^ Baseline +New +Delta +Address +Instruction" "diff annotate: Baseline, New, Delta"
wait_for "^ +64\.10% +68\.47% +\+4\.37% +diffwork\.c:29( |$)" "diff annotate: a line's share in each and the change"
wait_for "^ +35\.90% +1161 +lea" "diff annotate: an instruction, OLD's only"
keys s
wait_for "^ +24\.36% +15\.32% +-9\.04% +diffwork\.c:28( |$)" "diff annotate: source only, a line's two places summed"
finish "diff annotate by line"
start "'$bin' --buildid-dir '$data/buildid' '$data/diff-b.data' '$data/diff-c.data'"
wait_for "Diff of event" "diff annotate, one build: the table"
keys Home a
wait_for "steady in diffwork, cpu-clock:u: 20 samples; OLD and NEW paired by offset \(one build\)" \
	"diff annotate: one build pairs by offset"
wait_for "^ +5\.00% +33\.33% +\+28\.33% +11fb +shr +\\\$0x9,%eax" "diff annotate: an instruction in each and the change"
finish "diff annotate by offset"

# ---- export (P, X): the view to a file by a child process, the scope's export line in y ----
start "'$bin' --buildid-dir '$data/buildid' '$data/fork.data'"
wait_for "symbols in [0-9.]+ s" "export: symbols resolved"
keys 2
wait_for "26195 +forkexec +59 " "export: the processes"
keys Down t 1
wait_for "32\.60% +32\.60% +59 forkexec +forkexec +. \[\.\] spin" "export: the zoom's hot functions"
keys P
wait_for "export to: perfnav-hot\.txt" "export: P asks for a file name, a default by the view"
keys Enter
wait_for "wrote perfnav-hot\.txt: [0-9]+ rows?" "export: the child says where it wrote"
if grep -qE '^# perfnav Hot functions of .*fork\.data, scope: .*26195' "$tmp/perfnav-hot.txt" &&
	grep -qE '^ +32\.60% +32\.60% +59 +forkexec +forkexec +[+ ] \[\.\] spin$' "$tmp/perfnav-hot.txt"; then
	ok "export: the file holds the rows as shown, the scope in its title"
else
	ko "export: perfnav-hot.txt: $(head -5 "$tmp/perfnav-hot.txt" 2>&1)"
fi
keys X C-u
keys "out.bin" Enter
wait_for "export: end the name with \.txt" "export: an unknown ending is said, the line kept"
wait_for "export to: out\.bin" "export: the line stays open"
keys Escape 8
keys X
wait_for "export to: perfnav-flame\.svg" "export: the flame graph's default is SVG"
keys Enter
wait_for "wrote perfnav-flame\.svg" "export: the flame graph written"
if grep -q '</svg>' "$tmp/perfnav-flame.svg" && grep -q 'spin' "$tmp/perfnav-flame.svg"; then
	ok "export: a whole SVG with the zoom's frames"
else
	ko "export: perfnav-flame.svg is not a whole SVG"
fi
keys y
wait_for "perfnav export --format svg -o perfnav-flame\.svg" "export: y gives the export line too"
keys Escape 1 X C-u
keys "scope.folded" Enter
wait_for "wrote scope\.folded" "export: the scope as folded stacks"
if [ "$(cat "$tmp/scope.folded")" = "$("$bin" export --format folded --buildid-dir "$data/buildid" \
	--pid 26195 "$data/fork.data" 2>/dev/null)" ] && [ -s "$tmp/scope.folded" ]; then
	ok "export: the folded stacks are perfnav export --pid's"
else
	ko "export: scope.folded differs from perfnav export --pid 26195"
fi
finish "export"

echo "tui_e2e: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
