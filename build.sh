#!/bin/bash
# perfnav's one-stop set-up and build script for a fresh Debian 12 machine.
#
#   ./build.sh                    install missing packages, configure, build
#   ./build.sh run [FILE] [ARGS]  build, then run ./perfnav on FILE (default:
#                                 the bundled demo recording with its build-id cache)
#   ./build.sh check              build, then run every test (make check)
#   ./build.sh fuzz               build, then install clang and libFuzzer and
#                                 build the fuzz harnesses (make fuzz)
#   ./build.sh format [--fix]     install clang-format and check the C style
#                                 (tests/check-format.sh; --fix applies it)
#
# Missing Debian packages are installed with apt-get when run as root; otherwise
# the exact command is printed and the script stops.  Extra configure flags can
# be given in PERFNAV_CONFIGURE_FLAGS (e.g. --enable-werror, --enable-asan).
set -euo pipefail

cd "$(dirname "$0")"

PACKAGES=(
	libncurses-dev libzstd-dev libdw-dev libelf-dev libunwind-dev libcriterion-dev
	# gzip for perfnav export --format pprof
	zlib1g-dev
	# perfnav bundle's tar files, and perf archive's tarballs
	libarchive-dev
	# tracepoint payloads: the library perf decodes them with
	libtraceevent-dev
	# files by build id from the servers of DEBUGINFOD_URLS, as perf and gdb ask them
	libdebuginfod-dev
	# XXH3: the checksums of the cache of loaded recordings
	libxxhash-dev
	autoconf automake pkg-config gcc make tmux zstd python3 time
	# objdump: annotate disassembles with it, as perf annotate does
	binutils
	# the detached debug info of libc: the inline-frame tests unwind through it
	libc6-dbg
)

die()
{
	echo "build.sh: $*" >&2
	exit 1
}

# Only for ./build.sh fuzz: the libFuzzer harnesses are built with clang.
FUZZ_PACKAGES=(clang libfuzzer-14-dev)
# Only for ./build.sh format.
FORMAT_PACKAGES=(clang-format)
# Only for ./build.sh check: the server tests/debuginfod.sh starts (it skips without it).
CHECK_PACKAGES=(debuginfod)

# Installs (or asks for) every package given (default: PACKAGES) that is
# not installed.
ensure_packages()
{
	local missing=() p status
	[ $# -gt 0 ] || set -- "${PACKAGES[@]}"
	for p in "$@"; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		[ "$status" = "install ok installed" ] || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0

	echo "build.sh: missing packages: ${missing[*]}"
	if [ "$(id -u)" -ne 0 ]; then
		echo "build.sh: install them with:" >&2
		echo "  sudo apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	apt-get update
	DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
}

# True when $1 is missing or older than any of the following files.
stale()
{
	local target=$1 f
	shift
	[ -e "$target" ] || return 0
	for f in "$@"; do
		[ "$f" -nt "$target" ] && return 0
	done
	return 1
}

# True when the tree was configured with every flag given.
configured_with()
{
	local have f
	have=$(./config.status --config 2>/dev/null) || return 1
	for f in "$@"; do
		case " $have " in
		*" '$f' "* | *" $f "*) ;;
		*) return 1 ;;
		esac
	done
	return 0
}

build()
{
	ensure_packages
	mkdir -p m4
	if stale configure configure.ac Makefile.am; then
		echo "build.sh: autoreconf -fi"
		autoreconf -fi
	fi
	# shellcheck disable=SC2086 # PERFNAV_CONFIGURE_FLAGS is a list of flags
	if stale Makefile configure; then
		echo "build.sh: ./configure ${PERFNAV_CONFIGURE_FLAGS:-}"
		./configure ${PERFNAV_CONFIGURE_FLAGS:-}
	elif ! configured_with ${PERFNAV_CONFIGURE_FLAGS:-}; then
		# Configured before without the requested flags: configure again.
		echo "build.sh: ./configure ${PERFNAV_CONFIGURE_FLAGS}"
		./configure ${PERFNAV_CONFIGURE_FLAGS}
	fi
	make -j2
}

cmd=${1:-build}
case $cmd in
build)
	[ $# -le 1 ] || die "usage: ./build.sh [run [FILE] [ARGS...] | check]"
	build
	;;
run)
	shift
	build
	if [ $# -eq 0 ]; then
		exec ./perfnav --buildid-dir examples/demo/buildid examples/demo/perf.data
	fi
	exec ./perfnav "$@"
	;;
check)
	[ $# -le 1 ] || die "usage: ./build.sh check"
	build
	ensure_packages "${CHECK_PACKAGES[@]}"
	if ! make -j2 check; then
		for log in test-suite.log tests/test-suite.log; do
			[ -f "$log" ] || continue
			echo "===== $log"
			cat "$log"
		done
		die "make check failed"
	fi
	;;
fuzz)
	[ $# -le 1 ] || die "usage: ./build.sh fuzz"
	build
	ensure_packages "${FUZZ_PACKAGES[@]}"
	make -j2 fuzz
	;;
format)
	shift
	[ $# -eq 0 ] || [ "$*" = --fix ] || die "usage: ./build.sh format [--fix]"
	ensure_packages "${FORMAT_PACKAGES[@]}"
	exec tests/check-format.sh "$@"
	;;
-h | --help | help)
	sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
	;;
*)
	die "unknown command '$cmd' (try: ./build.sh, ./build.sh run [FILE], ./build.sh check, ./build.sh fuzz, ./build.sh format)"
	;;
esac
