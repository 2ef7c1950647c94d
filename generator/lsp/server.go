// Package lsp is `evdoc lsp`: a Language Server Protocol server over
// stdio for the pages and evidence of an evdoc project. It judges each
// open page's unsaved buffer with the checker `evdoc serve` uses
// (checker.Checker with the buffer as an overlay, re-judging the page and
// its translation pairs only) and publishes the same findings `evdoc
// check` prints, at the same positions, converted to LSP's UTF-16
// columns. It completes evidence references inside ev:, explains a claim
// on hover (value at the precision written, raw line, derivation,
// verdict), goes from a claim to its raw line and from a raw line or
// manifest entry to the claims citing it, and offers evdoc fix's
// rewrite, the missing translation's claim and an exemption as code
// actions.
//
// The protocol types and their dispatch are github.com/tliron/glsp's
// protocol_3_16 package; JSON-RPC 2.0 over the stream is
// github.com/sourcegraph/jsonrpc2, which handles one message at a time
// in arrival order, so edits and requests see each other in order and
// the Checker (not safe for concurrent use) is only used from one
// goroutine. A panic in a handler is recovered: a request is answered
// with an error, a notification becomes an lsp-check diagnostic on the
// page, and the project is loaded again at the next message.
package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/checker"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/serve"
	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Options configures a Server.
type Options struct {
	// Root is the project directory; "" takes the client's root (the
	// rootUri of initialize), else the working directory.
	Root string
	// Load and Check are what evdoc check is given (--max-file-size,
	// --approx, the theme component); pages are always loaded lazily.
	Load  project.LoadOptions
	Check check.Options
	// Log receives what the server reports besides the protocol (the
	// stack of a recovered panic); nil discards it.
	Log io.Writer
	// Version is the evdoc version the server names in initialize.
	Version string
}

// Server is one language server session. Build one with New and run it
// with Serve.
type Server struct {
	opt  Options
	root string // absolute project directory

	site    *project.Site
	checker *checker.Checker
	// loadErr is why the project cannot be loaded (project.LoadWith's
	// error); every open document shows it.
	loadErr error
	// stale is set after a recovered panic: the project is loaded again
	// before the next message is handled.
	stale bool
	// generation counts loads and evidence re-reads: a document's cached
	// parse and verdicts hold for one generation.
	generation int

	docs map[string]*document // open documents by URI
	// judged holds the findings of the last judgement, by repository
	// path, with the rule severities applied (Checker.Diagnostics).
	judged map[string]diag.List
	// failures are lsp-check findings by repository path: why a buffer
	// could not be judged; panicked those of a recovered panic, kept
	// until the page is edited, opened or closed again.
	failures map[string]diag.Diagnostic
	panicked map[string]diag.Diagnostic
	// sent is what was last published for each URI.
	sent map[string]string

	notify func(method string, params any)
	conn   *jsonrpc2.Conn
	// watch: the client registers file watchers on request
	// (workspace/didChangeWatchedFiles with dynamic registration).
	watch    bool
	shutdown bool
	exited   bool
	// handle, when set, wraps the dispatch of a message (tests).
	handle func(c *glsp.Context, next func(*glsp.Context) (any, bool, bool, error)) (any, bool, bool, error)
}

// document is an open text document.
type document struct {
	uri     string
	path    string // repository path, slash-separated; "" outside the project
	version int32
	text    *text
	// parsed and results are the buffer's parse and its claims'
	// verdicts, for the generation gen and this version (parse).
	parsed  *claim.Page
	results []check.Result
	gen     int
	pver    int32
}

// New returns a server with the options o.
func New(o Options) *Server {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Check.Approx.IsZero() {
		o.Check = check.DefaultOptions()
	}
	o.Load.Lazy = true
	return &Server{opt: o, docs: map[string]*document{}, judged: map[string]diag.List{}, failures: map[string]diag.Diagnostic{}, panicked: map[string]diag.Diagnostic{}, sent: map[string]string{}, notify: func(string, any) {}}
}

// ErrNoShutdown is Serve's error when the client sent exit without
// shutdown first (the LSP's exit status 1).
var ErrNoShutdown = errors.New("exit without shutdown")

// Serve runs the protocol on rwc (the editor's stdin and stdout) until
// the client sends exit, the stream ends or ctx is done.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	h := s.handler()
	// s.conn is set by dispatch, on the connection's one reading
	// goroutine, which runs every handler.
	conn := jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(rwc, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			return s.dispatch(ctx, c, req, h)
		}), jsonrpc2.SetLogger(logger{s.opt.Log}))
	select {
	case <-conn.DisconnectNotify():
	case <-ctx.Done():
		conn.Close()
		return ctx.Err()
	}
	if s.exited && !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

// logger writes jsonrpc2's messages to the log.
type logger struct{ w io.Writer }

func (l logger) Printf(format string, v ...any) { fmt.Fprintf(l.w, "evdoc lsp: "+format, v...) }

// dispatch handles one message: through glsp's typed dispatch, with a
// recovered panic turned into an error response (a request) or an
// lsp-check diagnostic (a notification).
func (s *Server) dispatch(ctx context.Context, c *jsonrpc2.Conn, req *jsonrpc2.Request, h *protocol.Handler) (result any, err error) {
	s.conn = c
	s.notify = func(method string, params any) {
		if err := c.Notify(ctx, method, params); err != nil {
			fmt.Fprintf(s.opt.Log, "evdoc lsp: %s: %v\n", method, err)
		}
	}
	gc := &glsp.Context{Method: req.Method, Notify: s.notify}
	if req.Params != nil {
		gc.Params = *req.Params
	}
	defer func() {
		if v := recover(); v != nil {
			fmt.Fprintf(s.opt.Log, "evdoc lsp: internal error in %s: %v\n%s", req.Method, v, debug.Stack())
			s.recovered(req.Method, gc.Params, v)
			result = nil
			err = &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: fmt.Sprintf("evdoc lsp: internal error in %s: %v", req.Method, v)}
		}
	}()
	if req.Method == protocol.MethodExit {
		s.exited = true
		return nil, c.Close()
	}
	if s.stale && s.site != nil {
		s.reload()
	}
	var r any
	var validMethod, validParams bool
	if s.handle != nil {
		r, validMethod, validParams, err = s.handle(gc, h.Handle)
	} else {
		r, validMethod, validParams, err = h.Handle(gc)
	}
	switch {
	case !validMethod:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "evdoc lsp does not support " + req.Method}
	case !validParams:
		msg := "invalid parameters of " + req.Method
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: msg}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

// recovered records a panic in the handler of method: the documents the
// message names (or all) show it as an lsp-check finding, and the
// project is loaded again before the next message.
func (s *Server) recovered(method string, params []byte, v any) {
	s.stale = true
	msg := fmt.Sprintf("evdoc lsp stopped judging this page: internal error in %s: %v; the findings shown may be out of date until the next edit; expected no internal error (a bug of evdoc)", method, v)
	for _, d := range s.docs {
		if d.path == "" || !strings.Contains(string(params), d.uri) && !strings.HasPrefix(method, "workspace/") {
			continue
		}
		s.panicked[d.path] = diag.Errorf(diag.Position{File: d.path, Line: 1, Column: 1}, diag.LSPCheck, "%s", msg).Spanning(diag.Position{File: d.path, Line: 1, Column: 1})
	}
	func() {
		defer func() { _ = recover() }() // publishing must not panic again
		s.publish()
	}()
}

// handler returns the typed dispatch of the methods evdoc lsp answers.
func (s *Server) handler() *protocol.Handler {
	return &protocol.Handler{
		Initialize:  s.initialize,
		Initialized: s.initialized,
		Shutdown: func(*glsp.Context) error {
			s.shutdown = true
			return nil
		},
		SetTrace:                       func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		CancelRequest:                  func(*glsp.Context, *protocol.CancelParams) error { return nil },
		TextDocumentDidOpen:            s.didOpen,
		TextDocumentDidChange:          s.didChange,
		TextDocumentDidSave:            s.didSave,
		TextDocumentDidClose:           s.didClose,
		WorkspaceDidChangeWatchedFiles: s.didChangeWatchedFiles,
		TextDocumentCompletion:         s.completion,
		TextDocumentHover:              s.hover,
		TextDocumentDefinition:         s.definition,
		TextDocumentReferences:         s.references,
		TextDocumentCodeAction:         s.codeAction,
	}
}

func (s *Server) initialize(_ *glsp.Context, p *protocol.InitializeParams) (any, error) {
	root := s.opt.Root
	if root == "" && p.RootURI != nil {
		root = uriPath(*p.RootURI)
	}
	if root == "" && p.RootPath != nil {
		root = *p.RootPath
	}
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	s.root = abs
	if w := p.Capabilities.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.watch = *w.DidChangeWatchedFiles.DynamicRegistration
	}
	s.reload()
	sync := protocol.TextDocumentSyncKindIncremental
	yes := true
	version := s.opt.Version
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync:   protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &sync, Save: protocol.SaveOptions{}},
			CompletionProvider: &protocol.CompletionOptions{TriggerCharacters: []string{":", "/", ","}},
			HoverProvider:      true,
			DefinitionProvider: true,
			ReferencesProvider: true,
			CodeActionProvider: protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix}},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "evdoc", Version: &version},
	}, nil
}

// watched are the files whose change on disk, by the editor or another
// program, the server takes in (saved).
var watched = []string{"**/evidence/**", "**/figures/*.toml", "**/content/**/*.md", "**/i18n/**", "**/layouts/**", "**/hugo.toml", "**/evdoc.toml", "**/glossary.toml"}

// initialized asks the client to watch the project's files, when it
// can: the request is sent from another goroutine, as its answer comes
// through the message loop this handler runs on.
func (s *Server) initialized(*glsp.Context, *protocol.InitializedParams) error {
	if !s.watch || s.conn == nil {
		return nil
	}
	var ws []protocol.FileSystemWatcher
	for _, g := range watched {
		ws = append(ws, protocol.FileSystemWatcher{GlobPattern: g})
	}
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{ID: "evdoc-watch", Method: string(protocol.MethodWorkspaceDidChangeWatchedFiles),
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: ws}}}}
	conn := s.conn
	go func() {
		defer crash.Guard()
		if err := conn.Call(context.Background(), string(protocol.ServerClientRegisterCapability), params, nil); err != nil {
			fmt.Fprintf(s.opt.Log, "evdoc lsp: registering file watchers: %v\n", err)
		}
	}()
	return nil
}

// reload loads the project and judges it whole, with every open page's
// buffer as its overlay.
func (s *Server) reload() {
	s.stale = false
	s.generation++
	s.site, s.checker = nil, nil
	s.failures = map[string]diag.Diagnostic{}
	st, err := project.LoadWith(s.root, s.opt.Load)
	s.loadErr = err
	if err != nil {
		s.judged = map[string]diag.List{}
		s.publish()
		return
	}
	s.site = st
	s.checker = checker.NewCheckerWith(st, checker.CheckerOptions{Check: s.opt.Check, CountsOnly: true, CitesIndex: true})
	var pages []string
	for _, d := range s.docs {
		if s.isPage(d.path) {
			s.checker.SetOverlay(d.path, d.text.src)
			pages = append(pages, d.path)
		}
	}
	sort.Strings(pages)
	s.recheck(pages...)
}

// isPage reports whether the repository path file is a content page.
func (s *Server) isPage(file string) bool {
	if file == "" || s.site == nil {
		return false
	}
	k, _ := serve.Classify(s.site.Config, file)
	return k == serve.KindPage
}

// recheck judges the pages at paths again (their buffers when open) and
// publishes the findings of every open document.
func (s *Server) recheck(paths ...string) {
	if s.checker != nil && len(paths) > 0 {
		if err := s.checker.Recheck(paths...); err != nil {
			for _, p := range paths {
				s.failures[p] = diag.Errorf(diag.Position{File: p, Line: 1, Column: 1}, diag.LSPCheck, "cannot judge this page: %v; expected a readable Markdown page", err).Spanning(diag.Position{File: p, Line: 1, Column: 1})
			}
		} else {
			for _, p := range paths {
				delete(s.failures, p)
			}
		}
	}
	s.judge()
	s.publish()
}

// judge takes the checker's findings, by file.
func (s *Server) judge() {
	s.judged = map[string]diag.List{}
	if s.checker == nil {
		return
	}
	for _, d := range s.checker.Diagnostics() {
		s.judged[d.Pos.File] = append(s.judged[d.Pos.File], d)
	}
}

// publish sends the findings of every open document that changed since
// they were last sent.
func (s *Server) publish() {
	files := newFiles(s)
	for _, d := range s.docs {
		var ds diag.List
		switch {
		case s.loadErr != nil:
			ds = diag.List{diag.Errorf(diag.Position{File: d.path, Line: 1, Column: 1}, diag.LSPCheck, "cannot load the project at %s: %v; expected an evdoc project (hugo.toml, content/, evidence/)", s.root, s.loadErr).Spanning(diag.Position{File: d.path, Line: 1, Column: 1})}
		case d.path != "":
			ds = s.judged[d.path]
			if f, ok := s.failures[d.path]; ok {
				ds = append(diag.List{f}, ds...)
			}
			if f, ok := s.panicked[d.path]; ok {
				ds = append(diag.List{f}, ds...)
			}
		}
		out := make([]protocol.Diagnostic, 0, len(ds))
		for _, x := range ds {
			out = append(out, files.diagnostic(d.text, x))
		}
		b, _ := json.Marshal(out)
		key := string(b)
		if s.sent[d.uri] == key {
			continue
		}
		s.sent[d.uri] = key
		v := uint32(max(d.version, 0))
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Version: &v, Diagnostics: out})
	}
}

// relPath returns the repository path (slash-separated) of the document
// at uri, or "" when it lies outside the project.
func (s *Server) relPath(uri string) string {
	p := uriPath(uri)
	if p == "" || s.root == "" {
		return ""
	}
	rel, err := filepath.Rel(s.root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// uri returns the file URI of the repository path file.
func (s *Server) uri(file string) string {
	return fileURI(filepath.Join(s.root, filepath.FromSlash(file)))
}

// uriPath returns the local path a file URI names, "" for another URI.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// fileURI returns the file URI of the absolute path p.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(p)}).String()
}

func (s *Server) didOpen(_ *glsp.Context, p *protocol.DidOpenTextDocumentParams) error {
	d := &document{uri: p.TextDocument.URI, path: s.relPath(p.TextDocument.URI), version: p.TextDocument.Version, text: newText([]byte(p.TextDocument.Text))}
	s.docs[d.uri] = d
	delete(s.sent, d.uri)
	delete(s.panicked, d.path)
	if s.isPage(d.path) {
		s.checker.SetOverlay(d.path, d.text.src)
		s.recheck(d.path)
		return nil
	}
	s.publish()
	return nil
}

func (s *Server) didChange(_ *glsp.Context, p *protocol.DidChangeTextDocumentParams) error {
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return fmt.Errorf("didChange of %s, which is not open; expected didOpen first", p.TextDocument.URI)
	}
	src := d.text.src
	for _, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case protocol.TextDocumentContentChangeEvent:
			t := newText(src)
			a, b := t.offset(c.Range.Start), t.offset(c.Range.End)
			if b < a {
				a, b = b, a
			}
			src = append(append(append(make([]byte, 0, len(src)-(b-a)+len(c.Text)), src[:a]...), c.Text...), src[b:]...)
		case protocol.TextDocumentContentChangeEventWhole:
			src = []byte(c.Text)
		}
	}
	d.text = newText(src)
	d.version = p.TextDocument.Version
	delete(s.panicked, d.path)
	if s.isPage(d.path) {
		s.checker.SetOverlay(d.path, src)
		s.recheck(d.path)
	}
	return nil
}

func (s *Server) didSave(_ *glsp.Context, p *protocol.DidSaveTextDocumentParams) error {
	s.saved(s.relPath(p.TextDocument.URI))
	return nil
}

func (s *Server) didChangeWatchedFiles(_ *glsp.Context, p *protocol.DidChangeWatchedFilesParams) error {
	for _, c := range p.Changes {
		s.saved(s.relPath(c.URI))
	}
	return nil
}

// saved takes in a file written to disk: an evidence file re-reads the
// evidence and judges again the pages citing what changed; a figure
// spec, layout, i18n or configuration file loads the project again; a
// page not open is judged again from disk.
func (s *Server) saved(file string) {
	if file == "" {
		return
	}
	if s.site == nil {
		s.reload()
		return
	}
	switch k, _ := serve.Classify(s.site.Config, file); k {
	case serve.KindPage:
		open := false
		for _, d := range s.docs {
			open = open || d.path == file
		}
		if !open {
			s.recheck(file)
		}
	case serve.KindEvidence:
		s.generation++
		s.checker.RecheckEvidence()
		s.recheck()
	case serve.KindFigure, serve.KindSite, serve.KindConfig:
		s.reload()
	}
}

func (s *Server) didClose(_ *glsp.Context, p *protocol.DidCloseTextDocumentParams) error {
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil
	}
	delete(s.docs, d.uri)
	delete(s.sent, d.uri)
	delete(s.panicked, d.path)
	s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{URI: d.uri, Diagnostics: []protocol.Diagnostic{}})
	if s.isPage(d.path) {
		s.checker.SetOverlay(d.path, nil)
		delete(s.failures, d.path)
		s.recheck(d.path)
	}
	return nil
}

// files reads the text of project files for converting positions: an
// open document's buffer, else the file on disk, each read once.
type files struct {
	s    *Server
	text map[string]*text
}

func newFiles(s *Server) *files { return &files{s: s, text: map[string]*text{}} }

// of returns the text of the repository path file (empty when it cannot
// be read).
func (f *files) of(file string) *text {
	if t, ok := f.text[file]; ok {
		return t
	}
	for _, d := range f.s.docs {
		if d.path == file {
			f.text[file] = d.text
			return d.text
		}
	}
	src, err := os.ReadFile(filepath.Join(f.s.root, filepath.FromSlash(file)))
	if err != nil {
		src = nil
	}
	t := newText(src)
	f.text[file] = t
	return t
}

// location returns the LSP location of [pos, end) in its file.
func (f *files) location(pos, end diag.Position) protocol.Location {
	return protocol.Location{URI: f.s.uri(pos.File), Range: f.of(pos.File).span(pos, end)}
}

// diagnostic converts an evdoc finding in the document text t.
func (f *files) diagnostic(t *text, d diag.Diagnostic) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityInformation
	switch d.Severity {
	case diag.Error:
		sev = protocol.DiagnosticSeverityError
	case diag.Warning:
		sev = protocol.DiagnosticSeverityWarning
	}
	source := "evdoc"
	out := protocol.Diagnostic{Range: t.span(d.Pos, d.End), Severity: &sev, Code: &protocol.IntegerOrString{Value: string(d.Rule)}, Source: &source, Message: d.Message}
	for _, r := range d.Related {
		if r.Pos.File == "" {
			continue
		}
		out.RelatedInformation = append(out.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: f.location(r.Pos, r.Pos), Message: r.Message})
	}
	return out
}
