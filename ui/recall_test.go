package ui

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"clawvault-tui/store/embedding/embedtest"
	"clawvault-tui/store/memsearch"
)

// recallApp is the app on the demo, on the Search screen, with the
// embedding requests of its SQLite agent (built with OpenClaw's default
// provider, api.openai.com) answered by a local endpoint; key says
// whether OPENAI_API_KEY is set.
func recallApp(t *testing.T, width, height int, key bool, fail string) *App {
	t.Helper()
	srv := httptest.NewTLSServer(&embedtest.Server{Embedder: embedtest.Embedder{Dims: 64}, Fail: fail})
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	client := &http.Client{Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // a test server posing as api.openai.com
		DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}}}
	getenv := func(k string) string {
		if k == "OPENAI_API_KEY" && key {
			return "sk-ui-test-1234"
		}
		return ""
	}
	a := newApp(t, width, height, Options{MemoryHTTP: client, Getenv: getenv})
	press(t, a, "4")
	return a
}

func TestRecallToggleKeepsTheWords(t *testing.T) {
	a := recallApp(t, 100, 30, true, "")
	typeText(t, a, "backups")
	press(t, a, "ctrl+r")
	if !a.search.recalling || !a.search.typing || a.search.recall.input.Value() != "backups" {
		t.Fatalf("recalling %v typing %v input %q", a.search.recalling, a.search.typing, a.search.recall.input.Value())
	}
	if a.search.recall.rep != nil {
		t.Error("nothing runs before enter: each query costs an embedding")
	}
	press(t, a, "ctrl+r")
	if a.search.recalling || a.search.input.Value() != "backups" {
		t.Errorf("back to the keyword search: recalling %v, input %q", a.search.recalling, a.search.input.Value())
	}
}

func TestRecallShowsResultsExplanationsAndRelated(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 35}} {
		a := recallApp(t, size[0], size[1], true, "")
		r := recallQuery(t, a, "restore test on thursday")
		if r.rep == nil || r.rep.Status != memsearch.StatusOK || len(r.rep.Results) == 0 || len(r.rep.Explain) == 0 {
			t.Fatalf("report %+v err %v", r.rep, r.err)
		}
		press(t, a, "r")
		if len(r.related) == 0 || r.relatedErr != nil {
			t.Fatalf("related %v %v", r.related, r.relatedErr)
		}
		view := a.View().Content
		for _, want := range []string{"as agent ops recalls", "Related memories", "returned at rank 1"} {
			if !strings.Contains(view, want) {
				t.Errorf("%dx%d: the view lacks %q", size[0], size[1], want)
			}
		}
		golden(t, "recall-"+itoa(size[0])+"x"+itoa(size[1]), a)
		press(t, a, "f")
		if !r.files || !strings.Contains(a.View().Content, "memory/") {
			t.Errorf("f lists every file")
		}
		golden(t, "recall-files-"+itoa(size[0])+"x"+itoa(size[1]), a)
	}
}

func TestRecallEnterEditsAtTheLine(t *testing.T) {
	a := recallApp(t, 100, 30, true, "")
	r := recallQuery(t, a, "certificate renewal")
	if r.rep == nil || len(r.rep.Results) == 0 {
		t.Fatalf("no results: %v", r.err)
	}
	first := r.rep.Results[0]
	press(t, a, "enter")
	if a.editor == nil || !strings.HasSuffix(a.editor.path, first.Path) {
		t.Fatalf("editor %+v, want %s open", a.editor, first.Path)
	}
}

func TestRecallUnavailableIsLabelled(t *testing.T) {
	a := recallApp(t, 80, 24, false, "")
	r := recallQuery(t, a, "VPN gateway")
	if r.rep == nil || r.rep.Status != memsearch.StatusUnavailable || len(r.rep.Fallback) == 0 {
		t.Fatalf("report %+v err %v", r.rep, r.err)
	}
	view := a.View().Content
	if !strings.Contains(view, "NOT what the agent gets") || strings.Contains(view, "sk-ui-test") {
		t.Errorf("the keyword-only ranking must be labelled, and no key shown:\n%s", view)
	}
	golden(t, "recall-unavailable-80x24", a)
}

func TestRecallCancelsTheEmbedding(t *testing.T) {
	a := recallApp(t, 100, 30, true, "hang")
	press(t, a, "ctrl+r")
	typeText(t, a, "backups")
	r := a.search.recall
	a.search.typing = false
	cmd := r.run()
	if !r.running || !strings.Contains(a.View().Content, "esc cancels") {
		t.Fatal("a running recall says esc cancels it")
	}
	a.Update(keyMsg("esc"))
	drive(t, a, cmd)
	if r.running || r.err == nil || r.err.Error() != "cancelled" {
		t.Errorf("after esc: running %v, err %v", r.running, r.err)
	}
}

func TestRecallIgnoresSupersededAnswers(t *testing.T) {
	a := recallApp(t, 100, 30, true, "")
	r := a.search.recall
	r.runJob = 7
	r.Handle(recallDoneMsg{job: 6, rep: &memsearch.Report{Status: "ok"}})
	if r.rep != nil {
		t.Error("an older job's report replaced nothing newer, but must be dropped")
	}
	_, _ = a.Update(tea.WindowSizeMsg{Width: 60, Height: 20})
}

// recallQuery switches a to the recall mode and runs query.
func recallQuery(t *testing.T, a *App, query string) *recallPane {
	t.Helper()
	press(t, a, "ctrl+r")
	typeText(t, a, query)
	press(t, a, "enter")
	return a.search.recall
}
