package impact

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// maxBlob bounds one file read from the base revision, and maxTree the
// whole tree: a revision whose evidence is larger is refused, not read.
const (
	maxBlob = 64 << 20
	maxTree = 512 << 20
)

// gitArgs are the options every git command of this package runs with:
// no pager, no hooks, no file-system monitor, no prompts. Only plumbing
// commands are run (ls-tree, cat-file, rev-parse), which apply no
// filters and run no program the repository names.
var gitArgs = []string{"-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "--no-pager"}

// git runs git in dir with args and returns its standard output.
func git(ctx context.Context, dir string, stdin io.Reader, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append(append([]string{"-C", dir}, gitArgs...), args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
	cmd.Stdin = stdin
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return out.Bytes(), nil
}

// ExtractTree writes the files under dirs (slash paths relative to the
// project at root, which may be a subdirectory of its git repository) as
// they are at revision ref into a new directory under tmp, keeping their
// paths, and returns that directory. A directory absent at ref is simply
// absent. Symbolic links and submodules of the revision are not written.
func ExtractTree(ctx context.Context, root, ref, tmp string, dirs []string) (string, error) {
	if strings.HasPrefix(ref, "-") {
		return "", fmt.Errorf("revision %q: expected a commit, branch or tag, not an option", ref)
	}
	commit, err := git(ctx, root, nil, "rev-parse", "--verify", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("revision %q is not a commit of the repository at %s: %v", ref, root, err)
	}
	id := strings.TrimSpace(string(commit))
	args := append([]string{"ls-tree", "-r", "-z", "-l", id, "--"}, dirs...)
	list, err := git(ctx, root, nil, args...)
	if err != nil {
		return "", err
	}
	dst, err := os.MkdirTemp(tmp, "base-")
	if err != nil {
		return "", err
	}
	type entry struct{ sha, path string }
	var blobs []entry
	var total int64
	for _, rec := range bytes.Split(list, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta)) // mode type sha size
		if len(f) != 4 || f[1] != "blob" || f[0] == "120000" {
			continue // a submodule, or a symbolic link
		}
		size, _ := strconv.ParseInt(f[3], 10, 64)
		if size > maxBlob {
			return "", fmt.Errorf("%s at %s is %d bytes; expected at most %d", path, ref, size, maxBlob)
		}
		total += size
		if total > maxTree {
			return "", fmt.Errorf("the evidence at %s is over %d bytes; expected at most that", ref, maxTree)
		}
		blobs = append(blobs, entry{f[2], string(path)})
	}
	if len(blobs) == 0 {
		return dst, nil
	}
	var in bytes.Buffer
	for _, b := range blobs {
		in.WriteString(b.sha + "\n")
	}
	out, err := git(ctx, root, &in, "cat-file", "--batch")
	if err != nil {
		return "", err
	}
	r := bufio.NewReader(bytes.NewReader(out))
	for _, b := range blobs {
		header, err := r.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("git cat-file: %v", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 || f[0] != b.sha {
			return "", fmt.Errorf("git cat-file: unexpected %q for %s", strings.TrimSpace(header), b.path)
		}
		n, _ := strconv.Atoi(f[2])
		data := make([]byte, n+1) // the content and its newline
		if _, err := io.ReadFull(r, data); err != nil {
			return "", fmt.Errorf("git cat-file: %v", err)
		}
		rel := filepath.FromSlash(b.path)
		if !filepath.IsLocal(rel) {
			return "", fmt.Errorf("%s at %s: a path outside the project", b.path, ref)
		}
		p := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		if err := os.WriteFile(p, data[:n], 0o644); err != nil {
			return "", err
		}
	}
	return dst, nil
}
