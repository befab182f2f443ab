#!/usr/bin/env bash
# CPU time spent under given functions during one command, from `perf record` stacks (frame pointers; the release
# build keeps them): how much a part of the audit costs on its own, even when it runs beside other work on a second
# thread and a busy machine makes wall-time differences useless.
#
#   Benchmarks/profile_share.sh [-r REPS] [-F HZ] PATTERN[,PATTERN...] -- COMMAND...
#
# PATTERN is a substring of a (mangled) Swift symbol, e.g. ContainerTreemapHTML or GrowthTree. A sample counts for a
# pattern when any frame of its stack contains it (so a function's callees are included). For each run: wall s,
# CPU s of the whole process (samples / HZ, event cpu-clock), CPU s under each pattern, and its share of the wall
# time and of the CPU time. Needs `perf` (apt-get install linux-perf) and permission to profile (root, or
# kernel.perf_event_paranoid <= 1).
#
# Example, the treemap of report.html:
#   Benchmarks/profile_share.sh -r 3 ContainerTreemapHTML,TreemapLayout,FindingMarks -- \
#     .build/release/stocktake audit Benchmarks/work/tree-1000000.xcappdata --quiet --output /tmp/r
set -euo pipefail

reps=3 hz=999
while getopts 'r:F:' option; do
  case "$option" in
    r) reps="$OPTARG" ;;
    F) hz="$OPTARG" ;;
    *) exit 64 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 3 && "$2" == -- ]] || { echo "usage: $0 [-r REPS] [-F HZ] PATTERN[,PATTERN...] -- COMMAND..." >&2; exit 64; }
patterns="$1"; shift 2
command -v perf >/dev/null || { echo "perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT

for rep in $(seq 1 "$reps"); do
  # A report folder named by --output must not exist from the last run.
  for ((i = 1; i <= $#; i++)); do [[ "${!i}" == --output ]] && { j=$((i + 1)); rm -rf "${!j}"; }; done
  start=$(date +%s.%N)
  perf record -q -e cpu-clock -F "$hz" -g -o "$data/perf.data" -- "$@" >/dev/null 2>&1 || true
  end=$(date +%s.%N)
  perf script -i "$data/perf.data" -F ip,sym 2>/dev/null | python3 -c '
import sys
hz, wall, patterns = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3].split(",")
total, hits, stack = 0, {p: 0 for p in patterns}, []
def flush():
    global total
    if not stack:
        return
    total += 1
    joined = "\n".join(stack)
    for p in patterns:
        if p in joined:
            hits[p] += 1
for line in sys.stdin:
    line = line.strip()
    if not line:
        flush(); stack.clear()
    else:
        stack.append(line)
flush()
parts = ["wall %.2f s" % wall, "CPU %.2f s" % (total / hz)]
for p in patterns:
    cpu = hits[p] / hz
    parts.append("%s %.3f CPU s (%.1f%% of wall, %.1f%% of CPU)" % (p, cpu, 100 * cpu / wall, 100 * hits[p] / max(total, 1)))
print("run %s: " % sys.argv[4] + "; ".join(parts))
' "$hz" "$(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }')" "$patterns" "$rep"
done
