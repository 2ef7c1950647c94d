package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/nesting"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

func newValuesCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var format, as string
	cmd := &cobra.Command{
		Use:     "values [PATH...]",
		Example: "  evdoc values                                  # every value of every evidence set\n  evdoc values evidence/example                 # one set, by reference\n  evdoc values ~/runs/result.json               # what a raw file holds\n  evdoc values --as envoy-stats admin.txt",
		Short:   "Print the named values evdoc reads from evidence sets or raw files",
		Long: "Without PATH, prints every value of every evidence set under evidence/.\n" +
			"A PATH that is an evidence set directory prints that set's values by reference;\n" +
			"a raw file is read with the reader --as names, or the one its name and content suggest\n" +
			"(formats: " + strings.Join(raw.Formats(), ", ") + "),\n" +
			"and its readings are printed under the keys a manifest's [[read]] select uses.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return &exitError{2, fmt.Errorf("--format=%s: expected text or json", format)}
			}
			// Values are written as they come (a large raw file is read
			// in windows); report writes the listing.
			vw, err := report.NewValueWriter(stdout, format)
			if err != nil {
				return &exitError{2, err}
			}
			var errs diag.List
			emit := vw.Write
			if len(args) == 0 {
				st, e := evidence.LoadWith(*root, site.EvidenceDir, opts.load().Evidence)
				errs = append(errs, e...)
				for _, v := range st.Values() {
					emit(record(v))
				}
			}
			for _, a := range args {
				errs = append(errs, valuesOf(*root, a, as, opts.load().Evidence, emit)...)
			}
			if err := vw.Close(); err != nil {
				return &exitError{2, err}
			}
			if vw.Count() == 0 {
				_ = report.WriteNoValues(stderr)
			}
			if len(errs) > 0 {
				printDiags(stderr, errs)
				if errs.HasErrors() {
					return &exitError{2, nil} // the input cannot be read as asked
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json (one object per line)")
	cmd.Flags().StringVar(&as, "as", "", "raw file format (default: guessed from the file)")
	return cmd
}

func record(v *evidence.Value) report.Value {
	return report.Value{Name: v.Ref, Value: v.Value.String(), Unit: v.Unit, File: v.Pos.File, Line: v.Pos.Line, Column: v.Pos.Column, Raw: v.Raw}
}

// valuesOf emits the values of one PATH argument: an evidence set (its
// directory or manifest) or a raw file, read in windows.
func valuesOf(root, arg, as string, eopt evidence.Options, emit func(report.Value)) diag.List {
	full := arg
	if !filepath.IsAbs(arg) {
		full = filepath.Join(root, arg)
	}
	fi, err := os.Stat(full)
	if err != nil {
		return diag.List{diag.Errorf(diag.Position{File: arg}, diag.ValuesIO, "%v", err)}
	}
	rel := filepath.ToSlash(arg)
	if !fi.IsDir() && filepath.Base(rel) == evidence.ManifestName {
		rel, fi = path.Dir(rel), nil
	}
	if fi == nil || fi.IsDir() {
		set, errs := evidence.LoadSetWith(root, rel, eopt)
		if set == nil {
			return errs
		}
		for _, v := range set.Sorted() {
			emit(record(v))
		}
		return errs // warnings
	}
	max := eopt.MaxFileSize
	if max == 0 {
		max = safefile.DefaultMaxSize
	}
	if as != "" && raw.Windowed(as) {
		return streamValues(full, rel, as, max, emit)
	}
	src, err := safefile.ReadPath(full, max)
	if err != nil {
		return diag.List{diag.Errorf(diag.Position{File: rel}, diag.ValuesIO, "%v", err)}
	}
	source := func(f string) []byte {
		if f == rel {
			return src
		}
		return nil
	}
	if d := nesting.JSONDocument(src, nesting.MaxDepth); d != nil {
		return diag.List{diag.Errorf(diag.NewLineIndex(rel, src).Pos(d.Offset), diag.ValuesFormat, "JSON nests deeper than %d levels", d.Limit)}.TokenEnds(source)
	}
	format := as
	if format == "" {
		format = raw.Sniff(rel, src)
	}
	if _, err := raw.ReaderFor(format); err != nil {
		return diag.List{diag.Errorf(diag.Position{File: rel}, diag.ValuesFormat, "--as: %v", err)}
	}
	n := 0
	errs := raw.ReadWindowed(format, rel, src, raw.ReadOptions{}, raw.DefaultWindow, nil, func(r raw.Reading) {
		n++
		emit(report.Value{Name: r.Key, Value: r.Number.Value.String(), Unit: r.Number.Unit, File: rel,
			Line: r.Pos.Line, Column: r.Pos.Column, Raw: r.Raw, Format: format})
	})
	if as == "" && n == 0 {
		errs = append(errs, guessReadNothing(rel, src, format))
	}
	return errs.TokenEnds(source)
}

// streamValues emits the values of a raw file of a line-oriented format
// (--as envoy-stats) as they are read, window by window: memory stays at
// a few windows whatever the file's size.
func streamValues(full, rel, format string, max int64, emit func(report.Value)) diag.List {
	f, _, err := safefile.OpenPath(full, max)
	if err != nil {
		return diag.List{diag.Errorf(diag.Position{File: rel}, diag.ValuesIO, "%v", err)}
	}
	defer f.Close()
	lr := &io.LimitedReader{R: f, N: max + 1}
	errs, err := raw.ReadWindowedFrom(format, rel, lr, raw.ReadOptions{}, raw.DefaultWindow, nil, func(r raw.Reading) {
		emit(report.Value{Name: r.Key, Value: r.Number.Value.String(), Unit: r.Number.Unit, File: rel,
			Line: r.Pos.Line, Column: r.Pos.Column, Raw: r.Raw, Format: format})
	})
	if err == nil && lr.N <= 0 {
		err = fmt.Errorf("%s grew past the %s limit while being read", rel, safefile.Size(max))
	}
	if err != nil {
		errs = append(errs, diag.Errorf(diag.Position{File: rel}, diag.ValuesIO, "%v", err))
	}
	return errs
}

// guessReadNothing explains a format guess that read no value: which
// format was guessed, which others were tried, and the --as to use.
func guessReadNothing(rel string, src []byte, guessed string) diag.Diagnostic {
	var fits, others []string
	for _, f := range raw.Formats() {
		if f == guessed {
			continue
		}
		others = append(others, f)
		read, err := raw.ReaderFor(f)
		if err != nil {
			continue
		}
		if rs, errs := read(rel, src, raw.ReadOptions{}); len(rs) > 0 && !errs.HasErrors() {
			fits = append(fits, fmt.Sprintf("--as %s (%d values)", f, len(rs)))
		}
	}
	hint := "none of them reads a value either; expected a raw file in one of these formats"
	if len(fits) > 0 {
		hint = "expected the format given with " + strings.Join(fits, " or ")
	}
	return diag.Errorf(diag.Position{File: rel, Line: 1, Column: 1}, diag.ValuesFormat,
		"the format guessed from the file's name and content, %s, reads no numeric value; also tried %s: %s", guessed, strings.Join(others, ", "), hint)
}
