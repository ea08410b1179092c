# examsim: `make run` serves the app, `make test` runs every test.
GO ?= go
ADDR ?= 127.0.0.1:8080
DB ?= ./examsim.db

.PHONY: run build test generate check-generated lint bench bench-wrk loadtest loadtest-pg fmt e2e-deps clean

# The built binary, not `go run`: go run exits 1 whenever it is interrupted,
# even after the server stopped cleanly, so make said "Error 1" on every
# Ctrl-C. The server itself exits 0 after a clean stop on SIGINT or SIGTERM.
run: build
	./bin/examsim serve --addr $(ADDR) --db $(DB)

build:
	$(GO) build -o bin/examsim ./cmd/examsim
	$(GO) build -o bin/examsim-bench ./cmd/examsim-bench

# Everything: the bank check with its cue check, then unit tests, the
# real-browser tests (Chromium through chromedp, with axe-core from npm) and
# the fuzz seed corpora, all under the race detector: every package, the
# browser tests included.
test: e2e-deps
	$(GO) vet ./...
	$(GO) run ./cmd/examsim questions check
	$(GO) test -race -count=1 -timeout 60m ./...

# axe-core for the accessibility checks in the browser tests, and the MCP
# conformance suite with the Node 22 it needs (both local, from npm).
# --prefer-offline takes what npm's own cache (~/.npm) already holds, so a
# second run on one machine downloads nothing.
e2e-deps: web/e2e/node_modules/axe-core/axe.min.js web/e2e/conformance/node_modules/.bin/conformance

web/e2e/node_modules/axe-core/axe.min.js: web/e2e/package.json web/e2e/package-lock.json
	cd web/e2e && npm ci --prefer-offline --no-audit --no-fund --loglevel=error
	touch $@

web/e2e/conformance/node_modules/.bin/conformance: web/e2e/conformance/package.json web/e2e/conformance/package-lock.json
	cd web/e2e/conformance && npm ci --prefer-offline --no-audit --no-fund --loglevel=error
	touch $@

# Static checks, as CI runs them: go vet, staticcheck and gosec at pinned
# versions. They run with `go run MODULE@VERSION` rather than as tool
# directives in go.mod: gosec would add some 800 go.sum lines (AI and cloud
# SDKs it links for its autofix) and raise shared dependencies for the app
# itself; this way each tool builds with the versions it was released with,
# and the app's go.mod stays its own. A finding is fixed, or justified where
# it is with `// #nosec GNNN -- reason`.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2
GOSEC ?= github.com/securego/gosec/v2/cmd/gosec@v2.30.0

lint:
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...
	$(GO) run $(GOSEC) -quiet -exclude-generated -fmt text ./...

# Benchmarks (figures and how to read them: BENCHMARKS.md). bench-wrk needs
# wrk (apt-get install wrk) and a quiet machine: it starts real servers on
# loopback and loads each page for BENCH_DURATION.
BENCH_DURATION ?= 10s

bench:
	$(GO) test -run '^$$' -bench . -benchtime 20x ./questions ./web ./cmd/examsim
	$(GO) test -run '^$$' -bench BenchmarkScore -benchtime 20000x -cpu 1 -count 5 ./scoring

bench-wrk: build
	./bin/examsim-bench web --examsim bin/examsim --duration $(BENCH_DURATION) --connections 200 --threads 2 --bank-size 200,1000

# One classroom load test against a fresh local server: STUDENTS per room,
# ROOMS rooms, QUESTIONS questions (e.g. make loadtest STUDENTS=2000).
STUDENTS ?= 1000
ROOMS ?= 1
QUESTIONS ?= 3

loadtest: build
	STUDENTS=$(STUDENTS) ROOMS=$(ROOMS) QUESTIONS=$(QUESTIONS) sh cmd/examsim-bench/loadtest.sh sqlite

# The same load on two instances sharing a throwaway PostgreSQL cluster,
# balanced alternately, then on one SQLite instance: both rows from one
# command (e.g. make loadtest-pg STUDENTS=2000, make loadtest-pg ROOMS=20 STUDENTS=100).
loadtest-pg: build
	STUDENTS=$(STUDENTS) ROOMS=$(ROOMS) QUESTIONS=$(QUESTIONS) sh cmd/examsim-bench/loadtest.sh both

generate:
	$(GO) tool templ generate

# CI: the committed templ output must match what templ generates.
check-generated: generate
	git diff --exit-code -- '*_templ.go'

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin web/e2e/node_modules
