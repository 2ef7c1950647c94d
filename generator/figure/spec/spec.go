package spec

import (
	"bytes"
	"errors"
	"os"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/nesting"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// Chart kinds a spec's kind names.
const (
	KindTimeline    = "timeline"
	KindBars        = "bars"
	KindRate        = "rate"
	KindPercentiles = "percentiles"
	// KindSpectrum is the latency percentile spectrum (HdrHistogram
	// style): latency against percentile on a 1/(1−p) axis, runs overlaid.
	KindSpectrum = "spectrum"
	// KindSeries is a value over time, with events as vertical lines.
	KindSeries = "timeseries"
	// KindDistribution is a histogram or CDF of latencies.
	KindDistribution = "distribution"
	// KindCompare is a comparison of values with their spread as error
	// bars and the delta a claim quotes annotated.
	KindCompare = "compare"
)

// Kinds lists the chart kinds, in README order.
var Kinds = []string{KindTimeline, KindBars, KindRate, KindPercentiles, KindSpectrum, KindSeries, KindDistribution, KindCompare}

// Text is a figure text per language code ("ko", "ja"). A text may quote
// evidence with the claim syntax of pages, [+12 s](ev:SET/NAME); the
// chart shows the link text and check judges it like a page's claim.
type Text map[string]string

// Spec is a decoded figures/NAME.toml. Which fields apply depends on
// Kind; README's Figures section shows one spec per kind.
type Spec struct {
	Name string `toml:"-"` // file name without .toml
	File string `toml:"-"` // repository-relative path of the spec
	Src  []byte `toml:"-"` // the spec's bytes, for positions

	// Built once per spec on first use, so that locating many findings
	// stays linear in the spec's size: its line index, the offset of the
	// first line assigning each key, and the offsets of its [[panel]]
	// headers; and where each string value is written (stringSpans).
	ix     *diag.LineIndex
	keys   map[string]int
	panels []int
	spans  map[string]textSpan

	// Kind is the chart kind: timeline, bars, rate, percentiles,
	// spectrum, timeseries, distribution or compare.
	Kind string `toml:"kind"`
	// Title is drawn above the chart, per language.
	Title Text `toml:"title"`
	// Caption is shown under the figure; its numbers are claims.
	Caption Text `toml:"caption"`
	// Alt is the image's alternative text, per language.
	Alt Text `toml:"alt"`
	// XAxis labels the x axis of every panel.
	XAxis Text `toml:"x_axis"`
	// YAxis labels the y axis of every panel (a panel's own overrides it).
	YAxis Text `toml:"y_axis"`
	// Columns is the number of panels per row (default: all in one row).
	Columns int `toml:"columns"`
	// Legend labels the series by id (bars, compare, and the series of
	// spectrum, timeseries and distribution) or counter (timeline;
	// optional there, the Envoy counter name is shown by default).
	Legend map[string]Text `toml:"legend"`

	// Snapshots (timeline) are the snapshot ids substituted for
	// {snapshot} in a panel's ref.
	Snapshots []string `toml:"snapshots"`
	// Times (timeline) are the references giving each snapshot's time in
	// seconds.
	Times []string `toml:"times"`
	// Flip (timeline) is the reference of the DNS flip time.
	Flip string `toml:"flip"`
	// FlipLabel (timeline) labels the flip's marker.
	FlipLabel Text `toml:"flip_label"`
	// Counters (timeline) are the counters substituted for {counter}.
	Counters []string `toml:"counters"`

	// Percentiles, spectrum, distribution: the unit the latencies are
	// shown in ("s", "ms", "µs", "ns"); timeseries and compare: the unit
	// values are shown in (any unit the values convert to; by default the
	// first value's).
	Unit string `toml:"unit"`
	// Mark (spectrum) are the percentiles marked with a labelled guide
	// line and each run's value there ("p99", "p99_9").
	Mark []string `toml:"mark"`
	// Events (timeseries) are moments marked as vertical lines.
	Events []Event `toml:"event"`
	// Mode (distribution) is "histogram" (the default) or "cdf".
	Mode string `toml:"mode"`
	// Bounds (distribution of per-request values) are the bucket
	// bounds, in Unit, ascending.
	Bounds []float64 `toml:"bounds"`

	// Panels are the figure's small multiples (at least one).
	Panels []Panel `toml:"panel"`
}

// Panel is one small multiple of a figure.
type Panel struct {
	// Title is drawn above the panel.
	Title Text `toml:"title"`
	// YAxis labels this panel's y axis (overrides the figure's).
	YAxis Text `toml:"y_axis"`
	// Ref (timeline) is a reference template: "SET/strict.{counter}.{snapshot}".
	Ref string `toml:"ref"`
	// Groups (bars, rate) are the categories along the axis.
	Groups []Group `toml:"group"`
	// Prefix (percentiles) is the reference prefix of the latencies:
	// Prefix.p50, …, as fortio-json, wrk, hey, vegeta, k6 and oha name
	// them (any reader's values with a time unit).
	Prefix string `toml:"prefix"`
	// Percentiles (percentiles) are the ones drawn (p50, p99, p99_9 is
	// the 99.9th).
	Percentiles []string `toml:"percentiles"`
	// Series (spectrum, timeseries, distribution) are the panel's runs
	// or lines.
	Series []Series `toml:"series"`
}

// Group is one category of a bars or rate panel.
type Group struct {
	// Label names the category under the axis.
	Label Text `toml:"label"`
	// Ref is the rate of a rate panel, in percent.
	Ref string `toml:"ref"`
	// Bars (bars, compare) are the group's bars.
	Bars []Bar `toml:"bar"`
	// Delta (compare) is the change the group's comparison reports
	// (benchstat's delta), written above the group as the evidence writes it.
	Delta string `toml:"delta"`
}

// Bar is one bar of a group: a single value (Ref) or a stack of segments
// whose sum must equal Total when Total is given.
type Bar struct {
	// Series is the bar's series id (its colour and legend entry).
	Series string `toml:"series"`
	// Ref is the bar's value (a single bar).
	Ref string `toml:"ref"`
	// Segments stack the bar from parts (instead of Ref).
	Segments []Segment `toml:"segment"`
	// Total is the reference the segments must add up to.
	Total string `toml:"total"`
	// Spread (compare) names the value's ± spread, drawn as its error
	// bar: relative when its unit is % and the value's is not, absolute
	// in the value's unit otherwise. Without Spread, Min or Max, the
	// spread the value's reader read next to it is drawn (benchstat's
	// ±11% is relative, hyperfine's ± 11.2 absolute).
	Spread string `toml:"spread"`
	// SpreadKind (compare) is "relative" or "absolute": required when a
	// spread and its value are both percents.
	SpreadKind string `toml:"spread_kind"`
	// Min (compare) is the low end of the error bar (with Max).
	Min string `toml:"min"`
	// Max (compare) is the high end of the error bar (with Min).
	Max string `toml:"max"`
}

// Segment is one part of a stacked bar.
type Segment struct {
	// Series is the segment's series id.
	Series string `toml:"series"`
	// Ref is the segment's value.
	Ref string `toml:"ref"`
}

// Load reads every *.toml under root/dir. File names give the figure
// names. Malformed specs are reported at file:line:col and left out.
func Load(root, dir string) ([]*Spec, diag.List) {
	entries, err := os.ReadDir(path.Join(root, dir))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, diag.List{diag.Errorf(diag.Position{File: dir}, diag.FigureSpec, "cannot read figures: %v", err)}
	}
	var (
		specs []*Spec
		errs  diag.List
	)
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		file := path.Join(dir, e.Name())
		// A spec must be a regular file inside the project: a symbolic
		// link could publish an outside file, a FIFO block, a device
		// never end.
		src, err := safefile.ReadFile(root, file, safefile.SpecMaxSize)
		if err != nil {
			at := diag.Position{File: file, Line: 1, Column: 1} // (an empty range: the file could not be read)
			errs = append(errs, diag.Errorf(at, diag.FigureSpec, "%v", err).Spanning(at))
			continue
		}
		if d := nesting.TOML(src, nesting.MaxDepth); d != nil {
			ix := diag.NewLineIndex(file, src)
			errs = append(errs, diag.Errorf(ix.Pos(d.Offset), diag.FigureSpec, "arrays or tables nest deeper than %d levels; expected a flat figure spec", d.Limit).Spanning(ix.LineEnd(d.Offset)))
			continue
		}
		s, ds := Parse(file, src)
		errs = append(errs, ds...)
		if s != nil {
			specs = append(specs, s)
		}
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	errs.Sort()
	return specs, errs
}

// Parse decodes one spec file and checks its structure (kind, fields
// the kind needs, matching lengths). It does not look at evidence; see
// Validate. A spec with errors is returned as nil.
func Parse(file string, src []byte) (*Spec, diag.List) {
	s := &Spec{Name: strings.TrimSuffix(path.Base(file), ".toml"), File: file, Src: src}
	ix := s.Index()
	md, err := toml.Decode(string(src), s)
	if err != nil {
		var pe toml.ParseError
		pos, end := ix.Pos(0), ix.LineEnd(0)
		if errors.As(err, &pe) {
			pos, end = ix.LineColSpan(pe.Position.Line, pe.Position.Col, pe.Position.Len)
		}
		return nil, diag.List{diag.Errorf(pos, diag.FigureSpec, "invalid figure spec: %v", err).Spanning(end)}
	}
	if u := md.Undecoded(); len(u) > 0 {
		k := u[0]
		return nil, s.Spanned(diag.List{diag.Errorf(s.KeyPos(k[len(k)-1]), diag.FigureSpec, "unknown key %q", k.String())})
	}
	ds := s.Spanned(s.structure())
	if ds.HasErrors() {
		return nil, ds
	}
	return s, ds
}

// Spanned sets the End of each diagnostic of ds that has none and points
// into the spec: every position in a spec is a key (KeyPos) or a quoted
// string (find, refPos), so the range is that string, quotes included, or
// the key's assignment line. ds is changed in place and returned.
func (s *Spec) Spanned(ds diag.List) diag.List {
	ix := s.Index()
	for i, d := range ds {
		if d.End.IsValid() || !d.Pos.IsValid() || d.Pos.File != s.File {
			continue
		}
		off := ix.LineCol(d.Pos.Line, d.Pos.Column).Offset
		end := ix.LineEnd(off)
		if off < len(s.Src) && s.Src[off] == '"' {
			if j := bytes.IndexByte(s.Src[off+1:end.Offset], '"'); j >= 0 {
				end = ix.Pos(off + 1 + j + 1)
			}
		}
		ds[i].End = end
	}
	return ds
}

// Find returns the position of the first occurrence of needle in the spec
// at or after byte off, or of the start of the file.
func (s *Spec) Find(needle string, off int) diag.Position {
	if off < 0 || off > len(s.Src) {
		off = 0
	}
	if i := bytes.Index(s.Src[off:], []byte(needle)); needle != "" && i >= 0 {
		return s.Index().Pos(off + i)
	}
	return diag.Position{File: s.File, Line: 1, Column: 1}
}

var keyLine = regexp.MustCompile(`(?m)^[ \t]*(\w+)[ \t]*=`)

// Index returns the spec's line index.
func (s *Spec) Index() *diag.LineIndex {
	if s.ix == nil {
		s.ix = diag.NewLineIndex(s.File, s.Src)
	}
	return s.ix
}

// KeyPos returns the position of the first line assigning key.
func (s *Spec) KeyPos(key string) diag.Position {
	if s.keys == nil {
		s.keys = map[string]int{}
		for _, m := range keyLine.FindAllSubmatchIndex(s.Src, -1) {
			k := string(s.Src[m[2]:m[3]])
			if _, ok := s.keys[k]; !ok {
				s.keys[k] = m[2]
			}
		}
	}
	if off, ok := s.keys[key]; ok {
		return s.Index().Pos(off)
	}
	return s.Find(key, 0)
}

// PanelOffset returns the byte offset of the i-th [[panel]] header.
func (s *Spec) PanelOffset(i int) int {
	if s.panels == nil {
		s.panels = []int{}
		for off := 0; ; {
			j := bytes.Index(s.Src[off:], []byte("[[panel]]"))
			if j < 0 {
				break
			}
			s.panels = append(s.panels, off+j)
			off += j + len("[[panel]]")
		}
	}
	if i < len(s.panels) {
		return s.panels[i]
	}
	return 0
}

// ValuePos returns a function giving the position of text as the spec
// writes it at the key path (see pathKey): the first byte of that
// string's value, so two places writing one reference each have their
// own; or, where no string there reads as text (a reference made from a
// template), refPos(text, near). It looks only when called: most values
// have no finding.
func (s *Spec) ValuePos(text string, near int, path ...string) func() diag.Position {
	return func() diag.Position {
		if len(path) > 0 {
			if sp, ok := s.stringSpans()[pathKey(path...)]; ok {
				if val, offs, ok := decodeTOMLString(s.Src[sp.start:sp.end]); ok && val == text {
					return s.Index().Pos(sp.start + offs[0])
				}
			}
		}
		return s.refPos(text, near)
	}
}

// QuotedPos returns the position of the string the spec writes at the key
// path (see pathKey), at its opening delimiter, when it reads as text;
// else that of the first "text" at or after byte near.
func (s *Spec) QuotedPos(text string, near int, path ...string) diag.Position {
	if sp, ok := s.stringSpans()[pathKey(path...)]; ok {
		if val, _, ok := decodeTOMLString(s.Src[sp.start:sp.end]); ok && val == text {
			return s.Index().Pos(sp.start)
		}
	}
	return s.Find(`"`+text+`"`, near)
}

// refPos is the position of a reference as written in the spec: the
// first place it is written at or after byte near (else anywhere).
func (s *Spec) refPos(ref string, near int) diag.Position {
	p := s.Find(`"`+ref+`"`, near)
	if p.Line == 1 && p.Column == 1 {
		p = s.Find(`"`+ref+`"`, 0)
	}
	if p.Offset > 0 || p.Line > 1 || p.Column > 1 {
		return s.Find(ref, p.Offset)
	}
	return p
}

func (s *Spec) structure() diag.List {
	var ds diag.List
	errf := func(pos diag.Position, format string, args ...any) {
		ds = append(ds, diag.Errorf(pos, diag.FigureSpec, format, args...))
	}
	kindOK := false
	for _, k := range Kinds {
		kindOK = kindOK || s.Kind == k
	}
	if !kindOK {
		pos := s.KeyPos("kind")
		errf(pos, "figure %q: unknown kind %q; expected one of %s", s.Name, s.Kind, strings.Join(Kinds, ", "))
		return ds
	}
	if s.limits(errf) {
		return ds
	}
	s.kindKeys(errf)
	if len(s.Panels) == 0 {
		errf(s.KeyPos("kind"), "figure %q has no [[panel]]; a %s figure needs at least one", s.Name, s.Kind)
	}
	if s.Columns < 0 {
		errf(s.KeyPos("columns"), "columns = %d; expected a positive number of panels per row", s.Columns)
	}
	for i, p := range s.Panels {
		off := s.PanelOffset(i)
		at := s.Find("[[panel]]", off)
		switch s.Kind {
		case KindTimeline:
			if p.Ref == "" {
				errf(at, "timeline panel %d has no ref; expected ref = \"SET/table.{counter}.{snapshot}\"", i+1)
			} else if !strings.Contains(p.Ref, "{counter}") || !strings.Contains(p.Ref, "{snapshot}") {
				errf(s.refPos(p.Ref, off), "timeline panel %d: ref %q must contain {counter} and {snapshot}", i+1, p.Ref)
			}
		case KindBars:
			if len(p.Groups) == 0 {
				errf(at, "bars panel %d has no [[panel.group]]: empty series", i+1)
			}
			for gi, g := range p.Groups {
				if len(g.Bars) == 0 {
					errf(at, "bars panel %d, group %d has no [[panel.group.bar]]: empty series", i+1, gi+1)
				}
				for bi, b := range g.Bars {
					bar := []string{"panel", strconv.Itoa(i), "group", strconv.Itoa(gi), "bar", strconv.Itoa(bi)}
					if b.Series == "" {
						errf(at, "bars panel %d, group %d: a bar has no series id", i+1, gi+1)
					} else if _, ok := s.Legend[b.Series]; !ok {
						errf(s.QuotedPos(b.Series, off, append(bar, "series")...), "series %q has no [legend.%s] label", b.Series, b.Series)
					}
					if (b.Ref == "") == (len(b.Segments) == 0) {
						errf(at, "bars panel %d, group %d: bar %q needs either ref or segments", i+1, gi+1, b.Series)
					}
					for si, sg := range b.Segments {
						if _, ok := s.Legend[sg.Series]; !ok || sg.Series == "" {
							seg := append(bar, "segment", strconv.Itoa(si))
							pos := s.QuotedPos(sg.Ref, off, append(seg, "ref")...)
							if sg.Series != "" {
								pos = s.QuotedPos(sg.Series, off, append(seg, "series")...)
							}
							errf(pos, "segment series %q has no [legend.%s] label", sg.Series, sg.Series)
						}
						if sg.Ref == "" {
							errf(at, "bars panel %d, group %d: a segment has no ref", i+1, gi+1)
						}
					}
				}
			}
		case KindRate:
			if len(p.Groups) == 0 {
				errf(at, "rate panel %d has no [[panel.group]]: empty series", i+1)
			}
			for gi, g := range p.Groups {
				if g.Ref == "" {
					errf(at, "rate panel %d, group %d has no ref", i+1, gi+1)
				}
			}
		case KindSpectrum, KindSeries, KindDistribution, KindCompare:
			s.kindStructure(i, p, off, errf)
		case KindPercentiles:
			if p.Prefix == "" {
				errf(at, "percentiles panel %d has no prefix; expected prefix = \"SET/name.DurationHistogram\"", i+1)
			}
			if len(p.Percentiles) == 0 {
				errf(at, "percentiles panel %d has no percentiles: empty series", i+1)
			}
			for k, q := range p.Percentiles {
				if !percentileRe.MatchString(q) {
					errf(s.QuotedPos(q, off, "panel", strconv.Itoa(i), "percentiles", strconv.Itoa(k)), "percentile %q: expected pNN or pNN_N (p50, p99_9)", q)
				}
			}
		}
	}
	if s.Kind == KindTimeline {
		if len(s.Snapshots) == 0 {
			errf(s.KeyPos("kind"), "timeline figure %q has no snapshots: empty series", s.Name)
		}
		if len(s.Counters) == 0 {
			errf(s.KeyPos("kind"), "timeline figure %q has no counters: empty series", s.Name)
		}
		if len(s.Times) != len(s.Snapshots) {
			errf(s.KeyPos("times"), "%d times for %d snapshots; expected one time reference per snapshot", len(s.Times), len(s.Snapshots))
		}
	}
	if s.Kind == KindPercentiles {
		if _, ok := TimeUnits[s.Unit]; !ok {
			errf(s.KeyPos("unit"), "unit %q: expected one of s, ms, µs, ns", s.Unit)
		}
	}
	return ds
}

var percentileRe = regexp.MustCompile(`^p\d{1,2}(_\d+)?$`)
