#!/bin/bash
# Checks perfnav's C sources against .clang-format, in the part of the style
# clang-format can express.
#
#   tests/check-format.sh [--fix] [FILE...]
#
# Default files: core/ symbolize/ tui/ (.c and .h, subfolders included) and
# tests/*.c tests/*.h.  Prints a unified diff of every difference that
# counts and exits 1 if there is one; 0 when clean; 2 when clang-format is
# missing.  --fix writes those changes into the files instead (and only
# those: the command to run over the tree after a merge).
#
# Two things of the style are written by hand and clang-format cannot
# reproduce them, so they are not compared:
#   - alignment inside a line: OpenBSD-style declarations and trailing
#     comments aligned with tabs ("uint64_t\t*ids;\tcomment"), which
#     clang-format aligns with spaces or not at all.  Runs of blanks after
#     the indentation compare as one blank; the indentation itself counts;
#   - where a long statement, argument list, initializer or comment is
#     wrapped, and how its continuation lines are indented.  A stretch of
#     lines that differs only so (same statements, each starting at the same
#     indentation, same tokens and spacing once the lines are joined) is
#     left as written.
# Two defects of clang-format 14 are let pass the same way: the indentation
# of an enumerator after an X-macro expansion ("HIST_KEYS(X)" has no comma,
# so it takes the next line for a continuation) and a space it puts in a
# cast before "~" ("(uint8_t) ~x").
# Everything else counts: indentation of each statement, braces (a
# function's on its own line), one statement a line, return type on its own
# line, spaces around operators, after keywords and casts, pointer stars,
# blank lines...
set -euo pipefail

fix=0
if [ "${1:-}" = --fix ]; then
	fix=1
	shift
fi

top=${srcdir:-$(dirname "$0")/..}
cd "$top"
CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
	echo "check-format: $CLANG_FORMAT not found (Debian: apt-get install clang-format)" >&2
	exit 2
fi
[ -f .clang-format ] || { echo "check-format: no .clang-format in $(pwd)" >&2; exit 2; }

files=()
if [ $# -gt 0 ]; then
	files=("$@")
else
	while IFS= read -r f; do
		files+=("$f")
	done < <({
		find core symbolize tui -type f \( -name '*.c' -o -name '*.h' \) 2>/dev/null
		find tests -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \)
	} | LC_ALL=C sort)
fi

# clang-format's version of every file, in a scratch tree (one run).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp --parents "${files[@]}" "$tmp/"
cp .clang-format "$tmp/"
# Sources in one run; headers one by one, named as C sources: clang-format
# guesses a header's language from its text and may take it for Objective-C.
(
	cd "$tmp"
	srcs=() hdrs=()
	for f in "${files[@]}"; do
		case $f in *.h) hdrs+=("$f") ;; *) srcs+=("$f") ;; esac
	done
	[ ${#srcs[@]} -eq 0 ] || "$CLANG_FORMAT" -i --style=file "${srcs[@]}"
	for f in ${hdrs[@]+"${hdrs[@]}"}; do
		"$CLANG_FORMAT" --style=file --assume-filename="${f%.h}.c" <"$f" >"$f.fmt"
		mv "$f.fmt" "$f"
	done
)

FIX=$fix TMP=$tmp python3 - "${files[@]}" <<'PY'
import difflib, os, re, sys

fix = os.environ["FIX"] == "1"
tmp = os.environ["TMP"]

def norm(line):
    """The line with its indentation kept and every later run of blanks made one."""
    body = line.lstrip(" \t")
    lead = line[: len(line) - len(body)]
    return lead + re.sub(r"[ \t]+", " ", body.rstrip())

LABEL = re.compile(r"^\s*(case\b.*|default|[A-Za-z_]\w*)\s*:$")
STRING = re.compile(r'"(\\.|[^"\\])*"|' + r"'(\\.|[^'\\])*'")

def ends(lines):
    """For each line, whether it ends a statement, a block, a comment or a
    directive: outside any comment and parentheses, after ';', '{', '}' or a
    label; a blank line; a directive's last line."""
    out, depth, comment = [], 0, False
    for line in lines:
        t = line.rstrip()
        cont = t.endswith("\\")
        if cont:
            t = t[:-1].rstrip()
        code = ""
        rest = STRING.sub('""', t)
        while rest:
            if comment:
                k = rest.find("*/")
                if k < 0:
                    rest = ""
                    break
                comment = False
                rest = rest[k + 2:]
                continue
            k1, k2 = rest.find("/*"), rest.find("//")
            if k2 >= 0 and (k1 < 0 or k2 < k1):
                code += rest[:k2]
                break
            if k1 < 0:
                code += rest
                break
            code += rest[:k1] + " "
            comment = True
            rest = rest[k1 + 2:]
        depth += code.count("(") + code.count("[") - code.count(")") - code.count("]")
        code = code.strip()
        if t.strip() == "" or (t.lstrip().startswith("#") and not cont):
            depth = 0
            out.append(not comment)
            continue
        if depth < 0:
            depth = 0
        if comment:
            out.append(False)
        elif code == "":
            out.append(depth == 0)	# a comment's last line
        else:
            out.append(depth == 0 and (code.endswith((";", "{", "}")) or bool(LABEL.match(code))))
    return out

XMACRO = re.compile(r"^\s*[A-Z][A-Z0-9_]*\(X\)\s*$")

def free_leads(lines):
    """clang-format takes an X-macro expansion in an enum ("\tHIST_KEYS(X)",
    no comma) and the enumerator after it for one expression, and indents
    the enumerator as a continuation: that line's indentation is not
    compared.  True for such lines."""
    out, after_x = [], False
    for line in lines:
        body = line.strip()
        out.append(after_x and not body.startswith("#"))
        if XMACRO.match(line):
            after_x = True
        elif not body.startswith("#"):
            after_x = False
    return out

def statements(lines, flags, free):
    """The lines joined into statements: (indentation of the first line, text)."""
    out, cur, lead = [], [], None
    for line, end, nolead in zip(lines, flags, free):
        if lead is None:
            body = line.lstrip(" \t")
            lead = "" if nolead else line[: len(line) - len(body)]
        piece = line.strip()
        if piece.endswith("\\"):
            piece = piece[:-1].rstrip()
        cur.append(piece)
        if end or XMACRO.match(line):
            out.append((lead, join(cur)))
            cur, lead = [], None
    if cur:
        out.append((lead, join(cur)))
    return out

def join(pieces):
    text = ""
    for p in pieces:
        if not p:
            continue
        if text and not text.endswith(("(", "[")) and not p.startswith((")", "]")):
            text += " "
        text += p
    # a comment's continuation lines: " * " is layout
    text = re.sub(r"\s\*\s(?!/)", " ", text)
    # clang-format 14 takes "(uint8_t)~x" for a binary operator after a
    # parenthesis and spaces it; the cast stays as written
    text = re.sub(r"\) ~", ")~", text)
    return re.sub(r"\s+", " ", text)


bad_files = 0
total = 0
for f in sys.argv[1:]:
    with open(f) as fp:
        a = fp.read().split("\n")
    with open(os.path.join(tmp, f)) as fp:
        b = fp.read().split("\n")
    na, nb = [norm(x) for x in a], [norm(x) for x in b]
    ea, eb = ends(a), ends(b)
    fa, fb = free_leads(a), free_leads(b)
    hunks = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, na, nb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        # widen to whole statements (the lines around are the same on both sides)
        while i1 > 0 and j1 > 0 and not ea[i1 - 1]:
            i1 -= 1
            j1 -= 1
        while i2 < len(a) and j2 < len(b) and not (
                (i2 == i1 or ea[i2 - 1]) and (j2 == j1 or eb[j2 - 1])):
            i2 += 1
            j2 += 1
        if hunks and i1 <= hunks[-1][1]:
            p = hunks.pop()
            i1, j1 = p[0], p[2]
        hunks.append((i1, i2, j1, j2))
    out, pos, shown = [], 0, []
    for i1, i2, j1, j2 in hunks:
        out += a[pos:i1]
        if statements(a[i1:i2], ea[i1:i2], fa[i1:i2]) == statements(b[j1:j2], eb[j1:j2], fb[j1:j2]):
            out += a[i1:i2]
        else:
            out += b[j1:j2]
            shown.append((i1, i2, j1, j2))
            total += i2 - i1
        pos = i2
    out += a[pos:]
    if not shown:
        continue
    bad_files += 1
    if fix:
        with open(f, "w") as fp:
            fp.write("\n".join(out))
        print("check-format: %s: %d stretch(es) formatted" % (f, len(shown)))
        continue
    for i1, i2, j1, j2 in shown:
        print("--- %s:%d\n+++ %s:%d (clang-format)" % (f, i1 + 1, f, i1 + 1))
        print("@@ -%d,%d +%d,%d @@" % (i1 + 1, i2 - i1, i1 + 1, j2 - j1))
        for x in a[i1:i2]:
            print("-" + x)
        for x in b[j1:j2]:
            print("+" + x)
print("check-format: %d files, %d with differences, %d lines differ%s"
      % (len(sys.argv) - 1, bad_files, total, " (fixed)" if fix else ""))
sys.exit(1 if bad_files and not fix else 0)
PY
