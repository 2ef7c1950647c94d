package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
)

// TestPanicDoesNotStopTheServer: a panic in a request's handler is an
// error response, one in a notification's an lsp-check diagnostic on
// the page; the server goes on answering, with the project loaded again.
func TestPanicDoesNotStopTheServer(t *testing.T) {
	root := pairProject(t)
	var panicOn atomic.Value // the method whose handler panics, set by the test and read by the server
	panicOn.Store("")
	c, _ := start(t, root, Options{}, func(srv *Server) {
		srv.handle = func(gc *glsp.Context, next func(*glsp.Context) (any, bool, bool, error)) (any, bool, bool, error) {
			if gc.Method == panicOn.Load().(string) {
				panic("injected")
			}
			return next(gc)
		}
	})
	ko := c.open(koPage)

	panicOn.Store("textDocument/hover")
	err := c.callErr("textDocument/hover", at(ko, 5, 8), nil)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.CodeInternalError || !strings.Contains(je.Message, "internal error in textDocument/hover: injected") {
		t.Fatalf("hover that panics: %v, want an internal error response", err)
	}
	panicOn.Store("textDocument/didChange")
	c.change(ko, 2, pos(5, 6), pos(5, 7), "4")
	got := published(c.diagnostics(ko))
	if len(got) == 0 || !strings.Contains(got[0], "lsp-check evdoc lsp stopped judging this page: internal error in textDocument/didChange: injected") {
		t.Fatalf("didChange that panics: published %q, want an lsp-check diagnostic", got)
	}
	// The next edit is judged normally (the buffer is the one before the
	// failed change, which was not applied).
	panicOn.Store("")
	c.change(ko, 3, pos(5, 6), pos(5, 7), "4")
	got = published(c.diagnostics(ko))
	if len(got) == 0 || !strings.Contains(got[0], "claim-mismatch") || strings.Contains(strings.Join(got, "\n"), "lsp-check") {
		t.Fatalf("after the panic: published %q, want the claim-mismatch and no lsp-check", got)
	}
	if err := c.stop(); err != nil {
		t.Error(err)
	}
}

// TestBadInput: an unknown method is an error response, bad parameters
// too, and a hostile page (nested past evdoc's limit) is a diagnostic.
func TestBadInput(t *testing.T) {
	root := pairProject(t)
	c, _ := start(t, root, Options{})
	var je *jsonrpc2.Error
	if err := c.callErr("textDocument/formatting", map[string]any{}, nil); !errors.As(err, &je) || je.Code != jsonrpc2.CodeMethodNotFound {
		t.Errorf("unknown method: %v, want method not found", err)
	}
	if err := c.callErr("textDocument/hover", []int{1, 2}, nil); !errors.As(err, &je) || je.Code != jsonrpc2.CodeInvalidParams {
		t.Errorf("bad parameters: %v, want invalid params", err)
	}
	uri := c.open(koPage, "---\ntitle: x\n---\n\n"+strings.Repeat(">", 100000)+" 실패율은 [51.7%](ev:d3/d3.a.rate)\n")
	got := published(c.diagnostics(uri))
	if len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), "page-limit") {
		t.Errorf("a page nested 100000 deep: published %q, want a page-limit finding", got)
	}
	if err := c.stop(); err != nil {
		t.Error(err)
	}
}

// TestExitWithoutShutdown: exit before shutdown ends Serve with
// ErrNoShutdown (the LSP's exit status 1).
func TestExitWithoutShutdown(t *testing.T) {
	c, _ := start(t, pairProject(t), Options{})
	_ = c.conn.Notify(t.Context(), "exit", nil)
	if err := <-c.done; !errors.Is(err, ErrNoShutdown) {
		t.Errorf("Serve: %v, want ErrNoShutdown", err)
	}
}

// TestCodeActions: on a translation that writes the source's claim as
// prose, the prose number becomes the source's claim; an unbound number
// can be exempted.
func TestCodeActions(t *testing.T) {
	root := pairProject(t)
	c, _ := start(t, root, Options{})
	c.open(koPage)
	// line 6: "[2905回](ev:d3/d3.b.attempts)のうち失敗は6件。": 6 is at
	// UTF-16 column 34
	ja := c.open(jaPage, "---\ntitle: アウトライア\ntranslationKey: p\n---\n\n失敗率は[51.7%](ev:d3/d3.a.rate)で、計算値は[約52%](ev:d3/d3.a.pct)です。\n[2905回](ev:d3/d3.b.attempts)のうち失敗は6件。\n")
	got := strings.Join(published(c.diagnostics(ja)), "\n")
	if !strings.Contains(got, "translation-claims") || !strings.Contains(got, "6:34-6:35 claim-unbound") {
		t.Fatalf("published %s, want translation-claims and claim-unbound at 6:34", got)
	}
	var acts []struct {
		Title string `json:"title"`
		Edit  struct {
			Changes map[string][]struct {
				Range   struct{ Start, End struct{ Line, Character int } } `json:"range"`
				NewText string                                             `json:"newText"`
			} `json:"changes"`
		} `json:"edit"`
	}
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": ja}, "range": map[string]any{"start": pos(6, 34), "end": pos(6, 34)}, "context": map[string]any{"diagnostics": []any{}}}, &acts)
	var titles []string
	for _, a := range acts {
		titles = append(titles, a.Title)
	}
	if len(acts) != 2 {
		t.Fatalf("code actions %q, want the source's claim and the exemption", titles)
	}
	e := acts[0].Edit.Changes[ja]
	if len(e) != 1 || e[0].NewText != "[6](ev:d3/d3.b.failed)" || e[0].Range.Start.Line != 6 || e[0].Range.Start.Character != 34 || e[0].Range.End.Character != 35 {
		t.Errorf("first action %q: %+v, want [6](ev:d3/d3.b.failed) over 6:34-6:35", titles[0], e)
	}
	e = acts[1].Edit.Changes[ja]
	if len(e) != 1 || e[0].NewText != `[6](ev:exempt "not a measurement")` {
		t.Errorf("second action %q: %+v, want the exemption", titles[1], e)
	}
	if err := c.stop(); err != nil {
		t.Error(err)
	}
}

// TestWatchedEvidence: the server asks the client to watch the evidence,
// and an evidence file changed on disk (a watched-file event) judges the
// open pages again.
func TestWatchedEvidence(t *testing.T) {
	root := pairProject(t)
	c, _ := start(t, root, Options{})
	ko := c.open(koPage)
	// the request is sent and answered on goroutines of their own
	reg := ""
	for deadline := time.Now().Add(30 * time.Second); reg == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		c.mu.Lock()
		reg = strings.Join(c.registered, "\n")
		c.mu.Unlock()
	}
	if !strings.Contains(reg, `"method":"workspace/didChangeWatchedFiles"`) || !strings.Contains(reg, `**/evidence/**`) {
		t.Errorf("registrations %s, want file watchers of the evidence", reg)
	}
	if got := published(c.diagnostics(ko)); len(got) != 0 {
		t.Fatalf("clean page: %q", got)
	}
	rep := filepath.Join(root, "evidence", "d3", "report.md")
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rep, []byte(strings.Replace(string(b), "**51.7%**", "**61.7%**", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": c.uri("evidence/d3/report.md"), "type": 2}}})
	c.sync()
	got := published(c.diagnostics(ko))
	if len(got) == 0 || !strings.HasPrefix(got[0], "5:6-5:11 claim-mismatch ") || !strings.Contains(got[0], "expected 61.7") {
		t.Errorf("after the evidence changed: %q, want a claim-mismatch at 5:6 expecting 61.7", got)
	}
	if err := c.stop(); err != nil {
		t.Error(err)
	}
}

// TestMissingClaimTwoCandidates: when the section states the source
// claim's number twice in prose, which one is the claim is the author's
// choice: no edit is offered for either (binding the first would be a
// guess), only their exemptions.
func TestMissingClaimTwoCandidates(t *testing.T) {
	root := pairProject(t)
	c, _ := start(t, root, Options{})
	c.open(koPage)
	ja := c.open(jaPage, "---\ntitle: アウトライア\ntranslationKey: p\n---\n\n失敗率は[51.7%](ev:d3/d3.a.rate)で、計算値は[約52%](ev:d3/d3.a.pct)です。\n[2905回](ev:d3/d3.b.attempts)のうち失敗は6件、再試行は6回。\n")
	for _, col := range []int{34, 41} {
		var acts []struct {
			Title string `json:"title"`
		}
		c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": ja}, "range": map[string]any{"start": pos(6, col), "end": pos(6, col)}, "context": map[string]any{"diagnostics": []any{}}}, &acts)
		for _, a := range acts {
			if strings.Contains(a.Title, "ev:d3/d3.b.failed") {
				t.Errorf("column %d: offered %q, want no claim for one of two 6s", col, a.Title)
			}
		}
		if len(acts) != 1 || !strings.Contains(acts[0].Title, "not a measurement") {
			t.Errorf("column %d: actions %+v, want the exemption only", col, acts)
		}
	}
	if err := c.stop(); err != nil {
		t.Error(err)
	}
}

// TestPublishesChangesOnly: an edit that changes no finding publishes
// nothing new for the page.
func TestPublishesChangesOnly(t *testing.T) {
	c, _ := start(t, pairProject(t), Options{})
	ko := c.open(koPage)
	c.mu.Lock()
	n := c.counts[ko]
	c.mu.Unlock()
	c.change(ko, 2, pos(6, 0), pos(6, 0), "x")
	c.mu.Lock()
	m := c.counts[ko]
	c.mu.Unlock()
	if n != 1 || m != 1 {
		t.Errorf("publications: %d after open, %d after an edit that changes no finding; want 1 and 1", n, m)
	}
	if err := c.stop(); err != nil {
		t.Error(err)
	}
}
