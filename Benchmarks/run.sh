#!/usr/bin/env bash
# Benchmark `stocktake audit` against du, ncdu and gdu on generated container trees.
#
#   Benchmarks/run.sh [N ...]        # default: 100000 1000000
#
# Environment:
#   REPS=3          repetitions per command (the median is reported; runs are interleaved)
#   SKIP_BUILD=1    do not run `swift build`; use STOCKTAKE or the existing release binary
#   STOCKTAKE=path  the stocktake binary to measure
#   WORK=dir        where trees, reports and results go (default Benchmarks/work, gitignored)
#   DUPLICATES=0    leave out the duplicate-content pair (jdupes, and the audit with duplicate-content on)
#   ARCHIVES=0      leave out the archive table (the audit of each tree packed as .tar.gz beside bsdtar -tvf)
#   PAGE_LOAD=0     leave out report.html's load time in headless Chromium (its size is always shown)
#   PAGE_RUNS=3     Chromium runs per page (Benchmarks/page_load.py; the median is reported)
#   CHROMIUM=path   the browser (default: chromium, chromium-browser or google-chrome on PATH)
#
# Each measurement: warm the page cache with one `du -s` of the tree, then run the command under
# `/usr/bin/time -f '%e %M'` (wall seconds, peak RSS KiB). Progress goes to stderr, the Markdown
# table to stdout (and to $WORK/results-<UTC time>.md).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
work="${WORK:-$here/work}"
reps="${REPS:-3}"
sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(100000 1000000)

say() { printf '%s\n' "$*" >&2; }

for n in "${sizes[@]}"; do
  [[ "$n" =~ ^[0-9]+$ ]] || { say "not a file count: $n"; exit 64; }
done
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || { say "REPS must be a positive integer"; exit 64; }
mkdir -p "$work"

# --- GNU time -------------------------------------------------------------------------------
timer=/usr/bin/time
if ! "$timer" -f '%e %M' true >/dev/null 2>&1; then
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "installing GNU time (apt-get install -y time)"
    apt-get install -y time >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y time >/dev/null 2>&1; } || true
  fi
fi
if ! "$timer" -f '%e %M' true >/dev/null 2>&1; then
  timer=""
  say "warning: GNU time is not available; wall times come from date, peak RSS is not measured"
fi

# --- stocktake ------------------------------------------------------------------------------
stocktake="${STOCKTAKE:-}"
if [[ -z "$stocktake" ]]; then
  if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    if command -v swift >/dev/null 2>&1; then
      say "building: swift build -c release --product stocktake"
      (cd "$root" && swift build -c release --product stocktake >&2) || say "warning: the release build failed"
    else
      say "warning: swift is not installed; stocktake is not measured"
    fi
  fi
  if command -v swift >/dev/null 2>&1; then
    bin_dir="$(cd "$root" && swift build -c release --show-bin-path 2>/dev/null || true)"
    [[ -n "$bin_dir" ]] && stocktake="$bin_dir/stocktake"
  fi
fi
if [[ -n "$stocktake" && ! -x "$stocktake" ]]; then
  say "warning: no stocktake binary at $stocktake; stocktake is not measured"
  stocktake=""
fi

# --- the commands ---------------------------------------------------------------------------
# Peers the script installs when it can (root with apt-get), as it does GNU time.
for tool in ncdu gdu jdupes bsdtar; do
  package="$tool"
  [[ "$tool" == bsdtar ]] && package=libarchive-tools
  if ! command -v "$tool" >/dev/null 2>&1 && [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
    say "installing $tool (apt-get install -y $package)"
    apt-get install -y "$package" >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y "$package" >/dev/null 2>&1; } || true
  fi
done
commands=(du_B1 du_b)
for tool in ncdu gdu; do
  if command -v "$tool" >/dev/null 2>&1; then commands+=("$tool"); else say "note: $tool is not installed; skipped"; fi
done
# audit_no_content: what the content checks (secrets in plists, text, stores) cost, as the difference to `audit`.
if [[ -n "$stocktake" ]]; then commands+=(audit audit_no_content audit_json); fi
# Duplicate content (reads every candidate file): stocktake with `duplicate-content` on beside jdupes.
# Slow at a million files; DUPLICATES=0 leaves both out.
if [[ "${DUPLICATES:-1}" == 1 ]]; then
  if command -v jdupes >/dev/null 2>&1; then commands+=(jdupes); else say "note: jdupes is not installed; skipped"; fi
  if [[ -n "$stocktake" ]]; then commands+=(audit_duplicates); fi
fi
duplicates_config="$work/duplicates.yml"
printf 'rules:\n  duplicate-content: {enabled: true}\n' >"$duplicates_config"

label() {
  case "$1" in
    du_B1) echo 'du -s -B1' ;;
    du_b) echo 'du -s -b' ;;
    ncdu) echo 'ncdu -0 -o /dev/null' ;;
    gdu) echo 'gdu -n -p -s' ;;
    audit) echo 'stocktake audit --quiet --output DIR (JSON+HTML)' ;;
    audit_json) echo 'stocktake audit --quiet --format json --output DIR' ;;
    audit_no_content) echo 'stocktake audit --quiet --no-content-checks --output DIR (JSON+HTML)' ;;
    jdupes) echo 'jdupes -r -q TREE' ;;
    audit_duplicates) echo 'stocktake audit --quiet --output DIR, duplicate-content on' ;;
    bsdtar_list) echo 'bsdtar -tvf TREE.tar.gz' ;;
    audit_archive) echo 'stocktake audit TREE.tar.gz --quiet --output DIR (JSON+HTML)' ;;
    audit_archive_no_content) echo 'stocktake audit TREE.tar.gz --quiet --no-content-checks --output DIR' ;;
  esac
}

# Prints the command line for key $1 on tree $2 with report folder $3, one word per line.
argv_for() {
  case "$1" in
    du_B1) printf '%s\n' du -s -B1 "$2" ;;
    du_b) printf '%s\n' du -s -b "$2" ;;
    ncdu) printf '%s\n' ncdu -0 -o /dev/null "$2" ;;
    gdu) printf '%s\n' gdu -n -p -s "$2" ;;
    audit) printf '%s\n' "$stocktake" audit "$2" --quiet --output "$3" ;;
    audit_json) printf '%s\n' "$stocktake" audit "$2" --quiet --format json --output "$3" ;;
    audit_no_content) printf '%s\n' "$stocktake" audit "$2" --quiet --no-content-checks --output "$3" ;;
    jdupes) printf '%s\n' jdupes -r -q "$2" ;;
    audit_duplicates) printf '%s\n' "$stocktake" audit "$2" --quiet --output "$3" --config "$duplicates_config" ;;
    bsdtar_list) printf '%s\n' bsdtar -tvf "$2" ;;
    audit_archive) printf '%s\n' "$stocktake" audit "$2" --quiet --output "$3" ;;
    audit_archive_no_content) printf '%s\n' "$stocktake" audit "$2" --quiet --no-content-checks --output "$3" ;;
  esac
}

# Exit statuses that mean "ran": stocktake exits 2 when it reports policy findings.
# jdupes exits 0 whether or not it found duplicates.
accepts() { [[ "$2" -eq 0 || ( "$2" -eq 2 && "$1" == audit* ) ]]; }

# measure KEY TREE OUT -> prints "seconds rss_kib" (rss "-" without GNU time), or "failed".
measure() {
  local key="$1" tree="$2" out="$3" status=0 stats="$work/.time.$$" errors="$work/.stderr.$$"
  local -a argv
  mapfile -t argv < <(argv_for "$key" "$tree" "$out")
  rm -rf "$out"
  # The last run's reports are deleted and that settled before the clock starts: on a file system mounted
  # with online discard the freed blocks are trimmed at the next journal commit, which the audit's fsync
  # would otherwise pay for.
  sync
  du -s "$tree" >/dev/null 2>&1 || true          # warm the page cache right before measuring
  [[ -f "$tree" ]] && cat "$tree" >/dev/null      # an archive: its bytes, not only its inode
  if [[ -n "$timer" ]]; then
    "$timer" -f '%e %M' -o "$stats" "${argv[@]}" >/dev/null 2>"$errors" || status=$?
  else
    local start end
    start=$(date +%s.%N)
    "${argv[@]}" >/dev/null 2>"$errors" || status=$?
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f -\n", e - s }' >"$stats"
  fi
  if ! accepts "$key" "$status"; then
    say "  $(label "$key") exited $status: $(head -c 300 "$errors")"
    echo failed
  else
    tail -n 1 "$stats"
  fi
  rm -f "$stats" "$errors"
}

median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# --- run ------------------------------------------------------------------------------------
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
results="$work/results-$stamp.md"
{
  echo "# Stocktake benchmark, $stamp"
  echo
  echo "Machine: $(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), $(uname -sr). Warm page cache (\`du -s\` right before each run); median of $reps interleaved runs."
  echo "Tools: $(du --version | head -n 1); $(ncdu -v 2>/dev/null || echo 'ncdu: none'); gdu $(gdu --version 2>/dev/null | awk '/Version/ { print $2 }' || echo none); $(jdupes -v 2>/dev/null | head -n 1 || echo 'jdupes: none'); stocktake: ${stocktake:-not measured}."
  echo
  echo "| files | command | wall s | peak RSS MiB | RSS bytes/file | × \`du -s -B1\` | × \`jdupes\` |"
  echo "|---:|---|---:|---:|---:|---:|---:|"
} >"$results"

# Headless Chromium for report.html's load time (Benchmarks/page_load.py); without it only the page's size is shown.
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}"
[[ -n "$chromium" ]] && ! command -v "$chromium" >/dev/null 2>&1 && chromium=""
page_runs="${PAGE_RUNS:-3}"
if [[ "${PAGE_LOAD:-1}" == 1 && -z "$chromium" ]]; then
  say "note: chromium is not installed; report.html's load time is not measured (its size still is)"
fi

timings_lines=()
page_lines=()
for n in "${sizes[@]}"; do
  tree="$work/tree-$n.xcappdata"
  made_by="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("generator", ""))' "$tree.truth.json" 2>/dev/null || true)"
  if [[ ! -d "$tree" || "$made_by" != "$(python3 "$here/make_tree.py" --generator-version)" ]]; then
    say "generating $tree"
    python3 "$here/make_tree.py" "$n" "$tree" --force >&2
  fi
  tree="$(cd "$tree" && pwd -P)"                # du, ncdu and gdu would measure a symlink itself, not the tree
  declare -A walls=() rsses=()
  for rep in $(seq 1 "$reps"); do
    for key in "${commands[@]}"; do
      say "N=$n run $rep/$reps: $(label "$key")"
      result="$(measure "$key" "$tree" "$work/report-$n-$key")"
      [[ "$result" == failed ]] && continue
      walls[$key]+="${result% *}"$'\n'
      rsses[$key]+="${result#* }"$'\n'
    done
  done
  baseline="$(printf '%s' "${walls[du_B1]:-}" | median)"
  dupes_baseline="$(printf '%s' "${walls[jdupes]:-}" | median)"
  for key in "${commands[@]}"; do
    if [[ -z "${walls[$key]:-}" ]]; then
      echo "| $n | \`$(label "$key")\` | failed | | | | |" >>"$results"
      continue
    fi
    dupes_base="-"
    [[ "$key" == jdupes || "$key" == audit_duplicates ]] && dupes_base="$dupes_baseline"
    wall="$(printf '%s' "${walls[$key]}" | median)"
    rss="$(printf '%s' "${rsses[$key]}" | grep -v '^-$' | median)"
    awk -v n="$n" -v label="$(label "$key")" -v wall="$wall" -v rss="$rss" -v base="$baseline" -v dupes="$dupes_base" 'BEGIN {
      mib = (rss == "-") ? "-" : sprintf("%.1f", rss / 1024)
      per = (rss == "-") ? "-" : sprintf("%.0f", rss * 1024 / n)
      ratio = (base == "-" || base + 0 == 0) ? "-" : sprintf("%.2f", wall / base)
      versus = (dupes == "-" || dupes == "" || dupes + 0 == 0) ? "" : sprintf("%.2f", wall / dupes)
      printf "| %d | `%s` | %.2f | %s | %s | %s | %s |\n", n, label, wall, mib, per, ratio, versus
    }' >>"$results"
  done
  unset walls rsses
  # Where the audit's time goes, from one more run (`--timings`), so a regression names its phase.
  if [[ -n "$stocktake" ]]; then
    phases="$work/.timings.$$"
    rm -rf "$work/report-$n-timings"
    sync
    du -s "$tree" >/dev/null 2>&1 || true
    "$stocktake" audit "$tree" --quiet --timings --output "$work/report-$n-timings" >/dev/null 2>"$phases" || true
    timings_lines+=("$n files: $(grep '^timings:' "$phases" | sed 's/^timings: *//; s/  */ /g' | paste -sd ';' - | sed 's/;/; /g')")
    rm -f "$phases"
  fi
  # report.html of the last full audit (JSON+HTML): its size, and how long it takes to open in headless Chromium.
  page="$work/report-$n-audit/report.html"
  if [[ -f "$page" ]]; then
    page_bytes="$(wc -c <"$page" | tr -d ' ')"
    if [[ "${PAGE_LOAD:-1}" != 1 || -z "$chromium" ]]; then
      page_lines+=("| $n | $page_bytes | | | | | |")
    else
      say "N=$n: opening report.html in headless Chromium ($page_runs runs, interleaved with a trivial page)"
      if figures="$(python3 "$here/page_load.py" "$page" --runs "$page_runs" --chromium "$chromium" --json 2>/dev/null)"; then
        page_lines+=("$(printf '%s' "$figures" | python3 -c '
import json, sys
n = sys.argv[1]
trivial, page = json.load(sys.stdin)
ms = lambda v: "-" if v is None else "%.0f" % v
print("| %s | %d | %s | %s | %s | %.2f | %.2f |" % (n, page["bytes"], ms(page["dcl"]), ms(page["load"]), ms(page["fcp"]), page["wall"], trivial["wall"]))
' "$n")")
      else
        page_lines+=("| $n | $page_bytes | failed | | | | |")
      fi
    fi
  fi
done

# Archives: the audit of a .tar.gz of each tree beside `bsdtar -tvf`, which decompresses and lists it all too
# (the goal: within 1.3×). ARCHIVES=0 leaves them out.
if [[ "${ARCHIVES:-1}" == 1 && -n "$stocktake" ]] && command -v bsdtar >/dev/null 2>&1; then
  {
    echo
    echo "| files | archive command | wall s | peak RSS MiB | × \`bsdtar -tvf\` |"
    echo "|---:|---|---:|---:|---:|"
  } >>"$results"
  for n in "${sizes[@]}"; do
    tree="$work/tree-$n.xcappdata"
    archive="$work/tree-$n.tar.gz"
    if [[ ! -f "$archive" || "$tree.truth.json" -nt "$archive" ]]; then
      say "packing $archive"
      tar -czf "$archive" -C "$tree" .
    fi
    declare -A walls=() rsses=()
    for rep in $(seq 1 "$reps"); do
      for key in bsdtar_list audit_archive audit_archive_no_content; do
        say "N=$n archive run $rep/$reps: $(label "$key")"
        result="$(measure "$key" "$archive" "$work/report-$n-$key")"
        [[ "$result" == failed ]] && continue
        walls[$key]+="${result% *}"$'\n'
        rsses[$key]+="${result#* }"$'\n'
      done
    done
    base="$(printf '%s' "${walls[bsdtar_list]:-}" | median)"
    for key in bsdtar_list audit_archive audit_archive_no_content; do
      [[ -z "${walls[$key]:-}" ]] && { echo "| $n | \`$(label "$key")\` | failed | | |" >>"$results"; continue; }
      wall="$(printf '%s' "${walls[$key]}" | median)"
      rss="$(printf '%s' "${rsses[$key]}" | grep -v '^-$' | median)"
      awk -v n="$n" -v label="$(label "$key")" -v wall="$wall" -v rss="$rss" -v base="$base" 'BEGIN {
        mib = (rss == "-") ? "-" : sprintf("%.1f", rss / 1024)
        ratio = (base == "-" || base + 0 == 0) ? "-" : sprintf("%.2f", wall / base)
        printf "| %d | `%s` | %.2f | %s | %s |\n", n, label, wall, mib, ratio
      }' >>"$results"
    done
    unset walls rsses
  done
fi

if [[ ${#page_lines[@]} -gt 0 ]]; then
  {
    echo
    if [[ "${PAGE_LOAD:-1}" != 1 ]]; then
      echo "report.html of the last full audit (load time not measured: PAGE_LOAD=0):"
    elif [[ -z "$chromium" ]]; then
      echo "report.html of the last full audit (load time not measured: chromium is not installed):"
    else
      echo "report.html of the last full audit, opened in headless Chromium (\`Benchmarks/page_load.py\`, median of $page_runs run(s); ms from the start of navigation; wall s is the whole \`chromium --dump-dom\` process, beside the same for a trivial page):"
    fi
    echo
    echo "| files | report.html bytes | DOMContentLoaded ms | load ms | first contentful paint ms | chromium wall s | trivial page wall s |"
    echo "|---:|---:|---:|---:|---:|---:|---:|"
    for line in "${page_lines[@]}"; do echo "$line"; done
  } >>"$results"
fi
if [[ ${#timings_lines[@]} -gt 0 ]]; then
  {
    echo
    echo "Audit phases (\`stocktake audit --timings\`, one more run, JSON+HTML):"
    echo
    for line in "${timings_lines[@]}"; do echo "- $line"; done
  } >>"$results"
fi
cat "$results"
say "results: $results"
