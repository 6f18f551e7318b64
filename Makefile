# clawvault-tui — the commands that matter: `make run`, `make check` while
# editing, `make test` before a commit (docs/DEVELOPING.md).
GO      ?= go
BIN     := bin/clawvault-tui
VERSION := $(shell cat VERSION)
LDFLAGS := -X clawvault-tui/cli.releaseVersion=$(VERSION)
# make install: PREFIX and DESTDIR as usual (DESTDIR for staged installs).
PREFIX  ?= /usr/local
DESTDIR ?=
PKGS    := ./...
# Benchmarks generate their data with the demo generator in a temp folder;
# BENCH_SCALE=100 is the budget scale of docs/ARCHITECTURE.md, Budgets (10,000 sessions, 300 MB transcript).
BENCH_SCALE ?= 100
BENCH_TIME  ?= 3s
FUZZTIME    ?= 10s
# gotestsum runs go test and ends with a summary: the failures, and every
# test that was skipped with the reason it gave (a "missing tool:" skip
# means a program .ci/run installs is not here).
GOTESTSUM   ?= $(GO) run gotest.tools/gotestsum@v1.13.0
# Test scratch space (TMPDIR for go test): in memory where the machine has
# it. The tests copy the demo workspace (about 600 files) dozens of times, and
# creating files on a busy disk cost the cli tests 13 s of system time.
TEST_TMPDIR ?= $(shell test -d /dev/shm -a -w /dev/shm && echo /dev/shm || echo $${TMPDIR:-/tmp})
TESTFLAGS   ?=

.PHONY: build run check test run-tests bench bench-compare fuzz conformance lint cross hooks clean install uninstall dist dist-check

# The first build downloads and compiles every dependency: a few minutes,
# once; later builds take seconds.
build:
	@test -d "$$($(GO) env GOMODCACHE)/charm.land" || echo "First build: downloading and compiling the dependencies (a few minutes, once)…"
	$(GO) build -buildvcs=auto -ldflags "$(LDFLAGS)" -o $(BIN) .

# Opens the TUI on your OpenClaw workspace, or on a generated demo workspace
# when none is found. Pass flags with ARGS="--state-dir DIR -v VAULT".
run: build
	./$(BIN) --demo-if-none $(ARGS)

# The quick loop while editing: vet, and the tests -short keeps, of the
# packages you changed since HEAD (scripts/changed-packages.sh; every
# package when nothing changed, or with CHECK_PKGS=./...). -short leaves out
# the end-to-end flows in tmux, the signal and completion tests, the big
# demos, the 200 MB long-line transcripts, the fault-injection sweeps and
# the other tests that say so (testing.Short()). Every package -short is
# 40 s on two cores, too slow for a loop; make test runs everything.
CHECK_PKGS ?= $(or $(shell scripts/changed-packages.sh),$(PKGS))
check:
	$(GO) vet $(CHECK_PKGS)
	@$(MAKE) --no-print-directory run-tests PKGS="$(CHECK_PKGS)" TESTFLAGS="-short $(TESTFLAGS)"

test:
	$(GO) vet $(PKGS)
	@$(MAKE) --no-print-directory run-tests

# run-tests runs the tests with their scratch space under TEST_TMPDIR. The
# folder's name stays the same from run to run: go test caches a package's
# result only while the environment its tests read (TMPDIR) is unchanged.
# Each test makes and removes its own folder inside it.
run-tests:
	@scratch="$(TEST_TMPDIR)/clawvault-tui-test-$$(id -u)"; mkdir -p "$$scratch" || exit 1; \
	  TMPDIR=$$scratch $(GOTESTSUM) --format pkgname-and-test-fails --format-hide-empty-pkg -- $(TESTFLAGS) $(PKGS)

bench:
	BENCH_SCALE=$(BENCH_SCALE) $(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCH_TIME) -count 1 -timeout 60m $(PKGS)

# The scaling table of the README: status at 1,000, 10,000 and 50,000
# sessions beside ClawVault 3.5.2's dry run, tree on 30 MB, 300 MB and 1 GB
# transcripts beside wc -l, search beside rg -n -i and ClawVault's reindex,
# as whole processes in the same run (installs clawvault@3.5.2 in a temp
# folder, ripgrep from Debian if missing; demo data in $TMPDIR).
bench-compare:
	./bench/compare.sh

# A short run of every fuzz target (scripts/fuzz.sh: one target per run,
# and a run Go's coordinator ends at its deadline without a failing input,
# go.dev/issue/75804, made once more).
fuzz:
	@GO=$(GO) ./scripts/fuzz.sh $(FUZZTIME) $(PKGS)

# Reinstalls the reference tools (clawvault@3.5.2, pi-coding-agent) in a temp
# folder, regenerates their outputs on the same inputs, and compares live.
conformance: build
	./conformance/run.sh

# The macOS and Windows builds, checked from here: vet type-checks every
# package and test as built for each (the tests themselves run on Linux).
cross:
	GOOS=darwin $(GO) vet $(PKGS)
	GOOS=windows $(GO) vet $(PKGS)

# Dead code: staticcheck without the tests finds what only tests use, and
# deadcode every function no command reaches. Test-only code belongs in
# _test.go files; packages named *test exist for tests and are left out.
lint: cross
	@test -z "$$(gofmt -l .)" || (echo "gofmt would change:"; gofmt -l .; exit 1)
	$(GO) vet $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 -tests=false $(PKGS)
	@dead=$$($(GO) run golang.org/x/tools/cmd/deadcode@v0.52.0 $(PKGS) | grep -Ev '^([^:]*/)?[a-z0-9]+test/'); \
	  test -z "$$dead" || (echo "deadcode: no command reaches these (move what only tests use into _test.go files):"; echo "$$dead"; exit 1)
	$(GO) mod tidy -diff

# The binary, the man page and completions for bash, zsh and fish.
install: build
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/clawvault-tui
	./$(BIN) man > $(DESTDIR)$(PREFIX)/share/man/man1/clawvault-tui.1
	./$(BIN) completion bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/clawvault-tui
	./$(BIN) completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_clawvault-tui
	./$(BIN) completion fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/clawvault-tui.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/clawvault-tui $(DESTDIR)$(PREFIX)/share/man/man1/clawvault-tui.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/clawvault-tui \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_clawvault-tui \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/clawvault-tui.fish

# Release archives for linux, darwin and windows on amd64 and arm64,
# SHA256SUMS, and the npm packages in dist/npm (docs/INSTALL.md).
dist:
	./scripts/dist.sh dist

# Installs this machine's npm packages from dist/npm into an empty folder,
# offline, and runs the command they install.
dist-check:
	./scripts/dist-check.sh dist

# The commit-msg hook that checks a message as CI does (.ci/check-commits:
# a subject of at most 72 characters, in the imperative).
hooks:
	git config core.hooksPath .githooks
	@echo "commit-msg hook enabled (.githooks/commit-msg); git commit --no-verify passes over it"

clean:
	rm -rf bin dist
