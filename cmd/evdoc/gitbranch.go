package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// workflowFile is the workflow init writes, relative to the project.
const workflowFile = ".github/workflows/evdoc.yml"

// workflowBranchLine is the line of the scaffold's workflow that names
// the branch whose pushes run it (and whose build is deployed).
const workflowBranchLine = "    branches: [main]"

// plainBranch is a branch name the workflow may carry unquoted and
// unescaped: GitHub's branch filters give * ? + [ ] ! a meaning.
var plainBranch = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]*$`)

// defaultBranch names the default branch of the git repository at root,
// and where the name came from: origin's HEAD (the remote's default
// branch, as git clone records it), else the branch checked out (a new
// repository's, before any remote). It reads git's files and runs no
// git command: a repository's configuration can make git run programs.
// "" when root holds no git repository or the name is not plain.
func defaultBranch(root string) (branch, from string) {
	gitDir, commonDir := gitDirs(root)
	if gitDir == "" {
		return "", ""
	}
	symref := func(file, prefix string) string {
		b, err := safefile.ReadPath(file, 4096)
		if err != nil {
			return ""
		}
		s := strings.TrimSpace(string(b))
		name, ok := strings.CutPrefix(s, "ref: "+prefix)
		if !ok || !plainBranch.MatchString(name) {
			return ""
		}
		return name
	}
	if b := symref(filepath.Join(commonDir, "refs", "remotes", "origin", "HEAD"), "refs/remotes/origin/"); b != "" {
		return b, "origin's default branch"
	}
	if b := symref(filepath.Join(gitDir, "HEAD"), "refs/heads/"); b != "" {
		return b, "the branch checked out; no origin/HEAD"
	}
	return "", ""
}

// gitDirs finds the git directory of root (.git, or the directory a .git
// file names, as in a linked worktree) and its common directory, where
// shared refs live.
func gitDirs(root string) (gitDir, commonDir string) {
	dot := filepath.Join(root, ".git")
	fi, err := os.Lstat(dot)
	switch {
	case err != nil:
		return "", ""
	case fi.IsDir():
		return dot, dot
	case !fi.Mode().IsRegular():
		return "", ""
	}
	b, err := safefile.ReadPath(dot, 4096)
	if err != nil {
		return "", ""
	}
	d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok {
		return "", ""
	}
	if !filepath.IsAbs(d) {
		d = filepath.Join(root, d)
	}
	commonDir = d
	if c, err := safefile.ReadPath(filepath.Join(d, "commondir"), 4096); err == nil {
		cd := strings.TrimSpace(string(c))
		if !filepath.IsAbs(cd) {
			cd = filepath.Join(d, cd)
		}
		commonDir = cd
	}
	return d, commonDir
}

// workflowForBranch returns the scaffold's workflow with its push
// trigger on the project's default branch, and a note for init's log.
func workflowForBranch(root string, wf []byte) ([]byte, string) {
	branch, from := defaultBranch(root)
	if branch == "" {
		return wf, "runs on pushes to main; if your default branch has another name, change on.push.branches"
	}
	if branch == "main" {
		return wf, "runs on pushes to main (" + from + ")"
	}
	out := strings.Replace(string(wf), workflowBranchLine+" ", "    branches: ["+branch+"] ", 1)
	return []byte(out), "runs on pushes to " + branch + " (" + from + ")"
}
