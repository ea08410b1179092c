#!/bin/sh
# make loadtest / make loadtest-pg: fresh servers on loopback with fresh
# databases and an instructor account, then one load test against them;
# everything started here is stopped and removed at the end, whatever happens.
#
#   loadtest.sh sqlite     one `examsim serve` on a SQLite file (make loadtest)
#   loadtest.sh postgres   two `examsim serve` on one throwaway PostgreSQL
#                          cluster, which examsim-bench balances alternately
#   loadtest.sh both       postgres, then sqlite: the two rows of BENCHMARKS.md
#                          from one command (make loadtest-pg)
#
# Sizes come from the environment (see Makefile). The PostgreSQL cluster is
# made with initdb in a temporary folder (as the postgres user when run as
# root, since initdb refuses root) and listens on loopback only, with its
# socket in that folder: never a system service. It keeps PostgreSQL's
# durable defaults (fsync, synchronous_commit on), as SQLite runs with
# synchronous=FULL, so the two rows pay for the same promise.
set -eu
MODE=${1:-sqlite}
case "$MODE" in sqlite | postgres | both) ;; *)
	echo "loadtest.sh: unknown mode $MODE; use sqlite, postgres or both" >&2
	exit 2
	;;
esac
PGPORT=${LOADTEST_PG_PORT:-$((20000 + $$ % 20000))}
STUDENTS=${STUDENTS:-1000}
ROOMS=${ROOMS:-1}
QUESTIONS=${QUESTIONS:-3}
PASSWORD=loadtest-pass-1
failed=0

tmp=$(mktemp -d)
pgdir=
pgrun=
pgbin=
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	pids=
	if [ -n "$pgdir" ] && [ -f "$pgdir/data/postmaster.pid" ]; then
		$pgrun "$pgbin/pg_ctl" -D "$pgdir/data" -m fast -w stop >/dev/null 2>&1 || true
	fi
	[ -n "$pgdir" ] && rm -rf "$pgdir"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# serve NAME DB [FLAGS...]: start one instance in the background on a free
# loopback port and wait until it answers; its URL is left in $url. With
# no --advertise-url the instance advertises the address it listens on,
# which is what the other instance on this machine reaches it at.
serve() {
	name=$1 db=$2
	shift 2
	./bin/examsim serve --addr 127.0.0.1:0 --db "$db" "$@" >"$tmp/$name.log" 2>&1 &
	pid=$!
	pids="$pids $pid"
	tries=0
	url=
	while :; do
		url=$(sed -n 's|^examsim: serving .* on \(http://[0-9.:]*\) .*|\1|p' "$tmp/$name.log")
		if [ -n "$url" ] && curl -fs "$url/healthz" >/dev/null 2>&1; then
			return
		fi
		tries=$((tries + 1))
		if [ "$tries" -gt 150 ] || ! kill -0 "$pid" 2>/dev/null; then
			echo "loadtest: the server $name did not start:" >&2
			cat "$tmp/$name.log" >&2
			exit 1
		fi
		sleep 0.2
	done
}

# load LABEL URLS [FLAGS...]: one load test, with the load average around it.
load() {
	label=$1 urls=$2
	shift 2
	echo "# $label: $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
	EXAMSIM_LOADTEST_PASSWORD=$PASSWORD ./bin/examsim-bench loadtest --url "$urls" --instructor loadteacher \
		--students "$STUDENTS" --rooms "$ROOMS" --questions "$QUESTIONS" "$@" || failed=1 # the other row still runs
	echo "# $label: load average after $(cut -d' ' -f1-3 /proc/loadavg)"
}

# stop_servers ends the instances of the row just measured.
stop_servers() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do wait "$p" 2>/dev/null || true; done
	pids=
}

start_postgres() {
	if command -v initdb >/dev/null 2>&1; then
		pgbin=$(dirname "$(readlink -f "$(command -v initdb)")")
	else
		pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	fi
	if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ]; then
		echo "loadtest: PostgreSQL is not installed (initdb is neither on PATH nor in /usr/lib/postgresql/*/bin); install Debian's postgresql package" >&2
		exit 1
	fi
	pgdir=$(mktemp -d)
	if [ "$(id -u)" = 0 ]; then
		chown postgres:postgres "$pgdir"
		pgrun="runuser -u postgres --"
	fi
	$pgrun "$pgbin/initdb" -D "$pgdir/data" -U examsim --auth=trust -E UTF8 --locale=C.UTF-8 --no-instructions >"$pgdir/initdb.log" 2>&1 ||
		{ cat "$pgdir/initdb.log" >&2; exit 1; }
	tries=0
	# A port another program holds stops the server at once: try the next.
	until $pgrun "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/server.log" -w \
		-o "-p $PGPORT -k $pgdir -c listen_addresses=127.0.0.1 -c max_connections=100" start >/dev/null 2>&1; do
		tries=$((tries + 1))
		if [ "$tries" -ge 5 ]; then
			echo "loadtest: PostgreSQL did not start (last on port $PGPORT):" >&2
			cat "$pgdir/server.log" >&2
			exit 1
		fi
		PGPORT=$((PGPORT + 1))
	done
	"$pgbin/createdb" -h 127.0.0.1 -p "$PGPORT" -U examsim examsim
}

row_postgres() {
	start_postgres
	db="postgres://examsim@127.0.0.1:$PGPORT/examsim?sslmode=disable"
	echo "$PASSWORD" | ./bin/examsim user add loadteacher --role instructor --db "$db" >/dev/null
	# The cookie key is in the database, so a login on one is valid on the other.
	# Each instance holds its own fan-out ceiling; the load generator fires both.
	serve pg-a "$db" --bench-ceiling
	a=$url
	serve pg-b "$db" --bench-ceiling
	load "PostgreSQL, two instances behind an alternating balancer" "$a,$url"
	stop_servers
}

row_sqlite() {
	echo "$PASSWORD" | ./bin/examsim user add loadteacher --role instructor --db "$tmp/load.db" >/dev/null
	serve sqlite "$tmp/load.db" --bench-ceiling
	if [ "$MODE" = both ]; then
		load "SQLite, one instance behind the same balancer" "$url" --balancer # as the PostgreSQL row
	else
		load "SQLite, one instance" "$url"
	fi
	stop_servers
}

case "$MODE" in
sqlite) row_sqlite ;;
postgres) row_postgres ;;
both)
	row_postgres
	row_sqlite
	;;
esac
exit "$failed"
