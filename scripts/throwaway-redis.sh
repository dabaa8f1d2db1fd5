# Source this file, then `redis_start` / `redis_stop`: a throwaway Redis server on a free local port, in a
# temporary directory, nothing saved to disk. redis_start exports REDIS_URL. Installs Debian's
# redis-server package when no server is installed. Used by .ci/run (the cache and rate counters on Redis).

_redis_as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

redis_start() {
  if ! command -v redis-server >/dev/null 2>&1; then
    echo "no Redis server installed: installing Debian's redis-server package"
    _redis_as_root apt-get update -qq
    _redis_as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  REDIS_DIR="$(mktemp -d /tmp/ginscore-redis.XXXXXX)"
  REDIS_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --dir "$REDIS_DIR" --save '' --appendonly no \
    --daemonize yes --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log"
  for _ in $(seq 50); do
    if redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1; then break; fi
    sleep 0.1
  done
  echo "Redis $(redis-server --version | awk '{print $3}') started on 127.0.0.1:$REDIS_PORT"
  export REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
  export REDIS_DIR REDIS_PORT
}

redis_stop() {
  if [ -n "${REDIS_DIR:-}" ]; then
    if [ -f "$REDIS_DIR/redis.pid" ]; then kill "$(cat "$REDIS_DIR/redis.pid")" 2>/dev/null || true; fi
    rm -rf "$REDIS_DIR"
  fi
}
