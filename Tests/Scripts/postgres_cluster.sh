#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the shared-history tests, in a folder of its own:
#   postgres_cluster.sh start STATE     initdb into STATE, start on a free loopback port; prints the variables to export
#   postgres_cluster.sh stop STATE [fast|immediate]    stop it (immediate: as a crash, mid-write)
#   postgres_cluster.sh restart STATE   start it again on the same port
#   postgres_cluster.sh remove STATE    stop it however it is, and delete STATE
# Host connections need the password (SCRAM); the Unix socket lives in STATE. Run as root, the server runs as the
# `postgres` user (initdb refuses root).
set -euo pipefail
command=${1:?start, stop, restart or remove}
state=${2:?the folder of the cluster}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || bin=$(dirname "$(command -v pg_ctl)")
# From / : the server's user may not be allowed into the caller's folder, which initdb and pg_ctl go back to.
as_server() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
new_password() { python3 -c 'import secrets; print(secrets.token_hex(16))'; }
server_options() { echo "-p $(cat "$state/port") -k $state -c listen_addresses=127.0.0.1 -c fsync=on"; }

case $command in
start)
  mkdir -p "$state"
  chmod 700 "$state"
  # The server's user must reach STATE: its parent (a mktemp folder, 0700) is opened for traversal only.
  [ "$(id -u)" != 0 ] || chmod go+x "$(dirname "$state")"
  [ "$(id -u)" != 0 ] || chown postgres "$state"
  free_port > "$state/port"
  new_password > "$state/password"
  chmod 600 "$state/password" "$state/port"
  [ "$(id -u)" != 0 ] || chown postgres "$state/password" "$state/port"
  as_server "$bin/initdb" -D "$state/data" -U stocktake --pwfile="$state/password" --auth-host=scram-sha-256 \
    --auth-local=trust --locale=C --encoding=UTF8 --no-sync >"$state/initdb.log" 2>&1 || { cat "$state/initdb.log" >&2; exit 1; }
  as_server "$bin/pg_ctl" -D "$state/data" -l "$state/server.log" -o "$(server_options)" -w start >/dev/null \
    || { cat "$state/server.log" >&2; exit 1; }
  port=$(cat "$state/port")
  password=$(cat "$state/password")
  script=$(cd "$(dirname "$0")" && pwd)/postgres_cluster.sh
  echo "export STOCKTAKE_POSTGRES_URL=postgresql://stocktake@127.0.0.1:$port/postgres?sslmode=disable"
  echo "export STOCKTAKE_POSTGRES_PASSWORD=$password"
  echo "export STOCKTAKE_POSTGRES_CONTROL=$script"
  echo "export STOCKTAKE_POSTGRES_STATE=$state"
  ;;
stop)
  as_server "$bin/pg_ctl" -D "$state/data" -m "${3:-fast}" -w stop >/dev/null
  ;;
restart)
  as_server "$bin/pg_ctl" -D "$state/data" -l "$state/server.log" -o "$(server_options)" -w start >/dev/null
  ;;
remove)
  if [ -f "$state/data/postmaster.pid" ]; then as_server "$bin/pg_ctl" -D "$state/data" -m immediate -w stop >/dev/null 2>&1 || true; fi
  rm -rf "$state"
  ;;
*)
  echo "usage: postgres_cluster.sh start|stop|restart|remove STATE" >&2
  exit 64
  ;;
esac
