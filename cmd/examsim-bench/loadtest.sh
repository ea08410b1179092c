#!/bin/sh
# make loadtest: a fresh server on loopback with a fresh database, an
# instructor account, then one load test against it; the server is stopped
# at the end whatever happens. Sizes come from the environment (see Makefile).
set -eu
ADDR=${LOADTEST_ADDR:-127.0.0.1:18080}
tmp=$(mktemp -d)
pid=
cleanup() {
	if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
echo loadtest-pass-1 | ./bin/examsim user add loadteacher --role instructor --db "$tmp/load.db" >/dev/null
./bin/examsim serve --addr "$ADDR" --db "$tmp/load.db" --bench-ceiling >"$tmp/serve.log" 2>&1 &
pid=$!
tries=0
until curl -fs "http://$ADDR/healthz" >/dev/null 2>&1; do
	tries=$((tries + 1))
	if [ "$tries" -gt 100 ]; then echo "loadtest: the server did not start:" >&2; cat "$tmp/serve.log" >&2; exit 1; fi
	sleep 0.1
done
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
EXAMSIM_LOADTEST_PASSWORD=loadtest-pass-1 ./bin/examsim-bench loadtest --url "http://$ADDR" --instructor loadteacher \
	--students "${STUDENTS:-1000}" --rooms "${ROOMS:-1}" --questions "${QUESTIONS:-3}"
echo "# load average after $(cut -d' ' -f1-3 /proc/loadavg)"
