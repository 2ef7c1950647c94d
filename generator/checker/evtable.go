package checker

import (
	"bytes"
	"slices"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// evtableFindings checks page p's evtable shortcode calls against the
// evidence the shortcode will read, as the shortcode itself does at build
// time (themes/evdoc/layouts/_shortcodes/evtable.html), so a call that
// would fail the build, or render a row of empty cells, is reported by
// check at its page line and column: an unknown argument, a missing or
// unknown set, no columns, labels or delta not matching the columns, a
// prefix naming no values, a rows= entry with no values. A set that did
// not load is reported where it failed, not again here.
//
// It returns too the sets the calls name (set=), whose change changes
// the findings.
func evtableFindings(p *project.Page, st *evidence.Store) (diag.List, []string) {
	src := p.Parsed.Source
	if !bytes.Contains(src, []byte("evtable")) {
		return nil, nil
	}
	var sets []string
	var ds diag.List
	report := func(start, end int, format string, a ...any) {
		pos, e := p.Parsed.Index.Span(start, end)
		ds = append(ds, diag.Errorf(pos, diag.EvtableArgs, format, a...).Spanning(e))
	}
	for _, m := range project.EvtableRe.FindAllSubmatchIndex(src, -1) {
		callStart, callEnd := m[0], m[1]
		args := project.EvtableCallArgs(src, m, func(start, end int, name string) {
			report(start, end, "evtable argument %q is not one the shortcode reads; expected one of %s", name, strings.Join(project.EvtableArgs, ", "))
		})
		set, ok := args["set"]
		if !ok || set.Value == "" {
			report(callStart, callEnd, `evtable without set=; expected set="SET" naming an evidence set`)
			continue
		}
		sets = append(sets, set.Value)
		if st.Broken[set.Value] {
			continue
		}
		var es *evidence.Set
		var ids []string
		for _, s := range st.Sets {
			ids = append(ids, s.Manifest.ID)
			if s.Manifest.ID == set.Value {
				es = s
			}
		}
		if es == nil {
			sort.Strings(ids)
			report(set.Start, set.End, "evtable names no evidence set %q; expected one of %s", set.Value, strings.Join(ids, ", "))
			continue
		}
		cols := project.SplitArg(args["columns"].Value)
		if len(cols) == 0 {
			report(callStart, callEnd, `evtable without columns=; expected columns="COL1,COL2,…" (the last part of the value names)`)
			continue
		}
		if l, ok := args["labels"]; ok {
			if n := len(strings.Split(l.Value, ",")); n != len(cols) {
				report(l.Start, l.End, "evtable has %d labels for %d columns; expected one label per column", n, len(cols))
			}
		}
		if d, ok := args["delta"]; ok {
			parts := strings.Split(d.Value, ",")
			switch {
			case len(parts) != 2:
				report(d.Start, d.End, `evtable delta=%q; expected delta="FROM,TO", two of the columns`, d.Value)
			case !slices.Contains(cols, parts[0]) || !slices.Contains(cols, parts[1]):
				report(d.Start, d.End, "evtable delta=%q names a column not in columns=%q; expected two of the columns", d.Value, args["columns"].Value)
			}
		}
		prefix := args["prefix"]
		rows := map[string]bool{}
		var order []string
		for v := range es.All() {
			if v.Derived || !strings.HasPrefix(v.Name, prefix.Value+".") {
				continue
			}
			parts := strings.Split(strings.TrimPrefix(v.Name, prefix.Value+"."), ".")
			col := parts[len(parts)-1]
			row := strings.Join(parts[:len(parts)-1], ".")
			if row != "" && slices.Contains(cols, col) && !rows[row] {
				rows[row] = true
				order = append(order, row)
			}
		}
		at := prefix
		if _, ok := args["prefix"]; !ok {
			at = project.EvtableArg{Start: callStart, End: callEnd}
		}
		if r, ok := args["rows"]; ok {
			for _, row := range project.SplitArg(r.Value) {
				if !rows[row] {
					report(r.Start, r.End, "evtable row %q has no values named %s.%s.{%s} in set %q; its cells would be empty", row, prefix.Value, row, strings.Join(cols, ","), set.Value)
				}
			}
			continue
		}
		if len(order) == 0 {
			report(at.Start, at.End, "evtable: set %q has no values named %s.ROW.{%s}; expected a prefix and columns naming read values (evdoc values evidence/%s lists them)", set.Value, prefix.Value, strings.Join(cols, ","), set.Value)
		}
	}
	return ds, sets
}
