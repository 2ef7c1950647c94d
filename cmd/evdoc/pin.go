package main

import (
	"regexp"
	"runtime/debug"
)

// buildID names the running evdoc: its module version and, for a binary
// built from a git checkout (go install ./cmd/evdoc in a clone), the
// commit Go stamped into it and whether the checkout had local changes.
type buildID struct {
	Version  string // v0.3.0, a pseudo-version, or "(devel)"
	Commit   string // vcs.revision: a full commit hash, or ""
	Modified bool   // vcs.modified: the checkout differed from Commit
}

// readBuildID reads the running binary's build information.
func readBuildID() buildID {
	id := buildID{Version: "(devel)"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return id
	}
	if bi.Main.Version != "" {
		id.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			id.Commit = s.Value
		case "vcs.modified":
			id.Modified = s.Value == "true"
		}
	}
	return id
}

// String is the build as messages name it: "v0.3.0", "(devel) 471d1f4c0a12"
// or "(devel) 471d1f4c0a12+changes".
func (b buildID) String() string {
	s := b.Version
	if b.Commit != "" && b.Version == "(devel)" {
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += " " + c
		if b.Modified {
			s += "+changes"
		}
	}
	return s
}

// Ref is what the workflow checks out to install this evdoc: the commit,
// else the module version when it is a tag, else "" (the binary names no
// revision: built outside a git checkout, or by go run).
func (b buildID) Ref() string {
	switch {
	case b.Commit != "":
		return b.Commit
	case b.Version != "(devel)" && b.Version != "":
		return b.Version
	}
	return ""
}

// workflowRefRe is the ref line of the workflow's step that checks out
// evdoc: the first "ref:" after "repository: evdoc-lab/evdoc", within the
// same step (no "- " item line between them).
var workflowRefRe = regexp.MustCompile(`(?m)(^[ \t]+repository:[ \t]*evdoc-lab/evdoc[ \t]*\n(?:[ \t]+[^-\s][^\n]*\n)*?[ \t]+ref:[ \t]*)([^\s#]+)([^\n]*)`)

// pinWorkflow returns the workflow wf with its evdoc checkout pinned to
// ref, and false when wf has no such step (a workflow the user rewrote).
func pinWorkflow(wf []byte, ref string) ([]byte, bool) {
	loc := workflowRefRe.FindSubmatchIndex(wf)
	if loc == nil {
		return wf, false
	}
	out := append([]byte{}, wf[:loc[4]]...)
	out = append(out, ref...)
	out = append(out, "   # the evdoc that wrote themes/evdoc: `evdoc init` of a newer evdoc updates both"...)
	return append(out, wf[loc[7]:]...), true
}
