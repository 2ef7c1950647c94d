package crash

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardExitStatus: a panic in a goroutine that defers Guard ends the
// process with ExitStatus (not the runtime's 2, evdoc's "cannot run"),
// saying it is an internal error, with the panic's value and stack.
func TestGuardExitStatus(t *testing.T) {
	if os.Getenv("EVDOC_CRASH_CHILD") == "1" {
		done := make(chan struct{})
		go func() {
			defer Guard()
			i := len(os.Args) + 10
			_ = os.Args[i] // a runtime panic: index out of range
			close(done)
		}()
		<-done
		return
	}
	c := exec.Command(os.Args[0], "-test.run=^TestGuardExitStatus$")
	c.Env = append(os.Environ(), "EVDOC_CRASH_CHILD=1")
	out, err := c.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != ExitStatus {
		t.Fatalf("exit: %v, want status %d\n%s", err, ExitStatus, out)
	}
	for _, want := range []string{"evdoc: internal error (a bug in evdoc, exit status 3): panic: runtime error: index out of range", "please report it", "crash_test.go"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestEveryGoroutineGuarded: every goroutine the module's code starts (a
// go statement, or a function literal given to a Go method: sync.WaitGroup,
// errgroup) defers Guard first, and so does cmd/evdoc's main; a panic in
// one that did not would exit with the runtime's status 2.
func TestEveryGoroutineGuarded(t *testing.T) {
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	var checked int
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "testdata", "tools", "node_modules", ".git", ".evdoc", "public":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		guarded := func(body *ast.BlockStmt) bool {
			if body == nil || len(body.List) == 0 {
				return false
			}
			ds, ok := body.List[0].(*ast.DeferStmt)
			if !ok {
				return false
			}
			sel, ok := ds.Call.Fun.(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Guard" {
				return false
			}
			x, ok := sel.X.(*ast.Ident)
			return ok && x.Name == "crash"
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				checked++
				lit, ok := n.Call.Fun.(*ast.FuncLit)
				if !ok || !guarded(lit.Body) {
					t.Errorf("%s: a goroutine that does not defer crash.Guard() first", fset.Position(n.Pos()))
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok || sel.Sel.Name != "Go" || len(n.Args) != 1 {
					return true
				}
				checked++
				if lit, ok := n.Args[0].(*ast.FuncLit); !ok || !guarded(lit.Body) {
					t.Errorf("%s: a function given to Go that does not defer crash.Guard() first", fset.Position(n.Pos()))
				}
			case *ast.FuncDecl:
				if n.Name.Name == "main" && n.Recv == nil && f.Name.Name == "main" && filepath.Base(filepath.Dir(p)) == "evdoc" {
					checked++
					if !guarded(n.Body) {
						t.Errorf("%s: cmd/evdoc's main does not defer crash.Guard() first", fset.Position(n.Pos()))
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 10 {
		t.Errorf("found %d goroutines and mains; expected the module's (at least 10)", checked)
	}
}
