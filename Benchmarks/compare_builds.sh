#!/usr/bin/env bash
# Two stocktake builds on the same generated trees, interleaved: wall time, peak RSS, report sizes and the
# phases of `--timings`, so what a change costs is read from the same run (e.g. the treemap: the `render html`
# phase after minus before, as a share of the audit's wall time).
#
#   Benchmarks/compare_builds.sh BEFORE_BIN AFTER_BIN [N ...]     # default N: 200000 1000000
#
# Environment: REPS (default 5; medians reported), WORK (default Benchmarks/work; trees are generated there with
# make_tree.py when missing), KEEP=1 keeps each build's last reports in $WORK/compare-N-{before,after}/.
# Each run: `sync`, `du -s TREE` (warm the page cache), then `stocktake audit TREE --quiet --timings --output DIR`
# under `/usr/bin/time -f '%e %M'`. The order of the two builds alternates from one repetition to the next.
# Prints a Markdown table to stdout; the raw figures (one line per run) go to $WORK/compare-<UTC>.tsv.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="${WORK:-$here/work}"
reps="${REPS:-5}"
say() { printf '%s\n' "$*" >&2; }

[[ $# -ge 2 ]] || { say "usage: $0 BEFORE_BIN AFTER_BIN [N ...]"; exit 64; }
before="$1" after="$2"; shift 2
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(200000 1000000)
for bin in "$before" "$after"; do [[ -x "$bin" ]] || { say "not an executable: $bin"; exit 64; }; done
[[ -x /usr/bin/time ]] || { say "GNU time is needed (apt-get install time)"; exit 1; }
mkdir -p "$work"
raw="$work/compare-$(date -u +%Y%m%dT%H%M%SZ).tsv"
printf 'files\tbuild\trep\twall_s\trss_kib\thtml_bytes\tjson_bytes\tphases\n' >"$raw"

for n in "${sizes[@]}"; do
  tree="$work/tree-$n.xcappdata"
  if [[ ! -d "$tree" ]]; then
    say "generating $tree"
    python3 "$here/make_tree.py" "$n" "$tree" --force >&2
  fi
  tree="$(cd "$tree" && pwd -P)"
  for rep in $(seq 1 "$reps"); do
    order=(before after)
    (( rep % 2 == 0 )) && order=(after before)
    for build in "${order[@]}"; do
      bin="$before"; [[ "$build" == after ]] && bin="$after"
      out="$work/compare-$n-$build"
      rm -rf "$out"
      sync
      du -s "$tree" >/dev/null 2>&1 || true
      status=0
      /usr/bin/time -f '%e %M' -o "$work/.compare-time" "$bin" audit "$tree" --quiet --timings --output "$out" \
        >/dev/null 2>"$work/.compare-err" || status=$?
      if [[ $status -ne 0 && $status -ne 2 ]]; then
        say "N=$n $build run $rep exited $status: $(head -c 300 "$work/.compare-err")"
        continue
      fi
      read -r wall rss < <(tail -n 1 "$work/.compare-time")
      # "timings: render html   0.101 s" -> "render html=0.101", joined with ';'
      phases="$(sed -n 's/^timings: *\(.*[^ ]\) \+\([0-9.]\+\) s$/\1=\2/p' "$work/.compare-err" | paste -sd ';' -)"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$build" "$rep" "$wall" "$rss" \
        "$(wc -c <"$out/report.html" | tr -d ' ')" "$(wc -c <"$out/report.json" | tr -d ' ')" "$phases" >>"$raw"
      say "N=$n run $rep/$reps $build: ${wall} s, $((rss / 1024)) MiB"
    done
  done
  [[ "${KEEP:-0}" == 1 ]] || rm -rf "$work/compare-$n-before" "$work/compare-$n-after"
done
rm -f "$work/.compare-time" "$work/.compare-err"

python3 - "$raw" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = lambda xs: statistics.median(xs) if xs else float("nan")
def phase(row, name):
    for part in row["phases"].split(";"):
        key, _, value = part.partition("=")
        if key == name:
            return float(value)
    return None
names = ["walk", "inventory (backup state, totals)", "content", "rules", "render html", "write json", "wait for rules", "write html", "total"]
print("| files | build | wall s | peak RSS MiB | report.html bytes | " + " | ".join(names) + " |")
print("|---:|---|---:|---:|---:|" + "---:|" * len(names))
for n in sorted({int(r["files"]) for r in rows}):
    by = {b: [r for r in rows if int(r["files"]) == n and r["build"] == b] for b in ("before", "after")}
    for build, runs in by.items():
        if not runs:
            continue
        cells = []
        for name in names:
            values = [v for v in (phase(r, name) for r in runs) if v is not None]
            cells.append("%.3f" % med(values) if values else "-")
        print("| %d | %s | %.2f | %.0f | %s | %s |" % (n, build, med([float(r["wall_s"]) for r in runs]),
              med([int(r["rss_kib"]) for r in runs]) / 1024, "{:,}".format(int(med([int(r["html_bytes"]) for r in runs]))), " | ".join(cells)))
    # The treemap's cost: the median of the paired differences (same repetition) of `render html`, over the after build's median wall time.
    pairs = {}
    for build, runs in by.items():
        for r in runs:
            pairs.setdefault(r["rep"], {})[build] = r
    deltas = [phase(p["after"], "render html") - phase(p["before"], "render html") for p in pairs.values()
              if "after" in p and "before" in p and phase(p["after"], "render html") is not None and phase(p["before"], "render html") is not None]
    walls = [float(r["wall_s"]) for r in by["after"]]
    wall_deltas = [float(p["after"]["wall_s"]) - float(p["before"]["wall_s"]) for p in pairs.values() if "after" in p and "before" in p]
    if deltas and walls:
        d = med(deltas)
        print("\n%d files: render html after − before = %.3f s (median of %d paired runs; range %.3f…%.3f) = %.1f%% of the after build's median wall time %.2f s; wall after − before %.2f s (median of pairs)\n"
              % (n, d, len(deltas), min(deltas), max(deltas), 100 * d / med(walls), med(walls), med(wall_deltas)))
EOF
say "raw figures: $raw"
