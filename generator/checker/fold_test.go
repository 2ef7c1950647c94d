package checker

import (
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// TestFoldTranslationClaims: a slip in the source's claim is reported
// once, as the source's error with the translation's finding as its note;
// a translation whose own claim is wrong keeps its finding.
func TestFoldTranslationClaims(t *testing.T) {
	ko := func(line, off int) diag.Position {
		return diag.Position{File: "content/ko/p.md", Line: line, Column: off, Offset: off}
	}
	ja := func(line, off int) diag.Position {
		return diag.Position{File: "content/ja/p.md", Line: line, Column: off, Offset: off}
	}
	mismatch := func(p diag.Position) diag.Diagnostic {
		return diag.Diagnostic{Pos: p, Severity: diag.Error, Rule: diag.ClaimMismatch, Message: "does not match"}
	}
	pair := func(target, source diag.Position) diag.Diagnostic {
		return diag.Diagnostic{Pos: target, End: diag.Position{File: target.File, Line: target.Line, Offset: target.Offset + 6}, Severity: diag.Error, Rule: diag.TranslationClaims,
			Message: "[4件] says 4 where the ko source's [5건] says 5 (same evidence s/v)", Related: []diag.Related{{Pos: source, Message: "the source claim"}}}
	}
	// the source wrong, the translation right: one finding
	got := foldTranslationClaims(diag.List{mismatch(ko(7, 54)), pair(ja(7, 63), ko(7, 54))})
	if len(got) != 1 || got[0].Rule != diag.ClaimMismatch || len(got[0].Related) != 1 || !strings.Contains(got[0].Related[0].Message, "[4件] says 4") || got[0].Related[0].Pos != ja(7, 63) {
		t.Errorf("source wrong, translation right: %v", got)
	}
	// both wrong: both findings stay
	got = foldTranslationClaims(diag.List{mismatch(ko(7, 54)), mismatch(ja(7, 63)), pair(ja(7, 63), ko(7, 54))})
	if len(got) != 3 {
		t.Errorf("both wrong: %d findings, want 3: %v", len(got), got)
	}
	// the translation wrong, the source right: the translation's finding stays
	got = foldTranslationClaims(diag.List{mismatch(ja(7, 63)), pair(ja(7, 63), ko(7, 54))})
	if len(got) != 2 {
		t.Errorf("translation wrong: %d findings, want 2: %v", len(got), got)
	}
	// a claim the translation lacks is its own finding
	lacks := pair(ja(1, 1), ko(7, 54))
	lacks.Message = "the ko source quotes s/v as [5건] in this section; this page does not"
	got = foldTranslationClaims(diag.List{mismatch(ko(7, 54)), lacks})
	if len(got) != 2 {
		t.Errorf("translation lacks the claim: %d findings, want 2: %v", len(got), got)
	}
	// a source error on another line is not this claim's
	got = foldTranslationClaims(diag.List{mismatch(ko(9, 54)), pair(ja(7, 63), ko(7, 54))})
	if len(got) != 2 {
		t.Errorf("unrelated source error: %d findings, want 2: %v", len(got), got)
	}
}
