package viewer

import (
	"fmt"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
	"github.com/shopspring/decimal"
)

// Derivation explains a derived evidence value to a reader: the
// expression over its inputs' local names, the same expression over their
// values, and the result, as in "after − mid2", "18 − 17", "+1".
type Derivation struct {
	// Expr is the expression with names shortened by their common
	// prefix ("after − mid2"); Numbers substitutes each input's value
	// with its unit ("18 − 17").
	Expr    string `json:"expr"`
	Numbers string `json:"numbers"`
	// Result is the derived value at the precision given to
	// explainDerived, with its unit and, for a difference, its sign.
	// Approx is true when that rounding changed the exact value.
	Result string `json:"result"`
	Approx bool   `json:"approx,omitempty"`
	// Inputs are the named values the expression reads, in first-use
	// order, each with its own raw position.
	Inputs []*evidence.Value `json:"-"`
}

// derivedFuncNames are the functions of evidence [derived] expressions
// (see generator/evidence); parsed here as plain calls.
var derivedFuncNames = []string{"delta", "ratio", "percent", "sum", "min", "max", "mean"}

func exprConfig() *conf.Config {
	c := conf.CreateNew()
	for _, f := range derivedFuncNames {
		c.Disabled[f] = true
		c.Functions[f] = &builtin.Function{Name: f}
	}
	return c
}

// explainDerived returns the derivation of the derived value v, whose
// inputs are looked up in st, rounding the result to places decimal
// places (negative: the exact value). It reports false for a value that
// is not derived or whose expression it cannot read.
func explainDerived(v *evidence.Value, st *evidence.Store, places int) (Derivation, bool) {
	if v == nil || !v.Derived {
		return Derivation{}, false
	}
	root, err := parserParse(v.Raw)
	if err != nil {
		return Derivation{}, false
	}
	names := collectNames(root)
	d := Derivation{}
	values := map[string]*evidence.Value{}
	for _, name := range names {
		in, ok := st.Lookup(v.Set + "/" + name)
		if !ok {
			return Derivation{}, false
		}
		values[name] = in
		d.Inputs = append(d.Inputs, in)
	}
	short := shortNames(names)
	label := func(name string) string { return short[name] }
	number := func(name string) string {
		in := values[name]
		r, approx := shownDecimal(in, st)
		d.Approx = d.Approx || approx
		return formatQuantity(r, in.Unit, false)
	}
	var ok bool
	if d.Expr, ok = renderExpr(root, label); !ok {
		return Derivation{}, false
	}
	d.Numbers, _ = renderExpr(root, number)
	r := v.Value
	if places >= 0 && int32(places) < -r.Exponent() {
		r = r.Round(int32(places))
		d.Approx = d.Approx || !r.Equal(v.Value)
	} else {
		var approx bool
		r, approx = shownDecimal(v, st)
		d.Approx = d.Approx || approx
	}
	d.Result = formatQuantity(r, v.Unit, v.Delta)
	return d, true
}

// maxShownDigits is the most significant digits a page shows of a value
// (a popover's exact value, a derivation, an evidence table): a quotient
// such as 18/41 is exact only as a 28-place expansion
// (43.9024390243902439024390243902), which no source states.
const maxShownDigits = 12

// shownDecimal returns a value as pages show it, and whether that is
// rounded: the value itself when it has at most maxShownDigits
// significant digits; else (a derived value's long expansion) rounded to
// the digits its inputs justify, justifiedDigits, at most
// maxShownDigits.
func shownDecimal(v *evidence.Value, st *evidence.Store) (decimal.Decimal, bool) {
	if sigDigits(v.Value) <= maxShownDigits {
		return v.Value, false
	}
	r := roundSignificant(v.Value, min(maxShownDigits, justifiedDigits(v, st, 0)))
	return r, !r.Equal(v.Value)
}

// shownQuantity is formatQuantity of shownDecimal, "≈" before a rounded
// value.
func shownQuantity(v *evidence.Value, st *evidence.Store) string {
	r, approx := shownDecimal(v, st)
	s := formatQuantity(r, v.Unit, v.Delta)
	if approx {
		s = "≈" + s
	}
	return s
}

// justifiedDigits returns the significant digits a value's inputs
// justify: a raw value's own (as written: 409610 has 6, 0.21 has 2); a
// derived value's, the most of its inputs' plus 3 (18/41 → 5:
// 43.902 %), which keeps every precision a claim on it is written at
// within reach of the popover's figure. depth bounds nested derivations.
func justifiedDigits(v *evidence.Value, st *evidence.Store, depth int) int {
	if !v.Derived || depth > 8 {
		return sigDigits(v.Value)
	}
	root, err := parserParse(v.Raw)
	if err != nil {
		return maxShownDigits
	}
	most := 0
	for _, name := range collectNames(root) {
		in, ok := st.Lookup(v.Set + "/" + name)
		if !ok {
			return maxShownDigits
		}
		most = max(most, justifiedDigits(in, st, depth+1))
	}
	if most == 0 {
		return maxShownDigits
	}
	return most + 3
}

// sigDigits returns the significant digits of d: those of its
// coefficient without trailing zeros after the decimal point (0.210 and
// 0.21 have 2; 409610 has 6; 0 has 1).
func sigDigits(d decimal.Decimal) int {
	c := d.Coefficient()
	c.Abs(c)
	s := c.String()
	for exp := d.Exponent(); exp < 0 && len(s) > 1 && s[len(s)-1] == '0'; exp++ {
		s = s[:len(s)-1]
	}
	return len(s)
}

// roundSignificant rounds d to n significant digits.
func roundSignificant(d decimal.Decimal, n int) decimal.Decimal {
	if d.IsZero() || n < 1 {
		return d
	}
	c := d.Coefficient()
	c.Abs(c)
	// the exponent of d's leading digit
	lead := len(c.String()) - 1 + int(d.Exponent())
	return d.Round(int32(n - 1 - lead))
}

// shortNames drops the dot-separated segments every name shares at its
// start, keeping at least the last segment of each.
func shortNames(names []string) map[string]string {
	out := map[string]string{}
	if len(names) == 0 {
		return out
	}
	split := make([][]string, len(names))
	common := -1
	for i, n := range names {
		split[i] = strings.Split(n, ".")
		if common < 0 || len(split[i])-1 < common {
			common = len(split[i]) - 1
		}
	}
	for k := 0; k < common; k++ {
		for _, s := range split[1:] {
			if s[k] != split[0][k] {
				common = k
				break
			}
		}
	}
	if len(names) == 1 {
		common = len(split[0]) - 1
	}
	for i, n := range names {
		out[n] = strings.Join(split[i][common:], ".")
	}
	return out
}

// renderExpr writes an expression for readers: delta(a, b) as b − a,
// ratio and percent as a / b, sum as a + b + …, other calls as written.
func renderExpr(n ast.Node, leaf func(string) string) (string, bool) {
	if name, ok := evidence.DottedName(n); ok {
		return leaf(name), true
	}
	sub := func(n ast.Node) (string, bool) {
		s, ok := renderExpr(n, leaf)
		if _, bin := n.(*ast.BinaryNode); bin {
			s = "(" + s + ")"
		}
		return s, ok
	}
	args := func(ns []ast.Node) ([]string, bool) {
		var out []string
		for _, a := range ns {
			s, ok := sub(a)
			if !ok {
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	switch n := n.(type) {
	case *ast.IntegerNode:
		return fmt.Sprint(n.Value), true
	case *ast.FloatNode:
		return decimal.NewFromFloat(n.Value).String(), true
	case *ast.UnaryNode:
		s, ok := sub(n.Node)
		return opSymbol(n.Operator) + s, ok
	case *ast.BinaryNode:
		a, ok1 := sub(n.Left)
		b, ok2 := sub(n.Right)
		return a + " " + opSymbol(n.Operator) + " " + b, ok1 && ok2
	case *ast.CallNode:
		name, ok := evidence.DottedName(n.Callee)
		if !ok {
			return "", false
		}
		xs, ok := args(n.Arguments)
		return callText(name, xs), ok
	case *ast.BuiltinNode:
		xs, ok := args(n.Arguments)
		return callText(n.Name, xs), ok
	}
	return "", false
}

func callText(name string, xs []string) string {
	switch {
	case name == "delta" && len(xs) == 2:
		return xs[1] + " − " + xs[0]
	case (name == "ratio" || name == "percent") && len(xs) == 2:
		return xs[0] + " / " + xs[1]
	case name == "sum":
		return strings.Join(xs, " + ")
	}
	return name + "(" + strings.Join(xs, ", ") + ")"
}

func opSymbol(op string) string {
	switch op {
	case "-":
		return "−"
	case "*":
		return "×"
	}
	return op
}

// formatQuantity writes a value with its unit: "%" attached, other
// physical units after a space, "count" and "x" as plain numbers and
// multiples. signed adds "+" to a positive difference.
func formatQuantity(v decimal.Decimal, unit string, signed bool) string {
	s := v.String()
	if strings.HasPrefix(s, "-") {
		s = "−" + s[1:]
	} else if signed && v.IsPositive() {
		s = "+" + s
	}
	switch unit {
	case "", "count":
		return s
	case "%", "x":
		return s + unit
	case "/s":
		return s + " /s"
	}
	return s + " " + unit
}

// parserParse parses a [derived] expression.
func parserParse(expr string) (ast.Node, error) {
	tree, err := parser.ParseWithConfig(expr, exprConfig())
	if err != nil {
		return nil, err
	}
	return tree.Node, nil
}

// collectNames returns the value names an expression reads, in first-use
// order.
func collectNames(n ast.Node) []string {
	var names []string
	seen := map[string]bool{}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		if name, ok := evidence.DottedName(n); ok {
			if !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
			return
		}
		switch n := n.(type) {
		case *ast.UnaryNode:
			walk(n.Node)
		case *ast.BinaryNode:
			walk(n.Left)
			walk(n.Right)
		case *ast.CallNode:
			for _, a := range n.Arguments {
				walk(a)
			}
		case *ast.BuiltinNode:
			for _, a := range n.Arguments {
				walk(a)
			}
		}
	}
	walk(n)
	return names
}
