# Source this file, then `pg_start` / `pg_stop`: a throwaway PostgreSQL cluster in a temporary directory,
# run as a non-root user on a free local port. pg_start exports DATABASE_URL. Installs Debian's
# postgresql package when no server is installed. Used by .ci/run and the API benchmark.
#
# Tests run with fsync=off and synchronous_commit=off (fast, and a test database is thrown away).
# PG_DURABLE=1 keeps PostgreSQL's durable defaults (fsync, synchronous_commit=on): the benchmark
# measures what production pays, and a restart loses no acknowledged write.

_as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

pg_options() {
  local options="-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200"
  if [ "${PG_DURABLE:-0}" != "1" ]; then options="$options -c fsync=off -c synchronous_commit=off"; fi
  echo "$options"
}

pg_start() {
  if [ -z "$(_pg_bin)" ]; then
    echo "no PostgreSQL server installed: installing Debian's postgresql package"
    _as_root apt-get update -qq
    _as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  PG_BIN="$(_pg_bin)"
  [ -x "$PG_BIN/initdb" ] || { echo "PostgreSQL binaries not found after install" >&2; return 1; }
  # The server refuses to run as root: use the package's postgres account when we are root.
  if [ "$(id -u)" -eq 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin postgres
    PG_USER=postgres
  else
    PG_USER="$(id -un)"
  fi
  PG_DIR="$(mktemp -d /tmp/ginscore-pg.XXXXXX)"
  chmod 755 "$PG_DIR"
  if [ "$(id -u)" -eq 0 ]; then chown "$PG_USER" "$PG_DIR"; fi
  PG_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  _as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U "$PG_USER" -A trust -E UTF8 --no-sync >/dev/null
  _as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "$(pg_options)" \
    start >/dev/null
  _as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U "$PG_USER" ginscore
  echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') started on 127.0.0.1:$PG_PORT as $PG_USER"
  export DATABASE_URL="postgres://$PG_USER@127.0.0.1:$PG_PORT/ginscore"
  export PG_BIN PG_DIR PG_PORT PG_USER
}

# Restart the running cluster (same options): the outage drill of bench/trust.py.
pg_restart() { _as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w restart >/dev/null; }

_as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

pg_stop() {
  if [ -n "${PG_DIR:-}" ]; then
    _as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
}
