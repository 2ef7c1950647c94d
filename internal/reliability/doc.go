// Package reliability holds evdoc's reliability suite: end-to-end tests
// that run the evdoc binary on a copy of the project and kill it (SIGKILL
// at random moments during build and fix), interrupt it (SIGINT,
// SIGTERM) and run builds concurrently, then check that the site and the
// pages are whole — the old version or the new one, never a mix — and
// that no Hugo process is left. RELIABILITY.md lists each promise and its
// test.
//
// The tests carry the build tag "reliability" so that go test ./... stays
// fast; .ci/run runs them with
//
//	go test -tags reliability -count=1 ./internal/reliability/
//
// EVDOC_RELIABILITY_LOOPS sets the number of kill iterations per loop
// (default 8, what CI runs; bench/killloop runs the acceptance
// run of 50). EVDOC_RELIABILITY_STOP bounds how soon a signalled run must
// exit (default 2s). EVDOC_HUGO names a Hugo binary; without it the
// project's pinned Hugo is built with go tool. TestFullDisk needs root
// (a tmpfs mounted in a private mount namespace) and skips without it.
package reliability
