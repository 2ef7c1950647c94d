package report

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/translation"
)

// I18nFormats lists the formats WriteI18nStatus accepts.
var I18nFormats = []string{"text", "json"}

// WriteI18nStatus writes `evdoc i18n status`: per page, each language's
// state. "json" writes one translation.PageStatus object per line;
// "text" writes the page (its source-language path and translationKey),
// then one indented line per language, the source language first (its
// code is source), with the page path, the changed source lines, the
// count of parity findings and the findings themselves.
func WriteI18nStatus(w io.Writer, format string, pages []translation.PageStatus, source string) error {
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		for _, ps := range pages {
			if err := enc.Encode(ps); err != nil {
				return err
			}
		}
		return nil
	case "text":
		var b strings.Builder
		for _, ps := range pages {
			fmt.Fprintf(&b, "%s (translationKey %s)\n", ps.Source, ps.Key)
			var langs []string
			for l := range ps.Languages {
				langs = append(langs, l)
			}
			sort.Slice(langs, func(i, j int) bool {
				if (langs[i] == source) != (langs[j] == source) {
					return langs[i] == source
				}
				return langs[i] < langs[j]
			})
			for _, l := range langs {
				ls := ps.Languages[l]
				fmt.Fprintf(&b, "  %s: %s", l, ls.State)
				if ls.Path != "" && ls.State != translation.StateSource {
					b.WriteString("  " + ls.Path)
				}
				if len(ls.Changed) > 0 {
					var ns []string
					for _, n := range ls.Changed {
						ns = append(ns, fmt.Sprint(n))
					}
					fmt.Fprintf(&b, "  (source changed at line %s)", strings.Join(ns, ", "))
				}
				if len(ls.Findings) > 0 {
					fmt.Fprintf(&b, "  %d parity finding(s)", len(ls.Findings))
				}
				b.WriteString("\n")
				for _, f := range ls.Findings {
					b.WriteString("    " + f + "\n")
				}
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	}
	return fmt.Errorf("unknown format %q; expected one of %s", format, strings.Join(I18nFormats, ", "))
}
