package project

import (
	"runtime"
	"sync"

	"github.com/evdoc-lab/evdoc/internal/crash"
	"github.com/yuin/goldmark"
)

// RunWorkers runs jobs on a pool of GOMAXPROCS workers, each with its own
// goldmark (newMD), and returns when all are done. Jobs store
// their results by key, so the order they finish in does not show in any
// output.
func RunWorkers(newMD func() goldmark.Markdown, jobs []func(md goldmark.Markdown)) {
	n := min(runtime.GOMAXPROCS(0), len(jobs))
	if n <= 1 {
		md := newMD()
		for _, j := range jobs {
			j(md)
		}
		return
	}
	next := make(chan func(goldmark.Markdown))
	var wg sync.WaitGroup
	var caught WorkerPanic
	for range n {
		wg.Go(func() {
			defer crash.Guard()
			defer caught.Recover(func() {
				for range next {
				}
			})
			md := newMD()
			for j := range next {
				j(md)
			}
		})
	}
	for _, j := range jobs {
		next <- j
	}
	close(next)
	wg.Wait()
	caught.Repanic()
}

// WorkerPanic carries a panic of a pool's worker to the goroutine that
// waits for the pool, which panics with it again: a caller that recovers
// (evdoc lsp answers the request with an error) then stays up, where a
// panic on a worker's own goroutine would end the process.
type WorkerPanic struct {
	mu  sync.Mutex
	val any
	hit bool
}

// Recover, deferred by a worker, keeps the first panic and calls drain,
// which takes the pool's remaining jobs so that the sender is not left
// blocked.
func (w *WorkerPanic) Recover(drain func()) {
	v := recover()
	if v == nil {
		return
	}
	w.mu.Lock()
	if !w.hit {
		w.val, w.hit = v, true
	}
	w.mu.Unlock()
	drain()
}

// Repanic panics with the kept panic, if any.
func (w *WorkerPanic) Repanic() {
	if w.hit {
		panic(w.val)
	}
}
