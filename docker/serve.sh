#!/usr/bin/env bash
# The production process layout, with or without containers.
#
#   docker/serve.sh all      migrate, collectstatic, then gunicorn + a Celery
#                            worker with the periodic sweep (make serve)
#   docker/serve.sh web      gunicorn only          (one per web container/host)
#   docker/serve.sh worker   a Celery worker only   (any number, on any host;
#                            further arguments go to celery, e.g. --hostname)
#   docker/serve.sh beat     the periodic sweep     (exactly one in the cluster)
#   docker/serve.sh migrate  migrate the database   (once per release), and
#                            create the first researcher when
#                            FIRST_RESEARCHER_USERNAME is set (see below)
#   docker/serve.sh cluster  several nodes on one machine (make cluster): migrate,
#                            collectstatic, a gunicorn per port in WEB_PORTS
#                            (default "8000 8001"), WORKERS Celery workers
#                            (default 2) and one beat, sharing DATABASE_URL and
#                            REDIS_URL as separate hosts would
#
# Needs DATABASE_URL, REDIS_URL and SECRET_KEY; see docs/deploy.md.
# FIRST_RESEARCHER_USERNAME, FIRST_RESEARCHER_PASSWORD and (optional)
# FIRST_RESEARCHER_EMAIL make a staff superuser once; on later runs an existing
# account is left as it is, so restarts are harmless.
set -euo pipefail
cd "$(dirname "$0")/.."
: "${DATABASE_URL:?set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/rr_survey}"
: "${REDIS_URL:?set REDIS_URL, e.g. redis://127.0.0.1:6379/0}"
: "${SECRET_KEY:?set SECRET_KEY to a long random string}"
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings_production}"
PY="${PYTHON:-python}"
VAR_DIR="${VAR_DIR:-var}"
mkdir -p "$VAR_DIR"

web() { exec "$PY" -m gunicorn config.wsgi -c config/gunicorn.conf.py; }
worker() {
  exec "$PY" -m celery -A config worker --loglevel="${LOG_LEVEL:-INFO}" \
    --without-gossip --without-mingle "$@"
}
cluster() {
  migrate
  "$PY" manage.py collectstatic --noinput --verbosity 0
  local pids=() port i
  for port in ${WEB_PORTS:-8000 8001}; do
    (BIND="${WEB_HOST:-127.0.0.1}:$port" web) &
    pids+=($!)
  done
  for ((i = 1; i <= ${WORKERS:-2}; i++)); do
    (worker --hostname "worker$i@%h") &
    pids+=($!)
  done
  (beat) &
  pids+=($!)
  # Stop every node when any one stops, as an orchestrator would restart it.
  trap 'kill -TERM "${pids[@]}" 2>/dev/null || true' EXIT INT TERM
  wait -n "${pids[@]}"
}
beat() {
  exec "$PY" -m celery -A config beat --loglevel="${LOG_LEVEL:-INFO}" \
    --schedule "$VAR_DIR/celerybeat-schedule"
}
migrate() {
  "$PY" manage.py migrate --noinput
  if [[ -n "${FIRST_RESEARCHER_USERNAME:-}" ]]; then
    "$PY" manage.py create_researcher --noinput --if-missing --superuser \
      --username "$FIRST_RESEARCHER_USERNAME" \
      --email "${FIRST_RESEARCHER_EMAIL:-}" \
      --password-env FIRST_RESEARCHER_PASSWORD
  fi
}

case "${1:-all}" in
  web) web ;;
  worker) shift; worker "$@" ;;
  beat) beat ;;
  migrate) migrate ;;
  cluster) cluster ;;
  all)
    migrate
    "$PY" manage.py collectstatic --noinput --verbosity 0
    # One host: the worker also runs the sweep. Stop both when either stops.
    (worker --beat --schedule "$VAR_DIR/celerybeat-schedule") &
    jobs_pid=$!
    (web) &
    web_pid=$!
    trap 'kill -TERM "$web_pid" "$jobs_pid" 2>/dev/null || true' EXIT INT TERM
    wait -n "$web_pid" "$jobs_pid"
    ;;
  *) echo "usage: $0 [all|web|worker|beat|migrate|cluster]" >&2; exit 2 ;;
esac
