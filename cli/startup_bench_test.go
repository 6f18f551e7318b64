package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// BenchmarkStartup starts the binary as a user does, as a whole process,
// beside a hello-world Go program built in the same run: the floor every Go
// binary pays (exec, the runtime's start, exit). Each iteration runs the
// three commands one after the other, so that a change in the machine's
// load shifts them alike. It reports the median of each, in ms (ms-hello,
// ms-version, ms-status: status on a workspace with one agent and no
// session) and each median over the floor's (x-version, x-status).
func BenchmarkStartup(b *testing.B) {
	dir := b.TempDir()
	bin := builtBinary(b)
	hello := buildHelloWorld(b, filepath.Join(dir, "hello"))
	state := filepath.Join(dir, "state")
	if err := os.MkdirAll(filepath.Join(state, "agents", "main", "sessions"), 0o755); err != nil {
		b.Fatal(err)
	}
	// No vault, config or state of the user's.
	env := []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "PATH=" + os.Getenv("PATH")}

	commands := []struct {
		name string
		argv []string
	}{
		{"hello", []string{hello}},
		{"version", []string{bin, "--version"}},
		{"status", []string{bin, "status", "--state-dir", state}},
	}
	run := func(argv []string) time.Duration {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = env
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%q: %v\n%s", argv, err, out)
		}
		return time.Since(start)
	}
	for range 3 { // the page cache, as for a user's second run
		for _, c := range commands {
			run(c.argv)
		}
	}
	times := make([][]time.Duration, len(commands))
	for b.Loop() { // the set-up above runs once
		for i, c := range commands {
			times[i] = append(times[i], run(c.argv))
		}
	}
	b.StopTimer()
	ms := make([]float64, len(commands))
	for i, c := range commands {
		slices.Sort(times[i])
		ms[i] = times[i][len(times[i])/2].Seconds() * 1000
		b.ReportMetric(ms[i], "ms-"+c.name)
	}
	for i, c := range commands[1:] {
		b.ReportMetric(ms[i+1]/ms[0], "x-"+c.name)
	}
}

// buildHelloWorld builds the smallest Go program that prints, in its own
// module, with the toolchain that runs the benchmark.
func buildHelloWorld(b *testing.B, dir string) string {
	b.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	files := map[string]string{
		"go.mod":  "module hello\n\ngo 1.26\n",
		"main.go": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello, world\") }\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	bin := filepath.Join(dir, "hello")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build hello world: %v\n%s", err, out)
	}
	return bin
}
