// Package hugorun runs Hugo and owns what that takes: the pinned Hugo
// command (PinnedHugo), a "go tool" command turned into the tool's own
// binary so Hugo is evdoc's direct child (DirectTool), Hugo's output read
// for errors and warnings, its process group records, the project's work
// directory (.evdoc) and its lock.
package hugorun
