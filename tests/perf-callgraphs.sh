#!/bin/bash
# perfnav top's call graphs (-g/-G, --branch-history) against perf report's
# own output on the perf-made fixtures of tests/data and on the byte-built
# branch stacks of tests/mk-brhist.py.  perf's outputs are kept in
# tests/data/expected/callgraph/NAME.N.txt, one per fixture and option set
# below; `tests/perf-callgraphs.sh --record` writes them again (needs perf).
#
# Compared: every entry's block (its row's percentages and key, then every
# line of its call graph, byte for byte), as a multiset of blocks: perfnav
# always prints a Samples column (perf only with -n) and may order rows of
# equal overhead differently.  Header lines ('#') and blank lines are left
# out.  Kernel symbols are left out on both sides (an empty kallsyms): the
# fixtures' kernel is not the one of the machine that runs the tests.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${PERFNAV:-./perfnav}
exp=tests/data/expected/callgraph
data=tests/data

fixtures="fp.data dwarf.data fork.data"
optsets=(
	"--no-children --sort sym -g graph,0.5,callee"
	"--no-children --sort sym -g fractal,0.5,caller"
	"--no-children --sort sym -g flat,0"
	"--no-children --sort sym -g folded,0,caller,count"
	"--children --sort sym -g graph,0.5,caller"
	"--children --sort sym -g graph,0,callee,period"
	"--children --sort sym -G"
	"--no-children -g graph,0.5,callee,count"
	"--no-children --sort sym -g fractal,2,callee,count"
	"--children -g graph,0.5,caller"
	"--children -g folded,0,callee,count"
)
# perf's --branch-history (brhist.data: branch stacks; brhist-g.data: and callchains)
brfixtures="brhist.data brhist-g.data"
broptsets=(
	"--branch-history"
	"--branch-history --no-children"
	"--branch-history -g fractal,0.5,callee"
	"--branch-history -g flat,0"
	"--branch-history -g folded,0,caller,count"
	"--branch-history --max-stack 4"
	"--branch-history --sort sym -g graph,0,callee,period"
	"--branch-history --percent-limit 12.5"
	"--branch-history --children -g caller,0,count"
	"--branch-history --sort srcline"
	"--branch-history --sort srcline -g fractal,0.5,callee"
)

# --call-graph lbr (lbr.data): the user chain from the branch stack of calls in flight
lbrfixtures="lbr.data"
lbroptsets=(
	"--no-children -g graph,0.5,callee"
	"--children -g graph,0.5,caller"
	"--children -g graph,0,caller,address,count"
	"--branch-history"
	"--branch-history --no-children"
	"--branch-history -g callee"
	"--children -g graph,0,callee,address,count"
	"--children -g fractal,0.5,callee,address"
)

# siblings of equal weight, in perf's order (its key, descending: symbol start, address
# as recorded, DSO): zstd.data's unresolved user frames (above: lbr.data's address key);
# flat and folded paths of equal weight (a path after those continuing it)
tiefixtures="zstd.data"
tieoptsets=(
	"--no-children -g graph,0,caller"
	"--children -g graph,0,caller,function,count"
	"--children -G"
	"--children --sort dso,sym -g graph,0,caller"
	"--no-children --max-stack 3 -g graph,0,caller"
	"--no-children -g folded,0,caller"
	"--no-children -g flat,0"
	"--children -g folded,0,callee,count"
)

# --max-stack: perf counts frames from where its walk starts (the root in caller order);
# recorded chains (an unwound stack stops where the unwinder does)
msfixtures="fp.data fork.data"
msoptsets=(
	"--children --max-stack 2 -g graph,0.5,caller"
	"--no-children --max-stack 2 -g graph,0.5,caller"
	"--no-children --max-stack 2 -g graph,0.5,callee"
)

# each_case FN: FN FIXTURE INDEX OPTIONS for every fixture and option set
# group FN FIXTURES OPTSETS-ARRAY-NAME PREFIX: FN FIXTURE PREFIX+INDEX OPTIONS for each pair
group()
{
	local fn=$1 fx=$2 pre=$4 f i
	local -n sets=$3
	for f in $fx; do
		for i in "${!sets[@]}"; do
			"$fn" "$f" "$pre$i" "${sets[$i]}"
		done
	done
}

each_case()
{
	group "$1" "$fixtures" optsets ""
	group "$1" "$brfixtures" broptsets ""
	group "$1" "$lbrfixtures" lbroptsets ""
	group "$1" "$msfixtures" msoptsets ms
	group "$1" "$tiefixtures" tieoptsets tie
}

record()
{
	# shellcheck disable=SC2086
	perf --buildid-dir "$data/buildid" report -i "$data/$1" --stdio --kallsyms=/dev/null $3 \
		2>/dev/null | sed '/^# (Tip:/d' >"$exp/$1.$2.txt"
}

if [ "${1-}" = --record ]; then
	mkdir -p "$exp"
	each_case record
	exit 0
fi

# Blocks: an entry line (leading percentages) with the lines after it, the
# entry's integer columns dropped, one block per line of output (fields
# joined by \x01), sorted.
blocks()
{
	grep -v '^#' | grep -v '^$' | awk '
		/^ +-?[0-9.]+%/ {
			if (b != "") print b
			line = $0
			gsub(/  +[0-9]+  /, "  ", line)
			sub(/ +- +- *$/, "", line)	# perf'"'"'s IPC columns (branch stacks)
			b = line
			next
		}
		{ b = b "\001" $0 }
		END { if (b != "") print b }' | LC_ALL=C sort
}

fail=0
n=0
check()
{
	n=$((n + 1))
	# shellcheck disable=SC2086
	if ! "$bin" top $3 --kallsyms /dev/null --buildid-dir "$data/buildid" "$data/$1" \
		>/tmp/perfnav-cg.$$ 2>/dev/null; then
		echo "FAIL $1 $3: perfnav top failed"
		fail=$((fail + 1))
		return
	fi
	if ! diff <(blocks <"$exp/$1.$2.txt") <(blocks </tmp/perfnav-cg.$$) >/tmp/perfnav-cgd.$$; then
		echo "FAIL $1 $3:"
		tr '\001' '\n' </tmp/perfnav-cgd.$$ | head -40
		fail=$((fail + 1))
	fi
}
each_case check
rm -f /tmp/perfnav-cg.$$ /tmp/perfnav-cgd.$$
echo "perf-callgraphs: $((n - fail)) of $n agree"
[ "$fail" = 0 ]
