#!/bin/bash
# Re-records the bundled demo: examples/demo/perf.data plus the build-id cache
# examples/demo/buildid/ that holds the (static) demo binary, so the demo shows
# real symbols on any machine.
#
# usage: examples/demo/record.sh        (needs perf and gcc with static glibc)
#
# The binary is built in a fixed scratch directory (/tmp/perfnav-demo) so the
# path perf records for it is the same on every machine; it is kept only
# inside the cache.  Everything but the demo binary and the vdso is pruned
# from the cache, and hardlinks are replaced by real copies.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
demo=examples/demo
work=/tmp/perfnav-demo
cache=$root/$demo/buildid

rm -rf "$work"
mkdir -p "$work"
gcc -O1 -g -fno-omit-frame-pointer -static -pthread -Wall -Wextra \
	-o "$work/demo" "$demo/demo.c"

rm -rf "$cache" "$demo/perf.data" "$demo/perf.data.old"
perf --buildid-dir "$cache" record -e cpu-clock:u -F 999 -g \
	-o "$demo/perf.data" -- "$work/demo"
chmod 644 "$demo/perf.data"

# Prune the cache: keep only the demo binary and the vdso.
bid=$(perf buildid-list -i "$demo/perf.data" 2>/dev/null | awk -v p="$work/demo" '$2 == p { print $1 }')
if [ -z "$bid" ]; then
	echo "record.sh: the demo binary has no build-id in $demo/perf.data" >&2
	exit 1
fi
for d in "$cache"/*; do
	case $(basename "$d") in
	tmp | "[vdso]") ;;
	*) rm -rf "$d" ;;
	esac
done
# Only probes/ side files and the elf are kept for the binary; drop the rest.
find "$cache" -name probes -exec rm -rf {} +
# Replace hardlinks by real copies, and drop symlinks that point outside the
# cache or dangle after the pruning.
find "$cache" -type f -links +1 | while read -r f; do
	cp -p "$f" "$f.tmp" && mv -f "$f.tmp" "$f"
done
find "$cache" -type l | while read -r l; do
	t=$(readlink "$l")
	case $t in
	/*) rm -f "$l" ;;
	*) [ -e "$l" ] || rm -f "$l" ;;
	esac
done
find "$cache" -depth -type d -empty -delete

echo "build-id of the demo binary: $bid"
echo "cache:"
find "$cache" \( -type f -o -type l \) | sort
du -sh "$cache" "$demo/perf.data"
rm -rf "$work"
