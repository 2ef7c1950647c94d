package main

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/evdoc-lab/evdoc/internal/crash"
)

// installProgress reads what `go install -v` writes to standard error
// while it builds the pinned Hugo: each line naming a package (an import
// path, no spaces) is counted, any other line (a compiler error) is passed
// on to log. Every interval, and when done, it tells log how many
// packages are built and how long it has taken, and how to skip the build.
type installProgress struct {
	log     io.Writer
	start   time.Time
	mu      sync.Mutex
	n       int
	partial []byte
	stop    chan struct{}
	done    chan struct{}
}

// startInstallProgress starts reporting on log every interval.
func startInstallProgress(log io.Writer, interval time.Duration) *installProgress {
	p := &installProgress{log: log, start: time.Now(), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer crash.Guard()
		defer close(p.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.report()
			case <-p.stop:
				return
			}
		}
	}()
	return p
}

func (p *installProgress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	for {
		i := bytes.IndexByte(p.partial, '\n')
		if i < 0 {
			return len(b), nil
		}
		line := p.partial[:i+1]
		if s := strings.TrimSpace(string(line)); s != "" && !strings.ContainsAny(s, " \t:") {
			p.n++
		} else if _, err := p.log.Write(line); err != nil {
			return len(b), err
		}
		p.partial = p.partial[i+1:]
	}
}

// report writes one progress line.
func (p *installProgress) report() {
	p.mu.Lock()
	n := p.n
	p.mu.Unlock()
	fmt.Fprintf(p.log, "evdoc: building Hugo %s: %d packages built, %s elapsed (a Hugo %s on PATH, or --hugo PATH, skips this)\n",
		pinnedHugoVersion, n, time.Since(p.start).Round(time.Second), hugoRange())
}

// finish stops the reports and returns the packages built and the time
// taken.
func (p *installProgress) finish() (int, time.Duration) {
	close(p.stop)
	<-p.done
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.partial) > 0 {
		_, _ = p.log.Write(append(p.partial, '\n'))
		p.partial = nil
	}
	return p.n, time.Since(p.start)
}
