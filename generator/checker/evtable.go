package checker

import (
	"bytes"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// evtableRe finds evtable shortcode calls ({{< evtable … >}} or
// {{% evtable … %}}); group 1 is the argument text.
var evtableRe = regexp.MustCompile(`(?s)\{\{[<%]\s*evtable\b(.*?)[%>]\}\}`)

// evtableArgRe finds one named shortcode argument: name="value",
// name=`value` or name=value. Groups: 1 name, 2 double-quoted, 3
// backquoted, 4 bare value.
var evtableArgRe = regexp.MustCompile("([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|`([^`]*)`|([^\\s\"`]+))")

// evtableArgs are the arguments themes/evdoc/layouts/_shortcodes/evtable.html
// reads.
var evtableArgs = []string{"set", "prefix", "columns", "labels", "rows", "delta", "caption", "head"}

// evtableArg is one argument of an evtable call: its value and the byte
// range of the value in the page source.
type evtableArg struct {
	value      string
	start, end int
}

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
	for _, m := range evtableRe.FindAllSubmatchIndex(src, -1) {
		callStart, callEnd := m[0], m[1]
		args := evtableCallArgs(src, m, func(start, end int, name string) {
			report(start, end, "evtable argument %q is not one the shortcode reads; expected one of %s", name, strings.Join(evtableArgs, ", "))
		})
		set, ok := args["set"]
		if !ok || set.value == "" {
			report(callStart, callEnd, `evtable without set=; expected set="SET" naming an evidence set`)
			continue
		}
		sets = append(sets, set.value)
		if st.Broken[set.value] {
			continue
		}
		var es *evidence.Set
		var ids []string
		for _, s := range st.Sets {
			ids = append(ids, s.Manifest.ID)
			if s.Manifest.ID == set.value {
				es = s
			}
		}
		if es == nil {
			sort.Strings(ids)
			report(set.start, set.end, "evtable names no evidence set %q; expected one of %s", set.value, strings.Join(ids, ", "))
			continue
		}
		cols := splitArg(args["columns"].value)
		if len(cols) == 0 {
			report(callStart, callEnd, `evtable without columns=; expected columns="COL1,COL2,…" (the last part of the value names)`)
			continue
		}
		if l, ok := args["labels"]; ok {
			if n := len(strings.Split(l.value, ",")); n != len(cols) {
				report(l.start, l.end, "evtable has %d labels for %d columns; expected one label per column", n, len(cols))
			}
		}
		if d, ok := args["delta"]; ok {
			parts := strings.Split(d.value, ",")
			switch {
			case len(parts) != 2:
				report(d.start, d.end, `evtable delta=%q; expected delta="FROM,TO", two of the columns`, d.value)
			case !slices.Contains(cols, parts[0]) || !slices.Contains(cols, parts[1]):
				report(d.start, d.end, "evtable delta=%q names a column not in columns=%q; expected two of the columns", d.value, args["columns"].value)
			}
		}
		prefix := args["prefix"]
		rows := map[string]bool{}
		var order []string
		for _, v := range es.Values {
			if v.Derived || !strings.HasPrefix(v.Name, prefix.value+".") {
				continue
			}
			parts := strings.Split(strings.TrimPrefix(v.Name, prefix.value+"."), ".")
			col := parts[len(parts)-1]
			row := strings.Join(parts[:len(parts)-1], ".")
			if row != "" && slices.Contains(cols, col) && !rows[row] {
				rows[row] = true
				order = append(order, row)
			}
		}
		at := prefix
		if _, ok := args["prefix"]; !ok {
			at = evtableArg{start: callStart, end: callEnd}
		}
		if r, ok := args["rows"]; ok {
			for _, row := range splitArg(r.value) {
				if !rows[row] {
					report(r.start, r.end, "evtable row %q has no values named %s.%s.{%s} in set %q; its cells would be empty", row, prefix.value, row, strings.Join(cols, ","), set.value)
				}
			}
			continue
		}
		if len(order) == 0 {
			report(at.start, at.end, "evtable: set %q has no values named %s.ROW.{%s}; expected a prefix and columns naming read values (evdoc values evidence/%s lists them)", set.value, prefix.value, strings.Join(cols, ","), set.value)
		}
	}
	return ds, sets
}

// evtableCallArgs returns the arguments the shortcode reads of the
// evtable call m (an evtableRe match in src), calling unknown with the
// byte range and name of each argument it does not read.
func evtableCallArgs(src []byte, m []int, unknown func(start, end int, name string)) map[string]evtableArg {
	args := map[string]evtableArg{}
	for _, a := range evtableArgRe.FindAllSubmatchIndex(src[m[2]:m[3]], -1) {
		name := string(src[m[2]+a[2] : m[2]+a[3]])
		var v evtableArg
		for g := 4; g <= 8; g += 2 {
			if a[g] >= 0 {
				v = evtableArg{value: string(src[m[2]+a[g] : m[2]+a[g+1]]), start: m[2] + a[g], end: m[2] + a[g+1]}
				break
			}
		}
		if !slices.Contains(evtableArgs, name) {
			if unknown != nil {
				unknown(m[2]+a[2], m[2]+a[3], name)
			}
			continue
		}
		args[name] = v
	}
	return args
}

// evtableShown is what one evtable call shows of an evidence set: the
// values named PREFIX.ROW.COLUMN for its columns, and only its rows when
// it names them (rows=).
type evtableShown struct {
	set, prefix string
	cols, rows  []string
}

// evtableCalls returns what each evtable call of the page source src
// shows. A call the shortcode would refuse (no set or columns) shows
// nothing.
func evtableCalls(src []byte) []evtableShown {
	if !bytes.Contains(src, []byte("evtable")) {
		return nil
	}
	var out []evtableShown
	for _, m := range evtableRe.FindAllSubmatchIndex(src, -1) {
		args := evtableCallArgs(src, m, nil)
		e := evtableShown{set: args["set"].value, prefix: args["prefix"].value, cols: splitArg(args["columns"].value)}
		if r, ok := args["rows"]; ok {
			e.rows = splitArg(r.value)
		}
		if e.set != "" && len(e.cols) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// shows reports whether the call shows value name of set in one of its
// cells, as the shortcode picks them: the last part of the name after
// PREFIX. is a column, the parts before it (at least one) the row.
func (e evtableShown) shows(set, name string) bool {
	rest, ok := strings.CutPrefix(name, e.prefix+".")
	if set != e.set || !ok {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || !slices.Contains(e.cols, rest[i+1:]) {
		return false
	}
	return e.rows == nil || slices.Contains(e.rows, rest[:i])
}

// splitArg splits a comma-separated shortcode argument, dropping empty
// entries.
func splitArg(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}
