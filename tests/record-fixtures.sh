#!/bin/bash
# Records the perf.data fixtures the unit tests read, into tests/data/, and
# writes what real perf says about each into tests/data/expected/:
#   NAME.stats.txt   perf report --stats -i NAME
#   NAME.dump.txt    one line per record from perf report -D: "0xOFFSET 0xSIZE
#                    PERF_RECORD_NAME" (records inside COMPRESSED carry the
#                    container's offset and the container is not listed; in a
#                    directory recording offsets are per data file)
#   NAME.header.txt  perf report --header-only -I -i NAME
#   NAME.stat.txt    perf stat report -i NAME (perf stat record files; perf prints it on stderr)
#
# usage: tests/record-fixtures.sh [NAME...]      (default: every fixture)
#
# The fixtures are committed; tests never re-record them.  The workloads in
# tests/fixtures-src/ do a fixed amount of work and are built in a fixed
# scratch directory (/tmp/perfnav-fixtures) so the recorded paths are the same
# on every machine.  The build-id cache tests/data/buildid/ keeps only the
# fixture binaries (libc, ld.so, vdso and kernel entries are pruned).
# Needs perf (software events only: cpu-clock/task-clock; no hardware PMU).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
src=tests/fixtures-src
out=tests/data
exp=$out/expected
cache=$root/$out/buildid
bin=/tmp/perfnav-fixtures

command -v perf >/dev/null || { echo "record-fixtures.sh: perf not found" >&2; exit 1; }

rm -rf "$bin"
mkdir -p "$bin" "$out" "$exp"
for p in cpu threads forkexec nest offcpu; do
	gcc -O1 -g -fno-omit-frame-pointer -pthread -Wall -Wextra -o "$bin/$p" "$src/$p.c"
done

PERF=(perf --buildid-dir "$cache")

# expect NAME: writes the three expected-output files for tests/data/NAME.
expect()
{
	local name=$1 f=$out/$1
	"${PERF[@]}" report --stats -i "$f" >"$exp/$name.stats.txt" 2>/dev/null || true
	"${PERF[@]}" report -D -i "$f" 2>/dev/null |
		grep -oE '^(-?[0-9]+ )*(0x[0-9a-f]+|0) \[0x[0-9a-f]+\]: PERF_RECORD_[A-Z0-9_]+' |
		sed -E 's/^(-?[0-9]+ )*(0x[0-9a-f]+|0) \[(0x[0-9a-f]+)\]: /\2 \3 /; s/^0 /0x0 /' >"$exp/$name.dump.txt" || true
	"${PERF[@]}" report --header-only -I -i "$f" >"$exp/$name.header.txt" 2>/dev/null || true
}

# rec NAME PERF-RECORD-ARGS... -- CMD...: records tests/data/NAME.
# perf script's default lines of the tracepoint samples (the lines naming a
# "sys:name" event; callchain frames below them are left out):
# expected/NAME.script-trace.txt, compared by tests/cli.sh.
trace_lines()
{
	"${PERF[@]}" script -i "$out/$1" 2>/dev/null |
		grep -E '^[^\t].*: +[a-z0-9_]+:[a-z0-9_]+: ' >"$exp/$1.script-trace.txt" || true
}

# timehist NAME MODE: what perf sched timehist prints of a recording not made by perf sched
# record (the events it has: sched_switch alone, with or without callchains, system-wide
# or not): expected/NAME.timehist-MODE.txt (MODE -s or -S), compared by tests/cli.sh.
timehist()
{
	"${PERF[@]}" sched timehist -i "$out/$1" --kallsyms /dev/null "$2" \
		>"$exp/$1.timehist$2.txt" 2>/dev/null
}

rec()
{
	local name=$1
	shift
	rm -rf "${out:?}/$name" "$out/$name.old"
	echo "== $name: perf record $*"
	(cd "$bin" && "${PERF[@]}" record -o "$root/$out/$name" "$@") >"$bin/$name.log" 2>&1 || {
		cat "$bin/$name.log" >&2
		echo "record-fixtures.sh: recording $name failed" >&2
		return 1
	}
	expect "$name"
}

want()
{
	[ ${#only[@]} -eq 0 ] && return 0
	local n
	for n in "${only[@]}"; do
		[ "$n" = "$1" ] && return 0
	done
	return 1
}

only=("$@")

want plain.data && rec plain.data -e cpu-clock -F 2000 -- ./cpu
if want fp.data; then
	rec fp.data -e cpu-clock -F 2000 -g -- ./cpu
	# perf annotate of the hottest function: tests/cli.sh compares perfnav
	# annotate's per-instruction percentages with it.
	"${PERF[@]}" annotate --stdio -i "$out/fp.data" mix_one >"$exp/fp.data.annotate.txt" 2>/dev/null
fi
if want dwarf.data; then
	rec dwarf.data -e cpu-clock -F 1000 --call-graph dwarf,1024 -- ./cpu
	# perf's own unwinding of every sample, and the build ids of the system
	# libraries it unwound through (perf records build ids only of DSOs with
	# samples): tests/test_unwind.c compares whole chains with these.
	"${PERF[@]}" script -F tid,time,ip,dso -i "$out/dwarf.data" >"$exp/dwarf.data.unwind.txt" 2>/dev/null
	libc=$(ldd "$bin/cpu" | awk '/libc.so/ {print $3}')
	readelf -n "$libc" | awk -v f="$(readlink -f "$libc")" '/Build ID/ {print $3, f}' \
		>"$exp/dwarf.data.local-buildids"
fi
if want pipe.data; then
	echo "== pipe.data: perf record -o - -e cpu-clock -F 2000 -g -- ./threads > pipe.data"
	rm -f "$out/pipe.data"
	(cd "$bin" && "${PERF[@]}" record -o - -e cpu-clock -F 2000 -g -- ./threads) \
		>"$out/pipe.data" 2>"$bin/pipe.log" || {
		cat "$bin/pipe.log" >&2
		exit 1
	}
	expect pipe.data
fi
want dir.data && rec dir.data -e cpu-clock -F 2000 -g --threads -- ./threads
want zstd.data && rec zstd.data -e cpu-clock -F 2000 -g -z -- ./cpu
want multi.data && rec multi.data -e cpu-clock,task-clock -F 1000 -- ./cpu
want group.data && rec group.data -e '{cpu-clock,task-clock}' -F 1000 -- ./cpu
# leader sampling: only task-clock samples, each with both counts (READ, FORMAT_GROUP);
# perf delivers a sample per member, of the period its count grew
if want leader.data; then
	rec leader.data -e '{task-clock,cpu-clock}:S' -F 1000 -g -- ./cpu
	# perf report's group view of it (one column per member)
	"${PERF[@]}" report -i "$out/leader.data" --stdio --no-children --sort sym -g none \
		>"$exp/leader.data.group.txt" 2>/dev/null
	# perf script's line per member, with the period each count grew
	"${PERF[@]}" script -i "$out/leader.data" -F tid,time,event,period \
		>"$exp/leader.data.script-period.txt" 2>/dev/null
fi
want fork.data && rec fork.data -e cpu-clock -F 2000 -g -- ./forkexec
# a chain of 12 processes, each forked by the one before: the processes pane's deep tree
want nest.data && rec nest.data -e cpu-clock -F 2000 -- ./nest 12
if want mem.rec.data; then
	# memory samples as this VM can record them (no PMU: perf mem record cannot run): ADDR,
	# DATA_SRC, PHYS_ADDR, DATA_PAGE_SIZE of cpu-clock samples; tests/mk-brmem.py builds the
	# varied ones
	rec mem.rec.data -e cpu-clock -F 2000 -d --phys-data --data-page-size -- ./cpu
	"${PERF[@]}" report -i "$out/mem.rec.data" --stdio --mem-mode \
		--sort dso_daddr,mem,tlb,snoop,locked,blocked,data_page_size \
		>"$exp/mem.rec.data.report.txt" 2>/dev/null
	"${PERF[@]}" report -i "$out/mem.rec.data" --stdio --mem-mode --sort symbol_daddr,dso_daddr \
		--kallsyms /dev/null >"$exp/mem.rec.data.report-daddr.txt" 2>/dev/null
	"${PERF[@]}" report -i "$out/mem.rec.data" --stdio --mem-mode --kallsyms /dev/null \
		>"$exp/mem.rec.data.report-default.txt" 2>/dev/null
	"${PERF[@]}" script -i "$out/mem.rec.data" -F tid,ip,addr,data_src,phys_addr,data_page_size \
		>"$exp/mem.rec.data.script.txt" 2>/dev/null
fi
if want tracepoint.data; then
	if [ -d /sys/kernel/tracing/events/sched/sched_switch ] ||
		[ -d /sys/kernel/debug/tracing/events/sched/sched_switch ]; then
		rec tracepoint.data -e sched:sched_switch -e cpu-clock/freq=2000/ -- ./threads 50
		trace_lines tracepoint.data
		timehist tracepoint.data -S
	else
		echo "== tracepoint.data: skipped (no sched:sched_switch tracepoint here)"
	fi
fi
# Tracepoints with callchains and payloads with strings (sched_process_exec's
# __data_loc filename), and tracepoints in a pipe (the TRACING_DATA record).
if want tpfork.data && [ -d /sys/kernel/tracing/events/sched ]; then
	rec tpfork.data -e sched:sched_process_fork -e sched:sched_process_exec \
		-e sched:sched_process_exit -e sched:sched_wakeup_new -e sched:sched_switch -g -- ./forkexec
	trace_lines tpfork.data
	timehist tpfork.data -S
fi
if want tppipe.data && [ -d /sys/kernel/tracing/events/sched ]; then
	echo "== tppipe.data: perf record -o - -e sched:sched_process_exec -e sched:sched_switch -- ./forkexec > tppipe.data"
	rm -f "$out/tppipe.data"
	(cd "$bin" && "${PERF[@]}" record -o - -e sched:sched_process_exec -e sched:sched_switch \
		-- ./forkexec) >"$out/tppipe.data" 2>"$bin/tppipe.log" || {
		cat "$bin/tppipe.log" >&2
		exit 1
	}
	expect tppipe.data
	# perf report 6.1 stops reading such a pipe file after its TRACING_DATA record (its
	# --stats counts the header's records only; perf script and -D read it all): no stats
	# expectation (and so no header and dump comparison in tests/cli.sh) for it.
	rm -f "$exp/tppipe.data.stats.txt"
	trace_lines tppipe.data
fi
# Off-CPU time (perfnav top --off-cpu): sched_switch samples with callchains, system-wide,
# since a thread's switch-in is a sample of the task it replaces, which a recording of the
# workload alone does not have; a filter keeps the switches in and out of the workload.  The
# samples' own ips are all in the kernel, so --buildid-all for the fixture binary's build id.  perf
# script's fields of it are what tests/offcpu-check.sh computes off-CPU time from.
if want offcpu.data && [ -d /sys/kernel/tracing/events/sched ]; then
	rec offcpu.data -e sched:sched_switch \
		--filter 'prev_comm == "offcpu" || next_comm == "offcpu"' -g -a --buildid-all -- ./offcpu
	"${PERF[@]}" script -i "$out/offcpu.data" -F tid,time,trace,ip,sym,dso --ns --kallsyms /dev/null \
		>"$exp/offcpu.data.offcpu-script.txt" 2>/dev/null
	timehist offcpu.data -s
fi
# Who woke whom (perfnav top --off-cpu --sort waker, the browser's wakers view): the
# off-CPU workload's sched_switch and sched_waking samples (of its threads woken: the
# payload's comm), with callchains, system-wide; perf script's fields of it are what
# tests/wakers-check.sh computes the wakers' off-CPU time from.
if want wakers.data && [ -d /sys/kernel/tracing/events/sched ]; then
	rec wakers.data -e sched:sched_switch \
		--filter 'prev_comm == "offcpu" || next_comm == "offcpu"' \
		-e sched:sched_waking --filter 'comm == "offcpu"' -g -a --buildid-all -- ./offcpu
	"${PERF[@]}" script -i "$out/wakers.data" -F comm,tid,time,event,trace --ns \
		>"$exp/wakers.data.wakers-script.txt" 2>/dev/null
fi
# perf sched record (system-wide: sched_switch, sched_waking, sched_wakeup_new, migrations...)
# of a short run of the off-CPU workload, and what perf sched timehist prints of it:
# expected/sched.data.timehist*.txt, compared byte for byte by tests/cli.sh (perfnav sched
# timehist).  The recording has no callchains, so perf's lines carry no symbols.
if want sched.data && [ -d /sys/kernel/tracing/events/sched ]; then
	echo "== sched.data: perf sched record -- ./offcpu 10"
	rm -f "$out/sched.data"
	(cd "$bin" && "${PERF[@]}" sched record -o "$root/$out/sched.data" -- ./offcpu 10) \
		>"$bin/sched.log" 2>&1 || {
		cat "$bin/sched.log" >&2
		exit 1
	}
	expect sched.data
	for m in "" -w --state; do
		"${PERF[@]}" sched timehist -i "$out/sched.data" --kallsyms /dev/null $m \
			>"$exp/sched.data.timehist${m:+-${m#-}}.txt" 2>/dev/null
	done
	mv "$exp/sched.data.timehist--state.txt" "$exp/sched.data.timehist-state.txt"
fi
# ... and its summaries (-s, with --state, -S), and the lines of one process (-p, with the
# summary perf then prints without idle times) and of one thread (-t, with wakeups): the
# workload's pid and its first thread's tid, as tests/cli.sh finds them again with perfnav
# script.  expected/sched.data.timehist-MODE.txt, MODE as in the loop below.
if [ -f "$out/sched.data" ] && { want sched.data || want sched-summary; }; then
	ids=$("${PERF[@]}" script -i "$out/sched.data" -F comm,pid,tid 2>/dev/null |
		awk '$1 == "offcpu" { split($2, a, "/"); print a[1], a[2] }' | sort -n -k2 -u)
	pid=$(echo "$ids" | awk '$1 == $2 { print $1; exit }')
	tid=$(echo "$ids" | awk '$1 != $2 { print $2; exit }')
	while read -r mode args; do
		# shellcheck disable=SC2086 # args: words on purpose
		"${PERF[@]}" sched timehist -i "$out/sched.data" --kallsyms /dev/null $args \
			>"$exp/sched.data.timehist-$mode.txt" 2>/dev/null
	done <<-EOF
		s -s
		s-state -s --state
		S -S
		pid -S -p $pid
		tid -w -t $tid
	EOF
fi
# perf sched record -g: the same workload with callchains (sched-g.data, a shorter run) and
# what perf sched timehist prints of it: the callchain of each switch-out (default, and
# --max-stack 2), none (--no-call-graph), and -S.  perf 6.1's timehist reads MMAP records
# but not MMAP2, so its user frames are [unknown]; kernel frames come from sched-g.kallsyms:
# the lines of this machine's /proc/kallsyms that the recording's kernel addresses fall in,
# the lines after them (where those symbols end) and _text (perf relocates by it), kept
# beside the recording so that perf here and perfnav anywhere read the same symbols.
if want sched-g.data && [ -d /sys/kernel/tracing/events/sched ]; then
	echo "== sched-g.data: perf sched record -g -- ./offcpu 10"
	rm -f "$out/sched-g.data"
	(cd "$bin" && "${PERF[@]}" sched record -g -o "$root/$out/sched-g.data" -- ./offcpu 10) \
		>"$bin/sched-g.log" 2>&1 || {
		cat "$bin/sched-g.log" >&2
		exit 1
	}
	expect sched-g.data
	{
		grep -E ' (_text|_stext)$' /proc/kallsyms
		{
			awk '{ print $1 "\t0\t" $0 }' /proc/kallsyms
			"${PERF[@]}" script -i "$out/sched-g.data" -F ip --kallsyms /dev/null 2>/dev/null |
				awk '$1 ~ /^ffff/ { print $1 "\t1\t" }'
		} | LC_ALL=C sort -s -t "$(printf '\t')" -k1,1 -k2,2 | awk -F '\t' '
			$2 == 0 { if ($1 != last) { n++; last = $1 }
				line[n] = line[n] substr($0, length($1) + 4) "\n"; next }
			$2 == 1 && n > 0 { need[n] = 1; need[n + 1] = 1 }
			END { for (i = 1; i <= n; i++) if (need[i]) printf "%s", line[i] }'
	} >"$out/sched-g.kallsyms"
	while read -r mode args; do
		# shellcheck disable=SC2086 # args: words on purpose
		"${PERF[@]}" sched timehist -i "$out/sched-g.data" --kallsyms "$out/sched-g.kallsyms" \
			$args >"$exp/sched-g.data.timehist${mode#default}.txt" 2>/dev/null
	done <<-EOF
		default
		-stack2 --max-stack 2
		-nochain --no-call-graph
		-S -S
	EOF
fi
want switch.data && rec switch.data -e cpu-clock -F 2000 --switch-events -- ./threads
# off-CPU time from PERF_RECORD_SWITCH alone (no sched_switch tracepoint): each span charged
# to the thread's last sample before it, which tests/test_offcpu.c and tests/offcpu-check.sh check
if want offcpu-sw.data; then
	rec offcpu-sw.data -e cpu-clock -F 10000 -g --switch-events -- ./offcpu
	# the samples' stacks and the switches, what tests/offcpu-check.sh computes off-CPU time from
	"${PERF[@]}" script -i "$out/offcpu-sw.data" --show-switch-events -F tid,time,ip,sym,dso --ns \
		--kallsyms /dev/null >"$exp/offcpu-sw.data.offcpu-script.txt" 2>/dev/null
fi
if want stat.data; then
	echo "== stat.data: perf stat record -e cpu-clock,task-clock -- ./cpu"
	rm -f "$out/stat.data"
	(cd "$bin" && "${PERF[@]}" stat record -o "$root/$out/stat.data" \
		-e cpu-clock,task-clock -- ./cpu) >"$bin/stat.log" 2>&1 || {
		cat "$bin/stat.log" >&2
		exit 1
	}
	expect stat.data
	perf stat report -i "$out/stat.data" 2>"$exp/stat.data.stat.txt" >/dev/null
fi
# an event the machine cannot count (cycles: no PMU in this VM): perf stat record keeps it
# with no counts at all, and perf stat report says <not supported> (not <not counted>)
if want stat-ns.data; then
	echo "== stat-ns.data: perf stat record -e task-clock,cycles,page-faults -- ./cpu"
	rm -f "$out/stat-ns.data"
	(cd "$bin" && "${PERF[@]}" stat record -o "$root/$out/stat-ns.data" \
		-e task-clock,cycles,page-faults -- ./cpu) >"$bin/stat-ns.log" 2>&1 || {
		cat "$bin/stat-ns.log" >&2
		exit 1
	}
	expect stat-ns.data
	perf stat report -i "$out/stat-ns.data" 2>"$exp/stat-ns.data.stat.txt" >/dev/null
	grep -q 'not supported' "$exp/stat-ns.data.stat.txt" ||
		echo "== stat-ns.data: cycles counted here: no <not supported> line" >&2
fi
# perf stat record per cpu (-a -A) every 20 ms (-I), with a count that is not a clock
# (its rate per second comes from the clocks): needs system-wide counting (root).
if want stat-cpu.data; then
	echo "== stat-cpu.data: perf stat record -I 20 -a -A -e task-clock,cpu-clock,page-faults -- ./cpu"
	rm -f "$out/stat-cpu.data"
	if (cd "$bin" && "${PERF[@]}" stat record -o "$root/$out/stat-cpu.data" -I 20 -a -A \
		-e task-clock,cpu-clock,page-faults -- ./cpu) >"$bin/stat-cpu.log" 2>&1; then
		expect stat-cpu.data
		perf stat report -i "$out/stat-cpu.data" 2>"$exp/stat-cpu.data.stat.txt" >/dev/null
	else
		echo "== stat-cpu.data: skipped (no system-wide counting here)"
	fi
fi

# stat_thread NAME SECONDS STAT-ARGS...: perf stat record --per-thread STAT-ARGS of a running
# process (./threads 1000, attached with -p for SECONDS) into tests/data/NAME, and what perf stat
# report prints of it: a line per thread and event, the threads by count
stat_thread()
{
	local name=$1 secs=$2
	shift 2
	echo "== $name: perf stat record --per-thread $* -p PID -- sleep $secs"
	rm -f "$out/$name"
	(cd "$bin" || exit 1
		./threads 1000 >/dev/null &
		pid=$!
		sleep 0.05
		"${PERF[@]}" stat record -o "$root/$out/$name" --per-thread "$@" -p "$pid" -- sleep "$secs"
		wait "$pid") >"$bin/$name.log" 2>&1 || {
		cat "$bin/$name.log" >&2
		exit 1
	}
	expect "$name"
	perf stat report -i "$out/$name" 2>"$exp/$name.stat.txt" >/dev/null
}
want stat-thread.data && stat_thread stat-thread.data 0.2 -e task-clock,context-switches,page-faults
# ... and every 50 ms (-I 50): per interval, the threads by what each counted in it
want stat-thread-int.data && stat_thread stat-thread-int.data 0.12 -I 50 -e task-clock

# stat_aggr NAME MODE SECONDS STAT-ARGS...: perf stat record -a --per-MODE STAT-ARGS (MODE:
# socket, die, core, node) of sleep SECONDS into tests/data/NAME, and what perf stat report
# prints of it: a line per aggregate id and event, the ids from the recording's CPU_TOPOLOGY
# (NUMA_TOPOLOGY for nodes)
stat_aggr()
{
	local name=$1 mode=$2 secs=$3
	shift 3
	echo "== $name: perf stat record -a --per-$mode $* -- sleep $secs"
	rm -f "$out/$name"
	if (cd "$bin" && "${PERF[@]}" stat record -o "$root/$out/$name" -a --per-"$mode" "$@" \
		-- sleep "$secs") >"$bin/$name.log" 2>&1; then
		expect "$name"
		perf stat report -i "$out/$name" 2>"$exp/$name.stat.txt" >/dev/null
	else
		echo "== $name: skipped (no system-wide counting here)"
	fi
}
for m in socket die core node; do
	want "stat-$m.data" && stat_aggr "stat-$m.data" $m 0.2 -e task-clock,cpu-clock,page-faults
	# ... and every 100 ms (-I 100): per interval, per aggregate
	want "stat-$m-int.data" && stat_aggr "stat-$m-int.data" $m 0.25 -I 100 -e task-clock,page-faults
done

# perf script's default output (no -F: perf 6.1's default fields, callchains, user frames at
# their address in the DSO) on three fixtures, compared byte for byte by tests/cli.sh
for name in multi.data fp.data dwarf.data; do
	want "$name" || continue
	"${PERF[@]}" script --kallsyms /dev/null -i "$out/$name" >"$exp/$name.script-default.txt" 2>/dev/null
done

# perfnav diff's fixtures: one binary path built twice (tests/fixtures-src/diffwork.c,
# VARIANT 0 then 1: the hot path moved, a function gone, one new), recorded before and
# after; diff-b with cpu-clock:u (pairs with cpu-clock as perf pairs events), diff-c with
# a second event.  perf diff's outputs (--dsos diffwork: only the fixture binary's rows,
# whose symbols come from the committed build-id cache; percents stay of every sample):
# expected/diff-OLD~NEW[~NEW].MODE.txt, one per line of diff-cases.txt (MODE|FILES|OPTIONS);
# tests/cli.sh runs perfnav diff the same way over the same list.
if want diff-a.data || want diff-b.data || want diff-c.data; then
	gcc -DVARIANT=0 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -o "$bin/diffwork" "$src/diffwork.c"
	rec diff-a.data -e cpu-clock -F 2000 -g -- ./diffwork
	gcc -DVARIANT=1 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -o "$bin/diffwork" "$src/diffwork.c"
	rec diff-b.data -e cpu-clock:u -F 2000 -g -- ./diffwork
	rec diff-c.data -e cpu-clock,task-clock -F 1000 -g -- ./diffwork 300
	while IFS='|' read -r mode files opts; do
		names=$(echo "$files" | sed 's/ /~/g')
		paths=()
		for f in $files; do
			paths+=("$out/diff-$f.data")
		done
		# shellcheck disable=SC2086 # opts: words on purpose
		(cd "$out" && "${PERF[@]}" diff --dsos diffwork $opts "${paths[@]/#$out\//}") \
			>"$exp/diff-$names.$mode.txt" 2>/dev/null
	done <"$out/diff-cases.txt"
fi

# Two builds of one program under two names (diff-a's diffwork, then VARIANT 1 as
# diffwork2): the browser's diff pairs their symbols only with --sort sym, as perf diff -s sym.
if want diff-d.data; then
	gcc -DVARIANT=1 -O1 -g -fno-omit-frame-pointer -Wall -Wextra -o "$bin/diffwork2" "$src/diffwork.c"
	rec diff-d.data -e cpu-clock -F 2000 -g -- ./diffwork2
fi

# perf writes its files mode 0600; the fixtures are read by everyone.
chmod -R a+rX "$out"
find "$out" -maxdepth 2 -name '*.old' -exec rm -rf {} +

# Prune the build-id cache to the fixture binaries only.
if [ -d "$cache" ]; then
	for d in "$cache"/*; do
		[ "$(basename "$d")" = tmp ] || rm -rf "$d"
	done
	find "$cache/tmp" -mindepth 1 -maxdepth 1 ! -name perfnav-fixtures -exec rm -rf {} + 2>/dev/null || true
	find "$cache" -name probes -exec rm -rf {} +
	# Real copies, not hardlinks to the scratch binaries.
	find "$cache" -type f -links +1 | while read -r f; do
		cp -p "$f" "$f.tmp" && mv -f "$f.tmp" "$f"
	done
	# Drop absolute symlinks and the ones left dangling by the pruning.
	find "$cache" -type l | while read -r l; do
		case $(readlink "$l") in
		/*) rm -f "$l" ;;
		*) [ -e "$l" ] || rm -f "$l" ;;
		esac
	done
	find "$cache" -depth -type d -empty -delete
fi
rm -rf "$bin"

echo
echo "== fixtures"
for f in "$out"/*.data; do
	n=$(basename "$f")
	samples=$(awk '/^ *SAMPLE events:/ && !f { print $3; f = 1 } END { if (!f) print 0 }' "$exp/$n.stats.txt")
	printf '%-18s %8s  %5s samples  %5s records\n' "$n" "$(du -sh "$f" | cut -f1)" \
		"$samples" "$(wc -l <"$exp/$n.dump.txt")"
done
echo "== build-id cache"
find "$cache" \( -type f -o -type l \) | sed "s|^$root/||" | sort
du -sh "$cache" "$out"
