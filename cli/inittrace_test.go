package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

// Every command pays for the package initialisation of everything linked
// into the binary before main runs, so init work is budgeted. The figures
// are GODEBUG=inittrace=1's allocated bytes and allocations per package,
// which do not depend on the machine or its load (they vary a little from
// run to run with map hash seeds); its clock times do, and this test never
// reads them.
// `make bench` measures the start-up as the user waits.

// initBudget is what one package's init may allocate. A package of ours
// that needs more builds its tables on first use instead (sync.OnceValue,
// jscompat.LazyRegexp, MustJSRegexp's compile on first use).
var initBudget = initCost{Bytes: 64 << 10, Allocs: 512}

// initTotalBudget bounds the whole start-up: all packages together, which
// allocate 8.02 MB in about 113,050 allocations. Most of it is chroma's
// (lexers 2.74 MB, styles 1.94 MB: every lexer's and style's XML parsed
// at init) and bluemonday's (0.79 MB with its CSS tables), which glamour
// links for highlighting code blocks and stripping HTML; until 2026-11
// go.mod replaced both with stand-ins to save that (2.18 MB in 34,660
// allocations without them), and the Markdown preview lost its
// highlighting. Real dependencies are worth the cost; the whole process
// is measured beside a hello-world one (BenchmarkStartup,
// docs/PERFORMANCE.md).
var initTotalBudget = initCost{Bytes: 9420 << 10, Allocs: 130_000}

// initAllowance lists the third-party packages we cannot change whose init
// exceeds initBudget, each with its own ceiling and the reason it is linked.
// A ceiling is about 15% above the most the package allocated in 300 runs
// (a few inits build maps, whose growth varies with the hash seed: the CSS
// scanner bluemonday linked allocated 223,024 bytes, or 260,096 in 9
// runs of 300).
var initAllowance = map[string]struct {
	initCost
	why string
}{
	"github.com/alecthomas/chroma/v2/lexers": {initCost{3150 << 10, 36_200},
		"glamour's code highlighting (and the entry view's): every embedded lexer's XML parsed at init"},
	"github.com/alecthomas/chroma/v2/styles": {initCost{2230 << 10, 45_900},
		"glamour's code highlighting: every embedded style's XML parsed at init"},
	"github.com/microcosm-cc/bluemonday": {initCost{340 << 10, 1_420},
		"glamour strips HTML in Markdown with bluemonday's strict policy: its element and attribute tables"},
	"github.com/microcosm-cc/bluemonday/css": {initCost{570 << 10, 4_400},
		"bluemonday's CSS property handlers, built at init"},
	"github.com/gorilla/css/scanner": {initCost{300 << 10, 2_100},
		"bluemonday's CSS scanner: its regular expressions, compiled at init"},
	"github.com/blevesearch/bleve/v2/index/scorch": {initCost{1230 << 10, 29_700},
		"the search index; scorch builds the Levenshtein automata of fuzzy queries at init"},
	"github.com/yuin/goldmark/extension": {initCost{300 << 10, 2500},
		"glamour's Markdown parser: the extensions' regular expressions and tables"},
	"github.com/yuin/goldmark/util": {initCost{170 << 10, 2300},
		"glamour's Markdown parser: the HTML entity table"},
	"charm.land/glamour/v2/internal/autolink": {initCost{170 << 10, 1800},
		"glamour's link detection: regular expressions compiled at init"},
	"golang.org/x/net/html": {initCost{130 << 10, 100},
		"the HTML tokenizer glamour strips HTML in Markdown with (bluemonday's strict policy): the entity tables"},
	"github.com/yuin/goldmark/parser": {initCost{130 << 10, 1100},
		"glamour's Markdown parser: block and inline parser tables"},
}

type initCost struct{ Bytes, Allocs int }

func (c initCost) exceeds(limit initCost) bool {
	return c.Bytes > limit.Bytes || c.Allocs > limit.Allocs
}

func (c initCost) String() string {
	return fmt.Sprintf("%s bytes in %s allocations", thousands(c.Bytes), thousands(c.Allocs))
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// inittraceLine is one line of GODEBUG=inittrace=1 (runtime/proc.go):
// "init PKG @0.52 ms, 0.019 ms clock, 304 bytes, 7 allocs".
var inittraceLine = regexp.MustCompile(`^init (\S+) @[0-9.]+ ms, [0-9.]+ ms clock, ([0-9]+) bytes, ([0-9]+) allocs$`)

// parseInittrace returns each package's init cost, in the order they ran.
func parseInittrace(stderr []byte) (pkgs []string, costs map[string]initCost) {
	costs = map[string]initCost{}
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		m := inittraceLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		b, _ := strconv.Atoi(m[2])
		a, _ := strconv.Atoi(m[3])
		pkgs = append(pkgs, m[1])
		costs[m[1]] = initCost{b, a}
	}
	return pkgs, costs
}

// TestInitBudget starts the binary (--version) with GODEBUG=inittrace=1 and
// holds every package's init to its budget.
func TestInitBudget(t *testing.T) {
	t.Parallel()
	bin := builtBinary(t)
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s --version: %v\n%s", bin, err, stderr.Bytes())
	}
	pkgs, costs := parseInittrace(stderr.Bytes())
	if len(pkgs) < 50 {
		t.Fatalf("GODEBUG=inittrace=1 printed %d init lines that parse; has its format changed?\n%s", len(pkgs), stderr.Bytes())
	}

	var total initCost
	for _, pkg := range pkgs {
		c := costs[pkg]
		total.Bytes += c.Bytes
		total.Allocs += c.Allocs
		if allowed, ok := initAllowance[pkg]; ok {
			if c.exceeds(allowed.initCost) {
				t.Errorf("the init of %s allocates %v, over its allowance of %v (%s): find what grew (a dependency upgrade?) before raising it",
					pkg, c, allowed.initCost, allowed.why)
			}
			continue
		}
		if c.exceeds(initBudget) {
			t.Errorf("the init of %s allocates %v, over the budget of %v for a package: every command pays it before main runs; "+
				"build it on first use (sync.OnceValue, jscompat.LazyRegexp), or, for a third-party package we cannot change, add it to initAllowance with the reason",
				pkg, c, initBudget)
		}
	}
	for pkg := range initAllowance {
		if _, ok := costs[pkg]; !ok {
			t.Errorf("initAllowance lists %s, which no longer runs an init in this binary: remove it", pkg)
		}
	}
	if total.exceeds(initTotalBudget) {
		t.Errorf("all package inits together allocate %v, over the budget of %v", total, initTotalBudget)
	}

	// The biggest, for the log of a failure or of -v.
	slices.SortFunc(pkgs, func(a, b string) int { return costs[b].Bytes - costs[a].Bytes })
	for _, pkg := range pkgs[:5] {
		t.Logf("%-48s %v", pkg, costs[pkg])
	}
	t.Logf("%-48s %v", "all packages", total)
}

func TestParseInittrace(t *testing.T) {
	t.Parallel()
	stderr := []byte("init internal/bytealg @0.003 ms, 0 ms clock, 0 bytes, 0 allocs\n" +
		"init github.com/alecthomas/chroma/v2/lexers @26 ms, 14 ms clock, 2290336 bytes, 25862 allocs\n" +
		"gc 1 @0.119s 0%: 3.8+15+0.076 ms clock, 7.6+0/0.72/3.8+0.15 ms cpu, 3->4->1 MB, 4 MB goal, 0 MB stacks, 0 MB globals, 2 P\n" +
		"init clawvault-tui/model @107 ms, 0.61 ms clock, 85296 bytes, 837 allocs\n")
	pkgs, costs := parseInittrace(stderr)
	if want := []string{"internal/bytealg", "github.com/alecthomas/chroma/v2/lexers", "clawvault-tui/model"}; !slices.Equal(pkgs, want) {
		t.Fatalf("packages %q, want %q", pkgs, want)
	}
	if got, want := costs["github.com/alecthomas/chroma/v2/lexers"], (initCost{2290336, 25862}); got != want {
		t.Errorf("chroma/lexers: %+v, want %+v", got, want)
	}
	if got := costs["clawvault-tui/model"].String(); got != "85,296 bytes in 837 allocations" {
		t.Errorf("String() = %q", got)
	}
}
