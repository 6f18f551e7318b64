package cli

import (
	"bytes"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"clawvault-tui/store/demo/demotest"
)

// The serve budgets of docs/ARCHITECTURE.md, on loopback, the TUI over an
// in-process server (BENCH_SCALE=100: 10,000 sessions): from connecting
// to the first frame, a key press's round trip (written by the client →
// the redrawn screen back at it), and the memory of eight sessions beside
// one's.

// tuiClient is a TUI session as a client sees it: what the server sent so
// far, and a signal each time more came.
type tuiClient struct {
	conn  *gossh.Client
	stdin io.WriteCloser
	mu    sync.Mutex
	out   bytes.Buffer
	more  chan struct{}
}

func (c *tuiClient) Write(p []byte) (int, error) {
	c.mu.Lock()
	c.out.Write(p)
	c.mu.Unlock()
	select {
	case c.more <- struct{}{}:
	default:
	}
	return len(p), nil
}

// received is how many bytes came so far, and whether they hold text
// once the escape sequences are taken out.
func (c *tuiClient) received(text string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.out.Len(), text == "" || strings.Contains(ansi.Strip(c.out.String()), text)
}

// waitFor waits until the output holds text.
func (c *tuiClient) waitFor(b *testing.B, text string) {
	deadline := time.After(5 * time.Minute)
	for {
		if _, ok := c.received(text); ok {
			return
		}
		select {
		case <-c.more:
		case <-deadline:
			b.Fatalf("the TUI never showed %q", text)
		}
	}
}

// openTUI connects and asks for the TUI in a 160×50 terminal; it returns
// when the connection is made and the shell asked for.
func (sw *servedWorkspace) openTUI(b *testing.B) *tuiClient {
	conn, err := gossh.Dial("tcp", sw.addr, &gossh.ClientConfig{User: "bench", Auth: []gossh.AuthMethod{gossh.PublicKeys(sw.signers["operate"])},
		HostKeyCallback: gossh.FixedHostKey(sw.hostKey), Timeout: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	sess, err := conn.NewSession()
	if err != nil {
		b.Fatal(err)
	}
	c := &tuiClient{conn: conn, more: make(chan struct{}, 1)}
	sess.Stdout = c
	if c.stdin, err = sess.StdinPipe(); err != nil {
		b.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 50, 160, gossh.TerminalModes{}); err != nil {
		b.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		b.Fatal(err)
	}
	return c
}

func (c *tuiClient) close() {
	c.stdin.Write([]byte("q"))
	c.conn.Close()
}

func BenchmarkServe(b *testing.B) {
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	sw := startServed(b, m.StateDir, m.VaultDir)

	b.Run("first-frame", func(b *testing.B) {
		var times []time.Duration
		for range b.N {
			start := time.Now()
			c := sw.openTUI(b)
			c.waitFor(b, "Sessions")
			times = append(times, time.Since(start))
			c.waitFor(b, " candidates · ") // the scan is in: the next session starts on a quiet server
			c.close()
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-first-frame")
		b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "ms-first-frame-max")
	})

	b.Run("key-round-trip", func(b *testing.B) {
		c := sw.openTUI(b)
		defer c.close()
		c.waitFor(b, " candidates · ")
		time.Sleep(time.Second) // let the first frames and the watcher settle
		var times []time.Duration
		keys := []string{"j", "j", "k", "2", "1", "j", "k"}
		for i := range max(b.N, 100) {
			before, _ := c.received("")
			start := time.Now()
			c.stdin.Write([]byte(keys[i%len(keys)]))
			for n, _ := c.received(""); n == before; n, _ = c.received("") {
				<-c.more
			}
			times = append(times, time.Since(start))
			time.Sleep(20 * time.Millisecond) // the rest of the frame
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-key-p50")
		b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "ms-key-p95")
	})

	b.Run("memory-8-sessions", func(b *testing.B) {
		heap := func() uint64 {
			runtime.GC()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return ms.HeapInuse
		}
		// The sessions of the benchmarks before have ended: what they held
		// is free again (a session that kept its App would show here).
		for sw.srv.Sessions() > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		base := heap()
		open := func(n int) []*tuiClient {
			var cs []*tuiClient
			for range n {
				c := sw.openTUI(b)
				c.waitFor(b, " candidates · ")
				cs = append(cs, c)
			}
			return cs
		}
		one := open(1)
		heapOne := heap()
		eight := append(one, open(7)...)
		heapEight := heap()
		for _, c := range eight {
			c.close()
		}
		for sw.srv.Sessions() > 0 {
			time.Sleep(10 * time.Millisecond)
		}
		b.ReportMetric(float64(heap())/(1<<20), "MB-heap-after")
		b.ReportMetric(float64(heapOne)/(1<<20), "MB-heap-1")
		b.ReportMetric(float64(heapEight)/(1<<20), "MB-heap-8")
		b.ReportMetric(float64(base)/(1<<20), "MB-heap-idle")
		b.ReportMetric(float64(heapEight)/float64(heapOne), "x-8-over-1")
	})
}
