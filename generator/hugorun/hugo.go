package hugorun

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// PinnedHugo returns the command that runs the Hugo version evdoc's own
// source tree at root pins in its nested tool module tools/hugo: go -C
// ROOT/tools/hugo tool hugo (compiled on first use, then cached by Go).
// evdoc's tests build with it. It is never a checked project's command:
// that project's tools/hugo is the repository's code, and go would
// compile and run whatever program it names.
func PinnedHugo(root string) []string {
	return []string{"go", "-C", filepath.Join(root, "tools", "hugo"), "tool", "hugo"}
}

// directTool turns a "go … tool NAME" command into the tool's own binary
// (asked of go with tool -n, which builds and caches it), so Hugo runs as
// evdoc's direct child: then the kernel kills it when evdoc dies, even by
// SIGKILL (procgroup's parent-death signal), where a grandchild under
// "go tool" would run on. Any other command, or a go that cannot answer,
// is returned as it was.
func directTool(ctx context.Context, cmd []string) []string {
	n := len(cmd)
	if n < 3 || filepath.Base(cmd[0]) != "go" || cmd[n-2] != "tool" {
		return cmd
	}
	args := append(append([]string{}, cmd[1:n-1]...), "-n", cmd[n-1])
	out, err := exec.CommandContext(ctx, cmd[0], args...).Output()
	if err != nil {
		return cmd
	}
	bin := strings.TrimSpace(string(out))
	if fi, err := os.Stat(bin); err != nil || strings.ContainsAny(bin, " \n") || fi.Mode()&0o111 == 0 {
		return cmd
	}
	return []string{bin}
}

// Problems passes on the lines of Hugo's output that are warnings or
// errors (Hugo starts them with WARN or ERROR), so a build that succeeds
// prints what needs attention and not Hugo's build report.
type Problems struct {
	W       io.Writer
	partial []byte
	// Stage is the stage's absolute path, which lines name as the
	// project (see unstage).
	Stage string
}

// Unstage returns Hugo's output b with each path under stage (the
// absolute path of the staged project) written as the project's own
// relative path: Hugo names the staged copy of a page
// (".evdoc/stage-123/content/ko/docs/p.md:7:1"), which is the page
// content/ko/docs/p.md of the project.
func Unstage(b []byte, stage string) []byte {
	if stage == "" {
		return b
	}
	return bytes.ReplaceAll(b, []byte(stage+string(filepath.Separator)), nil)
}

func (h *Problems) Write(p []byte) (int, error) {
	h.partial = append(h.partial, p...)
	for {
		i := bytes.IndexByte(h.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := h.partial[:i+1]
		if bytes.HasPrefix(line, []byte("WARN")) || bytes.HasPrefix(line, []byte("ERROR")) {
			if _, err := h.W.Write(Unstage(line, h.Stage)); err != nil {
				return len(p), err
			}
		}
		h.partial = h.partial[i+1:]
	}
}

// DirectTool returns the command to run for cmd as Build runs it: a
// "go … tool NAME" command becomes the tool's own binary, so Hugo is the
// caller's direct child and dies with it (see directTool).
func DirectTool(ctx context.Context, cmd []string) []string { return directTool(ctx, cmd) }

// moduleCompat matches Hugo's notice that a theme's declared Hugo range
// ([module.hugoVersion] min, max, extended) does not hold the running
// Hugo: Blowfish declares a max older than the Hugo evdoc pins, which
// builds it.
var moduleCompat = regexp.MustCompile(`^Module "[^"]*" is not compatible with this Hugo version`)

// Warnings returns the warnings in Hugo's log out (written at
// --logLevel warn: one "WARN  message" line each), and apart from them
// Hugo's notices about a theme: its own deprecation notices
// ("deprecated: X was deprecated in Hugo v0.x …") and a theme's declared
// Hugo range that the running Hugo is outside of; a template's warnf
// saying "deprecated" is a warning.
func Warnings(out []byte) (warns, deprecated []string) {
	for line := range strings.SplitSeq(string(out), "\n") {
		msg, ok := strings.CutPrefix(strings.TrimRight(line, "\r"), "WARN")
		if !ok || msg != "" && msg[0] != ' ' {
			continue
		}
		msg = strings.TrimSpace(msg)
		if strings.HasPrefix(msg, "deprecated: ") && strings.Contains(msg, " was deprecated in Hugo") || moduleCompat.MatchString(msg) {
			deprecated = append(deprecated, msg)
			continue
		}
		warns = append(warns, msg)
	}
	return warns, deprecated
}
