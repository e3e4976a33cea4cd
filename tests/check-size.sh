#!/bin/bash
# Checks the size targets of perfnav's C sources: no .c file over 1,200 lines
# and no function over 120 lines, pure data tables excepted.
#
#   tests/check-size.sh [-v] [FILE|DIR...]
#
# Default: every .c file under core/ symbolize/ tui/ tests/ of the tree this
# script is in ($srcdir when set).  -v also lists every function over 80
# lines.  Exit status 0 when every file passes, 1 otherwise.
#
# How things are measured (the code's style makes them plain to see):
#   - a function runs from the line of its name (the column-0 line holding
#     "name(", the return type being on the line before) to its closing
#     brace, the "}" in column 0 that follows the "{" in column 0;
#   - a file counts its lines minus those of its file-scope data tables: an
#     initialised array or struct whose first line is in column 0 and ends
#     in "= {" (or in "=" with "{" in column 0 on the next line), up to the
#     "};" in column 0 that closes it; or a string constant whose first
#     line ends in "=" and whose next line starts with a string literal;
#   - a function that is a pure data table (a switch from a value to a
#     constant, say) is excepted when a comment above it, after the
#     previous function's closing brace, holds the marker
#         check-size: data table
#     Use it only for a function that does nothing but map values: the list
#     of excepted functions is printed on every run, so it stays in sight.
set -euo pipefail

FILE_MAX=1200
FUNC_MAX=120

verbose=0
if [ "${1:-}" = -v ]; then
	verbose=1
	shift
fi

top=${srcdir:-$(dirname "$0")/..}
if [ $# -eq 0 ]; then
	cd "$top"
	set --
	for d in core symbolize tui tests; do
		[ -d "$d" ] && set -- "$@" "$d"
	done
fi

files=()
for a in "$@"; do
	if [ -d "$a" ]; then
		while IFS= read -r f; do
			files+=("$f")
		done < <(find "$a" -type f -name '*.c' | LC_ALL=C sort)
	else
		files+=("$a")
	fi
done
[ ${#files[@]} -gt 0 ] || { echo "size: no .c file to check" >&2; exit 1; }

awk -v file_max="$FILE_MAX" -v func_max="$FUNC_MAX" -v verbose="$verbose" '
function report_file(    code) {
	if (fname == "")
		return
	code = FNR_last - tablelines
	nfiles++
	if (code > file_max) {
		printf "size: %s: %d lines (%d without its data tables), over %d\n", \
		    fname, FNR_last, code, file_max
		bad++
	}
	if (code > maxfile) {
		maxfile = code
		maxfile_name = fname
	}
}

FNR == 1 {
	report_file()
	fname = FILENAME
	tablelines = 0
	intable = 0
	infunc = 0
	start = 0
	name = ""
	marker = 0
}

{ FNR_last = FNR }

# file-scope data tables: "... = {", or "... =" then "{"
pending && /^\{/ {
	intable = 1
}
pending && /^[[:space:]]*"/ {
	intable = 2
}
{ pending = 0 }
!infunc && !intable && /^[A-Za-z_].*=[[:space:]]*\{[[:space:]]*$/ {
	intable = 1
	tstart = FNR
}
!infunc && !intable && /^[A-Za-z_].*=[[:space:]]*$/ {
	pending = 1
	tstart = FNR
}
intable {
	if ((intable == 1 && /^}/) || (intable == 2 && /;[[:space:]]*$/)) {
		intable = 0
		tablelines += FNR - tstart + 1
	}
	next
}

!infunc && /check-size: data table/ { marker = 1 }

# the line of a function name: column 0, an identifier then "("
!infunc && /^[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(/ {
	start = FNR
	name = $0
	sub(/[[:space:]]*\(.*/, "", name)
	if (name ~ /^(Test|ParameterizedTest|TheoryTest)$/) {
		# Criterion: name it by its suite and test
		name = $0
		sub(/\).*/, ")", name)
	} else {
		name = name "()"
	}
}
# the same when the return type shares the line ("static int f(void)")
!infunc && /^[A-Za-z_][A-Za-z0-9_ \t\*]*[[:space:]\*][A-Za-z_][A-Za-z0-9_]*\(/ && !/^(return|else|typedef)/ {
	start = FNR
	name = $0
	sub(/\(.*/, "", name)
	sub(/.*[[:space:]\*]/, "", name)
	name = name "()"
}

!infunc && /^\{/ {
	infunc = 1
	if (!start)
		start = FNR
	next
}

infunc && /^\}/ {
	infunc = 0
	len = FNR - start + 1
	where = sprintf("%s:%d: %s", fname, start, name)
	if (marker) {
		excepted[++nexcepted] = sprintf("%s, %d lines", where, len)
	} else {
		nfuncs++
		if (len > func_max) {
			printf "size: %s is %d lines, over %d\n", where, len, func_max
			bad++
		} else if (verbose && len > 80) {
			printf "size: %s is %d lines\n", where, len
		}
		if (len > maxfunc) {
			maxfunc = len
			maxfunc_name = where
		}
	}
	start = 0
	name = ""
	marker = 0
}

END {
	report_file()
	for (i = 1; i <= nexcepted; i++)
		printf "size: excepted as a data table: %s\n", excepted[i]
	printf "size: longest function: %s, %d lines; largest file: %s, %d lines without its data tables\n", \
	    maxfunc_name, maxfunc, maxfile_name, maxfile
	printf "size: %d files, %d functions checked, %d over the limits\n", nfiles, nfuncs, bad
	exit bad > 0
}
' "${files[@]}"
