#!/bin/bash
# perfnav merge and --merge on the perf-made fixtures.
#
# Against perfnav itself (always): top's rows (event, comm, dso, sym) on the
# merged file are the sums of the inputs' rows; its file rows are each
# input's totals; top and folded with --files NAME (the input's path as
# given, or its last component) give what they give on that input alone, and
# an unknown name is refused; top, folded and export --merge give what they give on the
# file perfnav merge writes; inputs of another sample format are refused,
# naming the file, with no output left; an output that is an input is
# refused and the input left whole; export --format perf of a merged file
# keeps its inputs' rows of the scope; a truncated input is merged as far as
# it reads, its damage said with its name and offset.
#
# Against perf (when it is installed; a message says so otherwise): perf
# report's event counts (periods) per event, and its rows (event, comm, dso, sym) of
# user space, on the merged file are the sums of perf report's on the inputs,
# for one event and for two.  Kernel rows are left out: perf keeps one kernel
# map per file, the first input's, and files the samples of another input's
# kernel that fall outside it under [unknown] (perfnav's rows, above, keep
# them: the kernel rows are compared there).
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
one=(fp.data dir.data diff-a.data diff-d.data fork.data)
two=(multi.data group.data)

# prows FILE...: perfnav top's rows "event comm dso sym<TAB>samples", summed over the files
prows()
{
	for f in "$@"; do
		"$bin" top --tsv --no-children "${sym[@]}" --sort comm,dso,sym "$f" 2> /dev/null
	done | awk -F'\t' '!/^#/ { a[$1 "\t" $4 "\t" $5 "\t" $6] += $3 }
		END { for (k in a) print k "\t" a[k] }' | LC_ALL=C sort
}

# merge OUT NAME...: perfnav merge -o OUT of the fixtures
merge()
{
	local out=$1 in=()
	shift
	for f in "$@"; do in+=("$data/$f"); done
	if ! "$bin" merge -o "$out" "${in[@]}" 2> "$tmp/err"; then
		ko "merge $*: $(cat "$tmp/err")"
		return 1
	fi
}

for set in one two; do
	eval "names=(\"\${$set[@]}\")"
	in=()
	for f in "${names[@]}"; do in+=("$data/$f"); done
	merge "$tmp/$set.data" "${names[@]}" || continue
	prows "${in[@]}" > "$tmp/want"
	prows "$tmp/$set.data" > "$tmp/got"
	if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "top's rows on the merge of ${names[*]}: not the sums of the inputs'"
		head -20 "$tmp/diff"
	fi
	# --sort file: a row per input, its samples the input's
	for f in "${in[@]}"; do
		"$bin" top --tsv --no-children "${sym[@]}" --sort comm "$f" 2> /dev/null |
			awk -F'\t' -v f="$f" '!/^#/ { a[$1] += $3 } END { for (e in a) print e "\t" f "\t" a[e] }'
	done | LC_ALL=C sort > "$tmp/want"
	"$bin" top --tsv --no-children "${sym[@]}" --sort file "$tmp/$set.data" 2> /dev/null |
		awk -F'\t' '!/^#/ { print $1 "\t" $4 "\t" $3 }' | LC_ALL=C sort > "$tmp/got"
	if [ "$(wc -l < "$tmp/got")" -eq $((${#names[@]} * $(cut -f1 "$tmp/want" | sort -u | wc -l))) ] &&
	    diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "top --sort file on the merge of ${names[*]}"
		head -20 "$tmp/diff"
	fi
	# --files: an input of the merged file is that input alone (rows and totals;
	# top's header, the totals, of set one: a merged file shows no event group
	# of one input), by the name the key file prints and by its last component
	cmds=("top --tsv --no-children --sort comm,dso,sym" "top --tsv --children" "folded" "script")
	[ "$set" = one ] && cmds+=("top --no-children")
	for f in "${in[@]}"; do
		for name in "$f" "${f##*/}"; do
			for cmd in "${cmds[@]}"; do
				# shellcheck disable=SC2086
				"$bin" $cmd "${sym[@]}" "$f" > "$tmp/want" 2> /dev/null
				# shellcheck disable=SC2086
				"$bin" $cmd "${sym[@]}" --files "$name" "$tmp/$set.data" > "$tmp/got" 2> "$tmp/err"
				if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
					ok
				else
					ko "$cmd --files $name on the merge of ${names[*]}: not the input alone"
					head -10 "$tmp/diff" "$tmp/err"
				fi
			done
		done
	done
	# --merge: what the merged file gives
	for cmd in "top --tsv --sort file,comm,dso,sym" "folded" "export --format folded"; do
		# shellcheck disable=SC2086
		"$bin" $cmd "${sym[@]}" "$tmp/$set.data" > "$tmp/want" 2> /dev/null
		# shellcheck disable=SC2086
		"$bin" $cmd "${sym[@]}" --merge "${in[@]}" > "$tmp/got" 2> "$tmp/err"
		if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
			ok
		else
			ko "$cmd --merge ${names[*]}: not what it gives on the merged file"
			head -10 "$tmp/diff" "$tmp/err"
		fi
	done
done

# export --format pprof: a file label per sample (the label's key is in the string table)
"$bin" export --format pprof "${sym[@]}" -o "$tmp/p.pb.gz" "$tmp/one.data" 2> /dev/null
"$bin" export --format pprof "${sym[@]}" -o "$tmp/q.pb.gz" "$data/fp.data" 2> /dev/null
if gzip -dc "$tmp/p.pb.gz" | grep -aq "$data/dir.data" && ! gzip -dc "$tmp/q.pb.gz" | grep -aq "$data/fp.data"; then
	ok
else
	ko "export --format pprof: no file label in a merged recording, or one in a plain one"
fi

# export --format pprof --aggregate: a stack per thread and input, its file label the input's;
# read by the real pprof where it is (lib.sh's find_pprof): each input's samples under its label
"$bin" export --format pprof --aggregate "${sym[@]}" -o "$tmp/a.pb.gz" "$tmp/one.data" 2> /dev/null
for f in "${one[@]}"; do
	if gzip -dc "$tmp/a.pb.gz" | grep -aq "$data/$f"; then
		ok
	else
		ko "export --format pprof --aggregate: no file label $data/$f"
	fi
done
find_pprof
if [ -z "$pprof" ]; then
	echo "merge-check: pprof: skipped (no Go and pprof sources)"
else
	"$pprof" -tags -sample_index=samples "$tmp/a.pb.gz" 2> /dev/null |
		awk '/^ file:/ { on = 1; next } /^ [a-z]+:/ { on = 0 } on && NF == 3 { print $3 "\t" $1 + 0 }' |
		LC_ALL=C sort > "$tmp/got"
	"$bin" top --tsv --no-children "${sym[@]}" --sort file "$tmp/one.data" 2> /dev/null |
		awk -F'\t' '!/^#/ { print $4 "\t" $3 }' | LC_ALL=C sort > "$tmp/want"
	if [ "$(wc -l < "$tmp/want")" -eq "${#one[@]}" ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
		ok
	else
		ko "pprof -tags of export --aggregate: not each input's samples"
		head -10 "$tmp/diff"
	fi
fi

# export --format perf of a merged file keeps each input's rows of the scope (uncompressed)
"$bin" export --format perf "${sym[@]}" --comms cpu,forkexec -o "$tmp/carved.data" "$tmp/one.data" 2> /dev/null
"$bin" top --tsv --no-children "${sym[@]}" --sort file --comms cpu,forkexec "$tmp/one.data" 2> /dev/null |
	cut -f1,3- > "$tmp/want"
"$bin" top --tsv --no-children "${sym[@]}" --sort file "$tmp/carved.data" 2> /dev/null | cut -f1,3- > "$tmp/got"
if [ "$(grep -vc '^#' "$tmp/want")" -eq 2 ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
	ok
else
	ko "export --format perf of a merged file: its file rows"
	head -10 "$tmp/diff" "$tmp/want"
fi

# --files: an unknown input refused, the inputs named
if "$bin" top "${sym[@]}" --files nosuch.data "$tmp/one.data" > /dev/null 2> "$tmp/err"; then
	ko "top --files nosuch.data was not refused"
elif grep -q "files nosuch.data: no input of that name (its inputs: $data/fp.data, $data/dir.data" "$tmp/err"; then
	ok
else
	ko "top --files nosuch.data: $(cat "$tmp/err")"
fi

# refused: another sample_type under one name; nothing left behind
if "$bin" merge -o "$tmp/bad.data" "$data/fp.data" "$data/pipe.data" 2> "$tmp/err"; then
	ko "merge of fp.data and pipe.data (another sample_type) was not refused"
elif grep -q "pipe.data: event cpu-clock has another sample_type" "$tmp/err" && [ ! -e "$tmp/bad.data" ]; then
	ok
else
	ko "merge of fp.data and pipe.data: $(cat "$tmp/err")"
fi

# an output that is an input: refused, the input whole
cp "$data/fp.data" "$tmp/in.data"
if "$bin" merge -o "$tmp/in.data" "$tmp/in.data" "$data/zstd.data" 2> "$tmp/err"; then
	ko "merge onto its own input was not refused"
elif grep -q "that is an input" "$tmp/err" && cmp -s "$data/fp.data" "$tmp/in.data"; then
	ok
else
	ko "merge onto its own input: $(cat "$tmp/err")"
fi

# a truncated input: merged as far as it reads, its damage said
size=$(stat -c %s "$data/fork.data")
head -c $((size * 3 / 5)) "$data/fork.data" > "$tmp/cut.data"
if "$bin" merge -o "$tmp/cut-m.data" "$data/fp.data" "$tmp/cut.data" 2> "$tmp/err" &&
    grep -q "cut.data: offset 0x" "$tmp/err"; then
	want=$("$bin" top --tsv "${sym[@]}" --sort comm "$tmp/cut.data" 2> /dev/null |
		awk -F'\t' '!/^#/ { n += $3 } END { print n }')
	got=$("$bin" top --tsv "${sym[@]}" --sort file "$tmp/cut-m.data" 2> /dev/null |
		awk -F'\t' -v f="$tmp/cut.data" '!/^#/ && $4 == f { n += $3 } END { print n }')
	if [ -n "$want" ] && [ "$want" -gt 0 ] && [ "$want" = "$got" ]; then
		ok
	else
		ko "merge with a truncated input: its samples $got, alone $want"
	fi
else
	ko "merge with a truncated input: $(cat "$tmp/err")"
fi

perf_bin=${PERF:-perf}
if ! "$perf_bin" version > /dev/null 2>&1; then
	echo "merge-check: perf is not installed: the merged files are not read by perf here"
else
	# perf report's rows "event comm dso sym<TAB>samples", summed over the files
	rrows()
	{
		for f in "$@"; do
			"$perf_bin" --buildid-dir "$data/buildid" report --stdio --no-children -g none -n \
			    --no-group --percent-limit 0 --kallsyms /dev/null --sort comm,dso,sym -i "$f" 2> /dev/null
		done | awk '/^# Samples:/ { ev = $0; sub(/.*of events? \047/, "", ev); sub(/\047.*/, "", ev) }
			/^# Event count/ { a[ev "\tevent count"] += $NF }
			!/^#/ && NF >= 5 && !/\[k\]/ { n = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); a[ev "\t" $0] += n }
			END { for (k in a) print k "\t" a[k] }' | LC_ALL=C sort
	}
	for set in one two; do
		eval "names=(\"\${$set[@]}\")"
		in=()
		for f in "${names[@]}"; do in+=("$data/$f"); done
		[ -f "$tmp/$set.data" ] || continue
		rrows "${in[@]}" > "$tmp/want"
		rrows "$tmp/$set.data" > "$tmp/got"
		if [ -s "$tmp/want" ] && diff -u "$tmp/want" "$tmp/got" > "$tmp/diff"; then
			ok
			echo "merge-check: perf report on the merge of ${names[*]}: $(wc -l < "$tmp/got") rows, the inputs' sums"
		else
			ko "perf report on the merge of ${names[*]}: not the sums of the inputs'"
			head -20 "$tmp/diff"
		fi
	done
fi

echo "merge-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
