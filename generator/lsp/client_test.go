package lsp

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// client is a scripted LSP client driving a Server through the protocol
// over an in-memory connection, as an editor does over stdio.
type client struct {
	t    testing.TB
	conn *jsonrpc2.Conn
	root string
	done chan error

	mu sync.Mutex
	// diags holds the last diagnostics published for each URI, and
	// counts how many publications each URI had.
	diags  map[string][]pubDiag
	counts map[string]int
	// registered holds the params of each client/registerCapability.
	registered []string
}

// pubDiag is a published diagnostic as the client reads it (glsp's
// IntegerOrString does not decode: its UnmarshalJSON has a value
// receiver).
type pubDiag struct {
	Range    protocol.Range `json:"range"`
	Severity int            `json:"severity"`
	Code     string         `json:"code"`
	Source   string         `json:"source"`
	Message  string         `json:"message"`
}

// requestsAsync answers the server's requests on goroutines of their
// own, as an editor does, so that the client goes on reading while it
// writes an answer (net.Pipe does not buffer), and handles notifications
// in order on the reading goroutine, so that the diagnostics published
// before an answer are recorded when the answer arrives.
type requestsAsync struct{ h jsonrpc2.Handler }

func (r requestsAsync) Handle(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) {
	if req.Notif {
		r.h.Handle(ctx, c, req)
		return
	}
	go r.h.Handle(ctx, c, req)
}

// start runs a server on root, after setup, and initializes it.
func start(t testing.TB, root string, o Options, setup ...func(*Server)) (*client, *Server) {
	t.Helper()
	srv := New(o)
	for _, f := range setup {
		f(srv) // before Serve: the server's goroutines read what it sets
	}
	a, b := net.Pipe()
	c := &client{t: t, root: root, done: make(chan error, 1), diags: map[string][]pubDiag{}, counts: map[string]int{}}
	go func() { c.done <- srv.Serve(context.Background(), a) }()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(b, jsonrpc2.VSCodeObjectCodec{}),
		requestsAsync{jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == "client/registerCapability" && req.Params != nil {
				c.mu.Lock()
				c.registered = append(c.registered, string(*req.Params))
				c.mu.Unlock()
			}
			if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
				var p struct {
					URI         string    `json:"uri"`
					Diagnostics []pubDiag `json:"diagnostics"`
				}
				if err := json.Unmarshal(*req.Params, &p); err != nil {
					t.Errorf("publishDiagnostics: %v", err)
				}
				c.mu.Lock()
				c.diags[p.URI] = p.Diagnostics
				c.counts[p.URI]++
				c.mu.Unlock()
			}
			return nil, nil
		})})
	t.Cleanup(func() { c.conn.Close() })
	rootURI := fileURI(root)
	var res protocol.InitializeResult
	caps := map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}
	c.call("initialize", map[string]any{"processId": nil, "rootUri": rootURI, "capabilities": caps}, &res)
	if res.ServerInfo == nil || res.ServerInfo.Name != "evdoc" {
		t.Fatalf("initialize: server info %+v, want evdoc", res.ServerInfo)
	}
	c.notify("initialized", map[string]any{})
	return c, srv
}

// call sends a request and decodes its result into result (nil: ignored).
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	if err := c.callErr(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) callErr(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var raw json.RawMessage
	if err := c.conn.Call(ctx, method, params, &raw); err != nil {
		return err
	}
	if result != nil && len(raw) > 0 && string(raw) != "null" {
		return json.Unmarshal(raw, result)
	}
	return nil
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// sync returns once the server has handled every message sent before:
// it handles them in order, and publishes before it answers a request.
func (c *client) sync() {
	c.t.Helper()
	// the answer is an error (the document is not open): only its
	// arrival matters
	_ = c.callErr("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///nonexistent-sync.md"}, "position": map[string]any{"line": 0, "character": 0}}, nil)
}

// uri returns the URI of the project file rel.
func (c *client) uri(rel string) string {
	return fileURI(filepath.Join(c.root, filepath.FromSlash(rel)))
}

// open opens the project file rel with its content on disk (or text).
func (c *client) open(rel string, text ...string) string {
	c.t.Helper()
	src := ""
	if len(text) > 0 {
		src = text[0]
	} else {
		b, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
		if err != nil {
			c.t.Fatal(err)
		}
		src = string(b)
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": c.uri(rel), "languageId": "markdown", "version": 1, "text": src}})
	c.sync()
	return c.uri(rel)
}

// diagnostics returns the last diagnostics published for uri.
func (c *client) diagnostics(uri string) []pubDiag {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diags[uri]
}

// pos is an LSP position.
func pos(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }

// at is the params of a request at a position of uri.
func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": pos(line, char)}
}

// change sends an incremental change replacing [from, to) by text.
func (c *client) change(uri string, version int, from, to map[string]any, text string) {
	c.t.Helper()
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": map[string]any{"start": from, "end": to}, "text": text}}})
	c.sync()
}

// stop sends shutdown and exit and waits for Serve to return.
func (c *client) stop() error {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	_ = c.conn.Notify(context.Background(), "exit", nil)
	select {
	case err := <-c.done:
		return err
	case <-time.After(30 * time.Second):
		c.t.Fatal("Serve did not return after exit")
	}
	return nil
}
