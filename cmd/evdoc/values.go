package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"evdoc/generator/diag"
	"evdoc/generator/evidence"
	"evdoc/generator/site"
)

// valueRecord is one line of `evdoc values --format=json`.
type valueRecord struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Unit   string `json:"unit"`
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Raw    string `json:"raw"`
}

func newValuesCmd(root *string, stdout, stderr io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "values [PATH...]",
		Short: "Print the named values evdoc reads from evidence sets or raw files",
		Long: "Without PATH, prints every value of every evidence set under evidence/.\n" +
			"A PATH that is an evidence set directory prints that set's values by reference;\n" +
			"a raw .md file prints its table cells as tN.ROW.COLUMN, any other file its transcript readings.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return &exitError{2, fmt.Errorf("--format=%s: expected text or json", format)}
			}
			var (
				recs []valueRecord
				errs diag.List
			)
			if len(args) == 0 {
				st, e := evidence.Load(*root, site.EvidenceDir)
				errs = append(errs, e...)
				for _, v := range st.Values() {
					recs = append(recs, record(v))
				}
			}
			for _, a := range args {
				r, e := valuesOf(*root, a)
				recs = append(recs, r...)
				errs = append(errs, e...)
			}
			if format == "json" {
				enc := json.NewEncoder(stdout)
				enc.SetEscapeHTML(false)
				for _, r := range recs {
					_ = enc.Encode(r)
				}
			} else {
				tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "NAME\tVALUE\tUNIT\tPOSITION\tRAW")
				for _, r := range recs {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s:%d:%d\t%s\n", r.Name, r.Value, r.Unit, r.File, r.Line, r.Column, r.Raw)
				}
				tw.Flush()
			}
			if len(recs) == 0 {
				fmt.Fprintln(stderr, "evdoc: no numeric values found")
			}
			if len(errs) > 0 {
				printDiags(stderr, errs)
				if errs.HasErrors() {
					return &exitError{1, nil}
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json (one object per line)")
	return cmd
}

func record(v *evidence.Value) valueRecord {
	return valueRecord{Name: v.Ref, Value: v.Value.String(), Unit: v.Unit, File: v.Pos.File, Line: v.Pos.Line, Column: v.Pos.Column, Raw: v.Raw}
}

func valuesOf(root, arg string) ([]valueRecord, diag.List) {
	full := arg
	if !filepath.IsAbs(arg) {
		full = filepath.Join(root, arg)
	}
	fi, err := os.Stat(full)
	if err != nil {
		return nil, diag.List{diag.Errorf(diag.Position{File: arg}, "values-io", "%v", err)}
	}
	rel := filepath.ToSlash(arg)
	if !fi.IsDir() && filepath.Base(rel) == evidence.ManifestName {
		rel, fi = path.Dir(rel), nil
	}
	var recs []valueRecord
	if fi == nil || fi.IsDir() {
		set, errs := evidence.LoadSet(root, rel)
		if set == nil {
			return nil, errs
		}
		for _, v := range set.Sorted() {
			recs = append(recs, record(v))
		}
		return recs, nil
	}
	src, err := os.ReadFile(full)
	if err != nil {
		return nil, diag.List{diag.Errorf(diag.Position{File: rel}, "values-io", "%v", err)}
	}
	if strings.HasSuffix(rel, ".md") {
		tables, errs := evidence.ReadTables(rel, src)
		for i, t := range tables {
			for _, row := range t.Rows {
				for j := 1; j < len(row) && j < len(t.Header); j++ {
					n, ok := evidence.ParseCell(row[j].Text)
					if !ok || len(row) == 0 {
						continue
					}
					pos := row[j].Pos
					pos.Column += n.Start
					recs = append(recs, valueRecord{Name: fmt.Sprintf("t%d.%s.%s", i+1, row[0].Text, t.Header[j].Text),
						Value: n.Value.String(), Unit: n.Unit, File: rel, Line: pos.Line, Column: pos.Column, Raw: row[j].Text[n.Start:n.End]})
				}
			}
		}
		return recs, errs
	}
	entries, errs := evidence.ReadTranscript(rel, src)
	for _, e := range entries {
		name := e.Key
		if e.Section != "" {
			name = e.Section + "." + e.Key
		}
		recs = append(recs, valueRecord{Name: name, Value: e.Number.Value.String(), Unit: e.Number.Unit, File: rel, Line: e.Pos.Line, Column: e.Pos.Column, Raw: e.Raw})
	}
	return recs, errs
}
