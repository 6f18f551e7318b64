//go:build linux

package cli

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"clawvault-tui/store/demo"
	"clawvault-tui/store/demo/demotest"
)

// Whole processes beside the tool a user would run instead, or the floor
// of the work (wc -l reads the file and counts lines; rg -n -i reads every
// file and matches), in the same run: each repetition runs every command
// of a comparison once, one after the other, so that the machine's load
// shifts them alike; medians of wall time, CPU time (user+system, steadier
// on a loaded machine) and peak resident memory (wait4's ru_maxrss).
//
// BenchmarkWholeProcess runs at $BENCH_SCALE in `make bench` (the peer
// ClawVault when $CLAWVAULT_JS names its bin/clawvault.js, rg when it is on
// the PATH); BenchmarkCompare is `make bench-compare`: every size of the
// scaling table, printed as Markdown.

// proc is one command to run: its argv, environment, and a preparation
// run before each repetition, untimed (a fresh copy to write into).
type proc struct {
	name    string
	argv    []string
	env     []string
	prepare func() error
}

// sample is one run's figures.
type sample struct {
	wall, cpu time.Duration
	rssKB     int64
}

// runnerSource is the program each command is started from. wait4's peak
// resident memory of a child counts the memory of the process it was
// started from (Linux carries the larger figure across exec, and Go starts
// children with vfork: the parent's own pages), so the benchmark's own
// hundreds of MB would show in every figure. The runner is a few MB; it
// runs the command and writes wall time, CPU time and peak RSS to a file.
const runnerSource = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := ru.Utime.Nano() + ru.Stime.Nano()
	if err := os.WriteFile(os.Args[1], []byte(fmt.Sprintf("%d %d %d", wall.Nanoseconds(), cpu, ru.Maxrss)), 0o644); err != nil {
		os.Exit(1)
	}
}
`

var (
	runnerOnce sync.Once
	runnerPath string
	runnerErr  error
)

// buildRunner builds runnerSource once per test binary, beside the
// binary under test (TestMain removes that folder).
func buildRunner(tb testing.TB) string {
	tb.Helper()
	bin := builtBinary(tb)
	runnerOnce.Do(func() {
		dir := filepath.Join(filepath.Dir(bin), "runner-src")
		if runnerErr = os.MkdirAll(dir, 0o755); runnerErr != nil {
			return
		}
		files := map[string]string{"go.mod": "module runner\n\ngo 1.26\n", "main.go": runnerSource}
		for name, text := range files {
			if runnerErr = os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); runnerErr != nil {
				return
			}
		}
		runnerPath = filepath.Join(filepath.Dir(bin), "runner")
		cmd := exec.Command("go", "build", "-o", runnerPath, ".")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			runnerErr = fmt.Errorf("build the runner: %v\n%s", err, out)
		}
	})
	if runnerErr != nil {
		tb.Fatal(runnerErr)
	}
	return runnerPath
}

func runProc(runner string, p proc, out *os.File, figuresFile string) (sample, error) {
	if p.prepare != nil {
		if err := p.prepare(); err != nil {
			return sample{}, err
		}
	}
	cmd := exec.Command(runner, append([]string{figuresFile}, p.argv...)...)
	cmd.Env = p.env
	cmd.Stdout = out
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return sample{}, fmt.Errorf("%s: %v\n%s", strings.Join(p.argv, " "), err, stderr.String())
	}
	var wall, cpu, rss int64
	data, err := os.ReadFile(figuresFile)
	if err == nil {
		_, err = fmt.Sscan(string(data), &wall, &cpu, &rss)
	}
	if err != nil {
		return sample{}, fmt.Errorf("%s: the runner wrote no figures: %v", strings.Join(p.argv, " "), err)
	}
	return sample{wall: time.Duration(wall), cpu: time.Duration(cpu), rssKB: rss}, nil
}

// figures are the medians of one command's samples.
type figures struct {
	wall, cpu time.Duration
	rssMB     float64
}

func median[T int64 | time.Duration](v []T) T {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// interleave runs the commands reps times, one after the other in each
// repetition, after one untimed round (the page cache, as for a user's
// second run), and returns each command's medians.
func interleave(tb testing.TB, reps int, procs ...proc) []figures {
	tb.Helper()
	runner := buildRunner(tb)
	figuresFile := filepath.Join(tb.TempDir(), "figures")
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		tb.Fatal(err)
	}
	defer devnull.Close()
	samples := make([][]sample, len(procs))
	for rep := -1; rep < reps; rep++ {
		for i, p := range procs {
			s, err := runProc(runner, p, devnull, figuresFile)
			if err != nil {
				tb.Fatal(err)
			}
			if rep >= 0 {
				samples[i] = append(samples[i], s)
			}
		}
	}
	out := make([]figures, len(procs))
	for i := range procs {
		var wall, cpu []time.Duration
		var rss []int64
		for _, s := range samples[i] {
			wall, cpu, rss = append(wall, s.wall), append(cpu, s.cpu), append(rss, s.rssKB)
		}
		out[i] = figures{median(wall), median(cpu), float64(median(rss)) / 1024}
	}
	return out
}

// comparison is one line of the table: ours beside the peer or floor.
type comparison struct {
	work, size, peer string
	// peerKey names the peer in metric units (no spaces).
	peerKey     string
	ours, other figures
	// A line of sizes, not times: its cells as written, and the ratio.
	oursText, otherText string
	sizeRatio           float64
}

func (c comparison) ratio() float64    { return c.ours.wall.Seconds() / c.other.wall.Seconds() }
func (c comparison) cpuRatio() float64 { return c.ours.cpu.Seconds() / c.other.cpu.Seconds() }

func (c comparison) report(b *testing.B, key string) {
	b.ReportMetric(c.ours.wall.Seconds()*1000, "ms-"+key)
	b.ReportMetric(c.other.wall.Seconds()*1000, "ms-"+key+"-"+c.peerKey)
	b.ReportMetric(c.ratio(), "x-"+key)
	b.ReportMetric(c.cpuRatio(), "x-cpu-"+key)
	b.ReportMetric(c.ours.rssMB, "MB-"+key)
	b.ReportMetric(c.other.rssMB, "MB-"+key+"-"+c.peerKey)
}

func markdown(rows []comparison) string {
	var b strings.Builder
	b.WriteString("| work | size | ours: wall, CPU, peak RSS | peer or floor: wall, CPU, peak RSS | ratio (wall) | ratio (CPU) |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		if r.oursText != "" {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | **%.2f** | |\n", r.work, r.size, r.oursText, r.otherText, r.sizeRatio)
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %.3f s, %.3f s, %.0f MiB | %s: %.3f s, %.3f s, %.0f MiB | **%.2f** | %.2f |\n",
			r.work, r.size, r.ours.wall.Seconds(), r.ours.cpu.Seconds(), r.ours.rssMB,
			r.peer, r.other.wall.Seconds(), r.other.cpu.Seconds(), r.other.rssMB, r.ratio(), r.cpuRatio())
	}
	return b.String()
}

// peers finds the tools to compare with: ClawVault 3.5.2 when
// $CLAWVAULT_JS names its bin/clawvault.js (make bench-compare installs it
// in a temp folder), rg and wc on the PATH.
type peers struct {
	clawvault []string
	rg, wc    string
}

func findPeers() peers {
	var p peers
	if js := os.Getenv("CLAWVAULT_JS"); js != "" {
		if node, err := exec.LookPath("node"); err == nil {
			p.clawvault = []string{node, js}
		}
	}
	p.rg, _ = exec.LookPath("rg")
	p.wc, _ = exec.LookPath("wc")
	return p
}

// benchEnv is a clean environment: no user config, the index in dir.
func benchEnv(dir string) []string {
	return []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"PATH=" + os.Getenv("PATH"), "CLAWVAULT_NO_LLM=1", "NO_COLOR=1"}
}

// compareStatus: status --json beside ClawVault's observe --active
// --dry-run on the same folders.
func compareStatus(b *testing.B, bin string, pp peers, m *demo.Manifest, size string, reps int) (comparison, bool) {
	if pp.clawvault == nil {
		b.Logf("status %s: no ClawVault to compare with ($CLAWVAULT_JS unset)", size)
		return comparison{}, false
	}
	dir := b.TempDir()
	env := benchEnv(dir)
	ours := proc{name: "status", argv: []string{bin, "status", "--json", "--state-dir", m.StateDir, "-v", m.VaultDir}, env: env}
	peer := proc{name: "clawvault", argv: append(slices.Clone(pp.clawvault), "observe", "--active", "--dry-run", "-v", m.VaultDir),
		env: append(env, "OPENCLAW_STATE_DIR="+m.StateDir)}
	f := interleave(b, reps, ours, peer)
	return comparison{work: "`status --json` / `observe --active --dry-run`", size: size, peer: "ClawVault", peerKey: "clawvault", ours: f[0], other: f[1]}, true
}

// compareTree: tree FILE beside wc -l FILE.
func compareTree(b *testing.B, bin string, pp peers, file, size string, reps int) comparison {
	env := benchEnv(b.TempDir())
	f := interleave(b, reps,
		proc{name: "tree", argv: []string{bin, "tree", file}, env: env},
		proc{name: "wc", argv: []string{pp.wc, "-l", file}, env: env})
	return comparison{work: "`tree FILE` / `wc -l FILE`", size: size, peer: "wc -l", peerKey: "wc", ours: f[0], other: f[1]}
}

// searchRoots are the folders search reads (the vault and the agents'
// workspaces): what rg is given.
func searchRoots(m *demo.Manifest) []string {
	roots := []string{m.VaultDir}
	for _, ws := range []string{m.Workspace, m.WorkWorkspace, filepath.Join(m.StateDir, "workspace-ops")} {
		if _, err := os.Stat(ws); err == nil {
			roots = append(roots, ws)
		}
	}
	return roots
}

// compareSearch: a warm search beside rg -n -i over the same folders, and
// a full build (search --reindex) beside ClawVault's reindex of a copy of
// the vault.
func compareSearch(b *testing.B, bin string, pp peers, m *demo.Manifest, size string, reps int) []comparison {
	var rows []comparison
	dir := b.TempDir()
	env := benchEnv(dir)
	search := []string{bin, "search", "--state-dir", m.StateDir, "-v", m.VaultDir}
	build := exec.Command(search[0], append(search[1:], "--reindex", "postgresql")...)
	build.Env = env
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("search --reindex: %v\n%s", err, out)
	}
	if pp.rg != "" {
		f := interleave(b, reps,
			proc{name: "search", argv: append(slices.Clone(search), "postgresql"), env: env},
			proc{name: "rg", argv: append([]string{pp.rg, "-n", "-i", "postgresql"}, searchRoots(m)...), env: env})
		rows = append(rows, comparison{work: "warm `search postgresql` / `rg -n -i`", size: size, peer: "rg", peerKey: "rg", ours: f[0], other: f[1]})
	} else {
		b.Logf("search %s: no rg on the PATH to compare with", size)
	}
	if pp.clawvault != nil {
		vcopy := filepath.Join(dir, "vault-copy")
		fresh := func() error {
			if err := os.RemoveAll(vcopy); err != nil {
				return err
			}
			return exec.Command("cp", "-a", m.VaultDir, vcopy).Run()
		}
		f := interleave(b, max(1, reps/2),
			proc{name: "reindex", argv: append(slices.Clone(search), "--reindex", "postgresql"), env: env},
			proc{name: "clawvault reindex", argv: append(slices.Clone(pp.clawvault), "reindex", "-v", vcopy), env: env, prepare: fresh})
		rows = append(rows, comparison{work: "full build: `search --reindex` / `clawvault reindex`", size: size, peer: "ClawVault", peerKey: "clawvault", ours: f[0], other: f[1]})
	}
	// The index beside what it reads: its size on disk, and the median
	// full build above in MB of Markdown a second.
	markdown, onDisk, files := vaultBytes(m)
	index := diskUsage(filepath.Join(dir, "cache"))
	var full *comparison
	if n := len(rows); n > 0 && rows[n-1].peer == "ClawVault" {
		full = &rows[n-1]
	}
	rows = append(rows, comparison{work: "index size / the searched folders' on disk", size: size,
		oursText:  fmt.Sprintf("%.1f MB", float64(index)/1e6),
		otherText: fmt.Sprintf("vault and workspaces: %.1f MB on disk (%.1f MB of Markdown)", float64(onDisk)/1e6, float64(markdown)/1e6),
		sizeRatio: float64(index) / float64(onDisk)})
	if full != nil {
		fb := *full
		rows = append(rows, comparison{work: "index build speed (MB of Markdown a second)", size: size,
			oursText:  fmt.Sprintf("%.1f MB/s (wall), %.1f MB/s (CPU)", float64(markdown)/1e6/fb.ours.wall.Seconds(), float64(markdown)/1e6/fb.ours.cpu.Seconds()),
			otherText: fmt.Sprintf("ClawVault: %.1f MB/s (wall)", float64(markdown)/1e6/fb.other.wall.Seconds()),
			sizeRatio: fb.other.wall.Seconds() / fb.ours.wall.Seconds()})
		// The unit the fleet-scale goal was set in: the bytes of every file
		// in the searched folders (ledgers and raw JSON too), as ls counts.
		rows = append(rows, comparison{work: "index build speed (MB of the searched folders' files a second)", size: size,
			oursText:  fmt.Sprintf("%.1f MB/s (wall), %.1f MB/s (CPU)", float64(files)/1e6/fb.ours.wall.Seconds(), float64(files)/1e6/fb.ours.cpu.Seconds()),
			otherText: fmt.Sprintf("%.1f MB of files; ClawVault: %.1f MB/s (wall)", float64(files)/1e6, float64(files)/1e6/fb.other.wall.Seconds()),
			sizeRatio: fb.other.wall.Seconds() / fb.ours.wall.Seconds()})
	}
	return rows
}

// diskUsage is what the files under dir take on disk (blocks, as du).
func diskUsage(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				n += st.Blocks * 512
			}
		}
		return nil
	})
	return n
}

// vaultBytes is the Markdown the search reads, what its folders take on
// disk, and the bytes of every file in them.
func vaultBytes(m *demo.Manifest) (markdown, onDisk, files int64) {
	for _, root := range searchRoots(m) {
		onDisk += diskUsage(root)
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				files += fi.Size()
				if strings.HasSuffix(path, ".md") {
					markdown += fi.Size()
				}
			}
			return nil
		})
	}
	return markdown, onDisk, files
}

// BenchmarkWholeProcess: status, tree and search as whole processes at
// $BENCH_SCALE, beside their peer or floor (see the top of this file).
func BenchmarkWholeProcess(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	bin := builtBinary(b)
	pp := findPeers()
	const reps = 5
	for b.Loop() {
		if c, ok := compareStatus(b, bin, pp, m, "", reps); ok {
			c.report(b, "status")
		}
		compareTree(b, bin, pp, m.Heartbeat.File, "", reps).report(b, "tree")
		reportSearch(b, compareSearch(b, bin, pp, m, "", reps))
	}
}

// reportSearch reports compareSearch's lines as metrics.
func reportSearch(b *testing.B, rows []comparison) {
	for _, c := range rows {
		switch {
		case strings.HasPrefix(c.work, "index size"):
			b.ReportMetric(c.sizeRatio, "x-index-size")
		case c.oursText != "":
			// the build speed: the build line has its figures
		case c.peer == "ClawVault":
			c.report(b, "build")
		default:
			c.report(b, "search")
		}
	}
}

// BenchmarkCompare prints the scaling table of `make bench-compare`:
// status at 1,000, 10,000 and 50,000 sessions; tree on transcripts of 30
// MB, 300 MB and 1 GB; search on the vaults of scales 10 and 100. It
// skips unless $BENCH_COMPARE is set (it generates about 3 GB of demo
// data into the temp folder, once).
func BenchmarkCompare(b *testing.B) {
	if os.Getenv("BENCH_COMPARE") == "" {
		b.Skip("set BENCH_COMPARE=1 (make bench-compare)")
	}
	bin := builtBinary(b)
	pp := findPeers()
	reps := 5
	workspace := func(name string, opt demo.Options) *demo.Manifest { return benchWorkspace(b, name, opt) }
	s10, s100, s50k := statusWorkspaces(b)
	gb := workspace("heartbeat-1GiB-seed-1", demo.Options{Seed: 1, Now: demotest.BenchClock, HeartbeatBytes: 1 << 30})
	for b.Loop() {
		rows := compareStatuses(b, bin, pp, reps, s10, s100, s50k)
		for _, t := range []struct {
			file, size string
		}{{s10.Heartbeat.File, "30 MB"}, {s100.Heartbeat.File, "300 MB"}, {gb.Heartbeat.File, "1 GB"}} {
			rows = append(rows, compareTree(b, bin, pp, t.file, t.size+" ("+lineCount(b, t.file)+" lines)", reps))
		}
		rows = append(rows, compareSearch(b, bin, pp, s10, "scale 10 ("+vaultSize(s10)+")", reps)...)
		rows = append(rows, compareSearch(b, bin, pp, s100, "scale 100 ("+vaultSize(s100)+")", reps)...)
		fmt.Fprintf(os.Stdout, "\n%s\n", markdown(rows))
	}
}

// benchWorkspace is the benchmark workspace name, generated once.
func benchWorkspace(b *testing.B, name string, opt demo.Options) *demo.Manifest {
	m, err := demotest.BenchWorkspaceOf(name, opt)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// statusWorkspaces are the workspaces of 1,000, 10,000 and 50,000
// sessions.
func statusWorkspaces(b *testing.B) (s10, s100, s50k *demo.Manifest) {
	clock := demotest.BenchClock
	return benchWorkspace(b, "scale-10-seed-1", demo.ScaleOptions(10, 1, clock)),
		benchWorkspace(b, "scale-100-seed-1", demo.ScaleOptions(100, 1, clock)),
		benchWorkspace(b, "scale-100-sessions-50000-seed-1", demo.ScaleOptions(100, 1, clock).WithSessions(50000))
}

// compareStatuses: status beside ClawVault on the three status workspaces.
func compareStatuses(b *testing.B, bin string, pp peers, reps int, s10, s100, s50k *demo.Manifest) []comparison {
	var rows []comparison
	for _, s := range []struct {
		m    *demo.Manifest
		size string
	}{{s10, "1,000 sessions"}, {s100, "10,000 sessions"}, {s50k, "50,000 sessions"}} {
		if c, ok := compareStatus(b, bin, pp, s.m, s.size, reps); ok {
			rows = append(rows, c)
		}
	}
	return rows
}

// BenchmarkCompareStatus prints the status lines of BenchmarkCompare
// alone (1,000, 10,000 and 50,000 sessions beside ClawVault's dry run,
// $CLAWVAULT_JS). It skips unless $BENCH_COMPARE is set.
func BenchmarkCompareStatus(b *testing.B) {
	if os.Getenv("BENCH_COMPARE") == "" {
		b.Skip("set BENCH_COMPARE=1")
	}
	bin := builtBinary(b)
	pp := findPeers()
	s10, s100, s50k := statusWorkspaces(b)
	for b.Loop() {
		fmt.Fprintf(os.Stdout, "\n%s\n", markdown(compareStatuses(b, bin, pp, 5, s10, s100, s50k)))
	}
}

// BenchmarkCompareSearch prints the search lines of BenchmarkCompare
// alone (the vaults of scales 10 and 100): the warm search beside rg, the
// full build beside ClawVault's reindex ($CLAWVAULT_JS), the index's size
// and build speed. It skips unless $BENCH_COMPARE is set.
func BenchmarkCompareSearch(b *testing.B) {
	if os.Getenv("BENCH_COMPARE") == "" {
		b.Skip("set BENCH_COMPARE=1")
	}
	bin := builtBinary(b)
	pp := findPeers()
	var vaults []*demo.Manifest
	for _, scale := range []int{10, 100} {
		vaults = append(vaults, benchWorkspace(b, fmt.Sprintf("scale-%d-seed-1", scale), demo.ScaleOptions(scale, 1, demotest.BenchClock)))
	}
	for b.Loop() {
		var rows []comparison
		for i, m := range vaults {
			rows = append(rows, compareSearch(b, bin, pp, m, fmt.Sprintf("scale %d (%s)", []int{10, 100}[i], vaultSize(m)), 5)...)
		}
		fmt.Fprintf(os.Stdout, "\n%s\n", markdown(rows))
	}
}

// lineCount counts a file's lines, for the table.
func lineCount(tb testing.TB, path string) string {
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	n := 0
	for {
		m, err := f.Read(buf)
		n += strings.Count(string(buf[:m]), "\n")
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
	}
	return fmt.Sprintf("%.0fk", float64(n)/1000)
}

// vaultSize is the Markdown the search reads, in MB.
func vaultSize(m *demo.Manifest) string {
	markdown, _, _ := vaultBytes(m)
	return fmt.Sprintf("%.1f MB of Markdown", float64(markdown)/1e6)
}
