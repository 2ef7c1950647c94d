package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/impact"
)

// SummaryLimit is the size GitHub Actions accepts for one step's job
// summary ($GITHUB_STEP_SUMMARY, 1 MiB); WriteImpact's Markdown stays
// under it and says what it left out.
const SummaryLimit = 1 << 20

// impactFirstScreen is how many claims the Markdown shows before the rest
// go into a collapsed <details> block.
const impactFirstScreen = 10

// WriteImpact writes r as text, json or markdown (GitHub-flavoured, for a
// job summary or a pull-request comment).
func WriteImpact(w io.Writer, format string, r *impact.Report) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	case "markdown":
		return writeImpactMarkdown(w, r, SummaryLimit)
	case "text", "":
		return writeImpactText(w, r)
	}
	return fmt.Errorf("unknown format %q; expected text, json or markdown", format)
}

func sideText(s *impact.Side) string {
	if s == nil {
		return "—"
	}
	v := s.Value
	if d, err := decimal.NewFromString(v); err == nil && d.Exponent() < -9 {
		v = d.Round(9).String() + "…" // a derived value's long fraction
	}
	return v + s.Unit
}

func posText(s *impact.Side) string {
	if s == nil || s.Pos.File == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d", s.Pos.File, s.Pos.Line)
}

func changeText(c impact.Change) string {
	switch c.Kind {
	case "added":
		return fmt.Sprintf("%s added: %s (%s)", c.Ref, sideText(c.New), posText(c.New))
	case "removed":
		return fmt.Sprintf("%s removed: was %s (%s)", c.Ref, sideText(c.Old), posText(c.Old))
	}
	return fmt.Sprintf("%s: %s → %s (%s)", c.Ref, sideText(c.Old), sideText(c.New), posPair(c))
}

// posPair is where a changed value was read on both sides, once when it
// is the same line.
func posPair(c impact.Change) string {
	o, n := posText(c.Old), posText(c.New)
	if o == n || o == "" {
		return n
	}
	if n == "" {
		return o
	}
	return o + " → " + n
}

func claimText(c impact.Claim) string {
	s := fmt.Sprintf("%s: [%s] %s (cites %s)", c.Pos, c.Literal, c.Verdict(), strings.Join(c.Refs, ", "))
	switch {
	case c.NewOK && c.Rounds():
		s += fmt.Sprintf("; at its precision it would now read %s, not %s", c.NewExpected, c.OldExpected)
	case !c.NewOK && c.NewExpected != "":
		s += "; expected " + c.NewExpected
	}
	return s
}

func writeImpactText(w io.Writer, r *impact.Report) error {
	var b strings.Builder
	for _, u := range r.Unloaded {
		fmt.Fprintf(&b, "evidence set %s does not load: its values are not compared\n", u)
	}
	if r.Empty() {
		fmt.Fprintf(&b, "evdoc impact: no evidence value changed since %s\n", r.Base)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "evidence values changed since %s: %d\n", r.Base, len(r.Values))
	for _, c := range r.Values {
		fmt.Fprintf(&b, "  %s\n", changeText(c))
	}
	fmt.Fprintf(&b, "claims citing them: %d\n", len(r.Claims))
	for _, c := range r.Claims {
		fmt.Fprintf(&b, "  %s\n", claimText(c))
	}
	if len(r.Figures) > 0 {
		fmt.Fprintf(&b, "figures to render again (evdoc figures): %d\n", len(r.Figures))
		for _, f := range r.Figures {
			fmt.Fprintf(&b, "  %s (reads %s)\n", f.Name, strings.Join(f.Refs, ", "))
		}
	}
	if len(r.Pages) > 0 {
		fmt.Fprintf(&b, "pages whose claims or figures changed: %s\n", strings.Join(r.Pages, ", "))
	}
	for _, t := range r.Translations {
		fmt.Fprintf(&b, "translation to update with its source: %s (source %s)\n", t.Page, t.Source)
	}
	fails := 0
	for _, c := range r.Claims {
		if !c.NewOK {
			fails++
		}
	}
	fmt.Fprintf(&b, "evdoc impact: %d value(s) changed, %d claim(s) cite them, %d fail now, %d figure(s), %d page(s)\n", len(r.Values), len(r.Claims), fails, len(r.Figures), len(r.Pages))
	_, err := io.WriteString(w, b.String())
	return err
}

// mdEscaper escapes text for a Markdown table cell or list item (built
// once: a report can have tens of thousands of cells).
var mdEscaper = strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "\n", " ")

// mdEscape escapes text for a Markdown table cell or list item.
func mdEscape(s string) string { return mdEscaper.Replace(s) }

func writeImpactMarkdown(w io.Writer, r *impact.Report, limit int) error {
	var b strings.Builder
	b.WriteString("### evdoc impact\n\n")
	for _, u := range r.Unloaded {
		fmt.Fprintf(&b, "> Evidence set `%s` does not load: its values are not compared.\n\n", mdEscape(u))
	}
	if r.Empty() {
		fmt.Fprintf(&b, "No evidence value changed since `%s`.\n", mdEscape(r.Base))
		_, err := io.WriteString(w, b.String())
		return err
	}
	fails := 0
	for _, c := range r.Claims {
		if !c.NewOK {
			fails++
		}
	}
	fmt.Fprintf(&b, "Since `%s`: **%d** evidence value(s) changed, **%d** claim(s) cite them, **%d** fail now; %d figure(s) and %d page(s) affected.\n\n", mdEscape(r.Base), len(r.Values), len(r.Claims), fails, len(r.Figures), len(r.Pages))
	rows := make([]string, 0, len(r.Claims))
	for _, c := range r.Claims {
		note := ""
		switch {
		case c.NewOK && c.Rounds():
			note = fmt.Sprintf("would now read %s", c.NewExpected)
		case !c.NewOK && c.NewExpected != "":
			note = "expected " + c.NewExpected
		}
		rows = append(rows, fmt.Sprintf("| %s | %s | `%s` | %s | %s |", verdictMark(c), mdEscape(diagPos(c.Pos)), strings.ReplaceAll(c.Literal, "`", "'"), mdEscape(strings.Join(c.Refs, ", ")), mdEscape(note)))
	}
	header := "| | claim | literal | cites | note |\n|---|---|---|---|---|\n"
	if len(rows) > 0 {
		first := min(len(rows), impactFirstScreen)
		b.WriteString(header + strings.Join(rows[:first], "\n") + "\n\n")
		if len(rows) > first {
			fmt.Fprintf(&b, "<details><summary>%d more claim(s)</summary>\n\n%s%s\n\n</details>\n\n", len(rows)-first, header, strings.Join(rows[first:], "\n"))
		}
	}
	vals := make([]string, 0, len(r.Values))
	for _, c := range r.Values {
		vals = append(vals, fmt.Sprintf("| `%s` | %s | %s | %s |", mdEscape(c.Ref), mdEscape(sideText(c.Old)), mdEscape(sideText(c.New)), mdEscape(posPair(c))))
	}
	fmt.Fprintf(&b, "<details><summary>%d changed value(s)</summary>\n\n| value | old | new | raw line |\n|---|---|---|---|\n%s\n\n</details>\n\n", len(vals), strings.Join(vals, "\n"))
	if len(r.Figures) > 0 || len(r.Pages) > 0 || len(r.Translations) > 0 {
		b.WriteString("<details><summary>figures, pages and translations</summary>\n\n")
		for _, f := range r.Figures {
			fmt.Fprintf(&b, "- figure `%s` to render again (reads %s)\n", mdEscape(f.Name), mdEscape(strings.Join(f.Refs, ", ")))
		}
		for _, p := range r.Pages {
			fmt.Fprintf(&b, "- page `%s`\n", mdEscape(p))
		}
		for _, t := range r.Translations {
			fmt.Fprintf(&b, "- translation `%s` to update with `%s`\n", mdEscape(t.Page), mdEscape(t.Source))
		}
		b.WriteString("\n</details>\n")
	}
	out := b.String()
	if len(out) > limit {
		note := fmt.Sprintf("\n\n…cut at %d bytes (the job summary's limit); `evdoc impact --format=json` lists everything.\n", limit)
		const closing = "\n\n</details>\n\n</details>\n"
		cut := limit - len(note) - len(closing)
		for cut > 0 && !strings.HasPrefix(out[cut:], "\n") {
			cut--
		}
		out = out[:cut]
		open := strings.Count(out, "<details>") - strings.Count(out, "</details>")
		out += note + strings.Repeat("\n</details>\n", open)
	}
	_, err := io.WriteString(w, out)
	return err
}

func verdictMark(c impact.Claim) string {
	switch {
	case c.OldOK && !c.NewOK:
		return "❌ now fails"
	case !c.OldOK && c.NewOK:
		return "✅ now passes"
	case c.NewOK && c.Rounds():
		return "⚠️ passes, rounds differently"
	case c.NewOK:
		return "✅ passes"
	}
	return "❌ still fails"
}

func diagPos(p diag.Position) string { return p.String() }
