#!/bin/bash
# perfnav top --off-cpu --sort waker against who woke whom computed here,
# independently, from perf's own output: tests/data/expected/wakers.data.wakers-script.txt
# is `perf script -F comm,tid,time,event,trace --ns` of tests/data/wakers.data
# (sched_switch and sched_waking samples, written by tests/record-fixtures.sh),
# so no perf is needed here.  The awk below shares nothing with perfnav: it
# reads the payloads as perf printed them and applies the definition
# (docs/subcommands.md, the sort key waker):
#   - a sched_switch line is the switch-in of next_pid, then the switch-out
#     of prev_pid (but pid 0); a switch-out is paired with the next switch-in
#     of its thread, its span t_in - t_out; a switch-out followed by another
#     of the thread first is left out (the earlier), as one never switched in;
#   - a sched_waking line is a wakeup of its payload's pid by the line's own
#     thread ("comm tid" as perf prints them);
#   - a span's waker is the last wakeup of its thread at or after t_out and
#     at or before t_in, in the order of the lines; none: N/A.
# Compared per waker: the spans (the Samples column, exactly) and their share
# of all off-CPU time (within 0.01 points: perfnav prints two decimals); the
# total in ns (perf's "Event count") exactly.
# usage: tests/wakers-check.sh [-v]     (-v: print the compared rows)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${PERFNAV:-./perfnav}
data=tests/data/wakers.data
script=tests/data/expected/wakers.data.wakers-script.txt
verbose=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The independent side: "waker COMM TID\tNS\tSPANS" lines and "total NS".
awk '
function ns_of(s,    a) {
	split(s, a, ".")
	return a[1] * 1000000000 + a[2]
}
function field(name,    m) {
	if (match(payload, " " name "=[^ ]+") == 0)
		return ""
	return substr(payload, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
}
match($0, / -?[0-9]+ +[0-9]+\.[0-9]+: sched:sched_[a-z_]+: /) {
	head = substr($0, 1, RSTART)
	rest = substr($0, RSTART + 1)
	payload = " " substr(rest, index(rest, ": sched:") + 2)
	sub(/^ *[a-z:_]+: /, "", payload)
	payload = " " payload
	n = split(rest, w, " ")
	tid = w[1]
	t = ns_of(substr(w[2], 1, length(w[2]) - 1))
	ev = w[3]
	comm = head
	sub(/^ +/, "", comm)
	sub(/ +$/, "", comm)
	if (ev == "sched:sched_waking:") {
		pid = field("pid") + 0
		wake_t[pid] = t
		wake_by[pid] = comm " " tid
		next
	}
	if (ev != "sched:sched_switch:")
		next
	prev = field("prev_pid") + 0
	nxt = field("next_pid") + 0
	if (nxt in out_t) {
		if (t >= out_t[nxt]) {
			who = "N/A"
			if ((nxt in wake_t) && wake_t[nxt] >= out_t[nxt] && wake_t[nxt] <= t)
				who = wake_by[nxt]
			ns[who] += t - out_t[nxt]
			spans[who]++
			total += t - out_t[nxt]
		}
		delete out_t[nxt]
	}
	if (prev != 0)
		out_t[prev] = t
}
END {
	printf "total %d\n", total
	for (k in ns)
		printf "waker %s\t%d\t%d\n", k, ns[k], spans[k]
}' "$script" >"$tmp/indep"

"$bin" top --off-cpu --sort waker --tsv -i "$data" >"$tmp/waker.tsv" 2>/dev/null
"$bin" top --off-cpu --no-children --sort waker -i "$data" >"$tmp/table.txt" 2>/dev/null

awk -F'\t' -v verbose="$verbose" '
FILENAME ~ /indep$/ {
	if ($0 ~ /^total /) {
		total = substr($0, 7)
		next
	}
	k = substr($1, 7)
	ins[k] = $2
	ispans[k] = $3
	next
}
FILENAME ~ /waker.tsv$/ && $1 == "off-cpu" {
	ppct[$NF] += $(NF - 2)
	pspans[$NF] += $(NF - 1)
	next
}
FILENAME ~ /table.txt$/ && /^# Event count/ {
	ptotal = $0
	sub(/.* /, "", ptotal)
	next
}
END {
	if (total == 0 || ptotal != total) {
		printf "total off-CPU ns: independent %s, perfnav %s  MISMATCH\n", total, ptotal
		bad++
	}
	for (k in ins) {
		want = 100 * ins[k] / total
		got = ppct[k] + 0
		off = want - got > 0.0051 || got - want > 0.0051 || ispans[k] != pspans[k]
		if (verbose != "" || off)
			printf "%-32s independent %8.4f%% %5d spans  perfnav %8.2f%% %5d spans%s\n",
			    k, want, ispans[k], got, pspans[k], off ? "  MISMATCH" : ""
		bad += off
		n++
	}
	for (k in ppct)
		if (!(k in ins)) {
			printf "%-32s only perfnav has it  MISMATCH\n", k
			bad++
		}
	if (n < 3 || !("N/A" in ins)) {
		printf "too few wakers compared (%d)\n", n
		bad++
	}
	printf "wakers-check: %d wakers compared, %d mismatches\n", n, bad
	exit bad > 0
}' "$tmp/indep" "$tmp/waker.tsv" "$tmp/table.txt"
