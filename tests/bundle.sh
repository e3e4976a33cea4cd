#!/bin/bash
# perfnav bundle end to end, with real perf: programs built into a scratch
# directory and recorded there (a C program with --call-graph dwarf and -g,
# a JIT writing a perf-PID.map), each into a build-id cache of its own; the
# rows of top --tsv, folded and top --sort srcline read with that cache;
# then the bundle (a directory and a tar) made, the programs, the JIT map
# and the cache deleted, and the bundle opened with an empty HOME and no
# --buildid-dir:
#   - the same rows (kernel, libc and the program resolved, DWARF unwound
#     with inline frames, source lines, the JIT's symbol);
#   - without the bundle the rows differ (so the bundle's files are the ones
#     read), and with the bundle's libc files removed, libc's frames are
#     unresolved even though this machine has libc (nothing of the
#     machine's is read);
#   - perf archive's tarball read with --buildid-dir gives the rows too;
#   - a hostile bundle (a link out of it, a tar with "..") is refused;
#   - the sizes: the bundle against the files it stands for and perf
#     archive's tarball (printed; docs/subcommands.md quotes them).
# First, without perf: the committed fixtures bundled and read back, and
# --whole's annotate.  The recorded part is skipped without perf or gcc, or
# where perf cannot record.
set -uo pipefail

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
ok() { pass=$((pass + 1)); echo "ok: $*"; }
mkdir -p "$tmp/home"

# First the committed fixtures (no perf needed): each bundled with the options
# its rows were read with, then read from the bundle alone with an empty HOME.
fixture()
{
	local f=$1 v a b
	shift
	rm -rf "$tmp/fx"
	"$bin" bundle "$@" -o "$tmp/fx" "$data/$f.data" >/dev/null 2>&1 ||
		{ ko "$f: perfnav bundle failed"; return; }
	for v in "top --tsv" "folded" "top --tsv --sort dso,sym,srcline" "top --tsv --children"; do
		# shellcheck disable=SC2086
		a=$(HOME=$tmp/home "$bin" $v "$@" "$data/$f.data" 2>/dev/null)
		# shellcheck disable=SC2086
		b=$(HOME=$tmp/home "$bin" $v "$tmp/fx" 2>/dev/null)
		[ -n "$a" ] && [ "$a" = "$b" ] || { ko "$f: the bundle's $v differs"; return; }
	done
	ok "$f: the bundle gives top, folded, srcline and children rows as the cache did"
}
fixture dwarf --buildid-dir "$data/buildid"
fixture fp --buildid-dir "$data/buildid"
fixture sched-g --buildid-dir "$data/buildid" --kallsyms "$data/sched-g.kallsyms"
fixture mem-obj --buildid-dir "$data/buildid" --kallsyms "$data/mem-obj.kallsyms"
n=$(wc -l <"$tmp/fx/kallsyms" 2>/dev/null || echo 0)
[ "$n" -gt 0 ] && [ "$n" -lt "$(wc -l <"$data/mem-obj.kallsyms")" ] &&
	ok "mem-obj: the bundle keeps $n of kallsyms' lines" || ko "mem-obj: kallsyms kept: $n lines"

# --whole keeps the code: annotate gives its instructions from the bundle.
rm -rf "$tmp/whole"
"$bin" bundle --whole --buildid-dir "$data/buildid" -o "$tmp/whole" "$data/fp.data" >/dev/null 2>&1
a=$(HOME=$tmp/home "$bin" annotate --buildid-dir "$data/buildid" "$data/fp.data" mix_one 2>&1)
b=$(HOME=$tmp/home "$bin" annotate "$tmp/whole" mix_one 2>&1)
[ -n "$a" ] && [ "$a" = "$b" ] && ok "--whole: annotate's instructions from the bundle" ||
	ko "--whole: annotate differs"

# The browser: a bundle's tar, and two bundles as a diff, with an empty HOME.
if command -v tmux >/dev/null 2>&1; then
	rm -rf "$tmp/fpb" "$tmp/dw.tar"
	"$bin" bundle --buildid-dir "$data/buildid" -o "$tmp/fpb" "$data/fp.data" >/dev/null 2>&1
	"$bin" bundle --buildid-dir "$data/buildid" -o "$tmp/dw.tar" "$data/dwarf.data" >/dev/null 2>&1
	sock=perfnav-bundle-$$
	mkdir -p "$tmp/tmpdir"
	for args in "$tmp/dw.tar" "$tmp/dw.tar $tmp/fpb"; do
		tmux -L "$sock" new-session -d -x 160 -y 30 \
			"TMPDIR=$tmp/tmpdir HOME=$tmp/home $bin $args; echo EXIT=\$?; sleep 10"
		shot=
		for _ in $(seq 50); do
			sleep 0.2
			shot=$(tmux -L "$sock" capture-pane -p 2>/dev/null)
			grep -q 'mix_one' <<<"$shot" && break
		done
		during=$(ls -A "$tmp/tmpdir")
		tmux -L "$sock" send-keys q
		sleep 0.5
		end=$(tmux -L "$sock" capture-pane -p 2>/dev/null)
		tmux -L "$sock" kill-server 2>/dev/null
		if grep -q 'mix_one' <<<"$shot" && grep -q 'EXIT=0' <<<"$end"; then
			ok "the browser on ${args//$tmp\//}: mix_one resolved, q exits 0"
		else
			ko "the browser on $args: $shot"
		fi
		[ -n "$during" ] && [ -z "$(ls -A "$tmp/tmpdir")" ] &&
			ok "the browser: the tar unpacked in TMPDIR ($during), removed at exit" ||
			ko "the browser: TMPDIR held '$during', then '$(ls "$tmp/tmpdir")'"
	done
fi

command -v perf >/dev/null 2>&1 || { echo "perf not installed: the rest skipped"; exit 0; }
command -v gcc >/dev/null 2>&1 || { echo "gcc not installed: the rest skipped"; exit 0; }
[ "$(uname -m)" = x86_64 ] || { echo "not x86-64: the rest skipped"; exit 0; }

mkdir -p "$tmp/bin" "$tmp/cache" "$tmp/maps"
gcc -O1 -g -fno-omit-frame-pointer -o "$tmp/bin/cpu" "$top/tests/fixtures-src/cpu.c" &&
	gcc -O1 -g -o "$tmp/bin/jit" "$top/tests/fixtures-src/jit.c" ||
	{ ko "cannot build the workloads"; exit 1; }
PERF=(perf --buildid-dir "$tmp/cache")
rec()
{
	local out=$1
	shift
	(cd "$tmp/bin" && "${PERF[@]}" record -q -o "$tmp/$out" "$@") >"$tmp/$out.log" 2>&1
}
rec dwarf.data -e cpu-clock -F 1000 --call-graph dwarf,4096 -- ./cpu 100 &&
	rec fp.data -e cpu-clock -F 2000 -g -- ./cpu 100 &&
	rec jit.data -e cpu-clock -F 2000 -- ./jit "$tmp/maps" 8 ||
	{ cat "$tmp"/*.log; echo "perf cannot record here: the rest skipped"; echo "bundle: $pass passed, $fail failed"; [ "$fail" -eq 0 ]; exit; }

VIEWS=("top --tsv" "folded" "top --tsv --sort dso,sym,srcline" "top --tsv --children")
# rows NAME ARGS...: each view's output into $tmp/NAME.N
rows()
{
	local name=$1 i=0 v
	shift
	for v in "${VIEWS[@]}"; do
		# shellcheck disable=SC2086
		HOME=$tmp/home "$bin" $v "$@" >"$tmp/$name.$i" 2>"$tmp/$name.$i.err"
		i=$((i + 1))
	done
}
# same A B WHAT: A's outputs are B's
same()
{
	local i
	for i in 0 1 2 3; do
		if ! cmp -s "$tmp/$1.$i" "$tmp/$2.$i"; then
			ko "$3: ${VIEWS[$i]} differs"
			diff "$tmp/$1.$i" "$tmp/$2.$i" | head -8
			return
		fi
	done
	ok "$3: the rows of top, folded, srcline and children are the same"
}

for f in dwarf fp jit; do
	rows "$f-cache" --buildid-dir "$tmp/cache" --perfmap-dir "$tmp/maps" "$tmp/$f.data"
	"$bin" bundle --buildid-dir "$tmp/cache" --perfmap-dir "$tmp/maps" -o "$tmp/$f.bundle" \
		"$tmp/$f.data" >"$tmp/$f.bundle.out" 2>&1 ||
		{ ko "$f: perfnav bundle failed"; cat "$tmp/$f.bundle.out"; }
	"$bin" bundle --buildid-dir "$tmp/cache" --perfmap-dir "$tmp/maps" -o "$tmp/$f.tar" \
		"$tmp/$f.data" >/dev/null 2>&1 || ko "$f: perfnav bundle -o X.tar failed"
done
(cd "$tmp" && "${PERF[@]}" archive dwarf.data >/dev/null 2>&1)

# What the recordings resolved with the cache, to be found again from the bundles.
grep -q 'mix_one' "$tmp/dwarf-cache.0" && grep -q 'libc.so.6' "$tmp/dwarf-cache.1" 2>/dev/null ||
	grep -q '__libc_start' "$tmp/dwarf-cache.1" || ko "dwarf: the cached run resolves no libc frame"
grep -q '(inlined)\|cpu.c:' "$tmp/dwarf-cache.2" || ko "dwarf: the cached run has no source lines"
grep -q 'jit_hot_loop' "$tmp/jit-cache.0" || ko "jit: the cached run does not name the JIT code"

# The machine's files out of reach: the programs, the JIT maps, the cache.
rm -rf "$tmp/bin" "$tmp/maps"
mv "$tmp/cache" "$tmp/cache.gone"

for f in dwarf fp jit; do
	rows "$f-bundle" "$tmp/$f.bundle"
	same "$f-cache" "$f-bundle" "$f: the bundle directory, no cache, empty HOME"
	rows "$f-tar" "$tmp/$f.tar"
	same "$f-cache" "$f-tar" "$f: the bundle's tar"
	rows "$f-bare" "$tmp/$f.data"
	cmp -s "$tmp/$f-cache.0" "$tmp/$f-bare.0" &&
		ko "$f: the bare perf.data resolves as the bundle does: the test proves nothing" ||
		ok "$f: without the bundle the rows differ"
done
grep -q 'jit_hot_loop' "$tmp/jit-bundle.0" && ok "jit: the bundle names the JIT code" ||
	ko "jit: the bundle does not name the JIT code"
n=$(wc -l <"$tmp/jit.bundle/"perf-*.map)
[ "$n" -le 2 ] && ok "jit: the bundle keeps $n of the map's 1001 lines" ||
	ko "jit: the bundle keeps $n map lines"
if [ -s "$tmp/dwarf.bundle/kallsyms" ]; then
	n=$(wc -l <"$tmp/dwarf.bundle/kallsyms")
	k=$(wc -l </proc/kallsyms)
	[ "$n" -lt 1000 ] && ok "dwarf: the bundle keeps $n kallsyms lines (of $k)" ||
		ko "dwarf: the bundle keeps $n kallsyms lines"
fi

# The machine's libc is not read: without the bundle's copy, libc is unresolved.
cp -a "$tmp/dwarf.bundle" "$tmp/nolibc.bundle"
rm -rf "$tmp/nolibc.bundle/usr/lib/x86_64-linux-gnu/libc.so.6"
HOME=$tmp/home "$bin" folded "$tmp/nolibc.bundle" >"$tmp/nolibc.folded" 2>/dev/null
if grep -q '__libc_start_call_main' "$tmp/dwarf-cache.1"; then
	grep -q '__libc_start_call_main' "$tmp/nolibc.folded" &&
		ko "a bundle without libc's files still resolves libc: the machine's was read" ||
		ok "a bundle without libc's files leaves libc unresolved (the machine's is not read)"
fi

# perf archive's tarball as --buildid-dir.
if [ -s "$tmp/dwarf.data.tar.bz2" ]; then
	rows dwarf-archive --buildid-dir "$tmp/dwarf.data.tar.bz2" "$tmp/dwarf.data"
	same dwarf-cache dwarf-archive "dwarf: perf archive's tarball as --buildid-dir"
	HOME=$tmp/home "$bin" top "$tmp/dwarf.data.tar.bz2" >/dev/null 2>"$tmp/arch.err" &&
		ko "perf archive's tarball opened as a recording" ||
		{ grep -q 'a perf archive' "$tmp/arch.err" && ok "perf archive's tarball as a recording: told to use --buildid-dir" ||
			{ ko "perf archive's tarball as a recording: $(cat "$tmp/arch.err")"; }; }
fi

# Hostile bundles.
cp -a "$tmp/fp.bundle" "$tmp/evil.bundle"
rm -f "$tmp/evil.bundle/kallsyms"
ln -s /etc/passwd "$tmp/evil.bundle/kallsyms"
HOME=$tmp/home "$bin" top "$tmp/evil.bundle" >/dev/null 2>"$tmp/evil.err" &&
	ko "a bundle with a link out of it opened" ||
	{ grep -q 'kallsyms: a symbolic link out of the bundle' "$tmp/evil.err" &&
		ok "a bundle with a link out of it: refused, the link named" ||
		ko "a link out of the bundle: $(cat "$tmp/evil.err")"; }
mkdir -p "$tmp/dots/x"
cp "$tmp/fp.bundle/perfnav-bundle" "$tmp/fp.bundle/perf.data" "$tmp/dots/x/"
echo hi >"$tmp/dots/evil"
tar -C "$tmp/dots/x" -cf "$tmp/dots.tar" perfnav-bundle perf.data
tar -C "$tmp/dots" -rf "$tmp/dots.tar" --transform 's,^evil,x/../../evil,' evil 2>/dev/null
HOME=$tmp/home "$bin" top "$tmp/dots.tar" >/dev/null 2>"$tmp/dots.err" &&
	ko "a tar with '..' opened" ||
	{ grep -qE 'dots.tar: offset 0x[0-9a-f]+: entry "x/../../evil": a path with ".."' "$tmp/dots.err" &&
		ok "a tar with '..': refused, the entry and its offset named" ||
		ko "a tar with '..': $(cat "$tmp/dots.err")"; }
ls /tmp | grep -q "^perfnav-bundle\.$" && ko "a temporary directory left behind"

# Sizes (stated in docs/subcommands.md).
full=$(sed -n 's/.* of their \([0-9]*\) bytes kept.*/\1/p' "$tmp/dwarf.bundle.out")
[ -n "$full" ] || { ko "no sizes in bundle's summary: $(cat "$tmp/dwarf.bundle.out")"; full=0; }
du_b=$(du -sk "$tmp/dwarf.bundle" | cut -f1)
tar_b=$(stat -c %s "$tmp/dwarf.tar")
"$bin" bundle --buildid-dir "$tmp/cache.gone" -o "$tmp/dwarf2.tar.zst" "$tmp/dwarf.data" >/dev/null 2>&1
zst_b=$(stat -c %s "$tmp/dwarf2.tar.zst" 2>/dev/null || echo 0)
arch_b=$(stat -c %s "$tmp/dwarf.data.tar.bz2" 2>/dev/null || echo 0)
data_b=$(stat -c %s "$tmp/dwarf.data")
echo "sizes (--call-graph dwarf recording of cpu.c): perf.data $data_b bytes;" \
	"the DSOs' files $full bytes; bundle directory ${du_b} KiB on disk;" \
	".tar $tar_b bytes; .tar.zst $zst_b bytes; perf archive's .tar.bz2 $arch_b bytes (without the perf.data)"
[ "$tar_b" -lt "$((full + data_b))" ] && ok "the bundle's tar is smaller than the files it stands for" ||
	ko "the tar ($tar_b) is not smaller than the files ($full + $data_b)"

echo "bundle: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
