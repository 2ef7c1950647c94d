package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/cmdtools"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"

	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// valueSlots places a token where each machine format writes a value: the
// token must then be read, or be a diagnostic on its line.
var valueSlots = []struct{ format, prefix, suffix string }{
	{"envoy-stats", "cluster.x.upstream_rq_total: ", "\n"},
	{"envoy-clusters", "outbound|80||x::10.0.0.1:80::cx_active::", "\n"},
	{"envoy-clusters-json", `{"cluster_statuses":[{"name":"c","host_statuses":[{"address":{"socket_address":{"address":"10.0.0.1","port_value":80}},"stats":[{"name":"cx_active","value":"`, `"}]}]}]}`},
	{"envoy-stats-json", `{"stats":[{"name":"a.b","value":`, `}]}`},
	{"fortio-json", `{"RetCodes":{"200":1},"ActualQPS":`, `}`},
	{"fortio-text", "Sockets used: ", "\n"},
	{"fortio-text", "# target 50% ", "\n"},
	{"dig", ";; Query time: ", " msec\n"},
	{"dig", "x.example. ", " IN A 10.0.0.1\n"},
	{"curl-writeout", "time_total: ", "\n"},
	{"prometheus", "metric_a{b=\"c\"} ", "\n"},
	{"istioctl-table", "NAME     PORT\nx        ", "\n"},
	{"json", `{"a":`, `}`},
}

// FuzzMachineValueNeverVanishes: in every machine format, a token with a
// digit written where the format writes a value is read or is a
// diagnostic on its line, never silently absent.
func FuzzMachineValueNeverVanishes(f *testing.F) {
	for _, s := range []string{"42", "1,232", "40,045811", "1e3", "１２", "1m0.5s", "0x1f", "12ms", "1.5.6", "-3", "7 8", "1e999", "NaN1", "3.", ".5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if !hasDigit(tok) || strings.ContainsAny(tok, "\r\n\"\\{}[]|:#;\x00") || strings.TrimSpace(tok) != tok || strings.IndexFunc(tok, unicode.IsControl) >= 0 {
			return
		}
		for _, s := range valueSlots {
			if s.format == "istioctl-table" && (isName(tok) || cmdtools.IstioNonNumber(tok)) {
				continue // a table cell may name things; READY 1/1, AGE 5d are not numbers there
			}
			if f := strings.Fields(tok); s.format == "prometheus" && len(f) == 2 && !hasDigit(f[0]) {
				// "NaN 0": a sample's value (NaN or ±Inf, no reading) and
				// its timestamp, which is not a value; the value with a
				// digit is what must be read ("7 8": 7)
				continue
			}
			src := []byte(s.prefix + tok + s.suffix)
			read, _ := formats.ReaderFor(s.format)
			rs, errs := read("f", src, raw.ReadOptions{})
			start := len(s.prefix)
			if !tokenAccounted(src, start, start+len(tok), rs, errs) {
				t.Errorf("%s: value %q vanished from %q (readings %v, diagnostics %v)", s.format, tok, src, rs, errs)
			}
		}
	})
}

// tokenAccounted reports whether src[start:end] overlaps a reading's raw
// text or lies on the line of a diagnostic.
func tokenAccounted(src []byte, start, end int, rs []raw.Reading, errs diag.List) bool {
	for _, r := range rs {
		if r.Pos.Offset < end && r.Pos.Offset+len(r.Raw) > start {
			return true
		}
	}
	ix := diag.NewLineIndex("f", src)
	line := ix.Pos(start).Line
	for _, e := range errs {
		if e.Pos.Line == line || e.Pos.Offset >= start && e.Pos.Offset < end {
			return true
		}
	}
	return false
}

// The no-vanish property: every numeric-looking field (numericFields) of a
// raw file's data is a reading's raw token, or a diagnostic's position or
// range covers it — never nothing. A reader's test holds it with
// rawtest.CheckNoVanish on its fixtures and in its fuzz target:
//
//	func FuzzNoVanishVegeta(f *testing.F) {
//		f.Add([]byte("Requests [total, rate] 100, 10.00\n"))
//		f.Fuzz(func(t *testing.T, src []byte) { rawtest.CheckNoVanish(t, "vegeta", src, ReadOptions{}) })
//	}
//
// Which lines are data is the format's own definition (dataLines:
// comments, echoed commands, log lines, istioctl's headers, dig's header
// lines; a transcript's section headers; a report's table cells but the
// header and row labels). A numeric field names a reading when its digits
// are a number of the key of a reading on its line ("p(90)" beside the
// reading p(90)), and a field with an identifier's shape (address,
// version, date, clock time, hash) is a name, not a number. A file the
// reader rejects with an error loads nothing, so nothing in it vanishes.

// TestNoDigitVanishes: in every raw file of the shared corpus and of the
// reference site's evidence, every numeric field is accounted for.
func TestNoDigitVanishes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(rawtest.CorpusDir, "*", "*"))
	if len(files) == 0 {
		t.Log("shared corpus not present: only the reference site's evidence is checked")
	}
	own, _ := filepath.Glob("../../../evidence/*/*")
	if len(own) == 0 {
		t.Fatal("no reference evidence files")
	}
	for _, p := range append(files, own...) {
		base := filepath.Base(p)
		if base == "evidence.toml" || base == "SOURCES.md" || strings.Contains(base, "INVALID") {
			continue // a manifest, the corpus's list of sources, a file rejected as a whole
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		format := rawtest.FormatOf(base, src)
		t.Run(base, func(t *testing.T) { rawtest.CheckNoVanish(t, format, src, raw.ReadOptions{}) })
	}
}

// TestVanished: the property's own check finds a field no reading or
// diagnostic accounts for, and accepts one a reading, a diagnostic's
// position or range, or a key accounts for.
func TestVanished(t *testing.T) {
	src := []byte("a=1 b=2 c 3 d 4\nq p(90)=5 x 6 ms 10.0.0.1:80 v1.2 7\n")
	ix := diag.NewLineIndex("f", src)
	r := func(key string, off int, text string) raw.Reading {
		return raw.Reading{Key: key, Raw: text, Pos: ix.Pos(off)}
	}
	w := func(off, end int) diag.Diagnostic {
		d := diag.Diagnostic{Pos: ix.Pos(off), Severity: diag.Warning, Rule: diag.EvidenceNumber}
		if end > 0 {
			d.End = ix.Pos(end)
		}
		return d
	}
	rs := []raw.Reading{r("a", 2, "1"), r("b", 6, "2"), r("p(90)", 24, "5")}
	got := rawtest.Vanished("transcript", src, rs, nil)
	if want := []string{"1:11 3", "1:15 4", "2:13 6", "2:35 7"}; !reflect.DeepEqual(got, want) {
		t.Errorf("vanished = %q, want %q", got, want)
	}
	got = rawtest.Vanished("transcript", src, rs, diag.List{w(10, 15), w(28, 0), w(50, 0)})
	if len(got) != 0 {
		t.Errorf("with warnings covering them, vanished = %q", got)
	}
	if got := rawtest.Vanished("transcript", src, rs, diag.List{diag.Errorf(ix.Pos(0), diag.EvidenceTranscript, "x")}); got != nil {
		t.Errorf("a rejected file: vanished = %q", got)
	}
}

// TestUnreadRuns: an evidence-number warning's range holds only numbers no
// reading took: a read number between unread ones splits the line's
// warning in two, and NumericFields inside each range are exactly the
// unread numbers (the evidence viewer marks them).
func TestUnreadRuns(t *testing.T) {
	src := []byte("a 1 2 b=3 4 x\n")
	ix := diag.NewLineIndex("f", src)
	rs := []raw.Reading{{Key: "b", Raw: "3", Pos: ix.Pos(8)}}
	ws := raw.UnreadWarnings(ix, src, []raw.LineSpan{{0, 13}}, rs, nil, "transcript", "a key=value line")
	var got []string
	for _, w := range ws {
		line := string(src[:13])
		var toks []string
		for _, f := range raw.NumericFields(line) {
			if f[0] >= w.Pos.Column-1 && f[1] <= w.End.Column-1 {
				toks = append(toks, line[f[0]:f[1]])
			}
		}
		got = append(got, fmt.Sprintf("%d-%d %s", w.Pos.Column, w.End.Column, strings.Join(toks, ",")))
	}
	if want := []string{"3-6 1,2", "11-12 4"}; !reflect.DeepEqual(got, want) {
		t.Errorf("warnings = %q, want %q", got, want)
	}
}

// TestKeyNumbers: the numbers inside a reading's key are its runs of
// digits joined by single points or underscores, also with "_" read as
// "."; a separator not followed by a digit ends a number.
func TestKeyNumbers(t *testing.T) {
	for key, want := range map[string][]string{
		"p(90)":          {"90"},
		"p99_9":          {"99_9", "99.9"},
		"code.200":       {"200"},
		"r12.p50.count":  {"12", "50"},
		"1.2.3x4":        {"1.2.3", "4"},
		"a1._2":          {"1", "2"},
		"x_1_":           {"1"},
		"upstream_rq_5x": {"5"},
		"１２":             nil, // full-width digits are not a key's number
		"":               nil,
	} {
		got := map[string]bool{}
		raw.KeyNumbers(got, key)
		wantSet := map[string]bool{}
		for _, n := range want {
			wantSet[n] = true
		}
		if !reflect.DeepEqual(got, wantSet) {
			t.Errorf("keyNumbers(%q) = %v, want %v", key, got, wantSet)
		}
	}
}
