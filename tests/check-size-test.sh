#!/bin/bash
# Proves tests/check-size.sh measures what it says: on small files written
# in a temporary directory, a function of 120 lines and a file of 1,200 pass,
# one line more fails (named), data tables are left out as documented.
# Run by `make check`.
set -euo pipefail
shopt -s lastpipe # expect, last in each pipeline, counts in this shell

here=$(cd "$(dirname "$0")" && pwd)
check=$here/check-size.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

failures=0
cases=0

fail()
{
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# func NAME LINES [HEAD]: a function of LINES lines, counted from the line of
# its name to its closing brace; HEAD is the line holding the name (default:
# "NAME(void)" after "static int" on its own line).
func()
{
	local name=$1 lines=$2 head=${3:-} i
	if [ -z "$head" ]; then
		echo "static int"
		head="$name(void)"
	fi
	echo "$head"
	echo "{"
	echo "	int x = 0;"
	echo "	struct s a = {"
	echo "		.y = 1,"
	echo "	};"
	echo
	for ((i = 0; i < lines - 9; i++)); do
		echo "	x++;"
	done
	echo "	return x;"
	echo "}"
}

# table LINES: a file-scope table of LINES lines
table()
{
	local lines=$1 i
	echo "static const int table[] = {"
	for ((i = 0; i < lines - 2; i++)); do
		echo "	$i,"
	done
	echo "};"
}

# pad LINES: LINES lines of comment
pad()
{
	local i
	for ((i = 0; i < $1; i++)); do
		echo "/* $i */"
	done
}

# expect NAME WANT_RC GREP FILE: runs the check on FILE (written from stdin)
# and wants exit WANT_RC and a line matching GREP (an extended regex).
expect()
{
	local name=$1 want=$2 re=$3 file=$tmp/$4 out rc=0
	cases=$((cases + 1))
	mkdir -p "$(dirname "$file")"
	cat >"$file"
	out=$(cd "$tmp" && "$check" "$4" 2>&1) || rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$name: exit $rc, want $want"
		printf '%s\n' "$out" | sed 's/^/    /'
	elif ! printf '%s\n' "$out" | grep -qE "$re"; then
		fail "$name: no line matching '$re' in:"
		printf '%s\n' "$out" | sed 's/^/    /'
	fi
	rm -f "$file"
}

func f 120 | expect "function of 120 lines" 0 'longest function: a\.c:2: f\(\), 120 lines' a.c
func f 121 | expect "function of 121 lines" 1 '^size: a\.c:2: f\(\) is 121 lines, over 120$' a.c
{ pad 3; func f 50; pad 2; func g 130; func h 10; } |
	expect "the long one among others" 1 '^size: a\.c:58: g\(\) is 130 lines, over 120$' a.c
func f 121 'static int f(int a, int b)' |
	expect "return type on the name's line" 1 '^size: a\.c:1: f\(\) is 121 lines' a.c
func f 121 'Test(suite, name, .init = setup)' |
	expect "a Criterion test" 1 '^size: a\.c:1: Test\(suite, name, \.init = setup\) is 121 lines' a.c
func f 121 'f(int a,' | sed '1a\    int b)' |
	expect "a signature on two lines" 1 '^size: a\.c:1: f\(\) is 122 lines' a.c
{ echo "/* Maps each value to its name."; echo " * check-size: data table */"; func names 300; func g 121; } |
	expect "the marker excepts one function" 1 'a\.c:[0-9]+: g\(\) is 121 lines' a.c
{ echo "/* check-size: data table */"; func names 300; } |
	expect "an excepted function is listed" 0 '^size: excepted as a data table: a\.c:3: names\(\), 300 lines$' a.c
{ func f 10; func g 121; echo "/* check-size: data table */"; } |
	expect "a marker after a function does not except it" 1 'g\(\) is 121 lines, over 120' a.c
pad 1200 | expect "file of 1,200 lines" 0 'largest file: a\.c, 1200 lines' a.c
pad 1201 | expect "file of 1,201 lines" 1 '^size: a\.c: 1201 lines \(1201 without its data tables\), over 1200$' a.c
{ pad 1150; table 60; } | expect "a table is not counted" 0 'largest file: a\.c, 1150 lines' a.c
{ pad 1150; echo "const char text[] ="; for i in $(seq 50); do echo "	\"line $i\\n\""; done;
  echo "	\"end\";"; func f 10; } |
	expect "a string constant is not counted" 0 'largest file: a\.c, 1161 lines' a.c
{ pad 1150; echo "static struct s one ="; echo "{"; pad 48; echo "};"; pad 2; } |
	expect "a table with its brace on the next line" 0 'largest file: a\.c, 1152 lines' a.c
{ pad 1190; echo "static int x ="; echo "	5;"; pad 10; } |
	expect "a scalar is code" 1 '1202 lines \(1202 without its data tables\), over 1200' a.c
{ func f 20; pad 1180; } |
	expect "a function is not a table" 1 'a\.c: 1201 lines \(1201 without its data tables\)' a.c

echo "check-size-test: $cases cases, $failures failed"
[ "$failures" -eq 0 ]
