# examsim: `make run` serves the app, `make test` runs every test.
GO ?= go
ADDR ?= 127.0.0.1:8080
DB ?= ./examsim.db

.PHONY: run build test generate check-generated lint fmt e2e-deps clean

run:
	$(GO) run ./cmd/examsim serve --addr $(ADDR) --db $(DB)

build:
	$(GO) build -o bin/examsim ./cmd/examsim

# Everything: unit tests, the real-browser tests (Chromium through chromedp,
# with axe-core from npm) and the fuzz seed corpora.
test: e2e-deps
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# axe-core for the accessibility checks in the browser tests.
e2e-deps: web/e2e/node_modules/axe-core/axe.min.js

web/e2e/node_modules/axe-core/axe.min.js: web/e2e/package.json web/e2e/package-lock.json
	cd web/e2e && npm ci --no-audit --no-fund --loglevel=error
	touch $@

generate:
	$(GO) tool templ generate

# CI: the committed templ output must match what templ generates.
check-generated: generate
	git diff --exit-code -- '*_templ.go'

fmt:
	gofmt -w $$(git ls-files '*.go')

clean:
	rm -rf bin web/e2e/node_modules
