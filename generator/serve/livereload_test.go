package serve

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeHugo is Hugo's server as the front sees it: a page, whose bytes
// the test sets, and a live reload socket that sends what the test says
// to every browser connected.
type fakeHugo struct {
	mu    sync.Mutex
	page  string
	conns []net.Conn
}

func (h *fakeHugo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/livereload" {
		c, brw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
		brw.Flush()
		h.mu.Lock()
		h.conns = append(h.conns, c)
		h.mu.Unlock()
		go func() { // the browser's frames, read and dropped
			for {
				if _, _, err := readFrame(brw.Reader); err != nil {
					return
				}
			}
		}()
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, h.page)
}

func (h *fakeHugo) set(page string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.page = page
}

func (h *fakeHugo) send(msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range h.conns {
		c.Write(append([]byte{0x81, byte(len(msg))}, msg...))
	}
}

// wsClient is a browser's live reload socket through the front.
type wsClient struct {
	mu   sync.Mutex
	msgs []string
}

func (c *wsClient) got() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.msgs...)
}

func dialLiveReload(t *testing.T, port int, info string) *wsClient {
	t.Helper()
	conn, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "GET /livereload HTTP/1.1\r\nHost: localhost:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ZXZkb2Mtc2VydmUtdGVzdA==\r\nSec-WebSocket-Version: 13\r\n\r\n", port)
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, nil)
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("live reload through the front: %v %v", resp, err)
	}
	if info != "" {
		key := []byte{9, 8, 7, 6}
		frame := append([]byte{0x81, 0x80 | byte(len(info))}, key...)
		for i := range len(info) {
			frame = append(frame, info[i]^key[i%4])
		}
		conn.Write(frame)
	}
	c := &wsClient{}
	go func() {
		for {
			_, text, err := readFrame(r)
			if err != nil {
				return
			}
			c.mu.Lock()
			c.msgs = append(c.msgs, string(text))
			c.mu.Unlock()
		}
	}()
	return c
}

// TestFrontLiveReload: Hugo's force refresh reaches a browser whose page
// changed since it was served, every such browser (two tabs of one page
// each get theirs), and a browser that did not say its page; it is held
// back from a browser whose page is as served, also after a refresh it
// was given (it shows the new bytes then). After serve wrote a file
// other than a page or data (a stylesheet changes what a page shows, not
// its bytes) it reaches every browser. Other messages pass as they are.
func TestFrontLiveReload(t *testing.T) {
	hugo := &fakeHugo{page: "<html>v1</html>"}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: hugo}
	go hs.Serve(ln)
	defer hs.Close()
	f, err := listenFront("127.0.0.1", 0, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f.hugo.Store(int64(ln.Addr().(*net.TCPAddr).Port))
	f.serve(ctx)
	page := fmt.Sprintf("http://127.0.0.1:%d/docs/p/", f.port)
	if b, err := get(page); err != nil || b != "<html>v1</html>" {
		t.Fatalf("page through the front: %q, %v", b, err)
	}
	info := fmt.Sprintf(`{"command":"info","plugins":{},"url":"http://localhost:%d/docs/p/#x"}`, f.port)
	tab1, tab2 := dialLiveReload(t, f.port, info), dialLiveReload(t, f.port, info)
	silent := dialLiveReload(t, f.port, "")
	other := dialLiveReload(t, f.port, fmt.Sprintf(`{"command":"info","url":"http://localhost:%d/docs/q/"}`, f.port)) // never served
	clients := []*wsClient{tab1, tab2, silent, other}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		hugo.mu.Lock()
		n := len(hugo.conns)
		hugo.mu.Unlock()
		if n == len(clients) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d sockets reached Hugo", n, len(clients))
		}
	}
	time.Sleep(100 * time.Millisecond) // the info messages relayed
	const force = `{"command":"reload","path":"/x.js","originalPath":"","liveCSS":true,"liveImg":true}`
	const css = `{"command":"reload","path":"/css/site.css","originalPath":"","liveCSS":true,"liveImg":true}`
	seq := 0
	// step sends msg and then a marker every relay passes, and returns
	// how many times each client got msg.
	step := func(msg string) []int {
		seq++
		marker := fmt.Sprintf(`{"command":"alert","message":"marker %d"}`, seq)
		before := make([]int, len(clients))
		for i, c := range clients {
			before[i] = len(c.got())
		}
		hugo.send(msg)
		hugo.send(marker)
		counts := make([]int, len(clients))
		for i, c := range clients {
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				msgs := c.got()[before[i]:]
				if len(msgs) > 0 && msgs[len(msgs)-1] == marker {
					for _, m := range msgs {
						if m == msg {
							counts[i]++
						}
					}
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("client %d: no marker; got %q", i, msgs)
				}
			}
		}
		return counts
	}
	for _, tc := range []struct {
		name   string
		page   string // "": as it is
		assets bool   // serve wrote a stylesheet, a script, a template
		msg    string
		counts []int // tab1, tab2, silent, other
	}{
		// other's page was not served: its first refresh goes on, and
		// Hugo's bytes then are what it shows.
		{"page unchanged", "", false, force, []int{0, 0, 1, 1}},
		{"page changed", "<html>v2</html>", false, force, []int{1, 1, 1, 1}},
		{"changed once, refreshed once", "", false, force, []int{0, 0, 1, 0}},
		{"stylesheet", "", false, css, []int{1, 1, 1, 1}},
		{"an asset written, the page as it was", "", true, force, []int{1, 1, 1, 1}},
		{"after the asset's refresh", "", false, force, []int{0, 0, 1, 0}},
		{"changed back", "<html>v1</html>", false, force, []int{1, 1, 1, 1}},
	} {
		if tc.page != "" {
			hugo.set(tc.page)
		}
		if tc.assets {
			f.assetsChanged()
		}
		if got := step(tc.msg); fmt.Sprint(got) != fmt.Sprint(tc.counts) {
			t.Errorf("%s: tab1, tab2, silent, other got %v, want %v", tc.name, got, tc.counts)
		}
	}
	if n := f.heldReloads.Load(); n != 8 {
		t.Errorf("%d force refreshes held back, want 8", n)
	}
}
