package serve

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

// Hugo's server tells the browsers to reload after every rebuild that
// changed any output: after a content file's change it reloads every
// open page ("force refresh", the path /x.js), whatever page changed.
// After an edit, serve stages the edit first and the rest of the project
// (the evidence viewer's pages, with the citations of the edited page or
// the values of the edited file) after Hugo rebuilt from it, so each edit
// was two rebuilds and two reloads of a page that changed only at the
// first. The front relays Hugo's live reload socket and holds back a
// force refresh from a browser whose page has not changed: the browser's
// live reload script says which page it shows (its "info" message, the
// page's URL); the front keeps a digest of the bytes it last served at
// that path (an HTML answer to a GET; the last shownMax paths) as what
// that browser shows, and at a force refresh asks Hugo for the page
// again: the refresh goes on when the bytes differ (the browser then
// shows the new ones), when they cannot be read, when the browser has
// not said its page, and when serve wrote files other than pages and
// data since the browser last loaded (a stylesheet changes what a page
// shows, not its bytes). Every other message (a stylesheet or image
// refreshed in place, a page to navigate to) goes on as it is.
const shownMax = 32

// forceRefreshPath is the path of Hugo's force refresh message
// (livereload.ForceRefresh in Hugo v0.165.0).
const forceRefreshPath = "/x.js"

// shownPages are the pages the front's browsers were given.
type shownPages struct {
	mu    sync.Mutex
	sum   map[string][sha256.Size]byte
	order []string // oldest first
}

// note records that the page at path was served with body b.
func (s *shownPages) note(path string, b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sum == nil {
		s.sum = map[string][sha256.Size]byte{}
	}
	if _, ok := s.sum[path]; ok {
		for i, p := range s.order {
			if p == path {
				s.order = append(s.order[:i], s.order[i+1:]...)
				break
			}
		}
	}
	s.sum[path] = sha256.Sum256(b)
	s.order = append(s.order, path)
	if len(s.order) > shownMax {
		delete(s.sum, s.order[0])
		s.order = s.order[1:]
	}
}

// digest returns the digest of the bytes the front last served at path.
func (s *shownPages) digest(path string) ([sha256.Size]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, ok := s.sum[path]
	return h, ok
}

// hugoPage returns the digest of the page at path as Hugo's server
// answers now.
func hugoPage(hugoAddr, host, path string) ([sha256.Size]byte, error) {
	req, err := http.NewRequest("GET", "http://"+hugoAddr+path, nil)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	req.Host = host
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		return [sha256.Size]byte{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = errors.New(resp.Status)
	}
	return sha256.Sum256(b), err
}

// reloadConn is what the front knows of one browser's live reload
// socket: the path of its page and the digest of the bytes it shows,
// and the front's assets count (front.assets) when it was told to load.
type reloadConn struct {
	mu     sync.Mutex
	path   string
	sum    [sha256.Size]byte
	known  bool
	assets int64
}

// assetsChanged notes that serve wrote (or removed) a file other than a
// page or data for Hugo: a stylesheet, a script or an image that a page
// shows without its bytes changing. The next force refresh goes on to
// every browser.
func (f *front) assetsChanged() {
	if f != nil {
		f.assets.Add(1)
	}
}

// info notes the page a browser's "info" message names (its URL).
func (c *reloadConn) info(f *front, msg []byte) {
	var m struct {
		Command string `json:"command"`
		URL     string `json:"url"`
	}
	if json.Unmarshal(msg, &m) != nil || m.Command != "info" {
		return
	}
	u, err := url.Parse(m.URL)
	if err != nil {
		return
	}
	p := u.Path
	if p == "" {
		p = "/"
	}
	sum, ok := f.shown.digest(p)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.path, c.sum, c.known, c.assets = p, sum, ok, f.assets.Load()
}

// stale reports whether the browser's page differs at Hugo's server now
// (true when its page or its bytes are not known, or cannot be read, and
// when serve wrote other files than pages and data since the browser was
// last told to load), and takes the new bytes as what it will show.
func (c *reloadConn) stale(f *front, hugoAddr, host string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if a := f.assets.Load(); a != c.assets {
		c.assets, c.known = a, false
	}
	if c.path == "" || !c.known {
		if sum, err := hugoPage(hugoAddr, host, c.path); c.path != "" && err == nil {
			c.sum, c.known = sum, true
		}
		return true
	}
	sum, err := hugoPage(hugoAddr, host, c.path)
	if err != nil {
		return true
	}
	if sum == c.sum {
		return false
	}
	c.sum = sum
	return true
}

// isLiveReload reports whether r opens Hugo's live reload socket.
func isLiveReload(r *http.Request) bool {
	return strings.HasSuffix(r.URL.Path, "/livereload") && strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
}

// recordShown keeps the digest of an HTML page answered to a GET. An
// HTML page Hugo answers with no bytes at all is asked for again (every
// emptyRetryWait, for up to emptyRetries times), and the first answer
// with bytes is relayed instead: Hugo's server (--renderToMemory) writes
// a page it renders again into a file it first empties, and a request
// that reads it in between gets a blank page (serveedit met it twice in
// about 40 saves at 500 pages, 2026-12-07), which a browser reloading
// then would show.
func (f *front) recordShown(resp *http.Response) error {
	req := resp.Request
	if req == nil || req.Method != http.MethodGet || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("Content-Encoding") != "" {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	resp.Body.Close()
	if err != nil {
		return err
	}
	for i := 0; len(b) == 0 && i < emptyRetries; i++ {
		time.Sleep(emptyRetryWait)
		again, h, err := getAgain(req)
		if err != nil {
			break
		}
		if len(again) > 0 {
			b = again
			for k, v := range h {
				resp.Header[k] = v
			}
		}
	}
	resp.ContentLength = int64(len(b))
	resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
	f.shown.note(req.URL.Path, b)
	if f.onShown != nil {
		f.onShown(req.URL.Path)
	}
	resp.Body = io.NopCloser(bytes.NewReader(b))
	return nil
}

// emptyRetries and emptyRetryWait bound how long recordShown asks Hugo
// again for an HTML page it answered with no bytes: one second in all,
// well over a page's write.
const (
	emptyRetries   = 40
	emptyRetryWait = 25 * time.Millisecond
)

// getAgain asks Hugo for the HTML page of the proxied request req (its
// URL is Hugo's, as the proxy rewrote it) again, and returns the page's
// bytes and headers when Hugo answers 200 with an HTML page.
func getAgain(req *http.Request) ([]byte, http.Header, error) {
	r, err := http.NewRequestWithContext(req.Context(), http.MethodGet, req.URL.String(), nil)
	if err != nil {
		return nil, nil, err
	}
	r.Host = req.Host
	for _, k := range []string{"Accept", "Accept-Language", "User-Agent"} {
		if v := req.Header.Get(k); v != "" {
			r.Header.Set(k, v)
		}
	}
	r.Header.Set("Accept-Encoding", "identity")
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(r)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || resp.Header.Get("Content-Encoding") != "" {
		return nil, nil, fmt.Errorf("%s: %s", req.URL, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return b, resp.Header, err
}

// relayLiveReload opens Hugo's live reload socket for the browser's
// request r and relays the two directions, holding back Hugo's force
// refreshes that change no page served.
func (f *front) relayLiveReload(w http.ResponseWriter, r *http.Request, hugoAddr string) {
	hc, err := net.DialTimeout("tcp", hugoAddr, 10*time.Second)
	if err != nil {
		http.Error(w, "evdoc serve: Hugo's live reload is not reachable", http.StatusBadGateway)
		return
	}
	out := r.Clone(r.Context())
	out.RequestURI = ""
	if err := out.Write(hc); err != nil {
		hc.Close()
		http.Error(w, "evdoc serve: Hugo's live reload is not reachable", http.StatusBadGateway)
		return
	}
	hr := bufio.NewReader(hc)
	resp, err := http.ReadResponse(hr, r)
	if err != nil {
		hc.Close()
		http.Error(w, "evdoc serve: Hugo's live reload did not answer", http.StatusBadGateway)
		return
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		defer hc.Close()
		defer resp.Body.Close()
		for k, v := range resp.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(resp.StatusCode)
		_, _ = io.Copy(w, resp.Body)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		hc.Close()
		http.Error(w, "evdoc serve: cannot relay the live reload", http.StatusInternalServerError)
		return
	}
	bc, brw, err := hj.Hijack()
	if err != nil {
		hc.Close()
		return
	}
	if err := resp.Write(bc); err != nil {
		bc.Close()
		hc.Close()
		return
	}
	conn := &reloadConn{}
	go func() {
		defer crash.Guard()
		defer hc.Close()
		// The browser's frames, as they are; its "info" names its page.
		for {
			frame, text, err := readFrame(brw.Reader)
			if err != nil {
				return
			}
			if text != nil {
				conn.info(f, text)
			}
			if _, err := hc.Write(frame); err != nil {
				return
			}
		}
	}()
	defer bc.Close()
	defer hc.Close()
	for {
		frame, text, err := readFrame(hr)
		if err != nil {
			return
		}
		if text != nil && isForceRefresh(text) && !conn.stale(f, hugoAddr, r.Host) {
			f.heldReloads.Add(1)
			continue
		}
		if _, err := bc.Write(frame); err != nil {
			return
		}
	}
}

// isForceRefresh reports whether a live reload message is Hugo's force
// refresh (a reload of whatever page is open).
func isForceRefresh(msg []byte) bool {
	return bytes.Contains(msg, []byte(`"command":"reload"`)) && bytes.Contains(msg, []byte(`"path":"`+forceRefreshPath+`"`))
}

// maxFrame bounds a frame of Hugo's live reload (its messages are a few
// hundred bytes).
const maxFrame = 1 << 20

// readFrame reads one WebSocket frame (RFC 6455 5.2): its bytes as read,
// and its payload (unmasked) when it is a whole text frame.
func readFrame(r *bufio.Reader) (frame, text []byte, err error) {
	var hdr [14]byte
	if _, err := io.ReadFull(r, hdr[:2]); err != nil {
		return nil, nil, err
	}
	n := 2
	length := uint64(hdr[1] & 0x7f)
	switch length {
	case 126:
		if _, err := io.ReadFull(r, hdr[2:4]); err != nil {
			return nil, nil, err
		}
		length, n = uint64(binary.BigEndian.Uint16(hdr[2:4])), 4
	case 127:
		if _, err := io.ReadFull(r, hdr[2:10]); err != nil {
			return nil, nil, err
		}
		length, n = binary.BigEndian.Uint64(hdr[2:10]), 10
	}
	masked := hdr[1]&0x80 != 0
	if masked {
		if _, err := io.ReadFull(r, hdr[n:n+4]); err != nil {
			return nil, nil, err
		}
		n += 4
	}
	if length > maxFrame {
		return nil, nil, errors.New("live reload frame too long")
	}
	frame = make([]byte, n+int(length))
	copy(frame, hdr[:n])
	if _, err := io.ReadFull(r, frame[n:]); err != nil {
		return nil, nil, err
	}
	if hdr[0] == 0x81 { // FIN, text
		text = frame[n:]
		if masked {
			key := hdr[n-4 : n]
			text = slices.Clone(text)
			for i := range text {
				text[i] ^= key[i%4]
			}
		}
	}
	return frame, text, nil
}
