#!/usr/bin/env bash
# schemathesis over the whole OpenAPI schema (/api/schema/), as an anonymous caller, an organiser
# (API token) and a referee (referee-link token): 0 server errors and 0 schema violations, or it fails.
# Every operation the schema lists is tested, so new endpoints are covered as they are added. Besides the
# schema's own cases (Unicode text included), scripts/schemathesis_hooks.py sends bodies that are not JSON
# objects, text with lone surrogates, and Unicode digits where ids and round numbers go.
#
# Runs gunicorn (2 workers, DEBUG off as in production, plain HTTP on a free local port) on
# $DATABASE_URL, or a temporary SQLite file when it is unset. SCHEMATHESIS_EXAMPLES (default 40) is
# the number of generated requests per operation and phase; `.ci/run` runs this script.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
WORK="$(mktemp -d /tmp/ginscore-schemathesis.XXXXXX)"
export DATABASE_URL="${DATABASE_URL:-sqlite:///$WORK/db.sqlite3}"
export DEBUG=0 SECRET_KEY="schemathesis-$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
export PIN_KEYS="ci:$(head -c 24 /dev/urandom | base64 | tr -d '/+=')"
export ALLOWED_HOSTS=127.0.0.1 SECURE_SSL_REDIRECT=0 SESSION_COOKIE_SECURE=0 CSRF_COOKIE_SECURE=0
# The limits themselves are tested by the suite; here they would only turn generated requests into 429s.
export ANON_THROTTLE_RATE=1000000/minute CALCULATOR_THROTTLE_RATE=1000000/minute LOGIN_THROTTLE_RATE=1000000/minute
EXAMPLES="${SCHEMATHESIS_EXAMPLES:-40}"
export SCHEMATHESIS_HOOKS="$PWD/scripts/schemathesis_hooks.py"

export STATIC_ROOT="$WORK/static"
$PY manage.py collectstatic --noinput -v 0
eval "$($PY scripts/schemathesis_seed.py)"
PORT="$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
.venv/bin/gunicorn ginscore.wsgi --bind "127.0.0.1:$PORT" --workers 2 --timeout 60 \
  --error-logfile "$WORK/gunicorn.log" --capture-output >/dev/null 2>&1 &
SERVER=$!
cleanup() { kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT
$PY - "$PORT" <<'WAIT'
import sys, time, urllib.request
for _ in range(150):
    try:
        if urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=1).status == 200:
            break
    except OSError:
        time.sleep(0.2)
else:
    sys.exit("gunicorn did not start")
WAIT

CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
status=0
run() {
  local who="$1"; shift
  echo "--- schemathesis as $who ---"
  if ! .venv/bin/schemathesis run "http://127.0.0.1:$PORT/api/schema/" --checks "$CHECKS" \
      --max-examples "$EXAMPLES" --seed 1 --phases examples,coverage,fuzzing --no-shrink \
      --request-timeout 30 --suppress-health-check all --warnings off "$@"; then
    status=1
    echo "--- server log (last lines) ---"; tail -n 40 "$WORK/gunicorn.log" || true
  fi
}
run anonymous
run organiser -H "Authorization: Token $ORGANISER_TOKEN"
run referee -H "Authorization: Referee $REFEREE_TOKEN"
# Evidence that the generated requests got past validation and wrote (the demo had 6 players, 3 games).
$PY manage.py shell -v 0 -c "from scoring.models import Game, Hand, Player; print(f'after the runs: \
{Player.objects.count()} players, {Game.objects.count()} games, {Hand.objects.count()} hand versions')"
exit "$status"
