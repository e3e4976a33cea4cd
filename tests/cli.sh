#!/bin/bash
# End-to-end tests of the text subcommands on the project's fixtures,
# against what real perf printed for them (tests/data/expected):
#   header: every line of perf report --header-only -I but "captured on"
#   stats:  perf report --stats, byte for byte
#   dump:   every record's offset, size and type (perf -D prints samples as
#           it delivers them, in time order: compared as sorted lists)
# and the behaviour on bad input: messages naming the file and offset,
# exit statuses.  Run by make check (PERFNAV = the built program).
set -uo pipefail

top=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
bin=${PERFNAV:-$PWD/perfnav}
[ -x "$bin" ] || bin=$top/perfnav
data=$top/tests/data
tmp=$(mktemp -d)
# the cache of loaded recordings goes to the temporary directory, not the home (perfnav cache)
export XDG_CACHE_HOME="$tmp/cache"
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

for exp in "$data"/expected/*.stats.txt; do
	name=$(basename "$exp" .stats.txt)
	f=$data/$name
	# stats: exactly perf's text
	if "$bin" stats "$f" > "$tmp/out" 2> "$tmp/err" && diff -u "$exp" "$tmp/out" > "$tmp/diff"; then
		ok
	else
		ko "stats $name"; head -20 "$tmp/diff" "$tmp/err"
	fi
	# header: perf's block, "captured on" aside
	want=$data/expected/$name.header.txt
	if "$bin" header "$f" > "$tmp/out" 2> "$tmp/err"; then
		grep -v '^# captured on' "$want" > "$tmp/want"
		# after perf's text, ours goes on with its own section table
		sed '/^# perfnav: feature sections/,$d' "$tmp/out" | grep -v '^# captured on' |
			sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' > "$tmp/got"
		if diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then ok; else ko "header $name"; head -20 "$tmp/diff"; fi
	else
		ko "header $name exited $?"; cat "$tmp/err"
	fi
	# dump: offset, size, type of every record in order (perf prints offset 0 as "0")
	want=$data/expected/$name.dump.txt
	if "$bin" dump "$f" > "$tmp/out" 2> "$tmp/err"; then
		sed -nE 's/^(0x[0-9a-f]+|0) \[(0x[0-9a-f]+)\]: (PERF_RECORD_[A-Z0-9_]+).*/\1 \2 \3/p' "$tmp/out" |
			sed -E 's/^0 /0x0 /' | grep -v ' PERF_RECORD_COMPRESSED$' | sort > "$tmp/got"
		sort "$want" > "$tmp/want"
		if diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then ok; else ko "dump $name"; head -20 "$tmp/diff"; fi
	else
		ko "dump $name exited $?"; cat "$tmp/err"
	fi
done

# the cache of loaded recordings (docs/cache.md): written by the first top, used by the
# second with the same rows, listed, refused when damaged, cleared; --no-cache writes none;
# top's kept rows (agg-*.pnc) likewise
cache_case() {
	export XDG_CACHE_HOME="$tmp/cache-cli"
	rm -rf "$XDG_CACHE_HOME"
	cp "$data/fp.data" "$tmp/cached.data"
	"$bin" top --no-cache "$tmp/cached.data" > "$tmp/c0" 2>&1 &&
		[ ! -e "$XDG_CACHE_HOME/perfnav" ] || { ko "cache: --no-cache wrote an entry"; return; }
	"$bin" top "$tmp/cached.data" > "$tmp/c1" 2>&1 && "$bin" top "$tmp/cached.data" > "$tmp/c2" 2>&1 &&
		cmp -s "$tmp/c0" "$tmp/c1" && cmp -s "$tmp/c1" "$tmp/c2" ||
		{ ko "cache: top differs with a cache"; return; }
	"$bin" cache list > "$tmp/cl" 2>&1 && grep -q "^2 entries, .* in $XDG_CACHE_HOME/perfnav" "$tmp/cl" &&
		grep -q "(rows) .*cached.data" "$tmp/cl" || { ko "cache list"; cat "$tmp/cl"; return; }
	for e in "$XDG_CACHE_HOME"/perfnav/agg-*.pnc; do truncate -s -8 "$e"; done
	"$bin" top "$tmp/cached.data" > "$tmp/c3" 2> "$tmp/ce" && cmp -s "$tmp/c0" "$tmp/c3" &&
		grep -q "agg-.*\.pnc: offset 0x.*truncated or grown: cached rows not used, made afresh" "$tmp/ce" ||
		{ ko "cache: truncated rows"; cat "$tmp/ce"; return; }
	"$bin" top "$tmp/cached.data" > "$tmp/c3" 2> "$tmp/ce" && cmp -s "$tmp/c0" "$tmp/c3" &&
		[ ! -s "$tmp/ce" ] || { ko "cache: rows kept again"; cat "$tmp/ce"; return; }
	for e in "$XDG_CACHE_HOME"/perfnav/idx-*.pnc; do truncate -s -8 "$e"; done
	"$bin" top "$tmp/cached.data" > "$tmp/c3" 2> "$tmp/ce" && cmp -s "$tmp/c0" "$tmp/c3" &&
		grep -q "idx-.*\.pnc: offset 0x.*truncated or grown: cache entry not used, loaded afresh" "$tmp/ce" ||
		{ ko "cache: a truncated entry"; cat "$tmp/ce"; return; }
	"$bin" cache clear > "$tmp/cc" 2>&1 && grep -q "^removed 2 files" "$tmp/cc" &&
		"$bin" cache list | grep -q "^0 entries" || { ko "cache clear"; cat "$tmp/cc"; return; }
	# an entry larger than --cache-size: not written, and said (50,000 samples: over 1 MiB of index)
	python3 "$top/tests/mk-brhist.py" --big 50000 "$tmp/big.data" \
		"$(ls -d "$data"/buildid/tmp/perfnav-fixtures/cpu/*/elf | head -1)" &&
		"$bin" top --cache-size 1M "$tmp/big.data" > /dev/null 2> "$tmp/ce" &&
		grep -q "big.data: not cached: its index entry (1\.[0-9] MiB) is larger than --cache-size (1\.0 MiB)" \
			"$tmp/ce" && [ -z "$(ls "$XDG_CACHE_HOME/perfnav")" ] ||
		{ ko "cache: an entry over --cache-size"; cat "$tmp/ce"; return; }
	rm -f "$tmp/big.data"
	export XDG_CACHE_HOME="$tmp/cache"
	ok
}
cache_case

# hex: the first record of plain.data, its bytes and named fields
if "$bin" hex "$data/plain.data" 0x108 > "$tmp/out" 2> "$tmp/err" &&
	grep -q 'PERF_RECORD_ID_INDEX' "$tmp/out" && grep -q 'header.type' "$tmp/out" &&
	grep -q '45 00 00 00' "$tmp/out"; then
	ok
else
	ko "hex plain.data 0x108"; cat "$tmp/out" "$tmp/err" | head -20
fi
# hex at an offset where no record starts: exit 1 and the nearest records
if "$bin" hex "$data/plain.data" 0x109 > "$tmp/out" 2> "$tmp/err"; then
	ko "hex at 0x109 succeeded"
elif grep -q 'offset 0x109' "$tmp/err" && grep -q '0x108' "$tmp/err"; then
	ok
else
	ko "hex at 0x109: message"; cat "$tmp/err"
fi

# bad input: each gets a message naming the file, and the right status
expect_fail() # what, status, message-regex, args...
{
	local what=$1 want=$2 re=$3 rc
	shift 3
	"$bin" "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -Eq "$re" "$tmp/err"; then
		ok
	else
		ko "$what: exit $rc (want $want), stderr: $(head -c 300 "$tmp/err")"
	fi
}
: > "$tmp/empty.data"
expect_fail "empty file" 1 "empty.data: empty file" stats "$tmp/empty.data"
head -c 4096 "$bin" > "$tmp/elf.data"
expect_fail "not a perf file" 1 "elf.data: offset 0x0: not a perf.data file" dump "$tmp/elf.data"
mkdir "$tmp/dir.data"
expect_fail "directory without data" 1 "without a 'data' file" header "$tmp/dir.data"
expect_fail "missing file" 1 "nope.data: No such file" stats "$tmp/nope.data"
expect_fail "unknown option" 2 "unknown option" stats --bogus "$data/plain.data"
# permission denied: as an unprivileged user (root reads anything), when setpriv is here
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	cp "$data/plain.data" "$tmp/locked.data"
	chmod 000 "$tmp/locked.data"
	chmod 755 "$tmp"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$bin" stats "$tmp/locked.data" \
		> "$tmp/out" 2> "$tmp/err"
	rc=$?
	if [ "$rc" -eq 1 ] && grep -q "locked.data: Permission denied" "$tmp/err"; then
		ok
	else
		ko "permission denied: exit $rc, stderr: $(head -c 300 "$tmp/err")"
	fi
fi
# truncated inside the data: what precedes is shown, the damage on stderr,
# exit 0 as perf (3 with --strict)
size=$(stat -c %s "$data/plain.data")
head -c $((size / 2)) "$data/plain.data" > "$tmp/cut.data"
if "$bin" dump "$tmp/cut.data" > "$tmp/out" 2> "$tmp/err" &&
	[ "$(grep -c PERF_RECORD_SAMPLE "$tmp/out")" -gt 10 ] &&
	grep -Eq 'cut.data: offset 0x[0-9a-f]+: ' "$tmp/err"; then
	ok
else
	ko "truncated file: $(head -c 300 "$tmp/err")"
fi
expect_fail "truncated, --strict" 3 "runs past the end" stats --strict "$tmp/cut.data"
# pipe mode from standard input equals the same file
if "$bin" stats - < "$data/pipe.data" > "$tmp/a" && "$bin" stats "$data/pipe.data" > "$tmp/b" &&
	cmp -s "$tmp/a" "$tmp/b"; then
	ok
else
	ko "stats from stdin"
fi
cat "$data/pipe.data" | "$bin" stats - > "$tmp/a" && cmp -s "$tmp/a" "$tmp/b" && ok || ko "stats from a pipe"

# script: sample lines as real perf script -F pid,tid,time,ip,sym,dso -G printed them
# (tests/data/expected/NAME.script.txt; whitespace as perf pads it is not compared).
# Files without build ids are left out: perfnav then also uses the only cached
# version of a path (the corpus oracle's behaviour), where perf here does not.
for f in plain fp fork multi; do
	exp="$data/expected/$f.data.script.txt"
	[ -f "$exp" ] || continue
	if "$bin" script -F pid,tid,time,ip,sym,dso --buildid-dir "$data/buildid" \
		--kallsyms /dev/null "$data/$f.data" > "$tmp/script" 2> "$tmp/err" &&
		diff -w "$tmp/script" "$exp" > "$tmp/diff"; then
		ok
	else
		ko "script $f: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done

# --call-graph lbr (tests/mk-brhist.py): a sample's user chain is its branch stack of calls in
# flight, as perf script prints it (its default lines, byte for byte)
if "$bin" script --buildid-dir "$data/buildid" "$data/lbr.data" > "$tmp/script" 2> "$tmp/err" &&
	diff "$data/expected/lbr.data.script-default.txt" "$tmp/script" > "$tmp/diff" &&
	grep -q '11ab mix+0x17' "$tmp/script"; then
	ok
else
	ko "script of --call-graph lbr: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi

# script: perf script's default lines of tracepoint samples (comm, tid, cpu, time, event and
# the payload as libtraceevent prints it), byte for byte (tests/data/expected/NAME.script-trace.txt:
# the lines naming a sys:name event).
for exp in "$data"/expected/*.data.script-trace.txt; do
	f=$(basename "$exp" .script-trace.txt)
	if "$bin" script --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/$f" > "$tmp/script" \
		2> "$tmp/err" && grep -E '^[^\t].*: +[a-z0-9_]+:[a-z0-9_]+: ' "$tmp/script" |
		diff - "$exp" > "$tmp/diff"; then
		ok
	else
		ko "script (tracepoints) $f: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done
# Tracepoint payloads are recording data: escaped as every name; damaged ones give a reason.
# tracepoint.data's first sched_switch sample is at 0x6c0: raw.size at +0x38, the payload at
# +0x3c (common_type), prev_comm at +0x44.
tp_patch() {	# OUT OFFSET BYTES (printf format)
	cp "$data/tracepoint.data" "$1" && chmod u+w "$1" &&
		printf "$3" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc 2>/dev/null
}
tp_patch "$tmp/tp-esc.data" 0x704 '\033[2Jev\007'
if "$bin" script --kallsyms /dev/null "$tmp/tp-esc.data" > "$tmp/script" 2> "$tmp/err" &&
	grep -qF 'prev_comm=\x1b[2Jev\x07 prev_pid=28375' "$tmp/script" &&
	! grep -q $'\033' "$tmp/script"; then
	ok
else
	ko "script: a payload's control bytes not escaped: $(grep -a -m1 prev_comm "$tmp/script" | head -c 300)"
fi
tp_patch "$tmp/tp-type.data" 0x6fc '\021\021'
tp_patch "$tmp/tp-short.data" 0x6f8 '\010\000\000\000'
tp_patch "$tmp/tp-past.data" 0x6f8 '\377\377\000\000'
# (each output whole into a file: a grep -q that stops reading early would cut the writer short)
if "$bin" script --kallsyms /dev/null "$tmp/tp-type.data" > "$tmp/script" 2> "$tmp/err" &&
	grep -qF 'sched:sched_switch: [damaged payload: type 4369, not sched:sched_switch'"'"'s 372]' "$tmp/script" &&
	"$bin" script --kallsyms /dev/null "$tmp/tp-short.data" > "$tmp/script" 2> "$tmp/err" &&
	grep -qF 'sched:sched_switch: [damaged payload: 8 bytes, sched:sched_switch needs 64]' "$tmp/script" &&
	"$bin" script --kallsyms /dev/null "$tmp/tp-past.data" > "$tmp/script" 2> "$tmp/err" &&
	[ "$(grep -c 'sched:sched_switch: prev_comm=' "$tmp/script")" -eq 201 ]; then
	ok
else
	ko "script: damaged tracepoint payloads: $(head -c 300 "$tmp/err")"
fi
# script with perf 6.1's default fields, byte for byte (tests/data/expected/NAME.script-default.txt):
# period, sym+offset, the event name aligned to the longest, the comm unpadded when callchains
# follow, a callchain's user frames at their address in the DSO
for f in multi fp dwarf; do
	if "$bin" script --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/$f.data" \
		> "$tmp/script" 2> "$tmp/err" && cmp -s "$tmp/script" "$data/expected/$f.data.script-default.txt"; then
		ok
	else
		ko "script $f (default fields): $(diff "$tmp/script" "$data/expected/$f.data.script-default.txt" | head -c 400)"
	fi
done
# -F trace: the payload's text after the event, as perf script -F ...,trace
if "$bin" script -F tid,event,trace --kallsyms /dev/null "$data/tracepoint.data" > "$tmp/script" \
	2> "$tmp/err" && grep -qE '^ *[0-9]+ +sched:sched_switch: prev_comm=threads prev_pid=' "$tmp/script"; then
	ok
else
	ko "script -F tid,event,trace: $(head -c 300 "$tmp/script") $(head -c 200 "$tmp/err")"
fi

# script's filters: the sample lines of perf script -F pid,tid,time,ip,sym,dso -G with the same
# filter (tests/data/expected/NAME.script-FILTER.txt; each filter leaves other samples out);
# --comms forkexec keeps every sample of fork.data, --comms nosuch none.
while IFS='|' read -r exp file opt val; do
	if "$bin" script -F pid,tid,time,ip,sym,dso --buildid-dir "$data/buildid" \
		--kallsyms /dev/null "$opt" "$val" "$data/$file" > "$tmp/script" 2> "$tmp/err" &&
		[ -s "$data/expected/$exp.txt" ] &&
		diff -w "$tmp/script" "$data/expected/$exp.txt" > "$tmp/diff"; then
		ok
	else
		ko "script $opt $val $file: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done <<'EOF'
fork.data.script-time-pct|fork.data|--time|0%-25%,50%-75%
fork.data.script-pid|fork.data|--pid|26195
dir.data.script-tid|dir.data|--tid|26125
fp.data.script-dsos|fp.data|--dsos|cpu
dir.data.script-symbols|dir.data|--symbols|worker_add,0x55d518bcb1cb
fork.data.script|fork.data|--comms|forkexec
EOF
if "$bin" script --kallsyms /dev/null --comms nosuch "$data/fork.data" > "$tmp/script" 2> "$tmp/err" &&
	[ ! -s "$tmp/script" ]; then
	ok
else
	ko "script --comms nosuch: printed samples, or $(head -c 200 "$tmp/err")"
fi
expect_fail "script: bad --time" 2 "bad value '2,1' for --time" script --time 2,1 "$data/fp.data"

# script on two cores prints what one pass prints, stdout, stderr and exit status byte for
# byte (PERFNAV_PARALLEL_MIN=0: every recording is split, in chunks of a 16th of its index):
# every fixture, default and -F fields, callchains or not, a filter, standard input.
script_runs() {	# MIN OUT ARGS...: one run with the threshold MIN
	local min=$1 out=$2
	shift 2
	PERFNAV_PARALLEL_MIN=$min "$bin" script --buildid-dir "$data/buildid" --kallsyms /dev/null \
		"$@" > "$out" 2> "$out.err"
	echo $? >> "$out.err"
}
for f in "$data"/*.data "$data/dir.data"; do
	for args in "" "-F comm,pid,tid,cpu,time,period,event,addr,ip,sym,symoff,dso -g" \
		"-F tid,time,ip,sym,dso -G" "--max-stack 2" "--time 10%-60%" "--dsos cpu"; do
		# shellcheck disable=SC2086
		script_runs 99999999999 "$tmp/one" $args "$f"
		# shellcheck disable=SC2086
		script_runs 0 "$tmp/two" $args "$f"
		if cmp -s "$tmp/one" "$tmp/two" && cmp -s "$tmp/one.err" "$tmp/two.err"; then
			ok
		else
			ko "script $args $(basename "$f"): two cores differ from one pass:" \
				"$(diff "$tmp/one" "$tmp/two" | head -c 300) $(diff "$tmp/one.err" "$tmp/two.err" | head -c 200)"
		fi
	done
done
script_runs 99999999999 "$tmp/one" - < "$data/pipe.data"
script_runs 0 "$tmp/two" - < "$data/pipe.data"
if [ -s "$tmp/one" ] && cmp -s "$tmp/one" "$tmp/two" && cmp -s "$tmp/one.err" "$tmp/two.err"; then
	ok
else
	ko "script - < pipe.data: two cores differ from one pass"
fi
# ... and the split is real: a thread is started with the threshold at 0, none above it
if command -v strace > /dev/null && strace -f -e trace=none true 2> /dev/null; then
	# (loading on one core whatever the environment says: its thread is not script's)
	PERFNAV_LOAD_SPLIT_MIN=999999999999 PERFNAV_PARALLEL_MIN=0 strace -f \
		-e trace=clone,clone3 -o "$tmp/trace" "$bin" script \
		--kallsyms /dev/null "$data/fp.data" > /dev/null 2>&1
	n2=$(grep -c 'CLONE_THREAD' "$tmp/trace")
	PERFNAV_LOAD_SPLIT_MIN=999999999999 PERFNAV_PARALLEL_MIN=999999999999 strace -f \
		-e trace=clone,clone3 -o "$tmp/trace" "$bin" script --kallsyms /dev/null \
		"$data/fp.data" > /dev/null 2>&1
	n1=$(grep -c 'CLONE_THREAD' "$tmp/trace")
	if [ "$n2" -ge 1 ] && [ "$n1" -eq 0 ]; then ok; else ko "script: threads $n2 split, $n1 not"; fi
fi

# folded's filters: its lines of the fixture binaries' paths against perf report -g
# folded,0,caller,count --sort pid,sym with the same filter, summed per comm and path
# (tests/data/expected/NAME.folded-FILTER.txt, README there)
while IFS='|' read -r exp file opt val; do
	if "$bin" folded --buildid-dir "$data/buildid" --kallsyms /dev/null "$opt" "$val" \
		"$data/$file" > "$tmp/fold" 2> "$tmp/err" &&
		grep -v '0x\|\[unknown\]\|\[kernel' "$tmp/fold" | LC_ALL=C sort > "$tmp/got" &&
		[ -s "$data/expected/$exp.txt" ] &&
		diff "$data/expected/$exp.txt" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "folded $opt $val $file: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done <<'EOF'
fork.data.folded-time-pct|fork.data|--time|0%-25%,50%-75%
fork.data.folded-pid|fork.data|--pid|26195
dir.data.folded-tid|dir.data|--tid|26125
fp.data.folded-dsos|fp.data|--dsos|cpu
fp.data.folded-symbols|fp.data|--symbols|mix,fill
EOF

# script --off-cpu: the switch-outs that start an off-CPU span, event off-cpu, period the
# span's ns: per comm, their periods sum to what folded --off-cpu counts for it (its
# stacks' first frame), and their lines number top --off-cpu --sort comm's samples; a
# recording without sched_switch samples is said, exit 1
if "$bin" script --off-cpu -F comm,tid,period,event "$data/offcpu.data" > "$tmp/script" \
	2> "$tmp/err" && [ ! -s "$tmp/err" ] &&
	awk '$NF != "off-cpu:" { bad = 1 } { s[$1] += $(NF - 1); n[$1]++ }
		END { if (bad) exit 1; for (c in s) print c, s[c], n[c] }' "$tmp/script" | sort > "$tmp/got" &&
	"$bin" folded --off-cpu --buildid-dir "$data/buildid" --kallsyms /dev/null \
		"$data/offcpu.data" > "$tmp/folded" 2> "$tmp/err" &&
	"$bin" top --off-cpu --tsv --sort comm "$data/offcpu.data" > "$tmp/top" 2>> "$tmp/err" &&
	awk 'FILENAME ~ /top$/ { if ($1 == "off-cpu") n[$4] = $3; next }
		{ c = $0; sub(/;.*/, "", c); s[c] += $NF }
		END { for (c in s) print c, s[c], n[c] }' "$tmp/top" "$tmp/folded" | sort > "$tmp/want" &&
	[ "$(wc -l < "$tmp/want")" -gt 1 ] && diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "script --off-cpu: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
"$bin" script --off-cpu "$data/plain.data" > "$tmp/out" 2> "$tmp/err"
if [ $? -eq 1 ] && grep -q "no sched:sched_switch samples" "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok
else
	ko "script --off-cpu plain.data: $(head -c 200 "$tmp/err")"
fi

# tree's filters: the samples per thread are those of perf script with the same filter
# (the script expectations above: their lines per tid)
while IFS='|' read -r exp file opt val; do
	if "$bin" tree --buildid-dir "$data/buildid" --kallsyms /dev/null "$opt" "$val" \
		"$data/$file" > "$tmp/tree" 2> "$tmp/err" &&
		awk '!/^#/ && $4 > 0 { print $2, $4 }' "$tmp/tree" | sort > "$tmp/got" &&
		awk '{ split($1, a, "/"); n[a[2]]++ } END { for (t in n) print t, n[t] }' \
			"$data/expected/$exp.txt" | sort > "$tmp/want" && [ -s "$tmp/want" ] &&
		diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "tree $opt $val $file: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done <<'EOF'
fork.data.script-time-pct|fork.data|--time|0%-25%,50%-75%
dir.data.script-symbols|dir.data|--symbols|worker_add,0x55d518bcb1cb
EOF

# a recording without samples: every aggregating subcommand prints no rows and exits 0
for c in folded top; do
	if "$bin" $c "$data/stat.data" > "$tmp/out" 2> "$tmp/err" &&
		[ "$(grep -v '^#' "$tmp/out" | grep -cv '^ *$')" -eq 0 ]; then
		ok
	else
		ko "$c on stat.data (no samples): exit $?: $(head -c 300 "$tmp/out" "$tmp/err")"
	fi
done

# sched timehist: perf sched timehist's lines of a perf sched record recording, byte for byte
# (tests/data/expected/sched.data.timehist[-w|-state].txt), in each mode done
for m in "" -w --state; do
	exp="$data/expected/sched.data.timehist${m:+-${m##*-}}.txt"
	if "$bin" sched timehist $m "$data/sched.data" > "$tmp/out" 2> "$tmp/err" &&
		cmp -s "$exp" "$tmp/out"; then
		ok
	else
		ko "sched timehist $m: $(diff "$exp" "$tmp/out" | head -c 400) $(head -c 200 "$tmp/err")"
	fi
done
# ... its summaries (-s, -s --state, -S), one process (-p, with the summary perf prints then)
# and one thread (-t, with wakeups): the workload's pid and its first thread's tid, found as
# tests/record-fixtures.sh found them
ids=$("$bin" script -F comm,pid,tid "$data/sched.data" 2> /dev/null |
	awk '$1 == "offcpu" { split($2, a, "/"); print a[1], a[2] }' | sort -n -k2 -u)
pid=$(echo "$ids" | awk '$1 == $2 { print $1; exit }')
tid=$(echo "$ids" | awk '$1 != $2 { print $2; exit }')
while read -r mode args; do
	# shellcheck disable=SC2086 # args: words on purpose
	if "$bin" sched timehist $args "$data/sched.data" > "$tmp/out" 2> "$tmp/err" &&
		cmp -s "$data/expected/sched.data.timehist-$mode.txt" "$tmp/out"; then
		ok
	else
		ko "sched timehist $args: $(diff "$data/expected/sched.data.timehist-$mode.txt" "$tmp/out" |
			head -c 400) $(head -c 200 "$tmp/err")"
	fi
done <<EOF
s -s
s-state -s --state
S -S
pid -S -p $pid
tid -w -t $tid
EOF
# ... with callchains (perf sched record -g): kernel frames from the kallsyms lines kept with
# the recording, user frames [unknown] as perf 6.1's; --max-stack 2, --no-call-graph, -S
while read -r mode args; do
	exp="$data/expected/sched-g.data.timehist${mode#default}.txt"
	# shellcheck disable=SC2086 # args: words on purpose
	if "$bin" sched timehist --buildid-dir "$data/buildid" --kallsyms "$data/sched-g.kallsyms" \
		$args "$data/sched-g.data" > "$tmp/out" 2> "$tmp/err" && cmp -s "$exp" "$tmp/out"; then
		ok
	else
		ko "sched timehist -g $args: $(diff "$exp" "$tmp/out" | head -c 400) $(head -c 200 "$tmp/err")"
	fi
done <<EOF
default
-stack2 --max-stack 2
-nochain --no-call-graph
-S -S
EOF
# ... and of recordings not made by perf sched record (sched_switch alone, system-wide with
# a filter or of one workload, with or without callchains): NAME.timehist-MODE.txt
for exp in "$data"/expected/*.data.timehist-[sS].txt; do
	name=$(basename "$exp" .txt)
	f=${name%.timehist-*} mode=${name##*.timehist}
	case $f in sched.data | sched-g.data) continue ;; esac	# above
	if "$bin" sched timehist --buildid-dir "$data/buildid" --kallsyms /dev/null "$mode" \
		"$data/$f" > "$tmp/out" 2> "$tmp/err" && cmp -s "$exp" "$tmp/out"; then
		ok
	else
		ko "sched timehist $mode $f: $(diff "$exp" "$tmp/out" | head -c 400) $(head -c 200 "$tmp/err")"
	fi
done
# -s and -w do not go together (perf says so too): a usage error
"$bin" sched timehist -s -w "$data/sched.data" > "$tmp/out" 2> "$tmp/err"
if [ $? -eq 2 ] && grep -q -- "-s and -w" "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok
else
	ko "sched timehist -s -w: not a usage error: $(head -c 200 "$tmp/err")"
fi
# only timehist: anything else is a usage error
for a in "" latency; do
	"$bin" sched $a "$data/sched.data" > "$tmp/out" 2> "$tmp/err"
	if [ $? -eq 2 ] && grep -q "perfnav sched timehist" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok
	else
		ko "sched $a: not a usage error: $(head -c 200 "$tmp/err")"
	fi
done
# a recording without sched_switch samples: said, exit 1
if "$bin" sched timehist "$data/plain.data" > "$tmp/out" 2> "$tmp/err"; then
	ko "sched timehist plain.data: exit 0"
else
	grep -q 'no sched:sched_switch samples' "$tmp/err" && ok || ko "sched timehist plain.data: $(cat "$tmp/err")"
fi

# stat: what perf stat report prints (tests/data/expected/NAME.stat.txt): the totals with
# their metrics (stat.data), and intervals per cpu (stat-cpu.data, -I 20 -a -A), per
# thread (stat-thread*.data), per socket, die, core and node (stat-MODE.data, and -I 100:
# stat-MODE-int.data), with nothing said on stderr
for f in "$data"/expected/*.stat.txt; do
	name=$(basename "$f" .stat.txt)
	if "$bin" stat "$data/$name" > "$tmp/out" 2> "$tmp/err" && diff "$tmp/out" "$f" > "$tmp/diff" &&
		[ ! -s "$tmp/err" ]; then
		ok
	else
		ko "stat $name: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done
# ... on a recording of samples: no counts, said, exit 1
"$bin" stat "$data/fp.data" > "$tmp/out" 2> "$tmp/err"
st=$?
if [ "$st" -eq 1 ] && grep -q "no counts" "$tmp/err" && [ ! -s "$tmp/out" ]; then
	ok
else
	ko "stat fp.data: exit $st: $(head -c 300 "$tmp/out" "$tmp/err")"
fi
# ... cut short anywhere: what was read is printed, no crash
for fc in stat-cpu.data:300,700,1000,2000,3000,5000,7000 \
	stat-core-int.data:300,1000,3000,5000,6000,6500; do
	f=${fc%%:*} cuts=${fc#*:}
	for cut in ${cuts//,/ }; do
		head -c "$cut" "$data/$f" > "$tmp/cut.data"
		"$bin" stat "$tmp/cut.data" > "$tmp/out" 2> "$tmp/err"
		st=$?
		if [ "$st" -le 3 ]; then
			ok
		else
			ko "stat $f cut at $cut: exit $st: $(head -c 300 "$tmp/err")"
		fi
	done
done

# leader sampling ({task-clock,cpu-clock}:S): a sample per member, each with the period its
# count grew; top's group view has a column per member as perf report's
# (tests/data/expected/leader.data.group.txt; the fixture binary's rows, whose symbols the
# committed build-id cache gives)
"$bin" top --buildid-dir "$data/buildid" --no-children --sort sym -g none "$data/leader.data" \
	2> "$tmp/err" | awk '/\[\.\] (mix_one|fill|reduce|mix)$/ { print $1, $2, $NF }' > "$tmp/got"
awk '/\[\.\] (mix_one|fill|reduce|mix)$/ { print $1, $2, $NF }' "$data/expected/leader.data.group.txt" > "$tmp/want"
if [ -s "$tmp/want" ] && diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "top leader.data (group view): $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# ... script: a line per member, with the period its count grew (as perf script)
if "$bin" script -F tid,time,event,period "$data/leader.data" > "$tmp/got" 2> "$tmp/err" &&
	diff -w "$data/expected/leader.data.script-period.txt" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "script leader.data: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# ... and per member in the TSV: cpu-clock has rows of its own, with its own periods
if "$bin" top --buildid-dir "$data/buildid" --tsv --no-children --sort sym "$data/leader.data" 2> "$tmp/err" |
	awk -F'\t' '$1 == "cpu-clock" && $NF ~ /mix_one/ { print $2 }' | grep -qx "65.58"; then
	ok
else
	ko "top --tsv leader.data: cpu-clock's own rows: $(head -c 200 "$tmp/err")"
fi

# perfnav(1), as the build wrote it (next to the binary): its key table is the help screen's
# (perfnav --keys prints those bindings: MAP, KEYS, ACTION), every subcommand and every option
# --help lists is in it, and the completion offers them too.
man=$(dirname "$bin")/perfnav.1
if [ -f "$man" ]; then
	awk '/^\.SH KEYS/ { k = 1; next } /^\.SH / { k = 0 } !k { next }
		/^\.SS / { map = $2; next } /^\.TP/ { getline; sub(/^\.B /, ""); keys = $0; getline;
			sub(/:.*/, ""); gsub(/\\-/, "-", keys); gsub(/\\-/, "-"); print map "\t" keys "\t" $0 }' \
		"$man" > "$tmp/man-keys"
	"$bin" --keys > "$tmp/help-keys"
	if [ -s "$tmp/help-keys" ] && diff "$tmp/help-keys" "$tmp/man-keys" > "$tmp/diff"; then
		ok
	else
		ko "perfnav.1's keys are not the help screen's: $(head -c 400 "$tmp/diff")"
	fi
	"$bin" --completion > "$tmp/completion"
	missing=
	for c in $("$bin" --help | awk '/^Commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 }'); do
		grep -q "^\.SS perfnav $c " "$man" || missing="$missing $c"
		for o in $("$bin" "$c" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+$'); do
			[ "$o" = --help ] && continue
			grep -qF -- "\fB$(echo "$o" | sed 's/-/\\-/g')\fR" "$man" || missing="$missing $c:$o"
			grep -qF -- " $o " "$tmp/completion" || missing="$missing completion:$c:$o"
		done
	done
	if [ -z "$missing" ]; then
		ok
	else
		ko "perfnav.1 or the completion misses:$missing"
	fi
	# and it sends the reader to perfnav-config(5) for the files it names
	if grep -qF '.BR perfnav\-config (5)' "$man"; then ok; else ko "perfnav.1 does not name perfnav-config(5)"; fi
else
	ko "no perfnav.1 beside $bin (the build writes it)"
fi

# perfnav-config(5), as the build wrote it: the page perfnav --man-config writes; every key
# action of ACTIONS (tui/keys.h) and every colour element of THEME_ELEMENTS (tui/theme.h) has
# its entry, each element described; every map the help screen's bindings use is listed.
cfg=$(dirname "$bin")/perfnav-config.5
# section TITLE: the lines of the page's section (.SH or .SS) of that title
section() { awk -v s="$1" '/^\.S[HS] / { k = ($0 == s); next } k' "$cfg"; }
# table NAME FILE: the names of an X-macro of a header, X(ID, "name"...)
table() { sed -n "/^#define $1(X)/,/^\$/p" "$2" | grep -oE 'X\([A-Z_0-9]+, "[^"]+"' | sed -E 's/.*"(.*)"/\1/'; }
if [ -f "$cfg" ]; then
	"$bin" --man-config > "$tmp/cfg"
	if cmp -s "$tmp/cfg" "$cfg"; then ok; else ko "perfnav-config.5 is not what perfnav --man-config writes"; fi
	missing=
	section '.SS Actions' > "$tmp/cfg-actions"
	section '.SS Elements' > "$tmp/cfg-elements"
	section '.SS Maps' > "$tmp/cfg-maps"
	n=0
	for a in $(table ACTIONS "$top/tui/keys.h"); do
		n=$((n + 1))
		grep -qxF ".B ${a//-/\\-}" "$tmp/cfg-actions" || missing="$missing action:$a"
	done
	[ "$n" -gt 50 ] || missing="$missing (only $n actions read from tui/keys.h)"
	n=0
	for e in $(table THEME_ELEMENTS "$top/tui/theme.h"); do
		n=$((n + 1))
		grep -A1 -xF ".B ${e//-/\\-}" "$tmp/cfg-elements" > "$tmp/el"
		if [ ! -s "$tmp/el" ]; then
			missing="$missing element:$e"
		elif grep -q '^(undescribed)' "$tmp/el"; then
			missing="$missing description:$e"
		fi
	done
	[ "$n" -gt 40 ] || missing="$missing (only $n elements read from tui/theme.h)"
	for m in $("$bin" --keys | cut -f1 | sort -u); do
		grep -qxF ".B $m" "$tmp/cfg-maps" || missing="$missing map:$m"
	done
	if [ -z "$missing" ]; then
		ok
	else
		ko "perfnav-config.5 misses:$missing"
	fi
else
	ko "no perfnav-config.5 beside $bin (the build writes it)"
fi

# README.md's pictures of the browser are what it draws now (docs/capture.sh runs it in tmux
# on the demo recording; docs/capture.sh alone writes docs/screens/ again to paste in)
if command -v tmux > /dev/null; then
	if "$top/docs/capture.sh" --check "$bin" > "$tmp/capture" 2>&1; then
		ok
	else
		ko "README.md's screens: $(head -c 600 "$tmp/capture")"
	fi
fi

# --sort pid groups by thread, as perf report --sort pid does
# (tests/data/expected/pipe.data.pid.txt: perf report --no-children --sort pid -n)
"$bin" top --tsv --sort pid "$data/pipe.data" 2> "$tmp/err" | grep -v '^#' |
	awk -F'\t' '{ gsub(/^ +/, "", $4); print $2, $3, $4 }' > "$tmp/got"
if diff "$data/expected/pipe.data.pid.txt" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "top --sort pid: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi

# script on a perf stat record file: the counter table, as perf script prints it
if "$bin" script "$data/stat.data" > "$tmp/script" 2> "$tmp/err" &&
	diff "$tmp/script" "$data/expected/stat.data.script.txt" > "$tmp/diff"; then
	ok
else
	ko "script stat.data: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi

# top: perf report --stdio --no-children -g none --sort comm,dso,sym -n --percent-limit 0
# (tests/data/expected/NAME.top.tsv, converted to EVENT SELF_PCT SAMPLES COMM DSO SYM rows by
# running it with -t TAB).  Only rows of the fixture binaries are compared, exactly: their
# symbols come from tests/data/buildid, while libc and kernel rows depend on the machine.
# pipe.data (no build ids: perf here did not find the binary) is left out, as for script.
fixture_rows() { awk -F'\t' '$5 == "cpu" || $5 == "threads" || $5 == "forkexec"' "$@" | sort; }
for f in plain fp dwarf dir multi fork tracepoint switch; do
	exp="$data/expected/$f.data.top.tsv"
	[ -f "$exp" ] || continue
	if "$bin" top --tsv --sort comm,dso,sym --buildid-dir "$data/buildid" --kallsyms /dev/null \
		"$data/$f.data" > "$tmp/top" 2> "$tmp/err"; then
		fixture_rows "$exp" > "$tmp/want"
		grep -v '^#' "$tmp/top" | fixture_rows > "$tmp/got"
		if [ -s "$tmp/want" ] && diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
			ok
		else
			ko "top $f: $(head -c 400 "$tmp/diff")"
		fi
	else
		ko "top $f exited: $(head -c 200 "$tmp/err")"
	fi
done
# top --sort trace: perf report --sort trace's rows (the payloads' texts; N/A for cpu-clock),
# tests/data/expected/tracepoint.data.trace.tsv, compared as sorted rows (ties are in another order)
if "$bin" top --tsv --sort trace --kallsyms /dev/null "$data/tracepoint.data" > "$tmp/top" \
	2> "$tmp/err" && grep -v '^#' "$tmp/top" | sort > "$tmp/got" &&
	sort "$data/expected/tracepoint.data.trace.tsv" | diff - "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "top --sort trace: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# top --children: every sample has main and __libc_start_call_main above it in cpu
if "$bin" top --tsv --children --sort sym --buildid-dir "$data/buildid" --kallsyms /dev/null \
	"$data/fp.data" > "$tmp/top" 2> "$tmp/err" &&
	awk -F'\t' '$5 == "[.] main" && $2 > 75 && $3 == "0.00" { found = 1 } END { exit !found }' "$tmp/top"; then
	ok
else
	ko "top --children fp: $(head -c 300 "$tmp/top") $(head -c 200 "$tmp/err")"
fi
# kernel aliases (several kallsyms symbols at one address): perf 6.1 sizes them first, so the
# last listed keeps its size and the name; perf report --kallsyms with this file over fp.data
# printed __pi_memcpy, __ia32_sys_fork (listed last, x64 first) and loc (local, listed last)
printf '%s\n' 'ffffffff81000000 T _stext' 'ffffffff81000000 T _text' \
	'ffffffff81000c00 T __x64_sys_fork' 'ffffffff81000c00 T __ia32_sys_fork' \
	'ffffffff81000d00 t foo' 'ffffffff816a7a00 T memcpy' 'ffffffff816a7a00 T __memcpy' \
	'ffffffff816a7a00 T __pi_memcpy' 'ffffffff816a8000 T bar' 'ffffffff8225f800 T glob_alias' \
	'ffffffff8225f800 W weak_alias' 'ffffffff8225f800 t loc' 'ffffffff82260000 T baz' \
	> "$tmp/kallsyms"
printf '%s\n' '[k] __ia32_sys_fork' '[k] __pi_memcpy' '[k] foo' '[k] loc' > "$tmp/want"
if "$bin" top --tsv --children --sort sym --buildid-dir "$data/buildid" --kallsyms "$tmp/kallsyms" \
	"$data/fp.data" > "$tmp/top" 2> "$tmp/err" &&
	awk -F'\t' '$5 ~ /^\[k\]/ { print $5 }' "$tmp/top" | LC_ALL=C sort > "$tmp/got" &&
	diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "top kallsyms aliases: $(cat "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# the table form and --why
if "$bin" top --why --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/plain.data" > "$tmp/top" 2>&1 &&
	grep -q "^# Overhead  Samples  Command" "$tmp/top" && grep -q "\[\.\] mix_one" "$tmp/top" &&
	grep -q "^# Unresolved addresses per DSO" "$tmp/top"; then
	ok
else
	ko "top table: $(head -c 400 "$tmp/top")"
fi
# tree: perf report --tasks' lines (pid tid ppid |comm), with samples
if "$bin" tree "$data/fork.data" > "$tmp/tree" 2> "$tmp/err" &&
	grep -Eq '^ +26193 +26193 +-1 +61 .*\|perf-exec -> forkexec$' "$tmp/tree" &&
	grep -Eq '^ +26195 +26195 +26193 .*\| forkexec$' "$tmp/tree" &&
	grep -q '^# 3 threads, 181 samples' "$tmp/tree"; then
	ok
else
	ko "tree fork: $(cat "$tmp/tree" "$tmp/err" | head -c 600)"
fi
# folded: "comm;outer;...;inner COUNT" lines whose counts add up to the samples
if "$bin" folded --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/fp.data" > "$tmp/fold" 2> "$tmp/err" &&
	grep -q '^cpu;__libc_start_call_main;main;mix_one [0-9][0-9]*$' "$tmp/fold" &&
	[ "$(awk '{ s += $NF } END { print s }' "$tmp/fold")" = 186 ]; then
	ok
else
	ko "folded fp: $(head -c 400 "$tmp/fold") $(head -c 200 "$tmp/err")"
fi

# annotate: the percentage at each instruction of mix_one is perf annotate's
# (tests/data/expected/fp.data.annotate.txt), and they add up to 100
insn_pcts() { grep -E '^ +[0-9]+\.[0-9]+ : +[0-9a-f]+:' "$1" | awk '{ print $1, $3 }'; }
if "$bin" annotate --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/fp.data" mix_one \
	> "$tmp/annot" 2> "$tmp/err" && insn_pcts "$tmp/annot" > "$tmp/got" &&
	insn_pcts "$data/expected/fp.data.annotate.txt" > "$tmp/want" && [ -s "$tmp/want" ] &&
	diff "$tmp/want" "$tmp/got" > "$tmp/diff" &&
	grep -q 'Disassembly of /tmp/perfnav-fixtures/cpu for cpu-clock (138 samples' "$tmp/annot" &&
	awk '{ s += $1 } END { exit !(s > 99.9 && s < 100.1) }' "$tmp/got"; then
	ok
else
	ko "annotate mix_one: $(head -c 400 "$tmp/diff") $(head -c 300 "$tmp/annot") $(head -c 200 "$tmp/err")"
fi
# annotate --time: the samples at each instruction of mix_one are those perf script --time
# --symbols mix_one prints (tests/data/expected/fp.data.annotate-time.txt: -F period,ip,sym,symoff)
insn_counts() { grep -E '^ +[0-9.]+ : +[1-9][0-9]* : +[0-9a-f]+:' | awk '{ print $5, $3 }' | tr -d :; }
if "$bin" annotate -n --buildid-dir "$data/buildid" --kallsyms /dev/null --time 972.62,972.70 \
	"$data/fp.data" mix_one > "$tmp/annot" 2> "$tmp/err" &&
	insn_counts < "$tmp/annot" | while read -r addr n; do
		echo "$((16#$addr - 16#1174)) $n"
	done | sort > "$tmp/got" &&
	sed 's/.*+0x//' "$data/expected/fp.data.annotate-time.txt" | while read -r off; do
		echo "$((16#$off))"
	done | sort | uniq -c | awk '{ print $2, $1 }' | sort > "$tmp/want" && [ -s "$tmp/want" ] &&
	diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "annotate --time mix_one: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# without SYMBOL: the hottest function; an unknown symbol is an error naming it
if "$bin" annotate --buildid-dir "$data/buildid" --kallsyms /dev/null "$data/fp.data" \
	2> "$tmp/err" | grep -q '^ *: *mix_one() /tmp/perfnav-fixtures/cpu$'; then
	ok
else
	ko "annotate without a symbol: $(head -c 200 "$tmp/err")"
fi
expect_fail "annotate: unknown symbol" 1 "no samples in a symbol named 'no_such_fn'" \
	annotate --buildid-dir "$data/buildid" "$data/fp.data" no_such_fn

# top -g with the address key: one path node per address, named by its source line
# (perf report --no-children --sort sym -g folded,0,callee,count,address on fp.data prints
# the same counts and names, except that it names libc's frame by the call site's file,
# libc-start.c:74); a bad -g word is a usage error naming it
if "$bin" top --no-children --sort sym -g folded,0,callee,count,address --buildid-dir \
	"$data/buildid" --kallsyms /dev/null "$data/fp.data" > "$tmp/out" 2> "$tmp/err" &&
	grep -qxF '32 mix_one cpu.c:31;main cpu.c:61;__libc_start_call_main libc_start_call_main.h:74' "$tmp/out" &&
	grep -qxF '18 fill cpu.c:21;__libc_start_call_main libc_start_call_main.h:74' "$tmp/out"; then
	ok
else
	ko "top -g ...,address: $(head -c 400 "$tmp/out") $(head -c 200 "$tmp/err")"
fi
expect_fail "top: bad -g word" 2 "bad call-graph option at 'sideways'" \
	top -g graph,sideways "$data/fp.data"

# top --latency (perf 6.15's): switch.data's threads ran 2 at a time for 150 samples and
# alone for 78, all of period 500000: latency 78 * 1 + 150 / 2 = 153 units, 78 of them
# (50.98%) serial; --parallelism 1 keeps the 78 in rows, the totals whole
printf 'cpu-clock\t50.98\t34.21\t78\t1\ncpu-clock\t49.02\t65.79\t150\t2\n' > "$tmp/want"
if "$bin" top --latency --tsv --sort parallelism "$data/switch.data" 2> "$tmp/err" |
	grep -v '^#' > "$tmp/out" && diff "$tmp/want" "$tmp/out" > "$tmp/diff" &&
	[ "$("$bin" top --latency --tsv --sort parallelism --parallelism 1 "$data/switch.data" |
	grep -vc '^#')" = 1 ] &&
	"$bin" top --latency "$data/switch.data" | grep -q '^#  Latency  Overhead  Samples'; then
	ok
else
	ko "top --latency: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
expect_fail "top --latency without switch events" 2 "has no switch events" \
	top --latency "$data/fp.data"
expect_fail "top: bad --parallelism" 2 "bad --parallelism list '0-2'" \
	top --parallelism 0-2 "$data/switch.data"
expect_fail "top --latency --off-cpu" 2 "do not go with --off-cpu" \
	top --latency --off-cpu "$data/offcpu.data"

# files a recording names that are no regular files of sane size (core/safefile.h):
# the DSO path a FIFO, /dev/zero, a 10 GiB sparse file.  Refused with their own
# reason, on stderr by every subcommand and in top --why; never waited on or read.
dso=$tmp/symfs/tmp/perfnav-fixtures/cpu
mkdir -p "$(dirname "$dso")"
for kind in fifo zero sparse; do
	rm -f "$dso"
	case $kind in
	fifo) mkfifo "$dso"; want="is a FIFO, not a regular file" ;;
	zero) ln -s /dev/zero "$dso"; want="is a character device, not a regular file" ;;
	sparse) truncate -s 10G "$dso" || continue
		want="10 GiB is larger than the 8 GiB cap for an ELF file" ;;
	esac
	for c in top script folded annotate; do
		timeout 20 "$bin" $c --buildid-dir /nonexistent --kallsyms /dev/null --symfs "$tmp/symfs" \
			"$data/fp.data" > "$tmp/out" 2> "$tmp/err"
		rc=$?
		if [ $rc -ne 124 ] && [ $rc -le 1 ] && grep -qxF "perfnav: $dso: refused: $want" "$tmp/err"; then
			ok
		else
			ko "$c with a DSO path that is $kind: exit $rc: $(head -c 300 "$tmp/err")"
		fi
	done
	if timeout 20 "$bin" top --why --buildid-dir /nonexistent --kallsyms /dev/null \
		--symfs "$tmp/symfs" "$data/fp.data" 2> /dev/null |
		grep -E '^# +REFUSED +[0-9]+ +[0-9]+ ' | grep -qF "refused: $dso: $want"; then
		ok
	else
		ko "top --why with a DSO path that is $kind: no REFUSED row with the reason"
	fi
done
rm -f "$dso"

# top's filters against perf report with the same filter (tests/data/expected/NAME.FILTER.tsv,
# README there): --time (absolute, open, several spans, percent slices and ranges), --pid,
# --tid, --comms, --dsos (short names, paths), --symbols (names, a sample address); the rows
# of the fixture binaries compared exactly (fields trimmed), their percentages included, so
# the totals are perf's too (--time: what is inside; --pid, --tid, --comms, --dsos, --symbols:
# the whole recording's).  The second field is the DSO's column.
trimmed_rows() # DSO-COLUMN
{
	awk -F'\t' -v OFS='\t' -v d="$1" '{ for (i = 1; i <= NF; i++) gsub(/^ +| +$/, "", $i) }
		$d == "cpu" || $d == "threads" || $d == "forkexec"' | sort
}
while IFS='|' read -r exp dcol sort file opt val; do
	if "$bin" top --tsv --sort "$sort" --buildid-dir "$data/buildid" --kallsyms /dev/null \
		"$opt" "$val" "$data/$file" > "$tmp/top" 2> "$tmp/err"; then
		trimmed_rows "$dcol" < "$data/expected/$exp.tsv" > "$tmp/want"
		grep -v '^#' "$tmp/top" | trimmed_rows "$dcol" > "$tmp/got"
		if [ -s "$tmp/want" ] && diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
			ok
		else
			ko "top $opt $val $file: $(head -c 400 "$tmp/diff")"
		fi
	else
		ko "top $opt $val $file exited: $(head -c 200 "$tmp/err")"
	fi
done <<'EOF'
fp.data.time-abs|5|comm,dso,sym|fp.data|--time|972.62,972.70
fp.data.time-slice|5|comm,dso,sym|fp.data|--time|10%/3
fork.data.time-pct|5|comm,dso,sym|fork.data|--time|0%-25%,50%-75%
dir.data.time-multi|5|comm,dso,sym|dir.data|--time|976.35,976.38 976.40,
dir.data.tid|6|pid,comm,dso,sym|dir.data|--tid|26125,26124
fork.data.pid|6|pid,comm,dso,sym|fork.data|--pid|26195,26196
fork.data.comms|5|comm,dso,sym|fork.data|--comms|forkexec,nosuch
fp.data.dsos|5|comm,dso,sym|fp.data|--dsos|cpu,[kernel.kallsyms]
dir.data.dsos-path|5|comm,dso,sym|dir.data|--dsos|/tmp/perfnav-fixtures/threads,nosuch
multi.data.symbols|5|comm,dso,sym|multi.data|--symbols|mix_one,fill
dir.data.symbols-addr|5|comm,dso,sym|dir.data|--symbols|worker_add,worker_div,0x55d518bcb1cb
EOF
# --cpu: perf refuses it for every fixture (an event without PERF_SAMPLE_CPU); the samples per
# cpu of perf report --sort cpu,... on tracepoint.data instead (sched_switch records the cpu,
# cpu-clock does not: its samples are on no cpu, left out)
for cpus in 1 0-1; do
	if "$bin" top --tsv --sort cpu,comm,dso,sym --kallsyms /dev/null --cpu "$cpus" \
		"$data/tracepoint.data" > "$tmp/top" 2> "$tmp/err"; then
		awk -F'\t' -v c="$cpus" '$4 >= 0 && (c == "0-1" || $4 + 0 == c + 0) {
			print $1, $3, $4 + 0, $5, $6, $7 }' "$data/expected/tracepoint.data.cpu.tsv" |
			sort > "$tmp/want"
		awk -F'\t' '!/^#/ { print $1, $3, $4 + 0, $5, $6, $7 }' "$tmp/top" | sort > "$tmp/got"
		if [ -s "$tmp/want" ] && diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
			ok
		else
			ko "top --cpu $cpus tracepoint: $(head -c 400 "$tmp/diff")"
		fi
	else
		ko "top --cpu $cpus exited: $(head -c 200 "$tmp/err")"
	fi
done
expect_fail "top: bad --time" 2 "bad value '1,2,3' for --time" top --time 1,2,3 "$data/fp.data"
expect_fail "top: bad --time percent" 2 "bad value '150%' for --time" top --time 150% "$data/fp.data"
# merge (tests/merge-check.sh has the rest): its usage errors, --merge where it is no option
expect_fail "merge: no -o" 2 "no -o OUT" merge "$data/fp.data" "$data/zstd.data"
expect_fail "merge: one file" 2 "one file: nothing to merge it with" merge -o "$tmp/m.data" "$data/fp.data"
expect_fail "diff --merge" 2 "[-]-merge is not an option of diff" diff --merge "$data/fp.data" "$data/zstd.data"
expect_fail "merge: an input missing" 1 "nosuch.data" merge -o "$tmp/m.data" "$data/fp.data" "$tmp/nosuch.data"
if [ ! -e "$tmp/m.data" ]; then ok; else ko "merge: a failed merge left its output"; fi
expect_fail "top: bad --pid" 2 "bad value 'x' for --pid" top --pid x "$data/fp.data"
expect_fail "top: bad --cpu" 2 "bad value '2-1' for --cpu" top --cpu 2-1 "$data/fp.data"
expect_fail "top: bad --comms" 2 "bad value 'a,,b' for --comms" top --comms a,,b "$data/fp.data"
expect_fail "top: bad --dsos" 2 "bad value ',' for --dsos" top --dsos , "$data/fp.data"
expect_fail "top: bad --symbols" 2 "bad value 'a,' for --symbols" top --symbols a, "$data/fp.data"
expect_fail "top: --cpu without cpus" 2 "no event records its cpu" top --cpu 0 "$data/fp.data"

# diff: perfnav diff against perf diff on the diff-*.data fixtures (one binary rebuilt with its
# hot path moved; README there), byte for byte as perf diff --stdio prints them, each mode
# (tests/data/expected/diff-OLD~NEW.MODE.txt, made with --dsos diffwork so that only the
# fixture binary's rows show: their symbols come from tests/data/buildid).  perfnav's note on
# an event a file lacks ("# No samples of ...") is its own.
while IFS='|' read -r mode files opts; do
	names=$(echo "$files" | sed 's/ /~/g')
	paths=()
	for f in $files; do
		paths+=("$data/diff-$f.data")
	done
	exp="$data/expected/diff-$names.$mode.txt"
	# shellcheck disable=SC2086 # opts: words on purpose
	if "$bin" diff --buildid-dir "$data/buildid" --kallsyms /dev/null --dsos diffwork $opts \
		"${paths[@]}" > "$tmp/diff.out" 2> "$tmp/err"; then
		sed "s|$data/||" "$tmp/diff.out" | grep -v '^# No samples of ' > "$tmp/got"
		if [ -s "$exp" ] && diff "$exp" "$tmp/got" > "$tmp/diff"; then
			ok
		else
			ko "diff $mode $files: $(head -c 600 "$tmp/diff")"
		fi
	else
		ko "diff $mode $files exited: $(head -c 200 "$tmp/err")"
	fi
done < "$data/diff-cases.txt"
# --tsv: the rows of perf diff's table (columns at their places), tab-separated, without '%'
if "$bin" diff --tsv --buildid-dir "$data/buildid" --kallsyms /dev/null --dsos diffwork \
	"$data/diff-a.data" "$data/diff-b.data" > "$tmp/got" 2> "$tmp/err"; then
	awk -v OFS='\t' '!/^#/ { b = substr($0, 3, 8); d = substr($0, 13, 9); gsub(/[ %]/, "", b);
		gsub(/[ %]/, "", d); print "cpu-clock", b, d, "diffwork", substr($0, 24) }' \
		"$data/expected/diff-a~b.delta-abs.txt" > "$tmp/want"
	if grep -v '^#' "$tmp/got" | diff "$tmp/want" - > "$tmp/diff"; then
		ok
	else
		ko "diff --tsv: $(head -c 600 "$tmp/diff")"
	fi
else
	ko "diff --tsv exited: $(head -c 200 "$tmp/err")"
fi
# events pair by name, or by name without modifiers (cpu-clock with cpu-clock:u); one that a
# file lacks is said so
if "$bin" diff --tsv --buildid-dir "$data/buildid" --kallsyms /dev/null \
	"$data/diff-a.data" "$data/diff-c.data" > "$tmp/got" 2> "$tmp/err" &&
	grep -q "^# No samples of event 'task-clock' in the baseline \[0\] .*: not compared$" "$tmp/got" &&
	! grep -q "^task-clock" "$tmp/got" &&
	"$bin" diff --tsv --buildid-dir "$data/buildid" --kallsyms /dev/null \
		"$data/diff-a.data" "$data/diff-b.data" > "$tmp/got" 2> "$tmp/err" &&
	! grep -q "^cpu-clock:u" "$tmp/got" &&
	grep -q "^cpu-clock	85.71	-11.22	diffwork	\[\.\] spin$" "$tmp/got"; then
	ok
else
	ko "diff events: $(head -c 600 "$tmp/got") $(head -c 200 "$tmp/err")"
fi
# per-file symbolization: file 0 with the fixtures' build-id cache, file 1 with none (its
# unresolved addresses one row, as perf makes them)
if "$bin" diff --tsv --buildid-dir /nonexistent --file-buildid-dir "0:$data/buildid" \
	--kallsyms /dev/null --dsos diffwork "$data/diff-a.data" "$data/diff-b.data" > "$tmp/got" \
	2> "$tmp/err" && grep -q "^cpu-clock	85.71		diffwork	\[\.\] spin$" "$tmp/got" &&
	grep -Eq "^cpu-clock		\+99.33	diffwork	\[\.\] 0x0+1149$" "$tmp/got" &&
	[ "$(grep -vc '^#' "$tmp/got")" = 6 ]; then
	ok
else
	ko "diff --file-buildid-dir: $(head -c 600 "$tmp/got") $(head -c 200 "$tmp/err")"
fi
expect_fail "diff: bad --file-kallsyms" 2 "is not N:VALUE" diff --file-kallsyms x "$data/diff-a.data" "$data/diff-b.data"
expect_fail "diff: bad -c" 2 "'sum' is not a computation" diff -c sum "$data/diff-a.data" "$data/diff-b.data"
expect_fail "diff: bad wdiff" 2 "bad weights in 'wdiff:1'" diff -c wdiff:1 "$data/diff-a.data" "$data/diff-b.data"
expect_fail "diff: -o out of range" 2 "o 2: there are files 0 to 1" diff -o 2 "$data/diff-a.data" "$data/diff-b.data"
expect_fail "diff: a missing file" 1 "nosuch" diff "$data/diff-a.data" "$tmp/nosuch.data"

# branch and memory modes on byte-built recordings (tests/mk-brmem.py: perf record -b/-d need a
# hardware PMU), against perf 6.1's report and script on the same bytes: rows as
# "PCT KEY..." (whitespace squeezed; perfnav's Samples column and perf's empty IPC columns, which
# perf adds to a sort with "sym" in a name, left out), sorted (ties in any order)
report_rows() { grep -E '^ +[0-9]+\.[0-9]+%' "$1" | sed 's/[[:space:]]*$//; s/  */ /g; s/^ //; s/ - -$//' | sort; }
top_rows() { grep -E '^ +[0-9]+\.[0-9]+%' | awk '{ $2 = ""; print }' | sed 's/  */ /g; s/^ //' | sort; }
brmem_top() {	# WHAT EXPECTED FILE ARGS...
	local what=$1 want=$2 file=$3
	shift 3
	if "$bin" top "$@" "$data/$file" 2> "$tmp/err" | top_rows > "$tmp/got" &&
		report_rows "$data/expected/$want" > "$tmp/want" && [ -s "$tmp/want" ] &&
		diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "top $what: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
}
brmem_top "branch mode (its default keys)" branch.data.report.txt branch.data
brmem_top "--sort dso_from,dso_to" branch.data.report-dso.txt branch.data --sort dso_from,dso_to
brmem_top "branch targets" branch.data.report-target.txt branch.data --sort comm,dso,sym
brmem_top "--no-branch-stack" branch.data.report-nobranch.txt branch.data --no-branch-stack
brmem_top "--branch-stack" branch.data.report.txt branch.data --branch-stack
brmem_top "--mem-mode data_src keys" mem.data.report-src.txt mem.data --mem-mode --sort mem,tlb,snoop,locked,blocked
if "$bin" top --mem-mode --sort mem,tlb "$data/mem.data" 2> "$tmp/err" | head -3 > "$tmp/got" &&
	printf "# Samples: 11  of event 'cpu-clock'\n# Total weight : 362\n# Sort order   : mem,tlb\n" |
	diff - "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "top --mem-mode's header: $(head -c 300 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
brmem_top "--mem-mode dso_daddr,data_page_size" mem.data.report-page.txt mem.data --mem-mode --sort dso_daddr,data_page_size
brmem_top "--mem-mode symbol_daddr" mem.data.report-daddr.txt mem.data --mem-mode --sort symbol_daddr,mem
brmem_top "--mem-mode (recorded here)" mem.rec.data.report.txt mem.rec.data --mem-mode \
	--sort dso_daddr,mem,tlb,snoop,locked,blocked,data_page_size
brmem_top "--mem-mode symbol_daddr (recorded here)" mem.rec.data.report-daddr.txt mem.rec.data \
	--buildid-dir "$data/buildid" --kallsyms /dev/null --mem-mode --sort symbol_daddr,dso_daddr
# perf's default --mem-mode keys, its weight and latency columns included
brmem_top "--mem-mode (its default keys)" mem.data.report.txt mem.data --mem-mode
brmem_top "--mem-mode (its default keys, recorded here)" mem.rec.data.report-default.txt mem.rec.data \
	--buildid-dir "$data/buildid" --kallsyms /dev/null --mem-mode
# mem-obj.data: data addresses in the fixture binary cpu's objects (buf, completed.0 ...), its
# anonymous .bss, unmapped, in the kernel's (mem-obj.kallsyms); WEIGHT_STRUCT (instruction latencies)
memobj() {
	brmem_top "$1" "$2" mem-obj.data --buildid-dir "$data/buildid" \
		--kallsyms "$data/mem-obj.kallsyms" --mem-mode "${@:3}"
}
memobj "--mem-mode: data objects (its default keys)" mem-obj.data.report.txt
# the header names perf's default sort order, as perf's
if "$bin" top --mem-mode --buildid-dir "$data/buildid" "$data/mem-obj.data" > "$tmp/got" 2> "$tmp/err" &&
	grep '^# Sort order' "$data/expected/mem-obj.data.report.txt" > "$tmp/want" &&
	grep '^# Sort order' "$tmp/got" | diff "$tmp/want" - > "$tmp/diff"; then
	ok
else
	ko "top --mem-mode: default sort order line: $(cat "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
memobj "--mem-mode dcacheline" mem-obj.data.report-dcl.txt --sort dcacheline
memobj "--mem-mode weights, latencies, phys_daddr" mem-obj.data.report-weight.txt \
	--sort local_weight,weight,local_ins_lat,ins_lat,phys_daddr
memobj "--mem-mode p_stage_cyc (no column on x86)" mem-obj.data.report-dcl.txt \
	--sort dcacheline,local_p_stage_cyc,p_stage_cyc
# the weights are keys without --mem-mode too (perf's common keys; overhead by period)
brmem_top "weights without --mem-mode" mem-obj.data.report-weight-nomem.txt mem-obj.data \
	--kallsyms "$data/mem-obj.kallsyms" --sort local_weight,weight,ins_lat
# a row's cache line and physical address as its first sample had them, in one pass and
# on two cores (the second part's rows keep theirs when merged)
for par in 999999999999 0; do
	PERFNAV_PARALLEL_MIN=$par memobj "--mem-mode symbol_daddr,dcacheline ($par)" \
		mem-obj.data.report-daddr.txt --sort symbol_daddr,dso_daddr,dcacheline
	PERFNAV_PARALLEL_MIN=$par brmem_top "--mem-mode dcacheline,phys_daddr ($par)" \
		mem.data.report-dcl.txt mem.data --mem-mode --sort dcacheline,phys_daddr
done
# two cores give one pass's rows
if PERFNAV_PARALLEL_MIN=0 "$bin" top --sort dso_from,symbol_from,symbol_to,cycles "$data/branch.data" > "$tmp/got" 2> "$tmp/err" &&
	"$bin" top --sort dso_from,symbol_from,symbol_to,cycles "$data/branch.data" > "$tmp/want" 2>> "$tmp/err" &&
	PERFNAV_PARALLEL_MIN=0 "$bin" top --mem-mode --sort symbol_daddr,dso_daddr,mem "$data/mem.data" >> "$tmp/got" 2>> "$tmp/err" &&
	"$bin" top --mem-mode --sort symbol_daddr,dso_daddr,mem "$data/mem.data" >> "$tmp/want" 2>> "$tmp/err" &&
	diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "top branch/mem on two cores: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# script: perf's lines (the ip one column narrower, as perfnav prints it after tid: -w)
for f in brstack:tid,ip,brstack brstacksym:tid,ip,sym,brstacksym brstack-dso:tid,ip,dso,brstack; do
	if "$bin" script -F "${f#*:}" "$data/branch.data" > "$tmp/got" 2> "$tmp/err" &&
		diff -w "$data/expected/branch.data.script-${f%%:*}.txt" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "script -F ${f#*:}: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done
if "$bin" script -F tid,ip,addr,data_src,weight,phys_addr,data_page_size "$data/mem.data" > "$tmp/got" 2> "$tmp/err" &&
	diff "$data/expected/mem.data.script-mem.txt" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "script memory fields: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
if "$bin" script -F tid,ip,addr,data_src,phys_addr,data_page_size "$data/mem.rec.data" > "$tmp/got" 2> "$tmp/err" &&
	diff "$data/expected/mem.rec.data.script.txt" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "script memory fields (recorded here): $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# perf's Branch Statistics after branch mode's table (perf prints its tip before it)
if "$bin" top "$data/branch.data" > "$tmp/got" 2> "$tmp/err" &&
	diff <(awk '/^# Branch Statistics:/,0' "$data/expected/branch.data.report.txt") \
		<(awk '/^# Branch Statistics:/,0' "$tmp/got") > "$tmp/diff" &&
	grep -q '^COND_FWD:  37.5%$' "$tmp/got" &&
	"$bin" top --no-branch-stack "$data/branch.data" > "$tmp/got" 2>> "$tmp/err" &&
	! grep -q 'Branch Statistics' "$tmp/got"; then
	ok
else
	ko "top: branch statistics: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
fi
# --branch-history: the call graphs are compared with perf's by tests/perf-callgraphs.sh;
# here its rows (perf's default keys srcline,sym,dso) and what it refuses
if "$bin" top --branch-history --buildid-dir "$data/buildid" "$data/brhist.data" > "$tmp/got" \
	2> "$tmp/err" && grep -Eq '^# Overhead +Samples +Source:Line +Symbol +Shared Object$' "$tmp/got" &&
	grep -Eq '^ +40\.74% +6 +cpu\.c:23 +\[\.\] fill +cpu$' "$tmp/got" &&
	grep -q 'reduce cpu.c:50 (cycles:20 iter:2 avg_cycles:9)$' "$tmp/got" &&
	! grep -q 'Branch Statistics' "$tmp/got"; then
	ok
else
	ko "top --branch-history: $(head -c 600 "$tmp/got") $(head -c 200 "$tmp/err")"
fi
expect_fail "top: --branch-history without branch stacks or callchains" 2 "neither branch stacks nor callchains" top --branch-history "$data/mem.data"
expect_fail "top: --branch-stack without branch stacks" 2 "no branch stacks" top --branch-stack "$data/mem.data"
expect_fail "top: a branch key without branch mode" 2 "'dso_from' needs branch mode" top --no-branch-stack --sort dso_from "$data/branch.data"
expect_fail "top: a memory key without --mem-mode" 2 "'mem' needs --mem-mode" top --sort mem "$data/mem.data"
# callchain frames in no map (tests/mk-chainlv.py): a null frame and garbage take the [k]/[.]
# of the entry perf 6.1 filled before them, in its walk's order (caller by default with
# children, then -g callee); rows as perf report --children -g ORDER printed them (Samples left out)
for order in none callee; do
	if "$bin" top -g "$order" --buildid-dir "$data/buildid" --kallsyms "$data/mem-obj.kallsyms" \
		"$data/chainlv.data" 2> "$tmp/err" | grep -E '^ +[0-9]+\.[0-9]+%' |
		awk '{ $3 = ""; print }' | sed 's/  */ /g; s/^ //' | sort > "$tmp/got" &&
		report_rows "$data/expected/chainlv.data.report-$order.txt" > "$tmp/want" &&
		grep -q 'kmid \[unknown\] \[' "$tmp/want" && diff "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "top -g $order: levels of frames in no map: $(head -c 400 "$tmp/diff") $(head -c 200 "$tmp/err")"
	fi
done

# damage (tests/mk-brmem.py): a branch stack whose count runs past its record, a memory
# sample cut before its DATA_SRC: skipped and said, no crash
for f in branch-bad.data mem-bad.data; do
	for cmd in "top" "top --mem-mode --sort mem,symbol_daddr" "script -F tid,ip,brstacksym,data_src,weight"; do
		case "$f:$cmd" in branch*--mem-mode*) continue ;; esac
		[ "$f" = branch-bad.data ] && [ "$cmd" = top ] && cmd="top --branch-history"
		# shellcheck disable=SC2086
		"$bin" $cmd "$data/$f" > "$tmp/got" 2> "$tmp/err"
		rc=$?
		if [ "$rc" -lt 128 ] && grep -qiE "skipped|undecodable|damaged|bad" "$tmp/err" "$tmp/got"; then
			ok
		else
			ko "$cmd $f: status $rc: $(head -c 300 "$tmp/err")"
		fi
	done
done

# an inverted --time range is a usage error said as such (it printed nothing, exit 0)
"$bin" top --time 50%-10% "$data/fp.data" > "$tmp/got" 2> "$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/got" ] && grep -q "ends before it starts" "$tmp/err"; then
	ok
else
	ko "top --time 50%-10%: status $rc: $(head -c 200 "$tmp/err")"
fi

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
