package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/unit"
)

// TestPatternUnitGroups: a *_unit group and a value's suffix are read
// with the shared vocabulary (nsec, usec, min, KiB/s, MB/sec); a word
// outside it (Mbits/sec) is an error at the word, never a value read
// without its unit; a suffix that contradicts the group is an error at
// the value.
func TestPatternUnitGroups(t *testing.T) {
	read, _ := formats.ReaderFor("pattern")
	opt := raw.ReadOptions{Patterns: []string{`^(?P<name>\w+) (?P<v>\S+) (?P<v_unit>\S+)$`}, Key: "{name}"}
	for _, tc := range []struct {
		line, unit, err string
	}{
		{"a 12 nsec", "ns", ""}, {"a 12 usec", "us", ""}, {"a 3 min", "min", ""}, {"a 3 secs", "s", ""},
		{"a 1.5 KiB/s", "KiB/s", ""}, {"a 1.5 MB/sec", "MB/s", ""}, {"a 2 KBytes", "KiB", ""}, {"a 4 µs", "us", ""},
		{"a 940 Mbits/sec", "", `1:7: error: unit "Mbits/sec" of group v_unit`},
		{"a 12ms s", "", `1:3: error: "12ms" is written in ms but group v_unit says "s"`},
		{"a 12ms ms", "ms", ""},
	} {
		rs, errs := read("f", []byte(tc.line+"\n"), opt)
		if tc.err != "" {
			if !strings.Contains(errs.Error(), tc.err) {
				t.Errorf("%q: %v; want %q", tc.line, errs, tc.err)
			}
			for _, r := range rs {
				if r.Key == "a.v" && r.Number.Unit == "" {
					t.Errorf("%q: read as %s with no unit", tc.line, r.Number.Value)
				}
			}
			continue
		}
		if errs.HasErrors() || len(rs) != 1 || rs[0].Number.Unit != tc.unit {
			t.Errorf("%q: %v, %v; want one reading in %s", tc.line, rs, errs, tc.unit)
		}
	}
	// a suffix of the shared vocabulary the pattern table lacks
	rs, errs := read("f", []byte("x 12nsec\n"), raw.ReadOptions{Patterns: []string{`^x (?P<v>\S+)$`}})
	if errs.HasErrors() || len(rs) != 1 || rs[0].Number.Unit != "ns" {
		t.Errorf("12nsec: %v, %v", rs, errs)
	}
}

// unitSamples are inputs of the formats that have no sample file under
// testdata/tools, each with a unit word where the format prints one.
var unitSamples = map[string][]struct {
	src string
	opt raw.ReadOptions
}{
	"pattern":         {{"lat 12 nsec\nlat 3 usec\nbw 940 Mbits/sec\nt 1.5KiB/s\nq 2 KBytes\n", raw.ReadOptions{Patterns: []string{`^(?P<k>\w+) (?P<v>[\d.]+)\s?(?P<v_unit>\S+)$`}, Key: "{k}"}}},
	"transcript":      {{"[A] $ curl\ntime=134 ms size=12 KiB rate=3.5 MB/s total=2 min\n", raw.ReadOptions{}}},
	"csv":             {{"name,latency_ms,size_bytes\na,12,40\n", raw.ReadOptions{}}},
	"fortio-text":     {{"All done 40 calls (plus 4 warmup) 25.116 ms avg, 39.8 qps\n# target 50% 0.0229032\n", raw.ReadOptions{}}},
	"curl-writeout":   {{"time_total: 0.074602\nsize_download: 1234\n", raw.ReadOptions{}}},
	"markdown-tables": {{"## T\n| a | lat |\n|---|---|\n| x | 12ms |\n| y | 3 min |\n| z | 2 Mbits/sec |\n", raw.ReadOptions{}}},
}

// unitWords splits the text after a reading's number into the words of
// the units it writes: "12.5ms" → ms, "1m30s" → m, s, "3 KiB/s" → KiB/s;
// clock times (14:03:22) and dates write none.
var unitWordRE = regexp.MustCompile(`[^\d\s.,:+\-−()\[\]"'=|]+`)

// TestEveryUnitTextInVocabulary is the property of the shared unit
// vocabulary: for every registered reader, on its sample inputs (the
// files under testdata/tools/FORMAT, the fuzz corpora and unitSamples),
// each unit word in a reading's raw text after its number is either a
// word of the shared vocabulary (unit.ToolWord, an SI multiplier of a
// count: 8.74k, or m read by its format), read in the vocabulary's
// dimension, or there is a finding on its line. A format's own
// definition may change the rank (wrk's KB is KiB) or make a size a
// throughput (wrk's Transfer/sec), never the dimension.
func TestEveryUnitTextInVocabulary(t *testing.T) {
	multipliers := map[string]bool{"k": true, "M": true, "G": true, "T": true, "µ": true, "n": true, "m": true}
	checked := 0
	for _, format := range formats.Names() {
		type input struct {
			name string
			src  []byte
			opt  raw.ReadOptions
		}
		var ins []input
		files, _ := filepath.Glob(filepath.Join("testdata/tools", format, "*"))
		for _, p := range files {
			if strings.HasSuffix(p, ".golden") {
				continue
			}
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			ins = append(ins, input{filepath.Base(p), b, raw.ReadOptions{}})
		}
		for _, dir := range fuzzDirs(format) {
			corpus, _ := filepath.Glob(filepath.Join(dir, "*"))
			for _, p := range corpus {
				if b, ok := corpusBytes(p); ok {
					ins = append(ins, input{filepath.Base(p), b, raw.ReadOptions{}})
				}
			}
		}
		for i, s := range unitSamples[format] {
			ins = append(ins, input{"sample" + strconv.Itoa(i), []byte(s.src), s.opt})
		}
		if len(ins) == 0 {
			continue // formats whose numbers carry no unit text (envoy, prometheus, json, dig, istioctl): their units are the format's
		}
		read, err := formats.ReaderFor(format)
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range ins {
			rs, errs := read(in.name, in.src, in.opt)
			lines := map[int]bool{}
			for _, d := range errs {
				lines[d.Pos.Line] = true
			}
			for _, r := range rs {
				if r.Number.Implied || r.Number.Unit == "tod" || r.Inputs != nil {
					continue
				}
				rest := strings.TrimSpace(strings.TrimPrefix(r.Raw, raw.NumberPrefix.FindString(r.Raw)))
				for _, w := range unitWordRE.FindAllString(rest, -1) {
					checked++
					got, inVocab := unit.ToolWord(w)
					switch {
					case lines[r.Pos.Line]:
					case !inVocab && multipliers[w]:
					case format == "benchstat" && multipliers[w]:
						// benchstat's cells carry a metric or binary prefix
						// on the unit of their column's header (908.2n under
						// sec/op is 908.2 ns)
					case !inVocab:
						t.Errorf("%s %s:%d:%d: unit word %q of %q (read in %q) is neither in the shared vocabulary nor reported", format, in.name, r.Pos.Line, r.Pos.Column, w, r.Raw, r.Number.Unit)
					case !sameDim(got, r.Number.Unit) && !sameDim(got+"/s", r.Number.Unit) && !durationPart(r.Number.Unit, got):
						t.Errorf("%s %s:%d:%d: unit word %q of %q is %s in the shared vocabulary but read in %q", format, in.name, r.Pos.Line, r.Pos.Column, w, r.Raw, got, r.Number.Unit)
					}
				}
			}
		}
	}
	t.Logf("%d unit words checked", checked)
	if checked < 100 {
		t.Errorf("only %d unit words checked; the samples hold more", checked)
	}
}

// sameDim reports whether units a and b are of one dimension.
func sameDim(a, b string) bool {
	ua, ok1 := unit.Canonical(a)
	ub, ok2 := unit.Canonical(b)
	return ok1 && ok2 && ua.Dim == ub.Dim
}

// durationPart: a time word of a value read in a time unit (the h of
// 3h58m read in s).
func durationPart(read, word string) bool {
	return sameDim(read, "s") && sameDim(word, "s")
}

// fuzzDirs are the fuzz corpus directories of a format's fuzz targets.
func fuzzDirs(format string) []string {
	return map[string][]string{"envoy-stats": {"envoy/testdata/fuzz/FuzzEnvoyStats"}, "markdown-tables": {"labreport/testdata/fuzz/FuzzReadTables"}}[format]
}

// corpusBytes reads the []byte argument of a go fuzz corpus file.
func corpusBytes(p string) ([]byte, bool) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, false
	}
	for _, ln := range strings.Split(string(b), "\n") {
		if q, ok := strings.CutPrefix(ln, "[]byte("); ok {
			if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
				return []byte(s), true
			}
		}
	}
	return nil, false
}
