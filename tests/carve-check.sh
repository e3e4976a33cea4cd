#!/bin/bash
# perfnav export --format perf (carving) on the perf-made fixtures.
#
# First against perfnav itself (always): perfnav top --tsv on the carved file
# must print what perfnav top --tsv prints on the original with the same
# scope (--time, --cpu and --event whole; --tid, --pid, --comms, --dsos and
# --symbols, which top applies to the rows only and so leave its totals
# alone, without the percent column); -z must carve the same samples as
# without; carving a carved file again must give it back byte for byte;
# pipe, directory and zstd inputs come out in file mode.
#
# Then against perf (when it is installed; a message says so otherwise):
# perf report's rows on the carved file must be those of perf report --time
# or --tid on the original (the percent column aside for --tid, whose totals
# perf keeps).  The header comment lines differ legitimately and are left
# out.  leader.data's periods are differences of READ values (leader
# sampling): the carved file keeps them, and top --time keeps them too.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# carve NAME OUT ARGS...: perfnav export --format perf ARGS -o OUT NAME
carve()
{
	local in=$data/$1 out=$2
	shift 2
	if ! "$bin" export --format perf "${sym[@]}" "$@" -o "$out" "$in" 2> "$tmp/err"; then
		ko "export --format perf $* $in"
		cat "$tmp/err"
		return 1
	fi
}

# same_top NAME CUT SCOPE...: top on the carved file = top SCOPE on the original
# (CUT 1: without the percent column)
same_top()
{
	local name=$1 cut=$2
	shift 2
	carve "$name" "$tmp/c.data" "$@" || return
	"$bin" top --tsv "${sym[@]}" "$@" "$data/$name" > "$tmp/want" 2>&1
	"$bin" top --tsv "${sym[@]}" "$tmp/c.data" > "$tmp/got" 2>&1
	if [ "$cut" = 1 ]; then
		cut -f1,3- "$tmp/want" > "$tmp/w" && mv "$tmp/w" "$tmp/want"
		cut -f1,3- "$tmp/got" > "$tmp/g" && mv "$tmp/g" "$tmp/got"
	fi
	if [ "$(grep -vc '^#' "$tmp/want")" -gt 0 ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "top on carved $name ($*)"
		head -20 "$tmp/diff" "$tmp/want"
	fi
}

# ---- against perfnav ----

for name in plain.data fp.data dwarf.data pipe.data dir.data zstd.data multi.data group.data \
	fork.data switch.data tracepoint.data tpfork.data tppipe.data sched-g.data offcpu.data \
	leader.data mem.rec.data brhist.data; do
	same_top "$name" 0
	same_top "$name" 0 --time 20%-60%
	same_top "$name" 0 --time 10%/3
done
same_top tracepoint.data 0 --cpu 1
same_top multi.data 0 --event task-clock
same_top tracepoint.data 0 --event sched:sched_switch --time 0%-50%
same_top dir.data 1 --tid 26125,26124
same_top fork.data 1 --pid 26195
same_top fork.data 1 --comms forkexec
same_top fp.data 1 --symbols mix_one,fill
same_top fork.data 1 --dsos forkexec
same_top pipe.data 1 --comms threads --time 30%-70%

# every input mode and compression: a file-mode file out, -z the same samples
for name in pipe.data dir.data zstd.data tppipe.data fp.data; do
	carve "$name" "$tmp/a.data" --time 10%-90% || continue
	carve "$name" "$tmp/z.data" --time 10%-90% -z || continue
	if [ "$(head -c 8 "$tmp/a.data")" = PERFILE2 ] && "$bin" header "$tmp/a.data" 2>&1 |
		grep -q 'feature sections (file mode)'; then
		ok
	else
		ko "$name: the carved file is not in file mode"
	fi
	"$bin" dump "$tmp/z.data" > "$tmp/zd" 2>&1
	"$bin" top --tsv "${sym[@]}" "$tmp/a.data" > "$tmp/want" 2>&1
	"$bin" top --tsv "${sym[@]}" "$tmp/z.data" > "$tmp/got" 2>&1
	if grep -q 'PERF_RECORD_COMPRESSED' "$tmp/zd" && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "$name: -z"
		head -20 "$tmp/diff"
	fi
	# carving a carved file with no scope gives it back
	carve_again=$tmp/b.data
	if "$bin" export --format perf -o "$carve_again" "$tmp/a.data" 2> "$tmp/err" &&
		cmp -s "$tmp/a.data" "$carve_again"; then
		ok
	else
		ko "$name: carved again, not the same bytes"
		cat "$tmp/err"
	fi
done

# the header: what perfnav header says of the original, but for the places, the sample
# times (the kept samples'), the directory and compression lines, and a pipe's separators
header_of()
{
	"$bin" header "$1" 2>&1 | sed '/^# perfnav: feature sections/,$d' |
		grep -Ev '^# (captured on|data offset|data size|feat offset|time of (first|last) sample|sample duration|directory data version|missing features|compressed)[ :]|^# ========$|^#$'
}
for name in fp.data pipe.data dir.data zstd.data tracepoint.data tppipe.data group.data stat.data; do
	carve "$name" "$tmp/h.data" || continue
	header_of "$data/$name" > "$tmp/want"
	header_of "$tmp/h.data" > "$tmp/got"
	if [ "$(wc -l < "$tmp/want")" -gt 5 ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "header of carved $name"
		head -20 "$tmp/diff"
	fi
done

# perf stat record files: no samples, every record and section kept
for name in stat.data stat-thread.data stat-cpu.data stat-socket-int.data; do
	carve "$name" "$tmp/s.data" || continue
	if "$bin" stat "$data/$name" > "$tmp/want" 2>&1 && "$bin" stat "$tmp/s.data" > "$tmp/got" 2>&1 &&
		diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "stat on carved $name"
		head -20 "$tmp/diff"
	fi
done

# a pipe on standard input: the same file as from the pipe file
if "$bin" export --format perf --time 10%-50% -o "$tmp/in.data" - < "$data/pipe.data" 2> "$tmp/err" &&
	carve pipe.data "$tmp/f.data" --time 10%-50% && cmp -s "$tmp/in.data" "$tmp/f.data"; then
	ok
else
	ko "export --format perf - < pipe.data"
	cat "$tmp/err"
fi

# standard output: a file is fine, a pipe or the input itself is refused
if "$bin" export --format perf --time 0%-50% "$data/plain.data" > "$tmp/so.data" 2> "$tmp/err" &&
	carve plain.data "$tmp/o.data" --time 0%-50% && cmp -s "$tmp/so.data" "$tmp/o.data"; then
	ok
else
	ko "export --format perf > FILE"
	cat "$tmp/err"
fi
"$bin" export --format perf "$data/plain.data" 2> "$tmp/err" | cat > /dev/null
if [ "${PIPESTATUS[0]}" -eq 2 ] && grep -q 'writes a file' "$tmp/err"; then ok; else ko "export --format perf | cat"; cat "$tmp/err"; fi
: > "$tmp/app.data"
"$bin" export --format perf "$data/plain.data" >> "$tmp/app.data" 2> "$tmp/err"
if [ $? -eq 2 ] && grep -q 'writes a file' "$tmp/err" && [ ! -s "$tmp/app.data" ]; then
	ok
else
	ko "export --format perf >> FILE"
	cat "$tmp/err"
fi
cp "$data/plain.data" "$tmp/self.data"
"$bin" export --format perf -o "$tmp/self.data" "$tmp/self.data" 2> "$tmp/err"
if [ $? -eq 2 ] && grep -q 'recording being read' "$tmp/err" && cmp -s "$data/plain.data" "$tmp/self.data"; then
	ok
else
	ko "export --format perf -o INPUT"
	cat "$tmp/err"
fi
"$bin" export --format perf --off-cpu -o "$tmp/x.data" "$data/offcpu.data" 2> "$tmp/err"
if [ $? -eq 2 ] && grep -q 'off-cpu' "$tmp/err"; then ok; else ko "export --format perf --off-cpu"; cat "$tmp/err"; fi

# ---- against perf ----

perf_bin=${PERF:-perf}
if ! "$perf_bin" version > /dev/null 2>&1; then
	echo "carve-check: perf is not installed: the carved files are not read by perf here"
else
	rep=("$perf_bin" --buildid-dir "$data/buildid" report --stdio --no-children -g none -n
		--percent-limit 0 --kallsyms /dev/null)
	rows() { grep -v '^#' "$1" | grep -v '^[[:space:]]*$' | sed 's/[[:space:]]*$//'; }
	# perf_same NAME CUT SORT PERF-SCOPE -- CARVE-SCOPE (CUT 1: without the percent column)
	perf_same()
	{
		local name=$1 cut=$2 sort=$3 pscope=() cscope=()
		shift 3
		while [ $# -gt 0 ] && [ "$1" != -- ]; do pscope+=("$1"); shift; done
		shift
		cscope=("$@")
		carve "$name" "$tmp/c.data" "${cscope[@]}" || return
		"${rep[@]}" --sort "$sort" "${pscope[@]}" -i "$data/$name" > "$tmp/p0" 2> /dev/null
		"${rep[@]}" --sort "$sort" -i "$tmp/c.data" > "$tmp/p1" 2> "$tmp/perr"
		rows "$tmp/p0" > "$tmp/want"
		rows "$tmp/p1" > "$tmp/got"
		if [ "$cut" = 1 ]; then
			awk '{ $1 = ""; print }' "$tmp/want" > "$tmp/w" && mv "$tmp/w" "$tmp/want"
			awk '{ $1 = ""; print }' "$tmp/got" > "$tmp/g" && mv "$tmp/g" "$tmp/got"
		fi
		if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
			ok
		else
			ko "perf report on carved $name (${cscope[*]}) vs ${pscope[*]}"
			head -20 "$tmp/diff" "$tmp/perr"
		fi
	}
	for name in plain.data fp.data dwarf.data pipe.data dir.data zstd.data multi.data group.data \
		fork.data switch.data tracepoint.data tpfork.data sched.data sched-g.data offcpu.data \
		leader.data; do
		# a span from the first quarter's last sample time to the third's, as perf prints times
		mapfile -t t < <("$perf_bin" script -F time -i "$data/$name" 2> /dev/null |
			sed -nE 's/^ *([0-9]+\.[0-9]+): *$/\1/p' | sort -n)
		n=${#t[@]}
		if [ "$n" -lt 4 ]; then
			ko "perf script -F time $name: $n samples"
			continue
		fi
		span="${t[$((n / 4))]},${t[$((3 * n / 4))]}"
		perf_same "$name" 0 comm,dso,sym --time "$span" -- --time "$span"
		perf_same "$name" 0 comm,dso,sym --time "$span" -- -z --time "$span"
	done
	perf_same fp.data 0 comm,dso,sym --time 10%-40% -- --time 10%-40%
	perf_same leader.data 0 comm,dso,sym --time 20%-60% -- --time 20%-60%
	perf_same fork.data 0 comm,dso,sym --time 0%-25%,50%-75% -- --time 0%-25%,50%-75%
	# perf's --tid, --pid and --comms choose rows (by an entry's first sample: keys by thread)
	perf_same dir.data 1 pid,comm,dso,sym --tid 26125,26124 -- --tid 26125,26124
	perf_same fork.data 1 pid,comm,dso,sym --pid 26195,26196 -- --pid 26195,26196
	perf_same fork.data 1 pid,comm,dso,sym --comms forkexec,nosuch -- --comms forkexec,nosuch
	perf_same fp.data 1 comm,dso,sym --symbols mix_one,fill -- --symbols mix_one,fill
	for name in stat-thread.data stat-cpu.data; do
		carve "$name" "$tmp/s.data" || continue
		"$perf_bin" stat report -i "$data/$name" 2>&1 | grep -v '^#' > "$tmp/want"
		"$perf_bin" stat report -i "$tmp/s.data" 2>&1 | grep -v '^#' > "$tmp/got"
		if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
			ok
		else
			ko "perf stat report on carved $name"
			head -20 "$tmp/diff"
		fi
	done
	# perf 6.1 stops reading tppipe.data after its TRACING_DATA record; the carved file it reads whole
	carve tppipe.data "$tmp/c.data" && "${rep[@]}" -i "$tmp/c.data" > "$tmp/p1" 2> "$tmp/perr"
	if [ "$(rows "$tmp/p1" | wc -l)" -gt 0 ] && grep -q "of event 'sched:sched_switch'" "$tmp/p1"; then
		ok
	else
		ko "perf report on carved tppipe.data"
		head "$tmp/p1" "$tmp/perr"
	fi
fi

echo "carve-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
