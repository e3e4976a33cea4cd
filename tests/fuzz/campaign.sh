#!/bin/bash
# A fuzzing campaign over every harness, two at a time (one per core),
# with a table of what each did.
#
# usage: tests/fuzz/campaign.sh [SECONDS] [HARNESS...]
#   SECONDS   wall time of each harness (default 600)
#   HARNESS   load record feature zstd symbolize script (default: all)
# environment:
#   CAMPAIGN_DIR  where corpora, logs and artifacts go (default /tmp/perfnav-campaign;
#                 corpora grow there from one campaign to the next)
#   JOBS          harnesses run at once (default 2)
#
# Needs the harnesses (./build.sh fuzz).  Prints a Markdown table (executions,
# executions per second, corpus size, peak RSS, crashes/leaks/timeouts/OOMs as
# the inputs libFuzzer kept) and a last line 'campaign: N executions, M found'.
# Anything found is in CAMPAIGN_DIR/artifacts: fix it, then keep the input in
# tests/fuzz/regress/HARNESS/.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
secs=${1:-600}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -gt 0 ] || harnesses=(load record feature zstd symbolize script)
dir=${CAMPAIGN_DIR:-/tmp/perfnav-campaign}
jobs=${JOBS:-2}
mkdir -p "$dir/artifacts" "$dir/logs"

for h in "${harnesses[@]}"; do
	[ -x "tests/fuzz/fuzz_$h" ] || { echo "campaign: no tests/fuzz/fuzz_$h (./build.sh fuzz)" >&2; exit 1; }
done

run_one()
{
	local h=$1
	mkdir -p "$dir/corpus/$h"
	"tests/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$dir/artifacts/$h-" \
		"$dir/corpus/$h" "tests/fuzz/corpus/$h" > "$dir/logs/$h.log" 2>&1
	echo $? > "$dir/logs/$h.rc"
}

running=0
for h in "${harnesses[@]}"; do
	run_one "$h" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait -n
		running=$((running - 1))
	fi
done
wait

total=0
found=0
echo "| harness | seconds | executions | exec/s | corpus | peak RSS MB | exit | found |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for h in "${harnesses[@]}"; do
	log=$dir/logs/$h.log
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$log" | tail -1)
	ncorp=$(find "$dir/corpus/$h" -type f | wc -l)
	rc=$(cat "$dir/logs/$h.rc" 2>/dev/null || echo '?')
	kept=$(find "$dir/artifacts" -name "$h-*" -type f | wc -l)
	total=$((total + ${n:-0}))
	found=$((found + kept))
	printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' "$h" "$secs" "${n:-?}" "${eps:-?}" \
		"$ncorp" "${rss:-?}" "$rc" "$kept"
done
echo
echo "campaign: $total executions, $found found"
