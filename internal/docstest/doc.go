// Package docstest holds the tests that keep docs/ in step with the code:
// docs/architecture.md's package map must list exactly the packages `go
// list ./...` reports. It has no code of its own.
package docstest
