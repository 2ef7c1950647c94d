package structured

import (
	"fmt"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm"
)

// The bounds of a count_where predicate (CSV and access-log readers): it
// runs once per row or line, so its cost per row must not depend on what
// the manifest makes it build. A predicate has at most PredicateMaxNodes
// syntax nodes, and on one row it may build at most PredicateBudget
// elements (expr-lang's memory budget: the elements of ranges, arrays and
// maps, the bytes of repeat(), and every element a count, map or filter
// walks lives in one of these). `let` and reduce() are refused: with them
// a few nodes double a string at each step. A row's work is therefore at
// most about PredicateMaxNodes + PredicateBudget steps, and
// count(1..900000, # > 0) is an error at the first row instead of an hour
// of checking.
const (
	PredicateMaxNodes = 1000
	PredicateBudget   = 1000
)

// predicateGuard records the first construct compilePredicate refuses.
type predicateGuard struct{ refused string }

func (g *predicateGuard) Visit(node *ast.Node) {
	if g.refused != "" {
		return
	}
	switch n := (*node).(type) {
	case *ast.VariableDeclaratorNode:
		g.refused = "let " + n.Name
	case *ast.BuiltinNode:
		if n.Name == "reduce" {
			g.refused = "reduce()"
		}
	}
}

// compilePredicate compiles a count_where predicate with the options of
// its reader and the bounds above.
func compilePredicate(pred string, opts ...expr.Option) (*vm.Program, error) {
	g := &predicateGuard{}
	opts = append(opts, expr.MaxNodes(PredicateMaxNodes), expr.Patch(g))
	prog, err := expr.Compile(pred, opts...)
	if err != nil {
		if strings.Contains(err.Error(), "exceeds maximum allowed nodes") {
			return nil, fmt.Errorf("the predicate has more than %d syntax nodes (count_where's limit)", PredicateMaxNodes)
		}
		return nil, err
	}
	if g.refused != "" {
		return nil, fmt.Errorf("%s is not allowed in a count_where predicate (it can grow a value without bound on every row)", g.refused)
	}
	return prog, nil
}

// budgetError is the error of a predicate that built more than
// PredicateBudget elements on one row.
func budgetError() error {
	return fmt.Errorf("the predicate builds more than %d elements on one row (ranges, arrays, maps, repeat(): count_where's budget per row)", PredicateBudget)
}
