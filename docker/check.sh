#!/usr/bin/env bash
# Build the image and run the whole Compose stack once, end to end, then
# remove it (containers, volume, network): `make docker-check`.
#
# Checks: the web service becomes healthy (its HEALTHCHECK, by address, with
# ALLOWED_HOSTS set to the site's name only), migrate ran once, respondents'
# answers are stored over HTTP through the public API, the worker's estimate
# appears, and the backup commands of docker/README.md restore the data.
# Needs Docker with Compose v2. Leaves docker/.env alone.
set -euo pipefail
cd "$(dirname "$0")/.."
project="rr-survey-check-$$"
workdir="$(mktemp -d)"
export RR_ENV_FILE="$workdir/check.env"
port="${CHECK_PORT:-18000}"
responses=20

cat > "$RR_ENV_FILE" <<ENV
SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')
ALLOWED_HOSTS=survey.example.org
CSRF_TRUSTED_ORIGINS=https://survey.example.org
POSTGRES_USER=rr
POSTGRES_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_urlsafe(24))')
POSTGRES_DB=rr_survey
WEB_PORT=$port
WEB_CONCURRENCY=2
FORWARDED_ALLOW_IPS=*
ESTIMATE_DELAY_SECONDS=1
LOG_LEVEL=INFO
ENV

compose() { docker compose -p "$project" -f docker/compose.yaml --env-file "$RR_ENV_FILE" "$@"; }
sql() { compose exec -T postgres psql -U rr -d rr_survey -Atc "$1"; }
cleanup() {
  compose down -v --remove-orphans >/dev/null 2>&1 || true
  rm -rf "$workdir"
}
trap cleanup EXIT
step() { printf '\n== %s\n' "$*"; }

step "build and start; wait for web's health check"
compose up -d --build
web="$(compose ps -q web)"
for _ in $(seq 120); do
  health="$(docker inspect --format '{{.State.Health.Status}}' "$web")"
  [ "$health" = healthy ] && break
  sleep 1
done
echo "web: $health"
test "$health" = healthy

step "migrate ran once and exited 0"
test "$(compose ps -a --format '{{.Service}} {{.State}} {{.ExitCode}}' | grep '^migrate ')" = "migrate exited 0"

step "/healthz by address (ALLOWED_HOSTS names only the site)"
curl -fsS "http://127.0.0.1:$port/healthz"; echo

step "seed the demo and answer it $responses times over HTTP"
compose exec -T web python manage.py seed_demo --respondents 0 >/dev/null
compose exec -T web python - "$responses" <<'PY'
import json, random, secrets, sys, urllib.request

def call(path, body=None):
    request = urllib.request.Request(
        "http://127.0.0.1:8000" + path,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Host": "survey.example.org", "X-Forwarded-Proto": "https",
                 "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return reply.status, json.load(reply)

_, survey = call("/api/v1/public/surveys/demo/")
for _ in range(int(sys.argv[1])):
    answers = [
        {"question": q["id"], "report": random.randrange(len(q["options"])),
         "spec_version": q["spec_version"]}
        for q in survey["questions"]
    ]
    status, _ = call(survey["submit_url"],
                     {"respondent_key": secrets.token_hex(16), "answers": answers})
    assert status == 201, status
print("stored", sys.argv[1])
PY
test "$(sql 'SELECT count(*) FROM surveys_response')" = "$responses"

step "the worker's estimate appears"
for _ in $(seq 60); do
  done_runs="$(sql "SELECT count(*) FROM estimation_estimaterun WHERE status = 'finished' AND n = $responses")"
  [ "$done_runs" != "0" ] && break
  sleep 1
done
test "$done_runs" != "0"
echo "finished run with n = $responses"

step "backup, lose the answers, restore"
compose exec -T postgres pg_dump -U rr --format=custom rr_survey > "$workdir/rr.dump"
sql 'DELETE FROM surveys_answer; DELETE FROM surveys_response' >/dev/null
test "$(sql 'SELECT count(*) FROM surveys_response')" = "0"
compose exec -T postgres pg_restore --clean --if-exists --no-owner -U rr -d rr_survey < "$workdir/rr.dump"
test "$(sql 'SELECT count(*) FROM surveys_response')" = "$responses"
curl -fsS "http://127.0.0.1:$port/healthz"; echo

step "no answer in the logs"
if compose logs web worker | grep -E '"(report|respondent_key)"'; then
  echo "an answer reached the logs" >&2; exit 1
fi
echo "PASS"
