#!/usr/bin/env bash
# How big the history grows, measured with the real writer: the sample's report recorded as N runs (N/100 nights of
# 100 apps' runs, through `stocktake record`, 4 at a time) into a PostgreSQL database and into an SQLite file; then
# the bytes each holds, per run.
#   Benchmarks/history_growth.sh POSTGRES_URL [N]   (PGPASSWORD or ~/.pgpass for the password; the database is
#   emptied of Stocktake's tables first). Needs a binary built with `--traits PostgreSQL`.
set -euo pipefail
cd "$(dirname "$0")/.."
url=${1:?a postgresql:// URL of an empty database}
runs=${2:-2000}
bin=${STOCKTAKE:-.build-postgres/debug/stocktake}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
"$bin" audit Samples/ChatApp.xcappdata --output "$work/audit" --quiet || status=$?
[ "$status" -eq 0 ] || [ "$status" -eq 2 ] || exit 1
psql -X -q "$url" -c "DROP TABLE IF EXISTS run_findings, run_locations, runs, stocktake_schema"

# Each run is its own (source, run id): 100 sources (the apps of a fleet) times N/100 nights.
for history in "$url" "$work/history.sqlite"; do
  quarter=$((runs / 4))
  pids=()
  for part in 0 1 2 3; do
    first=$((part * quarter)); last=$((first + quarter - 1))
    ( for i in $(seq "$first" "$last"); do
        "$bin" record "$work/audit" --history "$history" --source "app-$((i % 100))" \
          --run-id "$(printf 'night-%05d' $((i / 100)))" --duration-seconds 1 >/dev/null \
          || { echo "record $i into $history failed" >&2; exit 1; }
      done ) &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid"; done
done

pg_bytes=$(psql -X -At "$url" -c "SELECT sum(pg_total_relation_size(c)) FROM unnest(ARRAY['runs','run_locations','run_findings']::regclass[]) c")
pg_rows=$(psql -X -At "$url" -c "SELECT (SELECT count(*) FROM runs) + (SELECT count(*) FROM run_locations) + (SELECT count(*) FROM run_findings)")
pg_runs=$(psql -X -At "$url" -c "SELECT count(*) FROM runs")
findings=$(psql -X -At "$url" -c "SELECT count(*) FROM run_findings WHERE run = (SELECT min(id) FROM runs)")
sqlite_bytes=$(python3 -c 'import os, sys; print(os.path.getsize(sys.argv[1]))' "$work/history.sqlite")
echo "runs recorded: $pg_runs (PostgreSQL), rows: $pg_rows ($((pg_rows / pg_runs)) per run; $findings rules with findings)"
echo "PostgreSQL: $pg_bytes bytes in tables and indexes, $((pg_bytes / pg_runs)) per run, $((pg_bytes / pg_runs * 36500 / 1048576)) MiB a year for 100 apps nightly"
echo "SQLite: $sqlite_bytes bytes, $((sqlite_bytes / pg_runs)) per run, $((sqlite_bytes / pg_runs * 36500 / 1048576)) MiB a year for 100 apps nightly"
