#!/bin/bash
# perfnav export against what reads it (pprof further down).  No speedscope is installed here, so
# its file is read by Python's json module and checked against speedscope's
# file format (https://www.speedscope.app/file-format-schema.json): the
# required keys and types, every sample's frames in the shared list, as many
# weights as samples, their sum the profile's endValue.  Its numbers are
# then checked against perfnav folded --period, a command of its own: per
# command and stack, the weights of the profiles of that command's threads
# sum to folded's count.  --format folded must print folded's lines byte for
# byte; --event, --tid and --off-cpu narrow as they say.
set -u
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# check_ss JSON FOLDED: the speedscope file's form, and its weights against folded's counts
check_ss()
{
	python3 - "$1" "$2" <<'PYEOF'
import json, sys
from collections import defaultdict
d = json.load(open(sys.argv[1], encoding="utf-8"))
def need(c, what):
    if not c:
        print("speedscope:", what); sys.exit(1)
need(d.get("$schema") == "https://www.speedscope.app/file-format-schema.json", "$schema")
need(isinstance(d.get("shared", {}).get("frames"), list), "shared.frames")
frames = d["shared"]["frames"]
for f in frames:
    need(isinstance(f.get("name"), str), "a frame without a name")
    need("file" not in f or isinstance(f["file"], str), "a frame's file")
need(isinstance(d.get("profiles"), list) and d["profiles"], "profiles")
need(isinstance(d.get("activeProfileIndex", 0), int), "activeProfileIndex")
got = defaultdict(int)
for p in d["profiles"]:
    need(p.get("type") == "sampled", "a profile not sampled")
    need(p.get("unit") in ("none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"), "unit")
    need(isinstance(p.get("name"), str), "a profile's name")
    s, w = p["samples"], p["weights"]
    need(len(s) == len(w), "samples and weights differ in count")
    need(sum(w) == p["endValue"] - p["startValue"], "weights do not sum to endValue")
    comm = p["name"].rsplit(" ", 2)[0] if ":" in p["name"] else None
    for st, wt in zip(s, w):
        need(all(isinstance(i, int) and 0 <= i < len(frames) for i in st), "a frame index out of range")
        need(st, "an empty stack")
        got[";".join([comm] + [frames[i]["name"] for i in st])] += wt
want = defaultdict(int)
for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
    stack, _, n = line.rstrip("\n").rpartition(" ")
    want[stack] += int(n)
if got != want:
    for k in sorted(set(got) | set(want)):
        if got[k] != want[k]:
            print("speedscope %d, folded %d: %s" % (got[k], want[k], k[:200]))
    sys.exit(1)
print("%d profiles, %d frames, %d stacks" % (len(d["profiles"]), len(frames), len(got)))
PYEOF
}

for f in fp.data fork.data dwarf.data multi.data; do
	"$bin" export --format speedscope "${sym[@]}" "$data/$f" > "$tmp/ss.json" 2>"$tmp/err" || ko "$f: export speedscope failed: $(cat "$tmp/err")"
	ev=$("$bin" top "${sym[@]}" --tsv "$data/$f" 2>/dev/null | awk -F'\t' 'NR > 1 { print $1; exit }')
	"$bin" folded --period --event "$ev" "${sym[@]}" "$data/$f" > "$tmp/folded" 2>/dev/null
	if "$bin" export --format speedscope --event "$ev" "${sym[@]}" "$data/$f" > "$tmp/ev.json" 2>/dev/null &&
	    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(len(d["profiles"]) != 1)' "$tmp/ev.json"; then
		ok
	else
		ko "$f: --event gives one profile"
	fi
	# per thread: the profiles of event $ev against folded's lines
	python3 - "$tmp/ss.json" "$ev" > "$tmp/one.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["profiles"] = [p for p in d["profiles"] if p["name"].endswith(": " + sys.argv[2])]
json.dump(d, sys.stdout)
PYEOF
	if out=$(check_ss "$tmp/one.json" "$tmp/folded"); then ok; echo "export-check: $f: $out"; else ko "$f: speedscope against folded: $out"; fi
	"$bin" export --format folded "${sym[@]}" "$data/$f" > "$tmp/a" 2>/dev/null
	"$bin" folded "${sym[@]}" "$data/$f" > "$tmp/b" 2>/dev/null
	if cmp -s "$tmp/a" "$tmp/b"; then ok; else ko "$f: export --format folded is not perfnav folded"; fi
done

# a thread's samples only
tid=$("$bin" top --sort tid --tsv "${sym[@]}" "$data/fork.data" 2>/dev/null | awk -F'\t' 'NR > 1 { sub(/:.*/, "", $4); print $4 + 0; exit }')
"$bin" export --format speedscope --tid "$tid" "${sym[@]}" "$data/fork.data" > "$tmp/t.json" 2>/dev/null
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(not (len(d["profiles"]) == 1 and d["profiles"][0]["name"].split(" ")[1] == sys.argv[2] + ":"))' "$tmp/t.json" "$tid"; then
	ok
else
	ko "--tid $tid: one thread's profile"
fi

# off-CPU time: nanoseconds, against folded --off-cpu
"$bin" export --format speedscope --off-cpu "${sym[@]}" "$data/offcpu.data" > "$tmp/oc.json" 2>/dev/null
"$bin" folded --off-cpu "${sym[@]}" "$data/offcpu.data" > "$tmp/ocf" 2>/dev/null
if out=$(check_ss "$tmp/oc.json" "$tmp/ocf") &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(any(p["unit"] != "nanoseconds" for p in d["profiles"]))' "$tmp/oc.json"; then
	ok; echo "export-check: offcpu.data --off-cpu: $out"
else
	ko "offcpu.data --off-cpu: $out"
fi

# pprof on standard output: the gzip as written to a file, not through the escaping filter
"$bin" export --format pprof "${sym[@]}" "$data/fp.data" > "$tmp/so.pb.gz" 2>/dev/null
"$bin" export --format pprof -o "$tmp/o.pb.gz" "${sym[@]}" "$data/fp.data" 2>/dev/null
if gzip -t "$tmp/so.pb.gz" 2>/dev/null && cmp -s "$tmp/so.pb.gz" "$tmp/o.pb.gz"; then
	ok
else
	ko "export --format pprof > FILE: not the gzip -o writes"
fi

# pprof, read by the real pprof when Go and Debian's pprof sources are here (the package
# golang-github-google-pprof-dev; PPROF=/path/to/pprof takes a built one): flat% and cum% of
# every function against perfnav top --children --sort sym's self and children, the samples
# against top's count, and --aggregate's stacks against perfnav folded --period's.
find_pprof
if [ -z "$pprof" ]; then
	echo "export-check: pprof: skipped (no Go and pprof sources: apt-get install golang-go golang-github-google-pprof-dev)"
else
	for f in fp.data fork.data dwarf.data; do
		"$bin" export --format pprof -o "$tmp/p.pb.gz" "${sym[@]}" "$data/$f" 2>/dev/null || ko "$f: export pprof failed"
		"$pprof" -top -nodecount=100000 "$tmp/p.pb.gz" 2>/dev/null > "$tmp/ptop"
		"$bin" top --children --sort sym --tsv "${sym[@]}" "$data/$f" 2>/dev/null > "$tmp/ttop"
		if out=$(python3 - "$tmp/ptop" "$tmp/ttop" <<'PYEOF2'
import re, sys
p = {}
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    m = re.match(r"\s*\S+\s+([\d.]+)%\s+[\d.]+%\s+\S+\s+([\d.]+)%\s+(.*)$", line.rstrip("\n"))
    if m:
        p.setdefault(m.group(3), [0.0, 0.0])
        p[m.group(3)][0] += float(m.group(1))
        p[m.group(3)][1] += float(m.group(2))
t = {}
for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
    if line.startswith("#"):
        continue
    f = line.rstrip("\n").split("\t")
    name = re.sub(r"^\[[.kgu]\] ", "", f[4])
    if re.fullmatch(r"0x[0-9a-f]+", name):
        name = hex(int(name, 16))
    t.setdefault(name, [0.0, 0.0])
    t[name][0] += float(f[2])
    t[name][1] += float(f[1])
bad = [n for n in t if n in p and (abs(p[n][0] - t[n][0]) > 0.02 or abs(p[n][1] - t[n][1]) > 0.02)]
missing = [n for n in t if n not in p and (t[n][0] > 0 or t[n][1] > 0)]
if bad or missing or len(p) < 3:
    print("differ:", [(n, p.get(n), t[n]) for n in bad][:5], "missing:", missing[:5], len(p))
    sys.exit(1)
print("%d functions" % len(t))
PYEOF2
		); then ok; echo "export-check: $f: pprof -top: $out"; else ko "$f: pprof -top against top: $out"; fi
		n=$(($("$pprof" -traces "$tmp/p.pb.gz" 2>/dev/null | grep -c '^-----------+') - 1))
		want=$("$bin" top --tsv "${sym[@]}" "$data/$f" 2>/dev/null | awk -F'\t' 'NR > 1 { s += $3 } END { print s }')
		if [ "$n" -eq "$want" ]; then ok; else ko "$f: pprof -traces: $n samples, top counts $want"; fi
	done
	# --aggregate: a sample per stack and thread, the values summed: every sample counted once
	"$bin" export --format pprof --aggregate -o "$tmp/a.pb.gz" "${sym[@]}" "$data/fork.data" 2>/dev/null
	n=$("$pprof" -top -sample_index=samples "$tmp/a.pb.gz" 2>/dev/null | sed -n 's/.* of \([0-9]*\) total.*/\1/p')
	want=$("$bin" top --tsv "${sym[@]}" "$data/fork.data" 2>/dev/null | awk -F'\t' 'NR > 1 { s += $3 } END { print s }')
	t=$(($("$pprof" -traces "$tmp/a.pb.gz" 2>/dev/null | grep -c '^-----------+') - 1))
	if [ "$n" = "$want" ] && [ "$t" -lt "$want" ]; then ok; else ko "fork.data --aggregate: $n samples in $t traces, top counts $want"; fi
fi

# svg: well-formed XML (Python's parser); the root frame's samples are top's; each frame's
# children fit in it; every function of perfnav folded's stacks has a frame; rendered by a
# headless Chromium when one is installed: the picture has the SVG's size and is not blank.
for f in fp.data fork.data; do
	for inv in "" --inverted; do
		"$bin" export --format svg $inv "${sym[@]}" "$data/$f" > "$tmp/g.svg" 2>/dev/null
		want=$("$bin" top --tsv "${sym[@]}" "$data/$f" 2>/dev/null | awk -F'\t' 'NR > 1 { s += $3 } END { print s }')
		"$bin" folded "${sym[@]}" "$data/$f" > "$tmp/gf" 2>/dev/null
		if out=$(python3 - "$tmp/g.svg" "$want" "$tmp/gf" "$inv" <<'PYEOF2'
import re, sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
frames = []
for g in root.iter(ns + "g"):
    r, t = g.find(ns + "rect"), g.find(ns + "title")
    m = re.match(r"(.*) \((\d+) samples?, [\d.]+%\)$", t.text)
    frames.append((m.group(1), int(m.group(2)), float(r.get("x")), float(r.get("y")), float(r.get("width"))))
all_ = [f for f in frames if f[0] == "all"]
if len(all_) != 1 or all_[0][1] != int(sys.argv[2]) or all_[0][4] != 1200:
    print("root", all_, sys.argv[2]); sys.exit(1)
step = 16 if sys.argv[4] else -16   # children below (an icicle) or above
for a in frames:   # the frames one row on and inside a's columns: its children
    kids = [b for b in frames if abs(b[3] - a[3] - step) < 0.1 and b[2] >= a[2] and b[2] + b[4] <= a[2] + a[4] + 0.01]
    if sum(k[4] for k in kids) > a[4] + 0.01 or sum(k[1] for k in kids) > a[1]:
        print("children wider than", a); sys.exit(1)
names = {f[0] for f in frames}
want = set()
for line in open(sys.argv[3], encoding="utf-8", errors="replace"):
    for fn in line.rsplit(" ", 1)[0].split(";")[1:]:
        if not fn.startswith("["):
            want.add(fn)
missing = [n for n in want if n not in names and not any(n in x for x in names)]
if missing:
    print("no frame of", missing[:5]); sys.exit(1)
print("%d frames" % len(frames))
PYEOF2
		); then ok; echo "export-check: $f svg $inv: $out"; else ko "$f: svg $inv: $out"; fi
	done
done
# svg OLD NEW: a differential flame graph; every function that is a frame of its own, a leaf
# (no frame above it), met once, says the change perfnav diff gives it (self = total there),
# red where it grew and blue where it shrank; a second file with another format is refused.
"$bin" export --format svg "${sym[@]}" "$data/diff-a.data" "$data/diff-b.data" > "$tmp/d.svg" 2>/dev/null
"$bin" diff "${sym[@]}" "$data/diff-a.data" "$data/diff-b.data" > "$tmp/dd" 2>/dev/null
if out=$(python3 - "$tmp/d.svg" "$tmp/dd" <<'PYEOF2'
import re, sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
frames = []
for g in root.iter(ns + "g"):
    r, t = g.find(ns + "rect"), g.find(ns + "title")
    m = re.match(r"(.*) \(\d+ samples?, [\d.]+%(?:; OLD [\d.]+%, NEW [\d.]+%, ([-+][\d.]+) points|; NEW only: ([\d.]+)%)?\)$", t.text)
    if not m:
        print("tooltip", t.text); sys.exit(1)
    pts = float(m.group(2)) if m.group(2) else float(m.group(3)) if m.group(3) else None
    frames.append((m.group(1), pts, float(r.get("x")), float(r.get("y")), float(r.get("width")), r.get("fill")))
delta = {}
for line in open(sys.argv[2], encoding="utf-8", errors="replace"):
    m = re.match(r"\s+(?:[\d.]+%)?\s+([-+][\d.]+)%\s+\S+\s+\[[.k]\] (\S+)$", line.rstrip("\n"))
    if m:
        delta[m.group(2)] = float(m.group(1))
checked = 0
for a in frames:
    kids = [b for b in frames if abs(b[3] - a[3] + 16) < 0.1 and b[2] >= a[2] and b[2] + b[4] <= a[2] + a[4] + 0.01]
    if kids or a[0] not in delta or sum(1 for f in frames if f[0] == a[0]) != 1:
        continue
    if a[1] is None or abs(a[1] - delta[a[0]]) > 0.011:
        print(a[0], "points", a[1], "perf diff", delta[a[0]]); sys.exit(1)
    red, blue = a[5] in ("#ffafaf", "#ff8787", "#ff5f5f"), a[5] in ("#afd7ff", "#87afff", "#5f87ff")
    if (a[1] >= 0.1 and not red) or (a[1] <= -0.1 and not blue):
        print(a[0], a[1], "fill", a[5]); sys.exit(1)
    checked += 1
if checked < 4:
    print("only %d leaves checked of %s" % (checked, sorted(delta))); sys.exit(1)
print("%d leaves' changes are perf diff's" % checked)
PYEOF2
); then ok; echo "export-check: svg OLD NEW: $out"; else ko "svg OLD NEW: $out"; fi
if "$bin" export --format folded "${sym[@]}" "$data/diff-a.data" "$data/diff-b.data" >/dev/null 2>"$tmp/err" ||
    ! grep -q "two files: --format svg" "$tmp/err"; then
	ko "export --format folded with two files: $(cat "$tmp/err")"
else
	ok
fi
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$browser" ]; then
	"$bin" export --format svg "${sym[@]}" "$data/fork.data" > "$tmp/r.svg" 2>/dev/null
	h=$(sed -n 's/.*<svg [^>]*height="\([0-9]*\)".*/\1/p' "$tmp/r.svg" | head -1)
	(cd "$tmp" && timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --window-size=1200,"$h" --screenshot="$tmp/r.png" "file://$tmp/r.svg" >/dev/null 2>&1)
	if out=$(python3 - "$tmp/r.png" "$h" <<'PYEOF2'
import struct, sys, zlib
d = open(sys.argv[1], "rb").read()
w, h = struct.unpack(">II", d[16:24])
idat, i = b"", 8
while i < len(d):
    n, = struct.unpack(">I", d[i:i + 4]); kind = d[i + 4:i + 8]
    if kind == b"IDAT":
        idat += d[i + 8:i + 8 + n]
    i += 12 + n
px = zlib.decompress(idat)
if w != 1200 or h != int(sys.argv[2]) or len(set(px[::97])) < 8:
    print("picture %dx%d, %d distinct bytes" % (w, h, len(set(px[::97])))); sys.exit(1)
print("rendered %dx%d" % (w, h))
PYEOF2
	); then ok; echo "export-check: svg in $browser: $out"; else ko "svg in $browser: $out"; fi
else
	echo "export-check: svg rendering: skipped (no chromium: apt-get install chromium)"
fi

# (names that are no valid UTF-8 or hold control characters: tests/fuzz/fuzz_export.c)
for bad in nothing perfdata; do
	if "$bin" export --format "$bad" "$data/fp.data" >/dev/null 2>"$tmp/err"; then
		ko "--format $bad accepted"
	else
		ok
	fi
done

echo "export-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
