package diag_test

import (
	"errors"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

var ruleIDRe = regexp.MustCompile(`^[a-z]+(-[a-z0-9]+)+$`)

// TestCatalogue checks each entry: a kebab-case id listed once, a
// severity, a one-line description ending in a full stop and help text.
func TestCatalogue(t *testing.T) {
	seen := map[diag.RuleID]bool{}
	for _, r := range diag.Catalogue() {
		if !ruleIDRe.MatchString(string(r.ID)) {
			t.Errorf("rule id %q: expected kebab-case area-name", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("rule %s is listed twice", r.ID)
		}
		seen[r.ID] = true
		switch r.Severity {
		case diag.Error, diag.Warning, diag.Note, diag.Off:
		default:
			t.Errorf("rule %s: severity %q; expected error, warning, note or off", r.ID, r.Severity)
		}
		if r.Doc == "" || strings.Contains(r.Doc, "\n") || !strings.HasSuffix(r.Doc, ".") {
			t.Errorf("rule %s: Doc %q; expected one line ending in a full stop", r.ID, r.Doc)
		}
		if r.Help == "" {
			t.Errorf("rule %s: no Help", r.ID)
		}
		if got, ok := diag.LookupRule(r.ID); !ok || got != r {
			t.Errorf("LookupRule(%s) = %v, %v", r.ID, got, ok)
		}
	}
	if _, ok := diag.LookupRule("no-such-rule"); ok {
		t.Error("LookupRule found an unknown id")
	}
}

// TestConstantsAreCatalogued holds that every RuleID constant declared in
// rules.go has a catalogue entry, in declaration order.
func TestConstantsAreCatalogued(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "rules.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var consts []string
	for _, decl := range f.Decls {
		g, ok := decl.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			if id, ok := vs.Type.(*ast.Ident); ok && id.Name == "RuleID" {
				for _, v := range vs.Values {
					consts = append(consts, strings.Trim(v.(*ast.BasicLit).Value, `"`))
				}
			}
		}
	}
	var cat []string
	for _, r := range diag.Catalogue() {
		cat = append(cat, string(r.ID))
	}
	if strings.Join(consts, " ") != strings.Join(cat, " ") {
		t.Errorf("RuleID constants and Catalogue() differ; add one entry per constant, in the same order:\nconstants: %v\ncatalogue: %v", consts, cat)
	}
}

// TestEmittedRulesAreCatalogued type-checks every package of the module
// and holds that each rule id a diagnostic can carry is in the catalogue:
// every constant of type diag.RuleID (a catalogue constant or a string
// literal converted to RuleID, as in Diagnostic{Rule: "x"}) must be a
// catalogue id ("" means no rule), and no RuleID may be assembled at run time (a
// concatenation or a conversion of a non-constant string), outside the
// diag package itself. Conversely every catalogue rule must be used by
// some package. Test files are not scanned.
func TestEmittedRulesAreCatalogued(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole module")
	}
	pkgs := loadModule(t)
	const diagPath = "github.com/evdoc-lab/evdoc/generator/diag"
	isRuleID := func(tp types.Type) bool {
		n, ok := types.Unalias(tp).(*types.Named)
		return ok && n.Obj().Name() == "RuleID" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == diagPath
	}
	known := map[string]bool{}
	for _, r := range diag.Catalogue() {
		known[string(r.ID)] = true
	}
	constants, checked := 0, 0
	used := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				e, ok := n.(ast.Expr)
				if !ok {
					return true
				}
				tv, ok := p.TypesInfo.Types[e]
				if !ok || !isRuleID(tv.Type) {
					return true
				}
				pos := p.Fset.Position(e.Pos())
				checked++
				if tv.Value != nil {
					constants++
					id := constant.StringVal(tv.Value)
					if id != "" && !known[id] {
						t.Errorf("%s: rule %q is not in the catalogue; add it to generator/diag/rules.go", pos, id)
					}
					if p.PkgPath != diagPath {
						used[id] = true
					}
					return false
				}
				if p.PkgPath == diagPath {
					return true
				}
				switch x := e.(type) {
				case *ast.BinaryExpr:
					t.Errorf("%s: rule id built at run time; use a catalogue constant", pos)
				case *ast.CallExpr:
					if ctv, ok := p.TypesInfo.Types[x.Fun]; ok && ctv.IsType() {
						t.Errorf("%s: rule id converted from a run-time string; use a catalogue constant", pos)
					}
				}
				return true
			})
		}
	}
	if constants < len(known) {
		t.Errorf("found only %d rule constants in use (%d expressions of type RuleID); the scan is not seeing the module", constants, checked)
	}
	for _, r := range diag.Catalogue() {
		if !used[string(r.ID)] {
			t.Errorf("rule %s is in the catalogue but no package outside diag uses it; remove it from generator/diag/rules.go or report it", r.ID)
		}
	}
}

// secondSeverity lists the rules that report a lesser or graver case at a
// severity other than their default; each Help says when.
var secondSeverity = map[diag.RuleID]diag.Severity{
	diag.TranslationOrphan: diag.Error,   // an empty placeholder with nothing to fall back to
	diag.EvidenceManifest:  diag.Warning, // a directory without evidence.toml
}

// TestEmittedSeverityIsDefault holds that a diagnostic built with a
// constant rule and severity (diag.Errorf, or a Diagnostic literal) uses
// the rule's default severity from the catalogue, so the catalogue is
// what a user sees unless evdoc.toml says otherwise.
func TestEmittedSeverityIsDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the whole module")
	}
	pkgs := loadModule(t)
	const diagPath = "github.com/evdoc-lab/evdoc/generator/diag"
	constString := func(info *types.Info, e ast.Expr) (string, bool) {
		tv, ok := info.Types[e]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(tv.Value), true
	}
	seen := 0
	for _, p := range pkgs {
		if p.PkgPath == diagPath {
			continue
		}
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				var rule, sev string
				var ok bool
				switch x := n.(type) {
				case *ast.CallExpr:
					sel, isSel := x.Fun.(*ast.SelectorExpr)
					if !isSel || len(x.Args) < 2 {
						return true
					}
					fn, isFn := p.TypesInfo.Uses[sel.Sel].(*types.Func)
					if !isFn || fn.Pkg() == nil || fn.Pkg().Path() != diagPath || fn.Name() != "Errorf" {
						return true
					}
					if rule, ok = constString(p.TypesInfo, x.Args[1]); !ok {
						return true
					}
					sev = string(diag.Error)
				case *ast.CompositeLit:
					tv, isT := p.TypesInfo.Types[x]
					named, isN := types.Unalias(tv.Type).(*types.Named)
					if !isT || !isN || named.Obj().Name() != "Diagnostic" || named.Obj().Pkg().Path() != diagPath {
						return true
					}
					var haveRule, haveSev bool
					for _, el := range x.Elts {
						kv, isKV := el.(*ast.KeyValueExpr)
						if !isKV {
							continue
						}
						switch kv.Key.(*ast.Ident).Name {
						case "Rule":
							rule, haveRule = constString(p.TypesInfo, kv.Value)
						case "Severity":
							sev, haveSev = constString(p.TypesInfo, kv.Value)
						}
					}
					if !haveRule || !haveSev {
						return true
					}
				default:
					return true
				}
				seen++
				r, known := diag.LookupRule(diag.RuleID(rule))
				if !known || r.Severity == diag.Off || diag.Severity(sev) == r.Severity || secondSeverity[r.ID] == diag.Severity(sev) {
					return true
				}
				t.Errorf("%s: %s reported as %s, but its default severity is %s; change the catalogue's default or the diagnostic",
					p.Fset.Position(n.Pos()), rule, sev, r.Severity)
				return true
			})
		}
	}
	if seen < 20 {
		t.Errorf("found only %d diagnostics with a constant rule and severity; the scan is not seeing the module", seen)
	}
}

// loadModule type-checks every package of the module (test files aside).
// loadModule type-checks every package of the module once for the tests
// that read its source (the load compiles export data for every
// dependency: the slowest part of this package under -race).
func loadModule(t *testing.T) []*packages.Package {
	t.Helper()
	pkgs, err := moduleOnce()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

var moduleOnce = sync.OnceValues(func() ([]*packages.Package, error) {
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
		Dir:  "../..",
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, err
	}
	if packages.PrintErrors(pkgs) > 0 {
		return nil, errors.New("packages did not load")
	}
	return pkgs, nil
})
