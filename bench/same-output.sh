#!/bin/bash
# Compare two perfnav binaries' output on every recording of one or more sets.
#
#   bench/same-output.sh OLD_BIN NEW_BIN SET_DIR...
#
# For each recording named in SET_DIR/expected/ (as the sets of the yardstick tree's
# corpus/ lay them out: the recordings, with expected/NAME/ beside them)
# it runs the text subcommands with the options the conformance check uses, plus
# `dump -x`, `hex` of the first 20 records, the default `top`, `tree`, `folded` and
# `annotate`, with both binaries, and compares stdout, stderr and the exit status
# byte for byte. The symbolization options (--buildid-dir, --kallsyms,
# --perfmap-dir) come from the set as the conformance check takes them. It prints
# one line per difference and ends with "same-output: N same, M differ"; the exit
# status is 1 when anything differs. Used to show a restructuring changed nothing.
# SAME_OUTPUT_CACHE=DIR keeps the old binary's outputs for the next run.
set -u
[ $# -ge 3 ] || { echo "usage: $0 OLD_BIN NEW_BIN SET_DIR..." >&2; exit 2; }
old=$1 new=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
same=0 differ=0

# run BIN TAG ARGS...: stdout, stderr and status of one run into $tmp/TAG.*
run() {
	local bin=$1 tag=$2
	shift 2
	# each run with an empty cache of its own: both binaries load afresh
	rm -rf "$tmp/xdg"
	XDG_CACHE_HOME=$tmp/xdg timeout 300 "$bin" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err" </dev/null
	echo $? >"$tmp/$tag.rc"
	# The binary's own path shows up in usage lines; make it the same.
	sed -i "s|$bin|PERFNAV|g" "$tmp/$tag.err"
	# stats -I says how long each step took: the one line that may differ.
	sed -i '/^# seconds: /d' "$tmp/$tag.out"
}

# The old binary's runs are kept in $SAME_OUTPUT_CACHE (if set) by binary and
# arguments, so comparing several new builds with one old binary runs it once.
run_old() {
	local key dir
	if [ -z "${SAME_OUTPUT_CACHE:-}" ]; then
		run "$old" a "$@"
		return
	fi
	key=$( (stat -c '%s %Y' "$old"; printf '%s\n' "$@") | md5sum | cut -c1-32)
	dir=$SAME_OUTPUT_CACHE/$key
	if [ ! -f "$dir/a.rc" ]; then
		run "$old" a "$@"
		mkdir -p "$dir.$$" && cp "$tmp/a.out" "$tmp/a.err" "$tmp/a.rc" "$dir.$$/" &&
			{ mv -T "$dir.$$" "$dir" 2>/dev/null || rm -rf "$dir.$$"; }
		return
	fi
	cp "$dir/a.out" "$dir/a.err" "$dir/a.rc" "$tmp/"
}

compare() {
	local what=$1
	shift
	run_old "$@"
	run "$new" b "$@"
	if cmp -s "$tmp/a.out" "$tmp/b.out" && cmp -s "$tmp/a.err" "$tmp/b.err" &&
		cmp -s "$tmp/a.rc" "$tmp/b.rc"; then
		same=$((same + 1))
	else
		differ=$((differ + 1))
		echo "DIFFER: $what"
		diff <(cat "$tmp/a.rc" "$tmp/a.err" "$tmp/a.out") \
			<(cat "$tmp/b.rc" "$tmp/b.err" "$tmp/b.out") | head -n 6
	fi
}

for set in "$@"; do
	extra=()
	[ -d "$set/buildid" ] && extra+=(--buildid-dir "$set/buildid")
	[ -f "$set/kallsyms" ] && extra+=(--kallsyms "$set/kallsyms")
	[ -d "$set/perfmap" ] && extra+=(--perfmap-dir "$set/perfmap")
	for name in $(ls "$set/expected"); do
		rec=$set/$name
		[ -e "$rec" ] || continue
		for args in "stats" "stats -I" "header" "dump" "dump -x" "top" "top --tsv" \
			"top --tsv --sort comm,dso,sym" "top --tsv --children --sort sym" \
			"top --no-children --sort sym -n" "script" "tree" "folded" "annotate"; do
			# shellcheck disable=SC2086
			compare "$name: $args" $args "${extra[@]}" "$rec"
		done
		# hex of the first 20 records as the old binary's dump lists them
		"$old" dump "${extra[@]}" "$rec" 2>/dev/null |
			sed -n 's/^\([^ ]*\) \[0x[0-9a-f]*\]: .*/\1/p' | head -n 20 >"$tmp/offs"
		while read -r off; do
			compare "$name: hex $off" hex "$rec" "$off"
		done <"$tmp/offs"
	done
done
echo "same-output: $same same, $differ differ"
[ "$differ" -eq 0 ]
