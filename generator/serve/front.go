package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

// front is what a browser talks to: evdoc's own listener on the address
// serve was given, which answers only requests whose Host header names
// this server and passes them on to Hugo's server, itself listening on a
// loopback port of its own. Hugo's server answers any Host, so a page on
// another site whose name resolves to 127.0.0.1 (DNS rebinding) could
// read the drafts served; the front refuses it (421 Misdirected Request).
type front struct {
	ln   net.Listener
	port int
	// hosts are the host names (lower case, no port, IPv6 without
	// brackets) a request may name.
	hosts map[string]bool
	// hugo is the loopback port Hugo's server listens on; 0 while none runs.
	hugo atomic.Int64
	srv  *http.Server
	// shown are the pages browsers were given, for the live reload
	// (relayLiveReload); heldReloads counts Hugo's force refreshes held
	// back because no page served changed.
	shown       shownPages
	heldReloads atomic.Int64
	// assets counts the syncs that wrote or removed files other than
	// pages and data (assetsChanged).
	assets atomic.Int64
	// onShown, when set (before serve), is called with the URL path of
	// each HTML page the front served (recordShown), from its handlers.
	onShown func(path string)
}

// listenFront listens on bind:port (127.0.0.1 when bind is empty; port
// 0: 1313, or a free port when 1313 is taken) for the front, which allows
// requests naming localhost, 127.0.0.1, ::1, the bind address and
// baseURL's host. A port in use is a *PortError.
func listenFront(bind string, port int, baseURL string) (*front, error) {
	host := bind
	if host == "" {
		host = "127.0.0.1"
	}
	p := port
	if p == 0 {
		p = 1313
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(p)))
	if err != nil && port == 0 {
		ln, err = net.Listen("tcp", net.JoinHostPort(host, "0"))
	}
	if err != nil {
		var se *os.SyscallError
		if errors.As(err, &se) {
			err = se.Err
		}
		return nil, &PortError{Bind: bind, Port: p, Err: err}
	}
	f := &front{ln: ln, port: ln.Addr().(*net.TCPAddr).Port, hosts: map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true}}
	if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
		f.hosts[strings.ToLower(strings.Trim(host, "[]"))] = true
	}
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		f.hosts[strings.ToLower(u.Hostname())] = true
	}
	return f, nil
}

// baseURL is the URL Hugo's server builds its links and live reload
// script with: given, or http://localhost:PORT/ on the front's port.
func (f *front) baseURL(given string) string {
	if given != "" {
		return given
	}
	return fmt.Sprintf("http://localhost:%d/", f.port)
}

// allowed reports whether a request's Host header names this server.
func (f *front) allowed(hostHeader string) bool {
	h := hostHeader
	if hh, _, err := net.SplitHostPort(hostHeader); err == nil {
		h = hh
	}
	return f.hosts[strings.ToLower(strings.Trim(h, "[]"))]
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !f.allowed(r.Host) {
		names := make([]string, 0, len(f.hosts))
		for h := range f.hosts {
			names = append(names, h)
		}
		http.Error(w, fmt.Sprintf("evdoc serve: Host %q is not this server: a page of another site whose name resolves to this address (DNS rebinding) is refused; expected one of %s, or the host of --base-url", r.Host, strings.Join(sortedStrings(names), ", ")), http.StatusMisdirectedRequest)
		return
	}
	port := f.hugo.Load()
	if port == 0 {
		http.Error(w, "evdoc serve: Hugo's server is not running; see the terminal for what it reported", http.StatusServiceUnavailable)
		return
	}
	target := &url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.FormatInt(port, 10))}
	if isLiveReload(r) {
		f.relayLiveReload(w, r, target.Host)
		return
	}
	rp := &httputil.ReverseProxy{
		ModifyResponse: f.recordShown,
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(target)
			pr.Out.Host = pr.In.Host // Hugo's live reload compares the Origin with it
		},
		ErrorLog: log.New(io.Discard, "", 0),
	}
	rp.ServeHTTP(w, r)
}

// serve answers on the front's listener until ctx is done.
func (f *front) serve(ctx context.Context) {
	f.srv = &http.Server{Handler: f, ReadHeaderTimeout: 30 * time.Second}
	go func() {
		defer crash.Guard()
		_ = f.srv.Serve(f.ln)
	}()
	go func() {
		defer crash.Guard()
		<-ctx.Done()
		_ = f.srv.Close()
	}()
}

// close stops the front.
func (f *front) close() {
	if f.srv != nil {
		_ = f.srv.Close()
		return
	}
	_ = f.ln.Close()
}

// freeLoopbackPort returns a port free on 127.0.0.1 now, for Hugo's
// server behind the front.
func freeLoopbackPort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func sortedStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}
