package memsearch

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"clawvault-tui/store"
	"clawvault-tui/store/demo/demotest"
	"clawvault-tui/store/embedding/embedtest"
)

// The budgets of docs/ARCHITECTURE.md: a replayed query over the demo at
// scale 100 (the ops agent's index, 10,000+ chunks) answers in p95 ≤ 50 ms
// without the embedding round trip (the queries are embedded once, before
// the timing: the session caches them); related memories ≤ 30 ms.

var benchQueries = []string{
	"restore test on thursday", "certificate renewal", "billing migration backup snapshot", "SOC2 evidence folder",
	"what did we decide about PostgreSQL", "Telegram bot token rotation", "Acme pricing proposal discount",
	"warehouse migration owner", "release notes friday", "credit notes for corrections", "Marco quote",
	"VPN gateway", "northwind_billing dump", "Elena migration dry-run report", "onboarding redesign",
	"MEMORY.md", "backups", "audit log export", "rate limit telegram digest", "currency invoice",
}

// benchOps is the scale-BENCH_SCALE demo's SQLite agent, and a session
// whose embedding requests reach a local endpoint serving api.openai.com
// (the demo's index was built with OpenClaw's default provider).
func benchOps(b *testing.B) (store.Agent, string, *Session) {
	b.Helper()
	m, err := demotest.BenchWorkspace(demotest.BenchScale())
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewTLSServer(&embedtest.Server{Embedder: embedtest.Embedder{Dims: 64}})
	b.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	client := &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, //nolint:gosec // a test server posing as api.openai.com
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}}}
	agent := store.Agent{ID: m.SQLiteAgent, Dir: filepath.Join(m.StateDir, "agents", m.SQLiteAgent),
		Workspace: filepath.Join(m.StateDir, "workspace-"+m.SQLiteAgent), SQLitePath: m.SQLitePath}
	return agent, filepath.Join(m.StateDir, "openclaw.json"), &Session{HTTP: client}
}

func benchRequest(agent store.Agent, config, query string) Request {
	return Request{Agent: agent, ConfigPath: config, Query: query, Now: demotest.BenchClock,
		Getenv: func(k string) string {
			if k == "OPENAI_API_KEY" {
				return "sk-bench"
			}
			return ""
		}}
}

func BenchmarkReplay(b *testing.B) {
	agent, config, s := benchOps(b)
	ctx := context.Background()
	for _, q := range benchQueries { // embeds each query and loads the vectors once
		rep, err := s.Replay(ctx, benchRequest(agent, config, q))
		if err != nil {
			b.Fatal(err)
		}
		if rep.Status != StatusOK {
			b.Fatalf("%q: %s (%s)", q, rep.Status, rep.Reason)
		}
		if q == benchQueries[0] {
			b.ReportMetric(float64(rep.Chunks), "chunks")
		}
	}
	var took []time.Duration
	cpu := demotest.CPUTime()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t := time.Now()
		if _, err := s.Replay(ctx, benchRequest(agent, config, benchQueries[i%len(benchQueries)])); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t))
	}
	reportPercentiles(b, took, demotest.CPUTime()-cpu)
}

func BenchmarkRelated(b *testing.B) {
	agent, _, s := benchOps(b)
	ctx := context.Background()
	targets := []RelatedRequest{{Agent: agent, Path: "MEMORY.md"}, {Agent: agent, Path: "memory/2026-11-20.md"}}
	for _, r := range targets {
		if _, err := s.Related(ctx, r); err != nil {
			b.Fatal(err)
		}
	}
	var took []time.Duration
	cpu := demotest.CPUTime()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		t := time.Now()
		if _, err := s.Related(ctx, targets[i%len(targets)]); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(t))
	}
	reportPercentiles(b, took, demotest.CPUTime()-cpu)
}

// reportPercentiles reports the wall-clock p50 and p95 and the process's
// CPU time per operation (a figure a busy machine inflates less).
func reportPercentiles(b *testing.B, took []time.Duration, cpu time.Duration) {
	if len(took) == 0 {
		return
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(took)), "cpu-ms/op")
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[min(len(took)-1, int(p*float64(len(took))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(.5), "p50-ms")
	b.ReportMetric(at(.95), "p95-ms")
}
