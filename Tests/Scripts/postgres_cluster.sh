#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the shared-history tests, in a folder of its own:
#   postgres_cluster.sh start STATE     initdb into STATE, start on a free loopback port; prints the variables to export
#   postgres_cluster.sh start-tls STATE as start, but the server takes TLS connections only, with a certificate for
#                                       localhost signed by a throwaway CA made here (STATE/tls: ca.pem, server.pem,
#                                       and expired.pem/expired.key, a certificate of that CA that expired in 2020)
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
# One line: pg_ctl hands it to a shell, where a newline would end the command.
server_options() {
  local tls=""
  [ ! -d "$state/tls" ] || tls=" -c ssl=on -c ssl_cert_file=$state/tls/server.pem -c ssl_key_file=$state/tls/server.key"
  echo "-p $(cat "$state/port") -k $state -c listen_addresses=127.0.0.1 -c fsync=on$tls"
}
# A CA and a server certificate naming localhost only (so verify-full to 127.0.0.1 fails its host check), made fresh.
make_certificates() {
  local dir=$state/tls
  mkdir -p "$dir"
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=stocktake test CA" -keyout "$dir/ca.key" \
    -out "$dir/ca.pem" -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
  printf 'subjectAltName=DNS:localhost\n' > "$dir/server.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -extfile "$dir/server.ext" -out "$dir/server.pem" 2>/dev/null
  # OpenSSL 3.0's x509 cannot backdate; its ca command can, given a minimal configuration.
  printf '[ca]\ndefault_ca=t\n[t]\ndatabase=%s/index.txt\nnew_certs_dir=%s\nserial=%s/serial\ndefault_md=sha256\npolicy=p\ncopy_extensions=copy\n[p]\ncommonName=supplied\n' \
    "$dir" "$dir" "$dir" > "$dir/ca.cnf"
  : > "$dir/index.txt"
  echo 01 > "$dir/serial"
  openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -addext subjectAltName=DNS:localhost \
    -keyout "$dir/expired.key" -out "$dir/expired.csr" 2>/dev/null
  openssl ca -batch -config "$dir/ca.cnf" -cert "$dir/ca.pem" -keyfile "$dir/ca.key" -in "$dir/expired.csr" \
    -startdate 20200101000000Z -enddate 20200102000000Z -notext -out "$dir/expired.pem" 2>/dev/null
  chmod 600 "$dir"/*.key
  chmod 644 "$dir"/*.pem
  [ "$(id -u)" != 0 ] || chown -R postgres "$dir"
}

case $command in
start | start-tls)
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
  if [ "$command" = start-tls ]; then
    make_certificates
    # TLS only, from any host: no hostnossl or host line over TCP.
    printf 'local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\n' > "$state/data/pg_hba.conf"
  fi
  as_server "$bin/pg_ctl" -D "$state/data" -l "$state/server.log" -o "$(server_options)" -w start >/dev/null \
    || { cat "$state/server.log" >&2; exit 1; }
  port=$(cat "$state/port")
  password=$(cat "$state/password")
  script=$(cd "$(dirname "$0")" && pwd)/postgres_cluster.sh
  if [ "$command" = start-tls ]; then
    echo "export STOCKTAKE_POSTGRES_TLS_URL='postgresql://stocktake@localhost:$port/postgres?sslmode=verify-full&sslrootcert=$state/tls/ca.pem'"
    echo "export STOCKTAKE_POSTGRES_TLS_FILES=$state/tls"
    echo "export STOCKTAKE_POSTGRES_TLS_PASSWORD=$password"
    exit 0
  fi
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
  echo "usage: postgres_cluster.sh start|start-tls|stop|restart|remove STATE" >&2
  exit 64
  ;;
esac
