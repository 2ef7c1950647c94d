//go:build reliability && linux

package reliability

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bystander starts a sleeping process in a process group of its own, as
// an unrelated program of the user's, and returns its pid and its start
// time (/proc/PID/stat field 22).
func bystander(t *testing.T) (pid int, start string) {
	t.Helper()
	c := exec.Command("sleep", "600")
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Process.Kill(); c.Wait() })
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return c.Process.Pid, f[19]
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err == nil && !strings.Contains(string(b), ") Z ")
}

// TestHostileRepository (issue 26, faults 1, 2 and 4): what a cloned
// repository holds never makes evdoc act outside it. A committed
// .evdoc/lock link makes build, fix and i18n mark fail (exit 2) naming
// it, and the file it points to keeps its contents; a planted
// .evdoc/hugo.pgid naming an unrelated process group — with the marker
// "/" that every command line holds, or with that group's exact identity
// as evdoc records it — never gets it signalled by build; a build under
// umask 022 leaves public/ and --out readable by others (0755), whatever
// mode they had.
func TestHostileRepository(t *testing.T) {
	t.Run("lock link", func(t *testing.T) {
		dir := project(t, 0)
		victim := filepath.Join(t.TempDir(), "victim")
		const precious = "precious line 1\nprecious line 2\n"
		if err := os.WriteFile(victim, []byte(precious), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, ".evdoc"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(victim, filepath.Join(dir, ".evdoc", "lock")); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"build"}, {"fix"}, {"i18n", "mark", "content/ja/_index.md"}} {
			code, out := run(t, dir, args...)
			if code != 2 || !strings.Contains(out, "symbolic link") {
				t.Errorf("%v with .evdoc/lock a link: exit %d, want 2 naming the link\n%s", args, code, out)
			}
		}
		if b, _ := os.ReadFile(victim); string(b) != precious {
			t.Errorf("the file the link points to now holds %q", b)
		}
	})
	t.Run("planted pgid", func(t *testing.T) {
		dir := project(t, 0)
		pid, start := bystander(t)
		boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
		ns, _ := os.Readlink("/proc/self/ns/pid")
		for i, rec := range []string{
			fmt.Sprintf("%d /\n", pid),
			fmt.Sprintf("%d %s %s %s %s\n", pid, start, strings.TrimSpace(string(boot)), ns, filepath.Join(dir, ".evdoc", "stage-x")),
		} {
			if err := os.MkdirAll(filepath.Join(dir, ".evdoc"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, ".evdoc", "hugo.pgid"), []byte(rec), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, out := run(t, dir, "build"); code != 0 {
				t.Fatalf("build %d: exit %d\n%s", i, code, out)
			}
			time.Sleep(100 * time.Millisecond)
			if !alive(pid) {
				t.Fatalf("build with the planted record %q killed the unrelated process %d", rec, pid)
			}
		}
	})
	t.Run("output mode", func(t *testing.T) {
		old := syscall.Umask(0o022)
		defer syscall.Umask(old)
		dir := project(t, 0)
		out := filepath.Join(t.TempDir(), "www", "site")
		if code, log := run(t, dir, "build", "--out", out); code != 0 {
			t.Fatalf("build --out: exit %d\n%s", code, log)
		}
		if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o755 {
			t.Fatalf("--out after a build: %v %v; want 0755 (umask 022)", fi.Mode(), err)
		}
		if err := os.Chmod(out, 0o750); err != nil { // a mode the user chose is kept
			t.Fatal(err)
		}
		if code, log := run(t, dir, "build", "--out", out); code != 0 {
			t.Fatalf("build --out: exit %d\n%s", code, log)
		}
		if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o750 {
			t.Fatalf("--out of mode 0750 after a build: %v", fi.Mode())
		}
	})
}

// TestNewEvidenceFromFIFO (issue 26, fault 8): `new evidence --from` a
// FIFO or a device is an error at once (exit 2) naming what it is, never
// a read that blocks (and then swallows SIGTERM) or grows without bound.
func TestNewEvidenceFromFIFO(t *testing.T) {
	dir := project(t, 0)
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for from, what := range map[string]string{fifo: "FIFO", "/dev/zero": "device"} {
		c, out := evdoc(dir, "new", "evidence", "zz", "--from", from, "--origin", "raw", "--environment", "e")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- c.Wait() }()
		select {
		case err := <-done:
			ee, ok := err.(*exec.ExitError)
			if !ok || ee.ExitCode() != 2 || !strings.Contains(out.String(), what) {
				t.Errorf("--from %s: %v, want exit 2 naming a %s\n%s", from, err, what, out)
			}
		case <-time.After(20 * time.Second):
			c.Process.Signal(syscall.SIGTERM)
			select {
			case <-done:
				t.Errorf("--from %s blocked until SIGTERM", from)
			case <-time.After(5 * time.Second):
				c.Process.Kill()
				<-done
				t.Errorf("--from %s blocked and ignored SIGTERM", from)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "evidence", "zz")); err == nil {
		t.Error("a failed new evidence left evidence/zz")
	}
}

// TestFiguresFullDisk (issue 26, fault 11): figures on a full disk exits
// 2 (evdoc cannot run), not 1 (stale figures), saying so; every figure
// file stays whole. Root only, as TestFullDisk.
func TestFiguresFullDisk(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to mount a small tmpfs in a private mount namespace")
	}
	if err := exec.Command("unshare", "-m", "--propagation", "private", "true").Run(); err != nil {
		t.Skipf("unshare -m not available: %v", err)
	}
	dir := project(t, 0)
	specs, _ := filepath.Glob(filepath.Join(dir, "figures", "*.toml"))
	for _, s := range specs {
		b, _ := os.ReadFile(s)
		if err := os.WriteFile(s, []byte(strings.Replace(string(b), "ko = \"", "ko = \"CHANGED ", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mnt, res := filepath.Join(t.TempDir(), "disk"), t.TempDir()
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	script := `set -e
mount -t tmpfs -o size=64m tmpfs "$MNT"
cp -a "$SRC/." "$MNT/"
cd "$MNT"
free=$(df -k --output=avail . | tail -1)
dd if=/dev/zero of="$MNT/filler" bs=1k count=$((free-64)) status=none 2>/dev/null || true
set +e
timeout 120 "$EVDOC" figures > "$RES/log" 2>&1
echo $? > "$RES/exit"
ls -a assets/figures | grep -c '\.evdoc-' > "$RES/temps"
exit 0`
	c := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c", script)
	c.Env = append(os.Environ(), "MNT="+mnt, "SRC="+dir, "EVDOC="+evdocBin, "RES="+res)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("running figures on a full tmpfs: %v\n%s", err, out)
	}
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(res, name))
		return strings.TrimSpace(string(b))
	}
	if read("exit") != "2" || !strings.Contains(read("log"), "no space left on device") {
		t.Errorf("figures on a full disk: exit %s, want 2 saying the disk is full\n%s", read("exit"), read("log"))
	}
	if n, _ := strconv.Atoi(read("temps")); n != 0 {
		t.Errorf("%d temporary figure files left", n)
	}
}
