package report

import (
	"fmt"
	"io"

	udiff "github.com/aymanbagabas/go-udiff"

	"github.com/evdoc-lab/evdoc/generator/fix"
)

// WriteFixDiff writes what `evdoc fix --dry-run` shows for one page: a
// unified diff of its source old against the rewritten nw, with the
// page's repository-relative path under a/ and b/ (git's convention).
func WriteFixDiff(w io.Writer, page string, old, nw []byte) error {
	_, err := io.WriteString(w, udiff.Unified("a/"+page, "b/"+page, string(old), string(nw)))
	return err
}

// WriteRewrites writes the literals `evdoc fix` rewrote in one page, one
// line each: `file:line:col: "old" -> "new" (message of the fix)`.
func WriteRewrites(log io.Writer, es []fix.Edit) error {
	for _, e := range es {
		if _, err := fmt.Fprintf(log, "%s: %q -> %q (%s)\n", e.Pos, e.Old, e.New, e.Ref); err != nil {
			return err
		}
	}
	return nil
}

// WriteFixSummary writes the line that ends `evdoc fix`: how many
// literals it rewrote, and, when a signal stopped it between pages, that
// the other pages are unchanged.
func WriteFixSummary(log io.Writer, rewritten int, interrupted bool) error {
	var err error
	if interrupted {
		_, err = fmt.Fprintf(log, "evdoc: %d literal(s) rewritten before the interruption; the other pages are unchanged\n", rewritten)
	} else {
		_, err = fmt.Fprintf(log, "evdoc: %d literal(s) rewritten\n", rewritten)
	}
	return err
}
