#!/bin/bash
# perfnav top --off-cpu against off-CPU time computed here, independently,
# from perf's own output: tests/data/expected/offcpu.data.offcpu-script.txt is
# `perf script -F tid,time,trace,ip,sym,dso --ns --kallsyms /dev/null` of
# tests/data/offcpu.data (written by tests/record-fixtures.sh), so no perf is
# needed here.  The awk below shares nothing with perfnav: it reads the
# sched_switch payloads and callchains as perf printed them and applies the
# definition (docs/subcommands.md, top --off-cpu):
#   - each sample is a switch-out of prev_pid (but pid 0, the idle task) with
#     the sample's callchain as its stack, and a switch-in of next_pid;
#   - a switch-out is paired with the next switch-in of its thread; its span
#     (t_in - t_out) is charged to its stack: self to the innermost frame,
#     children once to each distinct function on the stack;
#   - left out: a switch-out never switched back in, one followed by another
#     switch-out of the thread first (the earlier), a switch-in before it.
# Compared, in percent of all off-CPU time, within 0.5 (points):
#   - per function, self and children (perfnav top --off-cpu --children
#     --sort sym --tsv), over the functions that read the same on every
#     machine: the fixture binary's (build-id cache) and kernel frames, which
#     both sides leave as addresses (--kallsyms /dev/null);
#   - per thread (--sort pid), every thread;
#   - and the total off-CPU time in ns (perf's "Event count"), exactly.
# The same comparisons for tests/data/offcpu-sw.data, recorded with
# --switch-events and no sched_switch, from
# tests/data/expected/offcpu-sw.data.offcpu-script.txt (`perf script
# --show-switch-events -F tid,time,ip,sym,dso --ns --kallsyms /dev/null`):
#   - a PERF_RECORD_SWITCH OUT line is a switch-out of its thread (but tid 0)
#     with the thread's last sample before it as its stack, state R+ when it
#     says preempt, else S|D; a thread with no sample before has none;
#   - an IN line is the switch-in of its thread; pairing and charging as above.
# usage: tests/offcpu-check.sh [-v]     (-v: print the compared rows)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${PERFNAV:-./perfnav}
data=tests/data/offcpu.data
script=tests/data/expected/offcpu.data.offcpu-script.txt
swdata=tests/data/offcpu-sw.data
swscript=tests/data/expected/offcpu-sw.data.offcpu-script.txt
verbose=${1:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT


# The independent side: "sym KEY SELF_PCT CHILDREN_PCT", "tid TID PCT" and "total NS" lines.
# A frame's key: its symbol when perf resolved it in the fixture binary, the
# address (hex, no leading zeros) of a kernel frame; other frames (libc, ld.so:
# their names depend on the machine) get no row but still occupy their place.
awk '
function ns_of(s,    a) {
	sub(/:$/, "", s)
	split(s, a, ".")
	return a[1] * 1000000000 + a[2]
}
function field(name,    m) {
	if (match(hdr, " " name "=[^ ]+") == 0)
		return ""
	m = substr(hdr, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
	return m
}
function hexkey(a) {
	a = tolower(a)
	sub(/^0x/, "", a)
	sub(/^0+/, "", a)
	return "0x" (a == "" ? "0" : a)
}
# the sample held in hdr and fr[1..nf]
function flush(    t, prev, next_, i, k, stack, seen) {
	if (hdr == "")
		return
	t = ns_of(tm)
	prev = field("prev_pid") + 0
	next_ = field("next_pid") + 0
	if (next_ in out_t) {
		if (t >= out_t[next_])
			charge(next_, t - out_t[next_], out_s[next_], out_st[next_])
		delete out_t[next_]
		delete out_s[next_]
		delete out_st[next_]
	}
	if (prev != 0) {
		stack = ""
		for (i = 1; i <= nf; i++)
			stack = stack (i > 1 ? SUBSEP : "") fr[i]
		out_t[prev] = t
		out_s[prev] = stack
		out_st[prev] = field("prev_state")
	}
	hdr = ""
	nf = 0
}
function charge(tid, ns, stack, state,    n, f, i, seen) {
	total += ns
	thr[tid] += ns
	st[state] += ns
	n = split(stack, f, SUBSEP)
	if (n > 0 && f[1] != "-")
		self[f[1]] += ns
	for (i = 1; i <= n; i++) {
		if (f[i] == "-" || (f[i] in seen))
			continue
		seen[f[i]] = 1
		child[f[i]] += ns
	}
}
/^[^\t]/ && / prev_pid=/ {
	flush()
	hdr = $0
	tm = $2
	next
}
/^\t/ && hdr != "" {
	line = $0
	sub(/^\t */, "", line)
	addr = line
	sub(/ .*/, "", addr)
	dso = line
	sub(/.* \(/, "", dso)
	sub(/\)$/, "", dso)
	sym = line
	sub(/^[^ ]+ /, "", sym)
	sub(/ \([^(]*\)$/, "", sym)
	if (dso == "[kernel.kallsyms]")
		key = hexkey(addr)
	else if (dso ~ /\/perfnav-fixtures\/offcpu$/ && sym != "[unknown]")
		key = sym
	else
		key = "-"
	fr[++nf] = key
	next
}
END {
	flush()
	printf "total %d\n", total
	for (k in child)
		printf "sym %s %.4f %.4f\n", k, 100 * self[k] / total, 100 * child[k] / total
	for (k in thr)
		printf "tid %s %.4f\n", k, 100 * thr[k] / total
	for (k in st)
		printf "state %s %.4f\n", k, 100 * st[k] / total >statefile
}' statefile="$tmp/indep.state" "$script" >"$tmp/indep"

# compare DATA INDEP NEED MINSTATES: perfnav's rows of DATA against the
# independent side in INDEP (and INDEP.state), which must hold offcpu.c's
# threads and the functions NEED names (the first with 5% at least) and
# MINSTATES states.
compare()
{
local data=$1 indep=$2 need=$3 minstates=$4
local pn=("$bin" top --off-cpu -i "$data" --buildid-dir tests/data/buildid --kallsyms /dev/null)

# perfnav's rows in the same terms ("[k] 0xffff..." and "[.] name" to keys).
"${pn[@]}" --children --sort sym --tsv >"$tmp/sym.tsv" 2>/dev/null
"${pn[@]}" --sort pid --tsv >"$tmp/pid.tsv" 2>/dev/null
"${pn[@]}" --no-children --sort pid >"$tmp/table.txt" 2>/dev/null

awk -F'\t' -v verbose="$verbose" -v need="$need" '
function hexkey(a) {
	a = tolower(a)
	sub(/^0x/, "", a)
	sub(/^0+/, "", a)
	return "0x" (a == "" ? "0" : a)
}
function check(what, key, want, got) {
	ncmp++
	if (verbose != "" || (want - got > 0.5 || got - want > 0.5))
		printf "%-5s %-36s independent %8.4f  perfnav %8.4f%s\n", what, key, want, got,
		    (want - got > 0.5 || got - want > 0.5) ? "  MISMATCH" : ""
	if (want - got > 0.5 || got - want > 0.5)
		bad++
}
FILENAME ~ /indep$/ {
	split($0, w, " ")
	if (w[1] == "total")
		total = w[2]
	else if (w[1] == "sym") {
		iself[w[2]] = w[3]
		ichild[w[2]] = w[4]
	} else
		ithr[w[2]] = w[3]
	next
}
FILENAME ~ /sym.tsv$/ && $1 == "off-cpu" {
	k = $5
	sub(/^\[[k.]\] /, "", k)
	if (k ~ /^(0x)?[0-9a-f]+$/)
		k = hexkey(k)
	pself[k] += $3
	pchild[k] += $2
	next
}
FILENAME ~ /pid.tsv$/ && $1 == "off-cpu" {
	k = $4
	sub(/^ */, "", k)
	sub(/:.*/, "", k)
	pthr[k] += $2
	next
}
FILENAME ~ /table.txt$/ && /^# Event count/ {
	ptotal = $0
	sub(/.*: /, "", ptotal)
	next
}
END {
	for (k in ichild)
		check("sym", k " (children)", ichild[k], pchild[k] + 0)
	for (k in ichild)
		check("sym", k " (self)", iself[k], pself[k] + 0)
	# rows perfnav has that the independent side does not (kernel addresses)
	for (k in pchild)
		if (k ~ /^0x/ && !(k in ichild))
			check("sym", k " (only perfnav)", 0, pchild[k])
	for (k in ithr)
		check("tid", k, ithr[k], pthr[k] + 0)
	for (k in pthr)
		if (!(k in ithr))
			check("tid", k " (only perfnav)", 0, pthr[k])
	printf "total off-CPU ns: independent %s, perfnav %s\n", total, ptotal
	if (total != ptotal || total == 0)
		bad++
	# what a fooled comparison would lack: the workload threads and functions
	for (k in ithr)
		if (ithr[k] > 5)
			nbig++
	nneed = split(need, nd, " ")
	for (i = 1; i <= nneed; i++)
		if (!((nd[i]) in ichild))
			nbig = -1
	if (nbig < 6 || ichild[nd[1]] < 5) {
		print "offcpu-check: the independent side lacks the workload threads or functions"
		bad++
	}
	printf "offcpu-check: %d values compared, %d off by more than 0.5\n", ncmp, bad
	exit bad != 0
}' "$indep" "$tmp/sym.tsv" "$tmp/pid.tsv" "$tmp/table.txt" || exit 1

# perfnav folded --off-cpu: its stacks' counts (ns) sum to the same total.
want=$(awk '$1 == "total" { print $2 }' "$indep")
got=$("$bin" folded --off-cpu -i "$data" --buildid-dir tests/data/buildid --kallsyms /dev/null 2>/dev/null |
	awk '{ s += $NF } END { printf "%d", s }')
echo "folded --off-cpu: its stacks sum to $got ns, the independent total is $want ns"
[ -n "$want" ] && [ "$want" != 0 ] && [ "$got" = "$want" ]

# --sort state: the off-CPU time per prev_state (S asleep, D blocked, R+ preempted...).
"${pn[@]}" --no-children --sort state --tsv >"$tmp/state.tsv" 2>/dev/null
awk -F'\t' -v minstates="$minstates" '
FNR == NR { split($0, w, " "); if (w[1] == "state") want[w[2]] = w[3]; next }
/^#/ { next }
{ got[$4] = $2 }
END {
	for (k in want) {
		n++
		d = want[k] - got[k]
		if (d < -0.5 || d > 0.5 || !(k in got)) {
			printf "state %s: independent %.4f, perfnav %s\n", k, want[k], got[k]
			bad++
		}
	}
	printf "state: %d states compared, %d off by more than 0.5\n", n, bad
	exit bad != 0 || n < minstates
}' "$indep.state" "$tmp/state.tsv"
}


echo "== $data: sched:sched_switch samples"
compare "$data" "$tmp/indep" "holder waiter sleeper" 3

# The independent side of offcpu-sw.data, in the same terms: each sample's
# stack kept as its thread's last; SWITCH lines paired.
mkdir -p "$tmp/sw"
awk '
function ns_of(s,    a) {
	sub(/:$/, "", s)
	split(s, a, ".")
	return a[1] * 1000000000 + a[2]
}
function hexkey(a) {
	a = tolower(a)
	sub(/^0x/, "", a)
	sub(/^0+/, "", a)
	return "0x" (a == "" ? "0" : a)
}
# the sample held in stid and fr[1..nf]: its thread'"'"'s last stack now
function flush(    i, stack) {
	if (stid == "")
		return
	stack = ""
	for (i = 1; i <= nf; i++)
		stack = stack (i > 1 ? SUBSEP : "") fr[i]
	last[stid] = stack
	stid = ""
	nf = 0
}
function charge(tid, ns, stack, state,    n, f, i, seen) {
	total += ns
	thr[tid] += ns
	st[state] += ns
	n = split(stack, f, SUBSEP)
	if (n > 0 && f[1] != "-")
		self[f[1]] += ns
	for (i = 1; i <= n; i++) {
		if (f[i] == "-" || (f[i] in seen))
			continue
		seen[f[i]] = 1
		child[f[i]] += ns
	}
}
/^[^\t].* PERF_RECORD_SWITCH(_CPU_WIDE)? (OUT|IN)/ {
	flush()
	tid = $1 + 0
	t = ns_of($2)
	if ($4 == "IN") {
		if (tid in out_t) {
			if (t >= out_t[tid])
				charge(tid, t - out_t[tid], out_s[tid], out_st[tid])
			delete out_t[tid]
		}
	} else if (tid != 0) {
		delete out_t[tid]	# an earlier switch-out not switched in: dropped
		if (tid in last) {
			out_t[tid] = t
			out_s[tid] = last[tid]
			out_st[tid] = $0 ~ /preempt/ ? "R+" : "S|D"
		}
	}
	next
}
/^[^\t]/ {
	flush()
	stid = $1 + 0
	next
}
/^\t/ && stid != "" {
	line = $0
	sub(/^\t */, "", line)
	addr = line
	sub(/ .*/, "", addr)
	dso = line
	sub(/.* \(/, "", dso)
	sub(/\)$/, "", dso)
	sym = line
	sub(/^[^ ]+ /, "", sym)
	sub(/ \([^(]*\)$/, "", sym)
	if (dso == "[kernel.kallsyms]")
		key = hexkey(addr)
	else if (dso ~ /\/perfnav-fixtures\/offcpu$/ && sym != "[unknown]")
		key = sym
	else
		key = "-"
	fr[++nf] = key
	next
}
END {
	flush()
	printf "total %d\n", total
	for (k in child)
		printf "sym %s %.4f %.4f\n", k, 100 * self[k] / total, 100 * child[k] / total
	for (k in thr)
		printf "tid %s %.4f\n", k, 100 * thr[k] / total
	for (k in st)
		printf "state %s %.4f\n", k, 100 * st[k] / total >statefile
}' statefile="$tmp/sw/indep.state" "$swscript" >"$tmp/sw/indep"

echo "== $swdata: PERF_RECORD_SWITCH records alone (approximate)"
compare "$swdata" "$tmp/sw/indep" "burn waiter holder" 2

# The browser's scope-command names its off-CPU event: top, folded and export take
# --event off-cpu as --off-cpu, to the byte.
for cmd in "top --children --sort sym --tsv" "folded" "export --format folded"; do
	a=$("$bin" $cmd --off-cpu --kallsyms /dev/null "$data" 2>/dev/null)
	b=$("$bin" $cmd --event off-cpu --kallsyms /dev/null "$data" 2>/dev/null)
	if [ -z "$a" ] || [ "$a" != "$b" ]; then
		echo "FAIL: perfnav $cmd --event off-cpu is not --off-cpu"
		exit 1
	fi
done
echo "--event off-cpu: as --off-cpu for top, folded and export"
