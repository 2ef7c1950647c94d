package project

import (
	"bytes"
	"regexp"
	"slices"
	"strings"
)

// EvtableRe finds evtable shortcode calls ({{< evtable … >}} or
// {{% evtable … %}}); group 1 is the argument text.
var EvtableRe = regexp.MustCompile(`(?s)\{\{[<%]\s*evtable\b(.*?)[%>]\}\}`)

// evtableArgRe finds one named shortcode argument: name="value",
// name=`value` or name=value. Groups: 1 name, 2 double-quoted, 3
// backquoted, 4 bare value.
var evtableArgRe = regexp.MustCompile("([A-Za-z_][A-Za-z0-9_]*)\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|`([^`]*)`|([^\\s\"`]+))")

// EvtableArgs are the arguments themes/evdoc/layouts/_shortcodes/evtable.html
// reads.
var EvtableArgs = []string{"set", "prefix", "columns", "labels", "rows", "delta", "caption", "head"}

// EvtableArg is one argument of an evtable call: its value and the byte
// range of the value in the page source.
type EvtableArg struct {
	Value      string
	Start, End int
}

// EvtableCallArgs returns the arguments the shortcode reads of the
// evtable call m (an EvtableRe match in src), calling unknown with the
// byte range and name of each argument it does not read.
func EvtableCallArgs(src []byte, m []int, unknown func(start, end int, name string)) map[string]EvtableArg {
	args := map[string]EvtableArg{}
	for _, a := range evtableArgRe.FindAllSubmatchIndex(src[m[2]:m[3]], -1) {
		name := string(src[m[2]+a[2] : m[2]+a[3]])
		var v EvtableArg
		for g := 4; g <= 8; g += 2 {
			if a[g] >= 0 {
				v = EvtableArg{Value: string(src[m[2]+a[g] : m[2]+a[g+1]]), Start: m[2] + a[g], End: m[2] + a[g+1]}
				break
			}
		}
		if !slices.Contains(EvtableArgs, name) {
			if unknown != nil {
				unknown(m[2]+a[2], m[2]+a[3], name)
			}
			continue
		}
		args[name] = v
	}
	return args
}

// EvtableShown is what one evtable call shows of an evidence set: the
// values named PREFIX.ROW.COLUMN for its columns, and only its rows when
// it names them (rows=).
type EvtableShown struct {
	Set, Prefix string
	Cols, Rows  []string
}

// EvtableCalls returns what each evtable call of the page source src
// shows. A call the shortcode would refuse (no set or columns) shows
// nothing.
func EvtableCalls(src []byte) []EvtableShown {
	if !bytes.Contains(src, []byte("evtable")) {
		return nil
	}
	var out []EvtableShown
	for _, m := range EvtableRe.FindAllSubmatchIndex(src, -1) {
		args := EvtableCallArgs(src, m, nil)
		e := EvtableShown{Set: args["set"].Value, Prefix: args["prefix"].Value, Cols: SplitArg(args["columns"].Value)}
		if r, ok := args["rows"]; ok {
			e.Rows = SplitArg(r.Value)
		}
		if e.Set != "" && len(e.Cols) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// Shows reports whether the call shows value name of set in one of its
// cells, as the shortcode picks them: the last part of the name after
// PREFIX. is a column, the parts before it (at least one) the row.
func (e EvtableShown) Shows(set, name string) bool {
	rest, ok := strings.CutPrefix(name, e.Prefix+".")
	if set != e.Set || !ok {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || !slices.Contains(e.Cols, rest[i+1:]) {
		return false
	}
	return e.Rows == nil || slices.Contains(e.Rows, rest[:i])
}

// SplitArg splits a comma-separated shortcode argument, dropping empty
// entries.
func SplitArg(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}
