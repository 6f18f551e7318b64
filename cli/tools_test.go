package cli

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"testing"
)

// missingTool is how a test that needs a program the machine lacks
// begins its skip message: make test's summary lists the skipped tests
// with their messages, and this prefix is what to look for.
const missingTool = "missing tool: "

// needProgram skips the test when program is not on PATH (see needTool).
func needProgram(t testing.TB, program, why string) {
	t.Helper()
	_, err := exec.LookPath(program)
	needTool(t, program, why, err == nil)
}

// needFile skips the test when the file a package installs is absent (see
// needTool).
func needFile(t testing.TB, tool, file, why string) {
	t.Helper()
	_, err := os.Stat(file)
	needTool(t, tool, why, err == nil)
}

// needTool skips a test whose tool is missing, loudly: the message starts
// with missingTool and says what installs it. Under CI (CI set, as .ci/run
// sets it) a missing tool fails the test instead: CI must run everything.
func needTool(t testing.TB, tool, why string, present bool) {
	t.Helper()
	if present {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s%s is not installed, and CI is set: %s (.ci/run installs it)", missingTool, tool, why)
	}
	t.Skipf("%s%s is not installed: %s (.ci/run installs it)", missingTool, tool, why)
}

func TestNeedToolFailsUnderCI(t *testing.T) {
	for _, ci := range []string{"", "1"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			rec := &recorder{TB: t}
			done := make(chan struct{})
			go func() {
				defer close(done)
				needTool(rec, "frobnicate", "the frobnication test", false)
			}()
			<-done
			switch {
			case ci == "" && (!rec.skipped || rec.failed):
				t.Errorf("without CI: skipped %v, failed %v; want a skip", rec.skipped, rec.failed)
			case ci != "" && (!rec.failed || rec.skipped):
				t.Errorf("under CI: skipped %v, failed %v; want a failure", rec.skipped, rec.failed)
			}
			if want := missingTool + "frobnicate is not installed"; len(rec.msg) < len(want) || rec.msg[:len(want)] != want {
				t.Errorf("message %q does not start with %q", rec.msg, want)
			}
		})
	}
}

// recorder records a Skipf or Fatalf and ends its goroutine as they do.
type recorder struct {
	testing.TB
	skipped, failed bool
	msg             string
}

func (r *recorder) Helper() {}

func (r *recorder) Skipf(format string, args ...any) {
	r.skipped, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, fmt.Sprintf(format, args...)
	runtime.Goexit()
}
