package serve

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
)

// emptyingHugo answers its first `empty` requests for a page with a
// 200 HTML response of no bytes, as Hugo's server does while it writes
// a page it renders again, and the page after.
type emptyingHugo struct {
	empty int64
	asked atomic.Int64
	page  string
}

func (h *emptyingHugo) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if h.asked.Add(1) <= h.empty {
		w.Header().Set("Content-Length", "0")
		return
	}
	fmt.Fprint(w, h.page)
}

// TestFrontEmptyPage: an HTML page Hugo answers with no bytes is asked
// for again, and the browser gets the page's bytes (not a blank page);
// a page Hugo keeps answering empty is relayed empty after the retries.
func TestFrontEmptyPage(t *testing.T) {
	for _, tc := range []struct {
		empty int64
		want  string
		asked int64
	}{
		{0, "<html>p</html>", 1},
		{3, "<html>p</html>", 4},
		{1000, "", 1 + emptyRetries},
	} {
		hugo := &emptyingHugo{empty: tc.empty, page: "<html>p</html>"}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		hs := &http.Server{Handler: hugo}
		go hs.Serve(ln)
		f, err := listenFront("127.0.0.1", 0, "")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		f.hugo.Store(int64(ln.Addr().(*net.TCPAddr).Port))
		f.serve(ctx)
		b, err := get(fmt.Sprintf("http://127.0.0.1:%d/docs/p/", f.port))
		cancel()
		hs.Close()
		if err != nil {
			t.Fatalf("%d empty answers: %v", tc.empty, err)
		}
		if b != tc.want {
			t.Errorf("%d empty answers: the front answered %q, want %q", tc.empty, b, tc.want)
		}
		if n := hugo.asked.Load(); n != tc.asked {
			t.Errorf("%d empty answers: Hugo was asked %d time(s), want %d", tc.empty, n, tc.asked)
		}
	}
}
