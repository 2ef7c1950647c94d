package cmdtools

import (
	"regexp"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/jsontree"

	"github.com/shopspring/decimal"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/unit"
)

// The kubectl reader ("kubectl", ReadKubectl): kubectl top and get
// tables and the metrics API's JSON (kubectl get --raw
// /apis/metrics.k8s.io/…). The conventions of every lab-format reader
// are in readings.go.

// kubeHeader is a kubectl table header: upper-case column names (with
// parenthesised units, %, -) separated by two or more spaces, NAME among
// them.
var kubeHeader = regexp.MustCompile(`^(?:[A-Z][A-Z0-9_%-]*(?:\([A-Za-z%]+\))?(?: [A-Z][A-Z0-9_%-]*(?:\([A-Za-z%]+\))?)*(?:\s{2,}|\s*$))+$`)

// kubeColumn is one column name of a header (names hold single spaces).
var kubeColumn = regexp.MustCompile(`\S+(?: \S+)*`)

// Kubernetes quantities: CPU (n, u, m or none: cores) and memory (Ki,
// Mi, Gi, Ti binary; k, M, G, T decimal; none: bytes).
var (
	kubeCPU    = map[string]raw.ToolUnit{"": {Unit: "core"}, "n": {Unit: "ncore"}, "u": {Unit: "ucore"}, "m": {Unit: "mcore"}}
	kubeMemory = map[string]raw.ToolUnit{"": {Unit: "B"}, "Ki": {Unit: "KiB"}, "Mi": {Unit: "MiB"}, "Gi": {Unit: "GiB"}, "Ti": {Unit: "TiB"},
		"k": {Unit: "KB"}, "M": {Unit: "MB"}, "G": {Unit: "GB"}, "T": {Shift: 12, Unit: "B"}}
	kubeAgeParts = regexp.MustCompile(`^(?:\d+[ydhms])+$`)
	kubeAgePart  = regexp.MustCompile(`(\d+)([ydhms])`)
)

// ReadKubectl reads kubectl's output; format "kubectl". Tables (kubectl
// top pod|node, get pods|nodes|deployments|hpa, several in one file):
//
//	NAMESPACE     NAME                   CPU(cores)   MEMORY(bytes)
//	kube-system   kube-apiserver-ub18    74m          343Mi
//
// give NAME.<column slugged>: kube-apiserver-ub18.cpu_cores (74 mcore),
// .memory_bytes (343 MiB); kubectl top node's CPU% or CPU(%) is .cpu (%),
// MEMORY% .memory. With --containers the row is POD.NAME. Other
// columns: READY 1/1 gives .ready and .ready_total, RESTARTS "2 (3h
// ago)" .restarts and .last_restart (3 h), AGE .age (5d is 5 d; 3h58m,
// several components, is read in s), an HPA's TARGETS "cpu: 45%/50%"
// .targets.cpu and .targets.cpu_target (%), MINPODS, MAXPODS, REPLICAS,
// UP-TO-DATE, AVAILABLE as counts. Cells that name things (STATUS, IP,
// NODE, VERSION) are not read.
//
// Repeated snapshots (a capture loop: while true; do date -Is; kubectl
// top pod; sleep 10; done) each start with a timestamp line; snapshot N
// gives sN.time (seconds since the Unix epoch, unit s) and its rows
// sN.<NAME>.<column>: s2.web-1.cpu_cores. A timestamp without a zone
// is an error (see snapshots.go). Without timestamp lines a repeated
// table's keys are numbered (#2).
//
// Metrics API JSON (NodeMetrics, PodMetrics and their lists): every
// quantity by its path, an item named by its metadata.name and a
// container by its name: usage.cpu (329087452n is 329087452 ncore),
// usage.memory (2748180Ki is 2748180 KiB), window (20.064s is 20.064
// s); in a list ub18.usage.cpu, in a PodMetrics
// containers.app.usage.memory.
func ReadKubectl(file string, src []byte, _ raw.ReadOptions) (*raw.Readings, diag.List) {
	r, errs := raw.StartRead(file, src, diag.EvidenceKubectl)
	if errs != nil {
		return nil, errs
	}
	if raw.LooksJSON(src) {
		root, errs := r.ParseWholeJSON()
		if errs != nil {
			return nil, errs
		}
		kubeJSON(r, "", root)
	} else {
		kubeTables(r, src)
	}
	if r.Out.Len() == 0 && !r.Errs.HasErrors() {
		r.Errorf(raw.TextStart(src), "no kubectl values; expected a table such as \"NAME  CPU(cores)  MEMORY(bytes)\" with rows, or metrics API JSON")
	}
	return r.Result()
}

// kubeJSON reads the quantities of a metrics API object n under prefix.
func kubeJSON(r *raw.Recorder, prefix string, n *jsontree.Node) {
	switch n.Kind {
	case jsontree.Object:
		for _, m := range n.Members {
			switch {
			case m.Key == "metadata" || m.Key == "kind" || m.Key == "apiVersion" || m.Key == "timestamp":
			case m.Key == "items" && m.Val.Kind == jsontree.Array:
				for _, it := range m.Val.Elems {
					name := jsonStr(it.Get("metadata").Get("name"))
					kubeJSON(r, prefix+name+".", it)
				}
			case m.Key == "containers" && m.Val.Kind == jsontree.Array:
				for _, c := range m.Val.Elems {
					kubeJSON(r, prefix+"containers."+jsonStr(c.Get("name"))+".", c)
				}
			default:
				kubeJSONValue(r, prefix+m.Key, m.Key, m.Val)
			}
		}
	}
}

// kubeJSONValue reads one member of a metrics object: a quantity string,
// a number, or an object of them.
func kubeJSONValue(r *raw.Recorder, key, field string, n *jsontree.Node) {
	switch n.Kind {
	case jsontree.Object:
		for _, m := range n.Members {
			kubeJSONValue(r, key+"."+m.Key, m.Key, m.Val)
		}
	case jsontree.Number:
		r.AddJSONNumber(key, n)
	case jsontree.String:
		if n.End-n.Start < 3 || field == "name" {
			return
		}
		tok := string(r.Src[n.Start+1 : n.End-1])
		units := kubeMemory
		switch {
		case field == "cpu":
			units = kubeCPU
		case field == "window":
			units = raw.TimeSuffixes
		}
		r.AddTool(key, n.Start+1, tok, units, "")
	}
}

// jsonStr is a string node's value, or "".
func jsonStr(n *jsontree.Node) string {
	if n == nil || n.Kind != jsontree.String {
		return ""
	}
	return n.Str
}

// kubeTables reads kubectl's tables (see ReadKubectl).
func kubeTables(r *raw.Recorder, src []byte) {
	var cols []string          // slugged column names
	var starts []int           // their byte columns
	clock := newSnapClock(src) // timestamp lines: see snapshots.go
	for start, text := range raw.OutputLines(src) {
		if strings.TrimSpace(text) == "" || clock.Stamp(r, start, text) {
			cols = nil
			continue
		}
		if kubeHeader.MatchString(text) && strings.Contains(text, "NAME") {
			cols, starts = nil, nil
			if clock.Early(r, start, "table") {
				continue
			}
			for _, f := range kubeColumn.FindAllStringIndex(text, -1) {
				cols = append(cols, text[f[0]:f[1]])
				starts = append(starts, f[0])
			}
			continue
		}
		if cols == nil {
			continue
		}
		cell := func(i int) (int, string) {
			a := starts[i]
			if a >= len(text) {
				return a, ""
			}
			b := len(text)
			if i+1 < len(starts) && starts[i+1] <= len(text) {
				b = starts[i+1]
			}
			// a cell may overrun its column: start at the field that
			// covers the column start
			for a > 0 && text[a-1] != ' ' {
				a--
			}
			s := text[a:b]
			t := strings.TrimSpace(s)
			return a + strings.Index(s, t), t
		}
		name := clock.Prefix()
		for i, c := range cols {
			if c == "POD" || c == "NAME" {
				_, v := cell(i)
				if name != "" && !strings.HasSuffix(name, ".") {
					name += "."
				}
				name += v
			}
		}
		for i, c := range cols {
			off, v := cell(i)
			if v == "" || c == "NAME" || c == "POD" || c == "NAMESPACE" {
				continue
			}
			kubeCell(r, name, c, start+off, v)
		}
	}
}

// kubeCell reads one table cell v (at byte offset off) of column col.
func kubeCell(r *raw.Recorder, row, col string, off int, v string) {
	key := row + "." + raw.KeySlug(strings.TrimSuffix(strings.ReplaceAll(col, "(%)", "%"), "%"))
	switch {
	case strings.HasPrefix(col, "CPU(") && !strings.Contains(col, "%"):
		r.AddTool(key, off, v, kubeCPU, "")
	case strings.HasPrefix(col, "MEMORY(") && !strings.Contains(col, "%"):
		r.AddTool(key, off, v, kubeMemory, "")
	case strings.HasSuffix(col, "%") || strings.HasSuffix(col, "(%)"):
		r.AddTool(key, off, v, raw.PercentUnit, "")
	case col == "READY":
		if a, b, ok := strings.Cut(v, "/"); ok {
			r.AddNum(key, off, a, "")
			r.AddNum(key+"_total", off+len(a)+1, b, "")
		}
	case col == "RESTARTS":
		n, rest, _ := strings.Cut(v, " ")
		r.AddNum(key, off, n, "")
		if age := strings.TrimSuffix(strings.TrimPrefix(rest, "("), " ago)"); age != rest && age != "" {
			kubeAge(r, row+".last_restart", off+len(n)+2, age)
		}
	case col == "AGE":
		kubeAge(r, key, off, v)
	case col == "TARGETS":
		for i := 0; i < len(v); {
			j := strings.Index(v[i:], ", ")
			if j < 0 {
				j = len(v) - i
			}
			part := v[i : i+j]
			metric, t := "", part
			if k := strings.Index(part, ": "); k >= 0 {
				metric, t = "."+raw.KeySlug(part[:k]), part[k+2:]
			}
			p := off + i + len(part) - len(t)
			if cur, target, ok := strings.Cut(t, "/"); ok {
				r.AddTool(key+metric, p, cur, kubeTargetUnits, "")
				r.AddTool(key+metric+"_target", p+len(cur)+1, target, kubeTargetUnits, "")
			}
			i += j + 2
		}
	default:
		r.AddNum(key, off, v, "")
	}
}

// kubeTargetUnits are the units of an HPA target: percent or a quantity.
var kubeTargetUnits = map[string]raw.ToolUnit{"%": {Unit: "%"}, "": {}, "m": {Shift: -3}, "Ki": {Unit: "KiB"}, "Mi": {Unit: "MiB"}, "Gi": {Unit: "GiB"}}

// kubeAge reads a Kubernetes age (5d, 3h58m, 45s, 2y) at off: a single
// component in its unit, several in seconds.
func kubeAge(r *raw.Recorder, key string, off int, v string) {
	if !kubeAgeParts.MatchString(v) {
		return
	}
	parts := kubeAgePart.FindAllStringSubmatch(v, -1)
	names := map[string]string{"y": "yr", "d": "d", "h": "h", "m": "min", "s": "s"}
	if len(parts) == 1 {
		n, _ := raw.ParseDecimal(parts[0][1])
		r.Add(key, off, v, n, names[parts[0][2]])
		return
	}
	var sum decimal.Decimal
	for _, p := range parts {
		n, _ := raw.ParseDecimal(p[1])
		if p[2] == "y" {
			n, p[2] = n.Mul(decimal.NewFromInt(365)), "d"
		}
		s, _ := unit.Convert(n, names[p[2]], "s")
		sum = sum.Add(s)
	}
	r.Add(key, off, v, sum, "s")
}
