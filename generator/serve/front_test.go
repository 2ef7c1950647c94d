package serve

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// TestFrontHost: the front passes on a request naming this server
// (localhost, 127.0.0.1, [::1], the bind address, --base-url's host, any
// port, any case) to Hugo's server with its Host unchanged, and refuses
// any other Host with 421 and a message naming it: a page of another
// site whose name resolves to 127.0.0.1 (DNS rebinding) cannot read what
// is served.
func TestFrontHost(t *testing.T) {
	var gotHost string
	hugo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotHost = r.Host
		io.WriteString(w, "draft page")
	}))
	defer hugo.Close()
	f, err := listenFront("127.0.0.1", 0, "http://lab.example:8080/docs/")
	if err != nil {
		t.Fatal(err)
	}
	defer f.close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(hugo.URL, "http://"))
	p, _ := strconv.Atoi(port)
	f.hugo.Store(int64(p))
	tests := []struct {
		host string
		code int
	}{
		{"localhost:1313", 200}, {"127.0.0.1:1313", 200}, {"[::1]:1313", 200}, {"LOCALHOST", 200}, {"lab.example", 200}, {"127.0.0.1", 200},
		{"evil.example:1313", 421}, {"evil.example", 421}, {"localhost.evil.example", 421}, {"127.0.0.1.nip.io", 421}, {"", 421},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			gotHost = ""
			r := httptest.NewRequest("GET", "/docs/draft/", nil)
			r.Host = tt.host
			w := httptest.NewRecorder()
			f.ServeHTTP(w, r)
			if w.Code != tt.code {
				t.Fatalf("Host %q: %d, want %d: %s", tt.host, w.Code, tt.code, w.Body)
			}
			if tt.code == 200 && (gotHost != tt.host || w.Body.String() != "draft page") {
				t.Errorf("passed on with Host %q, body %q", gotHost, w.Body)
			}
			if tt.code == 421 && (gotHost != "" || !strings.Contains(w.Body.String(), "is not this server") || strings.Contains(w.Body.String(), "draft")) {
				t.Errorf("refused request reached Hugo (%q) or says %q", gotHost, w.Body)
			}
		})
	}
	f.hugo.Store(0)
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "localhost"
	w := httptest.NewRecorder()
	f.ServeHTTP(w, r)
	if w.Code != http.StatusServiceUnavailable {
		t.Errorf("no Hugo running: %d, want 503", w.Code)
	}
}
