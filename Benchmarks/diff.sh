#!/usr/bin/env bash
# Benchmark `stocktake diff` on two million-file reports, beside GNU diff on the same two files.
#
#   Benchmarks/diff.sh [OLD_REPORT_JSON]
#
# OLD_REPORT_JSON defaults to $WORK/report-1000000-audit/report.json, which `Benchmarks/run.sh 1000000`
# leaves behind. The "new" report is made from it by Benchmarks/mutate_report.py (10% of files grown,
# 2% removed, 1% moved, 20,000 added). Environment: REPS (default 3, median reported), STOCKTAKE (the
# binary; default: this checkout's release build), WORK (default Benchmarks/work).
# Prints a Markdown table: wall seconds and peak RSS (GNU time), and the ratio to `diff`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="${WORK:-$here/work}"
reps="${REPS:-3}"
old="${1:-$work/report-1000000-audit/report.json}"
say() { printf '%s\n' "$*" >&2; }

[[ -f "$old" ]] || { say "no report at $old: run Benchmarks/run.sh 1000000 first, or pass a report.json"; exit 1; }
[[ -x /usr/bin/time ]] || { say "GNU time is needed (apt-get install time)"; exit 1; }
stocktake="${STOCKTAKE:-}"
if [[ -z "$stocktake" ]]; then
  (cd "$root" && swift build -c release --product stocktake >&2)
  stocktake="$(cd "$root" && swift build -c release --show-bin-path)/stocktake"
fi

mkdir -p "$work/diff"
new="$work/diff/new-report.json"
if [[ ! -f "$new" || "$new" -ot "$old" ]]; then
  say "making the next version of the report: $new"
  python3 "$here/mutate_report.py" "$old" "$new"
fi
files=$(grep -c '"allocatedBytes":' "$old" || true)

# measure LABEL COMMAND... -> "seconds rss_kib" (median seconds of $reps runs, with that run's RSS).
measure() {
  local label="$1"; shift
  local results=() status
  for _ in $(seq "$reps"); do
    cat "$old" "$new" >/dev/null   # warm the page cache
    status=0
    /usr/bin/time -f '%e %M' -o "$work/diff/.time" "$@" >/dev/null 2>"$work/diff/.stderr" || status=$?
    # diff exits 1 when the files differ, stocktake diff 0 (no gates): both mean "ran".
    [[ $status -le 1 ]] || { say "$label exited $status: $(head -c 300 "$work/diff/.stderr")"; echo "failed"; return; }
    results+=("$(tail -n 1 "$work/diff/.time")")
  done
  printf '%s\n' "${results[@]}" | sort -n | sed -n "$(( (reps + 1) / 2 ))p"
}

say "measuring ($reps runs each)"
base=$(measure "diff" diff "$old" "$new")
printf '| command | wall s | peak RSS | × `diff` |\n|---|---:|---:|---:|\n'
row() {
  local label="$1" result="$2" seconds rss
  seconds=${result% *}; rss=${result#* }
  awk -v l="$label" -v s="$seconds" -v r="$rss" -v b="${base% *}" \
    'BEGIN { printf "| %s | %.2f | %.0f MiB | %.2f |\n", l, s, r / 1024, s / b }'
}
row '`diff OLD NEW` (GNU diffutils, line diff)' "$base"
for format in json text html; do
  row "\`stocktake diff --format $format\`" "$(measure "stocktake diff $format" "$stocktake" diff "$old" "$new" --format "$format" --output "$work/diff/out.$format")"
done
say "reports: $(du -h "$old" | cut -f1) and $(du -h "$new" | cut -f1), about $files rows each"
