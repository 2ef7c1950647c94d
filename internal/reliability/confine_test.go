//go:build reliability && linux

package reliability

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfineProbes runs issue 36's probes of a repository reaching
// outside the project (../shared/cases/s4/reliability, beside the
// clone): a contentDir outside the project (20), a tools/hugo module of
// the repository (22), a widened getenv policy with a layout printing
// secrets (23), and evdoc.toml switching claim-mismatch off (46). Each
// exits 0 when evdoc holds. Probe 22 runs with no hugo on PATH and no
// EVDOC_HUGO: the pinned Hugo comes from a user cache directory holding
// the suite's Hugo, as a first build would leave it.
func TestConfineProbes(t *testing.T) {
	var dir string
	for _, up := range []string{"..", "../.."} { // a clone, a worktree under wt/
		d := filepath.Join(repoRoot, filepath.FromSlash(up), "shared", "cases", "s4", "reliability")
		if _, err := os.Stat(filepath.Join(d, "common.sh")); err == nil {
			dir = d
			break
		}
	}
	if dir == "" {
		t.Skip("no probes in ../shared/cases/s4/reliability beside the clone")
	}
	cache := t.TempDir()
	pinned := filepath.Join(cache, "evdoc", "hugo", "v0.165.0", "hugo")
	if err := os.MkdirAll(filepath.Dir(pinned), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(hugoBin, pinned); err != nil {
		t.Fatal(err)
	}
	for _, probe := range []string{"20-fix-contentdir-outside", "22-tools-hugo-runs-repo-code", "23-hugo-getenv-leak", "46-evdoc-toml-disables-mismatch"} {
		t.Run(probe, func(t *testing.T) {
			c := exec.Command("bash", filepath.Join(dir, probe+".sh"))
			c.Dir = repoRoot
			c.Env = append(os.Environ(), "EVDOC="+evdocBin, "EVDOC_HUGO="+hugoBin, "MAIN="+repoRoot,
				"R4="+t.TempDir(), "XDG_CACHE_HOME="+cache)
			var out bytes.Buffer
			c.Stdout, c.Stderr = &out, &out
			err := c.Run()
			last := strings.TrimSpace(out.String())
			if i := strings.LastIndexByte(last, '\n'); i >= 0 {
				last = last[i+1:]
			}
			switch code := c.ProcessState.ExitCode(); {
			case code == 2:
				t.Skipf("%s could not run: %s", probe, last)
			case err != nil || !strings.HasPrefix(last, "PASS"):
				t.Errorf("%s: exit %d\n%s", probe, code, out.String())
			}
		})
	}
}
