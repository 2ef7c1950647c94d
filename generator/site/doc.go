// Package site composes the build: Build checks the project (package
// checker), stages it (package staging), runs the pinned Hugo on the
// stage (package hugorun), verifies the output (package verify) and
// replaces the output directory in one step.
package site
