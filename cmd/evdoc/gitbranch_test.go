package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDefaultBranch: init's workflow runs on pushes to the repository's
// default branch, read from git's files: origin's HEAD first, then the
// branch checked out, through a linked worktree's .git file too; a name
// GitHub's branch filters would read as a pattern is not used.
func TestDefaultBranch(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // relative to the project root
		want  string
	}{
		{"no repository", nil, ""},
		{"new repository", map[string]string{".git/HEAD": "ref: refs/heads/trunk\n"}, "trunk"},
		{"clone: origin's default wins over the branch checked out", map[string]string{
			".git/HEAD":                     "ref: refs/heads/feature/x\n",
			".git/refs/remotes/origin/HEAD": "ref: refs/remotes/origin/master\n",
		}, "master"},
		{"detached HEAD", map[string]string{".git/HEAD": "3f2a9c0d1e4b5a6978877665544332211ffeedd0\n"}, ""},
		{"a name with a filter pattern's characters", map[string]string{".git/HEAD": "ref: refs/heads/rel*ease\n"}, ""},
		{"linked worktree", map[string]string{
			".git":                                  "gitdir: ../repo/.git/worktrees/wt\n",
			"../repo/.git/worktrees/wt/HEAD":        "ref: refs/heads/wip\n",
			"../repo/.git/worktrees/wt/commondir":   "../..\n",
			"../repo/.git/refs/remotes/origin/HEAD": "ref: refs/remotes/origin/develop\n",
		}, "develop"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "site")
			if err := os.MkdirAll(root, 0o755); err != nil {
				t.Fatal(err)
			}
			for rel, text := range tt.files {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, _ := defaultBranch(root)
			if got != tt.want {
				t.Errorf("defaultBranch = %q, want %q", got, tt.want)
			}
			wf, note := workflowForBranch(root, readWorkflow(t))
			want := tt.want
			if want == "" {
				want = "main"
			}
			if !strings.Contains(string(wf), "\n    branches: ["+want+"] ") {
				t.Errorf("workflow's push trigger is not on %s:\n%s", want, wf)
			}
			if !strings.Contains(note, want) {
				t.Errorf("init's note %q does not name %s", note, want)
			}
		})
	}
}

// TestWorkflowBranchLine: the scaffold's workflow holds the line
// workflowForBranch rewrites, so a change to the scaffold cannot leave
// every project's trigger on main without a failing test.
func TestWorkflowBranchLine(t *testing.T) {
	if n := strings.Count(string(readWorkflow(t)), "\n"+workflowBranchLine+" "); n != 1 {
		t.Fatalf("scaffold workflow has %d lines %q, want 1", n, workflowBranchLine)
	}
}
