package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/report"
	"github.com/evdoc-lab/evdoc/generator/site"
	"github.com/evdoc-lab/evdoc/internal/atomicdir"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

var setNameRe = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// newEvidenceOptions are the flags of `evdoc new evidence`.
type newEvidenceOptions struct {
	from, as, origin, source, title, date, environment, report string
}

// newEvidenceSet creates evidence/NAME/ holding a copy of the raw file
// o.from and an evidence.toml reading it with one [[read]] entry, then
// loads the set and returns its values. The manifest lists each value's
// reference, number, unit and raw position as comments. Nothing is left
// behind when the file cannot be read.
func newEvidenceSet(root, name string, o newEvidenceOptions, opts *globalOptions) ([]*evidence.Value, error) {
	if !setNameRe.MatchString(name) {
		return nil, fmt.Errorf("evidence set name %q: expected lower-case letters, digits and hyphens (e.g. fortio-cb-off)", name)
	}
	switch o.origin {
	case "raw":
	case "transcribed":
		if strings.TrimSpace(o.source) == "" {
			return nil, fmt.Errorf("--origin=transcribed: expected --source naming the document and section it was re-typed from")
		}
	default:
		return nil, fmt.Errorf("--origin=%q: expected raw (the lab's own output, unchanged) or transcribed (with --source)", o.origin)
	}
	if o.date != "" && o.date != "unknown" && !dateArgRe.MatchString(o.date) {
		return nil, fmt.Errorf("--date=%q: expected the run's date as YYYY-MM-DD (or \"unknown\")", o.date)
	}
	if strings.TrimSpace(o.environment) == "" {
		return nil, fmt.Errorf("--environment: expected where the data was measured (versions, cluster, load), e.g. \"Istio 1.30; kind; fortio 1.60\"")
	}
	// A regular file under the size limit, opened without blocking: a
	// FIFO or a device is an error at once, not a read that never ends.
	max := opts.load().Evidence.MaxFileSize
	if max == 0 {
		max = safefile.DefaultMaxSize
	}
	src, err := safefile.ReadPath(o.from, max)
	if err != nil {
		return nil, fmt.Errorf("--from %v", err)
	}
	rel := filepath.ToSlash(filepath.Join(site.EvidenceDir, name))
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if err := safefile.CheckWrite(root, filepath.Join(dir, evidence.ManifestName)); err != nil {
		return nil, err
	}
	if _, err := os.Stat(dir); err == nil {
		return nil, fmt.Errorf("%s exists; expected a new evidence set name", rel)
	}
	// Read the file as `evdoc values` does, to pick the format.
	var recs []report.Value
	ds := valuesOf(filepath.Dir(o.from), filepath.Base(o.from), o.as, opts.load().Evidence, func(r report.Value) { recs = append(recs, r) }, io.Discard)
	if ds.HasErrors() || len(recs) == 0 {
		var b strings.Builder
		printDiags(&b, ds)
		return nil, fmt.Errorf("%s: no value to name (see `evdoc values %s`)\n%s", o.from, o.from, b.String())
	}
	format := recs[0].Format
	file := filepath.Base(o.from)
	readName := strings.ReplaceAll(name, "-", "_")
	if readName[0] >= '0' && readName[0] <= '9' {
		readName = "v" + readName
	}
	if o.title == "" {
		o.title = name
	}
	dateNote := ""
	if o.date == "" {
		o.date = "unknown"
		dateNote = "   # the run's date was not given (--date YYYY-MM-DD): set it"
	}
	if o.report == "" {
		o.report = rel + "/" + file
	}
	q := strconv.Quote
	var m strings.Builder
	fmt.Fprintf(&m, "# Written by `evdoc new evidence %s --from %s`.\n", name, file)
	fmt.Fprintf(&m, "id          = %s\ntitle       = %s\ndate        = %s%s\nenvironment = %s\nreport      = %s\norigin      = %s\n",
		q(name), q(o.title), q(o.date), dateNote, q(o.environment), q(o.report), q(o.origin))
	if o.origin == "transcribed" {
		fmt.Fprintf(&m, "source      = %s\n", q(o.source))
	}
	fmt.Fprintf(&m, "\n[[read]]\nfile   = %s\nformat = %s\nname   = %s\n", q(file), q(format), q(readName))
	tmp, err := atomicdir.MkdirTemp(filepath.Join(root, site.EvidenceDir), "."+name+"-new-", "")
	if err != nil {
		if err := os.MkdirAll(filepath.Join(root, site.EvidenceDir), 0o755); err != nil {
			return nil, err
		}
		if tmp, err = atomicdir.MkdirTemp(filepath.Join(root, site.EvidenceDir), "."+name+"-new-", ""); err != nil {
			return nil, err
		}
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, file), src, 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(tmp, evidence.ManifestName), []byte(m.String()), 0o644); err != nil {
		return nil, err
	}
	// Load it under its final name to learn the references, then list them.
	if err := os.Rename(tmp, dir); err != nil {
		return nil, err
	}
	set, errs := evidence.LoadSetWith(root, rel, opts.load().Evidence)
	if set == nil || errs.HasErrors() {
		_ = os.RemoveAll(dir)
		var b strings.Builder
		printDiags(&b, errs)
		return nil, fmt.Errorf("the new manifest does not load:\n%s", b.String())
	}
	vals := set.Sorted()
	m.WriteString("\n# Values (claim link: [number](ev:REF)); units come from the format:\n")
	for _, v := range vals {
		unit := v.Unit
		if unit == "" {
			unit = "-"
		}
		fmt.Fprintf(&m, "#   %s = %s %s  (%s:%d:%d)\n", v.Ref, v.Value.String(), unit, file, v.Pos.Line, v.Pos.Column)
	}
	mf := filepath.Join(dir, evidence.ManifestName)
	if err := os.WriteFile(mf+".tmp", []byte(m.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.Rename(mf+".tmp", mf); err != nil {
		return nil, err
	}
	return vals, nil
}

// dateArgRe is the form of --date: the manifest's date (YYYY-MM-DD).
var dateArgRe = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

func newNewCmd(root *string, opts *globalOptions, stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "new",
		Short:   "Create project files (evdoc new evidence NAME --from FILE)",
		Example: "  evdoc new evidence cb-off --from ~/runs/cb-off.json --origin raw --date 2026-07-09 --environment \"Istio 1.30; kind; fortio 1.60\"",
	}
	var o newEvidenceOptions
	ev := &cobra.Command{
		Use:   "evidence NAME --from FILE --origin raw|transcribed --environment TEXT",
		Short: "Create evidence/NAME/ from a raw file: a copy of it and an evidence.toml naming its values",
		Long: "new evidence copies FILE into evidence/NAME/ and writes an evidence.toml with one [[read]] entry\n" +
			"in the format `evdoc values` guesses (or --as), then lists every value's reference and unit,\n" +
			"in the manifest as comments and on standard output. --origin is required: raw when FILE is the\n" +
			"lab's own output, transcribed (with --source) when it was re-typed from a document.",
		Example: "  evdoc new evidence cb-off --from ~/runs/cb-off.json --origin raw --environment \"Istio 1.30; kind; fortio 1.60\"\n" +
			"  evdoc new evidence blog-table --from table.md --origin transcribed --source \"team blog, 2026-07-09, table 2\" --environment \"Istio 1.29 lab\"",
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			vals, err := newEvidenceSet(*root, args[0], o, opts)
			if err != nil {
				return &exitError{2, err}
			}
			fmt.Fprintf(stdout, "wrote %s/%s/%s with %d values:\n", site.EvidenceDir, args[0], evidence.ManifestName, len(vals))
			if o.date == "" {
				fmt.Fprintf(stderr, "evdoc: warning: no --date: %s/%s/%s says date = \"unknown\", and the evidence pages show the run's date as unknown; set it there (YYYY-MM-DD)\n", site.EvidenceDir, args[0], evidence.ManifestName)
			}
			for _, v := range vals {
				fmt.Fprintf(stdout, "  %s = %s %s\n", v.Ref, v.Value.String(), v.Unit)
			}
			return nil
		},
	}
	ev.Flags().StringVar(&o.from, "from", "", "the raw file to read (copied into the set)")
	ev.Flags().StringVar(&o.as, "as", "", "raw file format (default: guessed, as `evdoc values` does)")
	ev.Flags().StringVar(&o.origin, "origin", "", "raw or transcribed (required)")
	ev.Flags().StringVar(&o.source, "source", "", "for transcribed files: the document and section")
	ev.Flags().StringVar(&o.title, "title", "", "the set's title (default NAME)")
	ev.Flags().StringVar(&o.date, "date", "", "YYYY-MM-DD of the run (default \"unknown\", with a warning)")
	ev.Flags().StringVar(&o.environment, "environment", "", "where it was measured (required)")
	ev.Flags().StringVar(&o.report, "report", "", "the report it belongs to (default the file's path in the set)")
	_ = ev.MarkFlagRequired("from")
	cmd.AddCommand(ev)
	return cmd
}
