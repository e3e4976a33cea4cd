#!/bin/bash
# perfnav export against what reads it.  No speedscope is installed here, so
# its file is read by Python's json module and checked against speedscope's
# file format (https://www.speedscope.app/file-format-schema.json): the
# required keys and types, every sample's frames in the shared list, as many
# weights as samples, their sum the profile's endValue.  Its numbers are
# then checked against perfnav folded --period, a command of its own: per
# command and stack, the weights of the profiles of that command's threads
# sum to folded's count.  --format folded must print folded's lines byte for
# byte; --event, --tid and --off-cpu narrow as they say.
set -u
top=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
bin=${PERFNAV:-$PWD/perfnav}
[ -x "$bin" ] || bin=$top/perfnav
data=$top/tests/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
sym=(--buildid-dir "$data/buildid" --kallsyms /dev/null)

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

# (names that are no valid UTF-8 or hold control characters: tests/fuzz/fuzz_export.c)
for bad in pprof nothing; do
	if "$bin" export --format "$bad" "$data/fp.data" >/dev/null 2>"$tmp/err"; then
		ko "--format $bad accepted"
	else
		ok
	fi
done

echo "export-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
