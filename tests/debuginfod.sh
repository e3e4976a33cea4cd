#!/bin/bash
# debuginfod end to end: a real debuginfod server (elfutils) started on
# 127.0.0.1, serving a directory holding the fixture binaries, and fp.data
# read with its build-id cache out of reach (--buildid-dir an empty
# directory, --symfs an empty one so the recorded path /tmp/perfnav-fixtures/cpu
# does not exist either):
#   - with DEBUGINFOD_URLS naming the server, top's rows are those made with
#     the build-id cache, the binary downloaded into DEBUGINFOD_CACHE_PATH;
#   - top --why names the file in the cache and the URL it came from;
#   - a stripped copy at the recorded path gets its symbols from the debuginfo;
#   - --no-debuginfod, and DEBUGINFOD_URLS unset, leave the symbols
#     unresolved and ask the server nothing (its request log) nor make the
#     client's cache;
#   - the browser (tmux, with a stand-in server that sends the binary slowly)
#     shows the download in its title, answers keys meanwhile, resolves
#     through it, and quits at once in the middle of a download.
# Skips (77) when the debuginfod program is not installed (Debian package
# debuginfod; ./build.sh check installs it).  Run by make check.
set -uo pipefail

command -v debuginfod >/dev/null 2>&1 || { echo "debuginfod not installed: skipped"; exit 77; }

top=$(cd "${srcdir:-$(dirname "$0")/..}" && pwd)
bin=${PERFNAV:-$PWD/perfnav}
[ -x "$bin" ] || bin=$top/perfnav
data=$top/tests/data
rec=$data/fp.data
hex=d4aec36f57664181c7762a6851ef1dd35510a091	# ./cpu of fp.data
tmp=$(mktemp -d)
server=
slow=
sock=perfnav-dbgd-$$
nsess=0
pass=0
fail=0
timeout=${TUI_E2E_TIMEOUT:-15}

cleanup()
{
	[ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
	[ -n "$slow" ] && kill "$slow" 2>/dev/null && wait "$slow" 2>/dev/null
	if command -v tmux >/dev/null 2>&1; then
		tmux -L "$sock" kill-server >/dev/null 2>&1
		# the sockets of this run's tmux servers, which kill-server leaves behind
		rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/perfnav-dbgd-$$-"*
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

ok() { pass=$((pass + 1)); echo "ok: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }

# The server's directory: the fixture binaries (the build-id cache's copies).
mkdir -p "$tmp/srv" "$tmp/empty"
for f in "$data"/buildid/tmp/perfnav-fixtures/*/*/elf; do
	b=${f%/elf}
	cp "$f" "$tmp/srv/$(basename "$(dirname "$b")")-$(basename "$b")"
done

# A free port: debuginfod exits when it cannot listen on the one given.
port=
for try in 1 2 3 4 5 6 7 8 9 10; do
	p=$((20000 + (RANDOM * 7 + $$ + try * 101) % 40000))
	debuginfod -d "$tmp/db.sqlite" -p "$p" -F "$tmp/srv" -v > "$tmp/server.log" 2>&1 &
	server=$!
	for ((i = 0; i < 50; i++)); do
		grep -qs "started http server" "$tmp/server.log" && break
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$server" 2>/dev/null && grep -qs "started http server" "$tmp/server.log"; then
		port=$p
		break
	fi
	kill "$server" 2>/dev/null
	wait "$server" 2>/dev/null
	server=
	rm -f "$tmp"/db.sqlite*
done
if [ -z "$port" ]; then
	echo "FAIL: debuginfod did not start"
	cat "$tmp/server.log"
	exit 1
fi
url=http://127.0.0.1:$port

# Wait until it has scanned the directory: it answers for the build id.
ready=
for ((i = 0; i < 100; i++)); do
	if DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/probe-$i DEBUGINFOD_TIMEOUT=5 \
		debuginfod-find executable "$hex" > /dev/null 2>&1; then
		ready=1
		break
	fi
	sleep 0.2
done
if [ -z "$ready" ]; then
	echo "FAIL: debuginfod never served $hex"
	cat "$tmp/server.log"
	exit 1
fi
ok "debuginfod serves the fixture binaries on $url"

requests() { grep -c "GET /buildid/" "$tmp/server.log"; }
rows() { grep -v '^#' "$1" | grep -v '^$'; }

# The rows made with the recording's build-id cache, and without any file.
"$bin" top --buildid-dir "$data/buildid" --symfs "$tmp/empty" "$rec" > "$tmp/ref" 2> "$tmp/err" ||
	ko "top with the build-id cache failed: $(cat "$tmp/err")"
DEBUGINFOD_URLS= "$bin" top --buildid-dir "$tmp/empty" --symfs "$tmp/empty" "$rec" > "$tmp/bare" 2> "$tmp/err" ||
	ko "top without files failed: $(cat "$tmp/err")"
grep -q '\[\.\] mix_one$' "$tmp/ref" && ok "the build-id cache resolves mix_one" ||
	ko "the build-id cache does not resolve mix_one"
grep -q '\[\.\] mix_one$' "$tmp/bare" && ko "mix_one resolves without any file" ||
	ok "without the build-id cache mix_one stays unresolved"

# Through the server.
before=$(requests)
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache PERFNAV_PARALLEL_MIN=1000000000 \
	"$bin" top --buildid-dir "$tmp/empty" --symfs "$tmp/empty" "$rec" > "$tmp/got" 2> "$tmp/err" ||
	ko "top through debuginfod failed: $(cat "$tmp/err")"
if diff -u <(rows "$tmp/ref") <(rows "$tmp/got") > "$tmp/diff"; then
	ok "top through debuginfod: the rows of the build-id cache ($(rows "$tmp/got" | wc -l) rows)"
else
	ko "top through debuginfod differs from the build-id cache's rows"
	head -20 "$tmp/diff"
fi
[ -f "$tmp/cache/$hex/executable" ] && ok "the binary is in DEBUGINFOD_CACHE_PATH" ||
	ko "no $tmp/cache/$hex/executable"
grep -q "GET /buildid/$hex/executable 200" "$tmp/server.log" && [ "$(requests)" -gt "$before" ] &&
	ok "the server was asked for the binary" || ko "the server got no request for $hex"

# top --why: where the file came from (a fresh cache: downloaded now).
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache2 PERFNAV_PARALLEL_MIN=1000000000 \
	"$bin" top --why --buildid-dir "$tmp/empty" --symfs "$tmp/empty" "$rec" > "$tmp/why" 2> "$tmp/err"
want="#     executable  $tmp/cache2/$hex/executable  downloaded from $url/buildid/$hex/executable"
if grep -q "^# Files from debuginfod servers" "$tmp/why" && grep -qxF -- "$want" "$tmp/why" &&
	grep -qxF "#   /tmp/perfnav-fixtures/cpu" "$tmp/why"; then
	ok "top --why names the DSO, its file in the cache and the URL"
else
	ko "top --why does not say where the file came from"
	sed -n '/^# Unresolved/,$p' "$tmp/why"
fi
# script --why says it too, on stderr (the same cache: already there)
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache2 "$bin" script --why --buildid-dir "$tmp/empty" \
	--symfs "$tmp/empty" "$rec" > /dev/null 2> "$tmp/swhy"
if grep -qxF "perfnav: Files from debuginfod servers (DEBUGINFOD_URLS), per DSO:" "$tmp/swhy" &&
	grep -qxF -- "perfnav:     executable  $tmp/cache2/$hex/executable  (in the debuginfod cache already)" "$tmp/swhy"; then
	ok "script --why names the file from debuginfod on stderr"
else
	ko "script --why does not say where the file came from"
	cat "$tmp/swhy"
fi
# again: the cache answers, the server is not asked
before=$(requests)
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache2 "$bin" top --why --buildid-dir "$tmp/empty" \
	--symfs "$tmp/empty" "$rec" > "$tmp/why2" 2> "$tmp/err"
if grep -qxF -- "#     executable  $tmp/cache2/$hex/executable  (in the debuginfod cache already)" "$tmp/why2" &&
	[ "$(requests)" -eq "$before" ] && diff -q <(rows "$tmp/ref") <(rows "$tmp/why2" | sed '/^#/d') > /dev/null; then
	ok "a second run takes the file from the cache without asking the server"
else
	ko "a second run: not from the cache (requests $before -> $(requests))"
	sed -n '/^# Files/,$p' "$tmp/why2"
fi
# on two cores (each worker its own client): the same rows, one download
before=$(grep -c "GET /buildid/$hex/executable 200" "$tmp/server.log")
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache3 PERFNAV_PARALLEL_MIN=0 \
	"$bin" top --why --buildid-dir "$tmp/empty" --symfs "$tmp/empty" "$rec" > "$tmp/why3" 2> "$tmp/err"
if diff -q <(rows "$tmp/ref") <(rows "$tmp/why3") > /dev/null &&
	grep -qxF -- "${want//cache2/cache3}" "$tmp/why3" &&
	[ "$(grep -c "GET /buildid/$hex/executable 200" "$tmp/server.log")" -eq $((before + 1)) ]; then
	ok "resolving on two cores: the same rows, the file downloaded once, its cache path and URL named"
else
	ko "resolving on two cores through debuginfod"
	diff <(rows "$tmp/ref") <(rows "$tmp/why3") | head
	sed -n '/^# Files/,$p' "$tmp/why3"
	grep "GET /buildid/$hex/executable" "$tmp/server.log"
fi

# A stripped copy at the recorded path (its code, no .symtab): the symbols
# come from the debuginfo the server has for its build id.
if command -v strip > /dev/null 2>&1; then
	mkdir -p "$tmp/symfs/tmp/perfnav-fixtures"
	strip --strip-all -o "$tmp/symfs/tmp/perfnav-fixtures/cpu" "$data/buildid/tmp/perfnav-fixtures/cpu/$hex/elf"
	before=$(grep -c "GET /buildid/$hex/executable" "$tmp/server.log")
	DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache4 PERFNAV_PARALLEL_MIN=1000000000 \
		"$bin" top --why --buildid-dir "$tmp/empty" --symfs "$tmp/symfs" "$rec" > "$tmp/strip" 2> "$tmp/err"
	if diff -q <(rows "$tmp/ref") <(rows "$tmp/strip") > /dev/null &&
		grep -qxF -- "#     debuginfo   $tmp/cache4/$hex/debuginfo  downloaded from $url/buildid/$hex/debuginfo" "$tmp/strip" &&
		[ "$(grep -c "GET /buildid/$hex/executable" "$tmp/server.log")" -eq "$before" ]; then
		ok "a stripped binary at its path: the symbols from the server's debuginfo (its executable not asked for), named by --why"
	else
		ko "a stripped binary at its path"
		diff <(rows "$tmp/ref") <(rows "$tmp/strip") | head
		sed -n '/^# Files/,$p' "$tmp/strip"
	fi
fi

# --no-debuginfod, and the variable unset: nothing asked, nothing resolved.
before=$(requests)
DEBUGINFOD_URLS=$url DEBUGINFOD_CACHE_PATH=$tmp/cache-no "$bin" top --no-debuginfod \
	--buildid-dir "$tmp/empty" --symfs "$tmp/empty" "$rec" > "$tmp/no" 2> "$tmp/err" ||
	ko "top --no-debuginfod failed: $(cat "$tmp/err")"
if diff -q "$tmp/bare" "$tmp/no" > /dev/null && [ "$(requests)" -eq "$before" ] && [ ! -e "$tmp/cache-no" ]; then
	ok "--no-debuginfod: unresolved, the server not asked, no cache made"
else
	ko "--no-debuginfod (requests $before -> $(requests))"
	diff "$tmp/bare" "$tmp/no" | head
fi
env -u DEBUGINFOD_URLS DEBUGINFOD_CACHE_PATH=$tmp/cache-unset "$bin" top --why \
	--buildid-dir "$tmp/empty" --symfs "$tmp/empty" "$rec" > "$tmp/unset" 2> "$tmp/err"
if diff -q <(rows "$tmp/bare") <(rows "$tmp/unset") > /dev/null && [ "$(requests)" -eq "$before" ] &&
	[ ! -e "$tmp/cache-unset" ] && ! grep -q "debuginfod" "$tmp/unset"; then
	ok "DEBUGINFOD_URLS unset: unresolved, the server not asked, no cache made"
else
	ko "DEBUGINFOD_URLS unset (requests $before -> $(requests))"
fi
"$bin" top --help 2>&1 | grep -q -- "--no-debuginfod" && ok "top --help lists --no-debuginfod" ||
	ko "top --help lacks --no-debuginfod"

# ---- the browser, with a stand-in server that sends the binary slowly ----
if ! command -v tmux >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then
	echo "tmux or python3 not installed: the browser's part skipped"
else
	cat > "$tmp/slow.py" << 'EOF'
# A debuginfod stand-in: /buildid/HEX/executable from the files given, 512
# bytes every 0.1 s; 404 for anything else.  Prints its port.
import http.server, sys, time
files = dict(a.split("=", 1) for a in sys.argv[1:])
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass
    def do_GET(self):
        parts = self.path.split("/")
        if len(parts) == 4 and parts[1] == "buildid" and parts[3] == "executable" and parts[2] in files:
            data = open(files[parts[2]], "rb").read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.send_header("X-Debuginfod-Size", str(len(data)))
            self.end_headers()
            try:
                for i in range(0, len(data), 512):
                    self.wfile.write(data[i:i + 512])
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                pass
        else:
            self.send_error(404)
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
print(s.server_address[1], flush=True)
s.serve_forever()
EOF
	python3 "$tmp/slow.py" "$hex=$data/buildid/tmp/perfnav-fixtures/cpu/$hex/elf" > "$tmp/slow.port" 2>&1 &
	slow=$!
	for ((i = 0; i < 50; i++)); do [ -s "$tmp/slow.port" ] && break; sleep 0.1; done
	slowurl=http://127.0.0.1:$(head -1 "$tmp/slow.port")

	screen() { tmux -L "$sock" capture-pane -t dbgd -p 2> /dev/null; }
	wait_for()
	{
		local re=$1 what=$2 i
		for ((i = 0; i < timeout * 10; i++)); do
			screen | grep -qE -- "$re" && { ok "$what"; return 0; }
			sleep 0.1
		done
		ko "$what (waited for /$re/)"
		screen
		return 1
	}
	keys() { tmux -L "$sock" send-keys -t dbgd "$@"; }
	start()
	{
		tmux -L "$sock" kill-server > /dev/null 2>&1
		# a server of its own per run: a dying one must not take the next command
		nsess=$((nsess + 1))
		sock=perfnav-dbgd-$$-$nsess
		tmux -L "$sock" -f /dev/null new-session -d -s dbgd -x 200 -y 30 \
			"env LANG=C.UTF-8 LC_ALL=C.UTF-8 DEBUGINFOD_URLS=$slowurl DEBUGINFOD_CACHE_PATH=$1 '$bin' --buildid-dir '$tmp/empty' --symfs '$tmp/empty' '$rec' 2> '$tmp/tui-$nsess.err'; echo EXIT=\$?; sleep 600"
	}

	start "$tmp/cache-tui"
	wait_for "symbols [0-9]+%, debuginfod [0-9.]+ [KM]?i?B of 19 KiB" "title: the download's progress while symbols resolve"
	keys 4
	if wait_for "HOSTNAME +0x[0-9a-f]+ +[0-9]+ ok" "4 answered during the download: the header pane"; then
		screen | grep -qE "debuginfod [0-9.]+ [KM]?i?B of 19 KiB" &&
			ok "the download still under way when the key was answered" ||
			ko "the download was over before the key was answered"
	fi
	keys 1
	wait_for "symbols in [0-9.]+ s, 1 file from debuginfod" "title: symbols resolved, one file from debuginfod"
	wait_for "\[\.\] mix_one" "the hot functions resolved through the download"
	keys Q
	wait_for "^EXIT=0" "quits with 0"

	# quitting in the middle of a download: at once, the download abandoned
	start "$tmp/cache-tui2"
	if wait_for "debuginfod [0-9.]+ [KM]?i?B of 19 KiB" "a second download under way"; then
		t0=$(date +%s%N)
		keys Q
		wait_for "^EXIT=0" "Q during a download quits with 0"
		t1=$(date +%s%N)
		ms=$(((t1 - t0) / 1000000))
		[ "$ms" -lt 1900 ] && ok "Q during a download: gone in $ms ms (the download takes 4 s)" ||
			ko "Q during a download took $ms ms"
	fi
	if grep -qE 'AddressSanitizer|LeakSanitizer|runtime error' "$tmp"/tui-*.err; then
		ko "the browser: a sanitizer report"
		cat "$tmp"/tui-*.err
	fi
fi

echo "debuginfod: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
