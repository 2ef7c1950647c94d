package evidence

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/parser"
	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/labreport"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// divisionPrecision is the number of decimal places kept by division:
// far beyond any precision an author writes.
const divisionPrecision = 28

// Functions available in [derived] expressions, besides + - * / and
// parentheses. All take and return exact decimals.
//
//	delta(a, b)     b - a (a snapshot difference, later minus earlier)
//	ratio(a, b)     a / b
//	percent(a, b)   100 * a / b
//	sum(x, ...)     x + ...
//	min(x, ...), max(x, ...), mean(x, ...)
var derivedFuncs = []string{"delta", "ratio", "percent", "sum", "min", "max", "mean"}

// derive evaluates the manifest's [derived] values in dependency order and
// adds them to set. Errors name the declaration in the manifest, or the
// table cell that is not a number. fatal reports errors that make the
// set unusable (a derived name that is also read from a file); the
// values that merely could not be computed are recorded in
// set.Unavailable with their error's position, and the others are kept.
func derive(set *Set, mix *diag.LineIndex, src []byte) (errs diag.List, fatal bool) {
	names := make([]string, 0, len(set.Manifest.Derived))
	for n := range set.Manifest.Derived {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if v, ok := set.peek(n); ok {
			errs = append(errs, diag.Errorf(manifest.LocateIn(mix, src, "[derived]", n), diag.EvidenceDuplicate, "derived value %q is also read from %s; expected unique names", n, v.Pos))
		}
	}
	if errs != nil {
		return errs, true
	}
	state := map[string]int{} // 0 unvisited, 1 visiting, 2 done
	var eval func(name string, stack []string) (*Value, error)
	eval = func(name string, stack []string) (*Value, error) {
		if v, ok := set.Value(name); ok && state[name] != 1 {
			return v, nil
		}
		text, ok := set.Manifest.Derived[name]
		if !ok {
			if c, isCell := set.NonNumeric[name]; isCell {
				return nil, &cellError{cell: c, name: name}
			}
			return nil, fmt.Errorf("unknown value %q", name)
		}
		if state[name] == 1 {
			return nil, fmt.Errorf("dependency cycle %s -> %s", strings.Join(stack, " -> "), name)
		}
		state[name] = 1
		defer func() { state[name] = 2 }()
		tree, err := parser.ParseWithConfig(text, parserConfig())
		if err != nil {
			return nil, fmt.Errorf("cannot parse expression %q: %v", text, firstLine(err.Error()))
		}
		e := &evaluator{lookup: func(n string) (*Value, error) { return eval(n, append(stack, name)) }}
		q, err := e.eval(tree.Node)
		if err != nil {
			return nil, fmt.Errorf("%s = %q: %w", name, text, err)
		}
		d := q.v
		if set.has(name) {
			return nil, fmt.Errorf("derived value %q is also read from a file; expected unique names", name)
		}
		v := &Value{Ref: set.Manifest.ID + "/" + name, Set: set.Manifest.ID, Name: name, Value: d,
			Unit: q.unit, Raw: text, Pos: manifest.LocateIn(mix, src, "[derived]", name), Derived: true, Inputs: e.inputs, Delta: isDifference(tree.Node)}
		if q.unit == "%p" && q.hasBase && !q.base.IsZero() {
			b := q.base
			v.PointsFrom = &b
		}
		set.values[name] = v
		return v, nil
	}
	for _, n := range names {
		if state[n] == 2 {
			continue
		}
		if _, err := eval(n, nil); err != nil {
			if set.Unavailable == nil {
				set.Unavailable = map[string]diag.Position{}
			}
			var ce *cellError
			if errors.As(err, &ce) {
				errs = append(errs, diag.Diagnostic{Pos: ce.cell.Pos, Severity: diag.Error, Rule: diag.EvidenceDerived,
					Message: fmt.Sprintf("%s; expected a number for %s, which derived value %s uses", cellText(ce.cell), ce.name, n),
					Related: []diag.Related{{Pos: manifest.LocateIn(mix, src, "[derived]", n), Message: "derived value " + n}}})
				set.Unavailable[n] = ce.cell.Pos
				continue
			}
			d := diag.Errorf(manifest.LocateIn(mix, src, "[derived]", n), diag.EvidenceDerived, "%v", err)
			errs = append(errs, d)
			set.Unavailable[n] = d.Pos
		}
	}
	if len(errs) > 0 {
		errs.Sort()
		return errs, false
	}
	return nil, false
}

// cellError is a derived value's input that names a table cell holding
// text, not a number; it is reported at the cell.
type cellError struct {
	cell labreport.Cell
	name string
}

func (e *cellError) Error() string {
	return fmt.Sprintf("%s: %s; expected a number for %s", e.cell.Pos, cellText(e.cell), e.name)
}

// cellText describes a table cell that is not a number: empty, or the
// text it holds.
func cellText(c labreport.Cell) string {
	if c.Text == "" {
		return "the table cell is empty"
	}
	return fmt.Sprintf("%q is not a number", c.Text)
}

// isDifference reports whether an expression's top level is delta() or a
// subtraction, or percent() or ratio() of one (a relative change).
func isDifference(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.BinaryNode:
		return n.Operator == "-"
	case *ast.CallNode:
		name, _ := DottedName(n.Callee)
		// a relative change, percent(delta(a, b), a), is a change too
		return name == "delta" || (name == "percent" || name == "ratio") && len(n.Arguments) == 2 && isDifference(n.Arguments[0])
	}
	return false
}

// parserConfig disables expr's builtins of the same names, so that
// sum(a, b) and the like parse as plain calls evaluated over decimals.
func parserConfig() *conf.Config {
	c := conf.CreateNew()
	for _, f := range derivedFuncs {
		c.Disabled[f] = true
		c.Functions[f] = &builtin.Function{Name: f}
	}
	return c
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

type evaluator struct {
	lookup func(name string) (*Value, error)
	inputs []diag.Position
	seen   map[diag.Position]bool
}

func (e *evaluator) addInputs(v *Value) {
	if e.seen == nil {
		e.seen = map[diag.Position]bool{}
	}
	ps := []diag.Position{v.Pos}
	if len(v.Inputs) > 0 {
		ps = v.Inputs
	}
	for _, p := range ps {
		if !e.seen[p] {
			e.seen[p] = true
			e.inputs = append(e.inputs, p)
		}
	}
}

// DottedName flattens an expr-lang identifier or member chain (a.b.c, as
// a derived value's expression names its inputs) into the value name
// "a.b.c". It reports false for any other node (calls, literals, index or
// method access). The site's derivation display uses it too, so an input
// is named the same way where it is computed and where it is shown.
func DottedName(n ast.Node) (string, bool) {
	switch n := n.(type) {
	case *ast.IdentifierNode:
		return n.Value, true
	case *ast.MemberNode:
		base, ok := DottedName(n.Node)
		prop, isStr := n.Property.(*ast.StringNode)
		if !ok || !isStr || n.Method {
			return "", false
		}
		return base + "." + prop.Value, true
	case *ast.ChainNode:
		return DottedName(n.Node)
	}
	return "", false
}

// qty is an exact value with its unit ("" for a plain number).
type qty struct {
	v    decimal.Decimal
	unit string
	// base is, for a difference, the value it is taken from (a of
	// delta(a, b), b of a - b), in unit: with a difference in %p, the
	// relative change is v/base.
	base    decimal.Decimal
	hasBase bool
	// constant: a number written in the expression (the 1 of 1 - x),
	// which takes the unit of the other operands; a value without a
	// unit does not.
	constant bool
}

// sameUnit converts operands that must agree (+, -, delta, sum, min,
// max, mean, percent) into their common unit (unit.Common: ms and us
// meet in us, ratio and % in %) in place and returns the unit of the
// result: that unit, or for a difference (diff) of two percentages
// percentage points (unit.Difference).
func sameUnit(op string, diff bool, qs []qty) (string, error) {
	us := make([]string, len(qs))
	for i, q := range qs {
		us[i] = q.unit
	}
	for _, q := range qs {
		if q.unit == "" && !q.constant {
			for _, o := range qs {
				if o.unit != "" {
					return "", fmt.Errorf("%s cannot combine a value without a unit with one in %s: its unit is not known; expected operands in one unit (declare the value's unit in units = { … })", op, o.unit)
				}
			}
		}
	}
	in, err := unit.Common(op, us...)
	out := in
	if diff {
		in, out, err = unit.Difference(op, us...)
	}
	if err != nil {
		return "", err
	}
	for i := range qs {
		if qs[i].unit == "" || qs[i].unit == in {
			continue
		}
		c, ok := unit.Convert(qs[i].v, qs[i].unit, in)
		if !ok {
			return "", fmt.Errorf("%s cannot convert %s into %s", op, qs[i].unit, in)
		}
		qs[i].v, qs[i].unit = c, in
	}
	return out, nil
}

// maxDerivedDigits bounds every intermediate result of a derived
// expression: at most this many significant digits and a decimal exponent
// within ±maxDerivedDigits. Exact products double their digits, so
// without it a chain of derived squares (d1 = d0 * d0, d2 = d1 * d1, …)
// grows without end; with it an operation costs at most a product of two
// such numbers, and a measurement needs far fewer digits.
const maxDerivedDigits = 1000

// eval evaluates n and refuses a result beyond maxDerivedDigits.
func (e *evaluator) eval(n ast.Node) (qty, error) {
	q, err := e.eval1(n)
	if err == nil && (q.v.NumDigits() > maxDerivedDigits || q.v.Exponent() > maxDerivedDigits || q.v.Exponent() < -maxDerivedDigits) {
		return qty{}, fmt.Errorf("%s gives a number of %d digits (exponent %d); expected at most %d digits and an exponent within ±%d (a derived value's limit)",
			cutExpr(n.String()), q.v.NumDigits(), q.v.Exponent(), maxDerivedDigits, maxDerivedDigits)
	}
	return q, err
}

// cutExpr is an expression's text cut to 80 bytes for a message.
func cutExpr(s string) string {
	if len(s) <= 80 {
		return s
	}
	n := 80
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func (e *evaluator) eval1(n ast.Node) (qty, error) {
	if name, ok := DottedName(n); ok {
		v, err := e.lookup(name)
		if err != nil {
			return qty{}, err
		}
		e.addInputs(v)
		return qty{v: v.Value, unit: v.Unit}, nil
	}
	switch n := n.(type) {
	case *ast.IntegerNode:
		return qty{v: decimal.NewFromInt(int64(n.Value)), constant: true}, nil
	case *ast.FloatNode:
		return qty{v: decimal.NewFromFloat(n.Value), constant: true}, nil
	case *ast.UnaryNode:
		x, err := e.eval(n.Node)
		if err != nil {
			return x, err
		}
		switch n.Operator {
		case "-":
			return qty{v: x.v.Neg(), unit: x.unit, base: x.base, hasBase: x.hasBase, constant: x.constant}, nil
		case "+":
			return x, nil
		}
		return x, fmt.Errorf("unsupported operator %q; expected + - * / and %s", n.Operator, strings.Join(derivedFuncs, ", "))
	case *ast.BinaryNode:
		a, err := e.eval(n.Left)
		if err != nil {
			return a, err
		}
		b, err := e.eval(n.Right)
		if err != nil {
			return b, err
		}
		switch n.Operator {
		case "+", "-":
			ab := []qty{a, b}
			u, err := sameUnit(n.Operator, n.Operator == "-", ab)
			if err != nil {
				return qty{}, err
			}
			if n.Operator == "+" {
				return qty{v: ab[0].v.Add(ab[1].v), unit: u, constant: a.constant && b.constant}, nil
			}
			// a difference of two percentages keeps the one it is taken from
			return qty{v: ab[0].v.Sub(ab[1].v), unit: u, base: ab[1].v, hasBase: ab[1].unit == "%", constant: a.constant && b.constant}, nil
		case "*":
			u, err := unit.Product(a.unit, b.unit)
			if err != nil {
				return qty{}, err
			}
			return qty{v: a.v.Mul(b.v), unit: u, constant: a.constant && b.constant}, nil
		case "/":
			u, err := unit.Quotient(a.unit, b.unit)
			if err != nil {
				return qty{}, err
			}
			d, err := div(a.v, b.v)
			return qty{v: d, unit: u, constant: a.constant && b.constant}, err
		}
		return a, fmt.Errorf("unsupported operator %q; expected + - * / and %s", n.Operator, strings.Join(derivedFuncs, ", "))
	case *ast.CallNode:
		name, ok := DottedName(n.Callee)
		if !ok {
			return qty{}, fmt.Errorf("unsupported call; expected one of %s", strings.Join(derivedFuncs, ", "))
		}
		return e.call(name, n.Arguments)
	case *ast.BuiltinNode:
		return e.call(n.Name, n.Arguments)
	}
	return qty{}, fmt.Errorf("unsupported expression %q; expected names, numbers, + - * / and %s", n.String(), strings.Join(derivedFuncs, ", "))
}

func div(a, b decimal.Decimal) (decimal.Decimal, error) {
	if b.IsZero() {
		return b, fmt.Errorf("division by zero")
	}
	return a.DivRound(b, divisionPrecision), nil
}

func (e *evaluator) call(name string, args []ast.Node) (qty, error) {
	xs := make([]qty, len(args))
	vs := make([]decimal.Decimal, len(args))
	for i, a := range args {
		x, err := e.eval(a)
		if err != nil {
			return x, err
		}
		xs[i], vs[i] = x, x.v
	}
	need := func(n int) error {
		if len(xs) != n {
			return fmt.Errorf("%s takes %d arguments, got %d", name, n, len(xs))
		}
		return nil
	}
	switch name {
	case "delta":
		if err := need(2); err != nil {
			return qty{}, err
		}
		u, err := sameUnit(name, true, xs)
		return qty{v: xs[1].v.Sub(xs[0].v), unit: u, base: xs[0].v, hasBase: xs[0].unit == "%"}, err
	case "ratio":
		if err := need(2); err != nil {
			return qty{}, err
		}
		u, err := unit.Quotient(xs[0].unit, xs[1].unit)
		if err != nil {
			return qty{}, err
		}
		d, err := div(xs[0].v, xs[1].v)
		return qty{v: d, unit: u}, err
	case "percent":
		if err := need(2); err != nil {
			return qty{}, err
		}
		for i := range xs {
			if xs[i].unit == "%p" {
				xs[i].unit = "%" // a change in points, over the percentage it is taken from
			}
		}
		if _, err := sameUnit(name, false, xs); err != nil {
			return qty{}, err
		}
		d, err := div(xs[0].v.Mul(decimal.NewFromInt(100)), xs[1].v)
		return qty{v: d, unit: "%"}, err
	case "sum", "min", "max", "mean":
		if len(xs) == 0 {
			return qty{}, fmt.Errorf("%s needs at least one argument", name)
		}
		u, err := sameUnit(name, false, xs)
		if err != nil {
			return qty{}, err
		}
		for i := range xs {
			vs[i] = xs[i].v
		}
		switch name {
		case "sum":
			return qty{v: decimal.Sum(vs[0], vs[1:]...), unit: u}, nil
		case "min":
			return qty{v: decimal.Min(vs[0], vs[1:]...), unit: u}, nil
		case "max":
			return qty{v: decimal.Max(vs[0], vs[1:]...), unit: u}, nil
		}
		d, err := div(decimal.Sum(vs[0], vs[1:]...), decimal.NewFromInt(int64(len(vs))))
		return qty{v: d, unit: u}, err
	}
	return qty{}, fmt.Errorf("unknown function %q; expected one of %s", name, strings.Join(derivedFuncs, ", "))
}
