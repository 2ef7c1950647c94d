package main

import (
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuilder is a strings.Builder safe for the reporter's goroutine.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestInstallProgress: package lines of go install -v are counted, in any
// split of the writes; other lines reach the log; progress lines say how
// many packages are built and how to skip the build.
func TestInstallProgress(t *testing.T) {
	in := "internal/abi\nruntime\ngithub.com/gohugoio/hugo/common/maps\n# github.com/x/y\n./a.go:3:1: syntax error\ngithub.com/gohugoio/hugo"
	for size := 1; size <= len(in); size += 7 {
		var log syncBuilder
		p := startInstallProgress(&log, time.Hour)
		for i := 0; i < len(in); i += size {
			if _, err := p.Write([]byte(in[i:min(i+size, len(in))])); err != nil {
				t.Fatal(err)
			}
		}
		n, _ := p.finish()
		if n != 3 {
			t.Errorf("writes of %d bytes: %d packages counted, want 3", size, n)
		}
		if want := "# github.com/x/y\n./a.go:3:1: syntax error\ngithub.com/gohugoio/hugo\n"; log.String() != want {
			t.Errorf("writes of %d bytes: log %q, want %q", size, log.String(), want)
		}
	}
	var log syncBuilder
	p := startInstallProgress(&log, 10*time.Millisecond)
	_, _ = p.Write([]byte("runtime\nnet/http\n"))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), "\n") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	p.finish()
	if !regexp.MustCompile(`^evdoc: building Hugo v0\.165\.0: 2 packages built, \d+s elapsed \(a Hugo v0\.160\.0 to v0\.165\.x on PATH, or --hugo PATH, skips this\)\n`).MatchString(log.String()) {
		t.Errorf("progress line: %q", log.String())
	}
}
