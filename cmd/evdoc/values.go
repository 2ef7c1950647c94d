package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/internal/nesting"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/spf13/cobra"
)

func newValuesCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	var format, as string
	cmd := &cobra.Command{
		Use:     "values [PATH...]",
		Example: "  evdoc values                                  # every value of every evidence set\n  evdoc values evidence/example                 # one set, by reference\n  evdoc values ~/runs/result.json               # what a raw file holds\n  evdoc values --as envoy-stats admin.txt",
		Short:   "Print the named values evdoc reads from evidence sets or raw files",
		Long: "Without PATH, prints every value of every evidence set under evidence/.\n" +
			"Each row shows the REFERENCE a page writes after ev: (SET/NAME), the reader's KEY,\n" +
			"the value, unit, position and raw text.\n" +
			"A PATH that is an evidence set directory (or a set id) prints that set's values;\n" +
			"a raw file is read with the reader --as names, or the one its name and content suggest\n" +
			"(formats: " + strings.Join(formats.Names(), ", ") + "),\n" +
			"and its readings are printed under the keys a manifest's [[read]] select uses,\n" +
			"with the references of the evidence set that reads the file (- where none).\n" +
			"When a PATH cannot be read (exit 2) nothing is printed on stdout.",
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "text" && format != "json" {
				return &exitError{2, fmt.Errorf("--format=%s: expected text or json", format)}
			}
			vw, err := report.NewValueWriter(stdout, format)
			if err != nil {
				return &exitError{2, err}
			}
			// Values are held until every argument has been read, so a
			// failure prints nothing on stdout; only a raw file read
			// with --as in a line format streams, window by window
			// (held values are written out first).
			// A raw file's readings are held as its reader gave them and
			// turned into rows when written, a row at a time.
			var errs diag.List
			type batch struct {
				vals  []report.Value
				later func(emit func(report.Value))
			}
			var held []batch
			hold := func(v report.Value) {
				if len(held) == 0 || held[len(held)-1].later != nil {
					held = append(held, batch{})
				}
				held[len(held)-1].vals = append(held[len(held)-1].vals, v)
			}
			later := func(f func(emit func(report.Value))) { held = append(held, batch{later: f}) }
			flush := func() {
				for _, b := range held {
					for _, v := range b.vals {
						vw.Write(v)
					}
					if b.later != nil {
						b.later(vw.Write)
					}
				}
				held = nil
			}
			if len(args) == 0 {
				st, e := evidence.LoadWith(*root, project.EvidenceDir, opts.load().Evidence)
				errs = append(errs, e...)
				for _, v := range st.Values() {
					hold(record(v))
				}
			}
			for _, a := range args {
				if as != "" && raw.Windowed(as) && !errs.HasErrors() {
					flush()
					errs = append(errs, valuesOf(*root, a, as, opts.load().Evidence, vw.Write, nil, stderr)...)
					continue
				}
				errs = append(errs, valuesOf(*root, a, as, opts.load().Evidence, hold, later, stderr)...)
			}
			if !errs.HasErrors() {
				flush()
			}
			if err := vw.Close(); err != nil {
				return &exitError{2, err}
			}
			if vw.Count() == 0 && !errs.HasErrors() {
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
	cmd.Flags().StringVar(&format, "format", "text", "output `FORMAT`: text or json (one object per line)")
	cmd.Flags().StringVar(&as, "as", "", "raw file `FORMAT` (default: guessed from the file)")
	opts.addLoadFlags(cmd, root)
	return cmd
}

func record(v *evidence.Value) report.Value {
	return report.Value{Ref: v.Ref, Key: v.Key, Value: v.Value.String(), Unit: v.Unit, File: v.Pos.File, Line: v.Pos.Line, Column: v.Pos.Column, Raw: v.Raw, SpreadOf: v.SpreadOf}
}

// valuesOf emits the values of one PATH argument: an evidence set (its
// directory, its manifest, or its id) or a raw file, read in windows. A
// raw file's readings carry the references of the evidence set that reads
// it, if any; notes about that go to log. With later, a raw file's
// values are not emitted: later is given a function that emits them.
func valuesOf(root, arg, as string, eopt evidence.Options, emit func(report.Value), later func(func(emit func(report.Value))), log io.Writer) (errs diag.List) {
	full := arg
	if !filepath.IsAbs(arg) {
		full = filepath.Join(root, arg)
	}
	fi, err := os.Stat(full)
	if err != nil && !filepath.IsAbs(arg) && !strings.ContainsAny(arg, `/\`) {
		// an evidence set by its id: "example" for evidence/example
		byID := filepath.Join(root, project.EvidenceDir, arg)
		if _, e := os.Stat(filepath.Join(byID, manifest.FileName)); e == nil {
			arg, full = path.Join(project.EvidenceDir, arg), byID
			fi, err = os.Stat(full)
		}
	}
	if err != nil {
		msg := fmt.Sprintf("%v", err)
		if errors.Is(err, fs.ErrNotExist) {
			msg = fmt.Sprintf("no such file, directory or evidence set; expected a raw file, an evidence set directory (%s/NAME) or an evidence set id", project.EvidenceDir)
		}
		return diag.List{diag.Errorf(diag.Position{File: arg}, diag.ValuesIO, "%s", msg)}
	}
	rel := filepath.ToSlash(arg)
	if !fi.IsDir() && filepath.Base(rel) == manifest.FileName {
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
	refs, note, declared := setRefs(root, full, eopt) // declared: the format its evidence set reads it in
	emitAll := emit
	emit = withRefs(emit, refs)
	defer func() {
		if note != "" && !errs.HasErrors() {
			fmt.Fprintln(log, note)
		}
	}()
	max := eopt.MaxFileSize
	if max == 0 {
		max = safefile.DefaultMaxSize
	}
	if as != "" && raw.Windowed(as) {
		errs = streamValues(full, rel, as, max, emit)
		return errs
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
		format = declared
	}
	if format == "" {
		format = formats.Sniff(rel, src)
	}
	if _, err := formats.ReaderFor(format); err != nil {
		return diag.List{diag.Errorf(diag.Position{File: rel}, diag.ValuesFormat, "--as: %v", err)}
	}
	rs, errs := formats.ReadList(format, rel, src, raw.ReadOptions{}, raw.DefaultWindow, nil)
	n := rs.Len()
	rows := func(emit func(report.Value)) {
		for i := range n {
			r := rs.At(i)
			emit(report.Value{Key: r.Key, Value: r.Number.Value.String(), Unit: r.Number.Unit, File: rel,
				Line: r.Pos.Line, Column: r.Pos.Column, Raw: r.Raw, Format: format, SpreadOf: r.SpreadOf})
		}
	}
	if later != nil {
		later(func(e func(report.Value)) { rows(withRefs(e, refs)) })
	} else {
		rows(withRefs(emitAll, refs))
	}
	if as == "" && declared == "" && n == 0 && !errs.HasErrors() { // a file that does not parse explains itself
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
	errs, err := formats.ReadWindowedFrom(format, rel, lr, raw.ReadOptions{}, raw.DefaultWindow, nil, func(r raw.Reading) {
		emit(report.Value{Key: r.Key, Value: r.Number.Value.String(), Unit: r.Number.Unit, File: rel,
			Line: r.Pos.Line, Column: r.Pos.Column, Raw: r.Raw, Format: format, SpreadOf: r.SpreadOf})
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
	for _, f := range formats.Names() {
		if f == guessed || f == "pattern" { // the pattern format reads nothing without a manifest's patterns
			continue
		}
		others = append(others, f)
		read, err := formats.ReaderFor(f)
		if err != nil {
			continue
		}
		if rs, errs := read(rel, src, raw.ReadOptions{}); len(rs) > 0 && !errs.HasErrors() {
			fits = append(fits, fmt.Sprintf("--as %s (%d values)", f, len(rs)))
		}
	}
	hint := "none of them reads a value either; expected a raw file in one of these formats, or a [[read]] entry with format = \"pattern\" whose patterns read its lines (docs/guide/formats.md#pattern)"
	if len(fits) > 0 {
		hint = "expected the format given with " + strings.Join(fits, " or ")
	}
	return diag.Errorf(diag.Position{File: rel, Line: 1, Column: 1}, diag.ValuesFormat,
		"the format guessed from the file's name and content, %s, reads no numeric value; also tried %s: %s", guessed, strings.Join(others, ", "), hint)
}

// setRefs returns the references of the values the evidence set holding
// the raw file full (the nearest directory above it with a manifest,
// inside root) names from it, by "line:column" of their raw token, and a
// note saying why there are none: the file is in no evidence set, or its
// set does not load or reads nothing of it.
func setRefs(root, full string, eopt evidence.Options) (refs map[string][]string, note, declared string) {
	absRoot, err1 := filepath.Abs(root)
	absFull, err2 := filepath.Abs(full)
	display := filepath.ToSlash(full)
	none := func() string {
		return fmt.Sprintf("evdoc: %s is read by no evidence set, so no page can reference its values yet (REFERENCE -); `evdoc new evidence NAME --from %s` makes one", display, display)
	}
	if err1 != nil || err2 != nil {
		return nil, none(), ""
	}
	rel, err := filepath.Rel(absRoot, absFull)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, none(), ""
	}
	rel = filepath.ToSlash(rel)
	display = rel
	for dir := path.Dir(rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if _, err := os.Stat(filepath.Join(absRoot, filepath.FromSlash(dir), manifest.FileName)); err != nil {
			continue
		}
		declared = evidence.DeclaredFormat(absRoot, dir, rel)
		set, errs := evidence.LoadSetWith(absRoot, dir, eopt)
		if set == nil {
			return nil, fmt.Sprintf("evdoc: the evidence set %s, which holds %s, does not load (%d error(s); run evdoc check), so its references are not shown (REFERENCE -)", dir, rel, len(errs)), declared
		}
		refs = map[string][]string{}
		for _, v := range set.Sorted() {
			if v.Pos.File == rel && !v.Derived {
				k := fmt.Sprintf("%d:%d", v.Pos.Line, v.Pos.Column)
				refs[k] = append(refs[k], v.Ref)
			}
		}
		if len(refs) == 0 {
			return refs, fmt.Sprintf("evdoc: the evidence set %s names no value of %s (no [[table]], [[transcript]] or [[read]] entry reads it), so no page can reference its values yet (REFERENCE -)", dir, rel), declared
		}
		return refs, "", declared
	}
	return nil, none(), ""
}

// withRefs sets each value's reference from refs (by its position).
func withRefs(emit func(report.Value), refs map[string][]string) func(report.Value) {
	if refs == nil {
		return emit
	}
	return func(v report.Value) {
		v.Ref = strings.Join(refs[fmt.Sprintf("%d:%d", v.Line, v.Column)], " ")
		emit(v)
	}
}
