package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"

	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// fuzzLabFormat runs format's reader on arbitrary input and checks the
// invariants of every reader: no panic, every position inside the file and
// consistent with its offset, Raw at Pos (count_where aggregates
// excepted), a non-empty Raw spanned by Number.Start/End, and no numeric
// field vanishing (checkNoVanish). It is seeded with the format's samples
// (addSamples) and seeds.
func fuzzLabFormat(f *testing.F, seeds []string, format string, opts ...raw.ReadOptions) {
	addSamples(f, format, seeds...)
	if len(opts) == 0 {
		opts = []raw.ReadOptions{{}}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, opt := range opts {
			checkNoVanish(t, format, src, opt)
		}
	})
}

// fuzzEnvoy runs one Envoy reader on src and checks the Reader contract:
// no panic, every position inside src, Raw at Pos, the exact value of Raw,
// and no numeric field vanishing (checkNoVanish).
func fuzzEnvoy(t *testing.T, format string, src []byte) {
	out, errs := checkNoVanish(t, format, src, raw.ReadOptions{})
	checkEnvoyOutput(t, src, out, errs)
}

// seedBytes bounds the seeds of the raw-format fuzz targets. Go's fuzzer
// minimizes every input that finds new coverage, first removing one byte
// at a time and then every span of bytes: a number of executions that
// grows with the square of the input's length, each costing time in
// proportion to it, up to -fuzzminimizetime (60 s by default), and the
// executions of a minimization are counted only when it ends. An input
// grown from a 1.4 KB k6 sample held a 20-second run for its whole length
// (7 executions counted); inputs grown from pieces of at most seedBytes
// are minimized in milliseconds. The whole samples are read by the golden
// tests and TestNoDigitVanishes.
const seedBytes = 256

// addSamples seeds f with seeds and with the samples of format cut into
// pieces (addPieces): the reference site's evidence files, the shared
// corpus of real third-party output (when present) and
// testdata/tools/FORMAT, each placed by corpusFormat or Sniff.
func addSamples(f *testing.F, format string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	var files []string
	for _, pattern := range []string{"../../../evidence/*/*", filepath.Join(corpusDir, "*", "*")} {
		m, _ := filepath.Glob(pattern)
		for _, p := range m {
			base := filepath.Base(p)
			if src, err := os.ReadFile(p); err == nil && (corpusFormat[base] == format || corpusFormat[base] == "" && raw.Sniff(base, src) == format) {
				files = append(files, p)
			}
		}
	}
	tools, _ := filepath.Glob(filepath.Join("testdata/tools", format, "*"))
	for _, p := range append(files, tools...) {
		if filepath.Ext(p) == ".golden" {
			continue
		}
		if src, err := os.ReadFile(p); err == nil {
			addPieces(f, src)
		}
	}
}

// addPieces adds src to f's seeds in pieces of at most about seedBytes: a
// JSON document as jsonPieces cuts it, other text as runs of whole lines,
// each after the first led by the file's first line (the header of a
// table or CSV file); a longer line is cut.
func addPieces(f *testing.F, src []byte) {
	if len(src) <= seedBytes {
		f.Add(src)
		return
	}
	if json.Valid(src) {
		for _, p := range jsonPieces(src, seedBytes) {
			f.Add(p)
		}
		return
	}
	first := src[:bytes.IndexByte(src, '\n')+1]
	if len(first) > seedBytes/2 {
		first = nil
	}
	var piece []byte
	for len(src) > 0 {
		n := bytes.IndexByte(src, '\n') + 1
		if n == 0 || n > seedBytes {
			n = min(len(src), seedBytes)
			for n < len(src) && n > 1 && !utf8.RuneStart(src[n]) {
				n-- // whole characters: a reader rejects invalid UTF-8
			}
		}
		if len(piece)+n > seedBytes && len(piece) > len(first) {
			f.Add(piece)
			piece = append([]byte(nil), first...)
		}
		piece = append(piece, src[:n]...)
		src = src[n:]
	}
	f.Add(piece)
}

// jsonPieces cuts a JSON document into documents of at most about limit
// bytes (a value that is larger alone is cut further or left out): the
// members of an object, or the elements of an array, packed in order,
// each piece wrapped in the keys of its ancestors (an array ancestor as a
// one-element array), so that a reader finds its values at their paths.
func jsonPieces(src []byte, limit int) [][]byte {
	d := json.NewDecoder(bytes.NewReader(src))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	var out [][]byte
	fits := func(v any) bool { b, _ := json.Marshal(v); return len(b) <= limit }
	var cut func(v any, wrap func(any) any)
	cut = func(v any, wrap func(any) any) {
		if b, _ := json.Marshal(wrap(v)); len(b) <= limit {
			out = append(out, b)
			return
		}
		// build(lo, hi) is the value with members lo..hi-1 only; child(i)
		// is member i and its wrapping.
		var n int
		var build func(lo, hi int) any
		var child func(i int) (any, func(any) any)
		switch v := v.(type) {
		case map[string]any:
			keys := slices.Sorted(maps.Keys(v))
			n = len(keys)
			build = func(lo, hi int) any {
				m := map[string]any{}
				for _, k := range keys[lo:hi] {
					m[k] = v[k]
				}
				return m
			}
			child = func(i int) (any, func(any) any) {
				return v[keys[i]], func(x any) any { return wrap(map[string]any{keys[i]: x}) }
			}
		case []any:
			n = len(v)
			build = func(lo, hi int) any { return v[lo:hi] }
			child = func(i int) (any, func(any) any) { return v[i], func(x any) any { return wrap([]any{x}) } }
		default:
			return // a string or number too long alone
		}
		lo := 0
		for i := range n {
			if fits(wrap(build(lo, i+1))) {
				continue
			}
			if lo < i {
				cut(build(lo, i), wrap)
			}
			lo = i
			if !fits(wrap(build(i, i+1))) {
				cut(child(i))
				lo = i + 1
			}
		}
		if lo < n {
			cut(build(lo, n), wrap)
		}
	}
	cut(v, func(x any) any { return x })
	return out
}

// inside asserts that p names a byte of src (or its end) consistently. ix
// indexes src (nil: built here; pass one when checking many positions).
func inside(t testing.TB, src []byte, p diag.Position, ix ...*diag.LineIndex) {
	t.Helper()
	if p.Offset < 0 || p.Offset > len(src) {
		t.Fatalf("position %v offset outside file of %d bytes", p, len(src))
	}
	var x *diag.LineIndex
	if len(ix) > 0 && ix[0] != nil {
		x = ix[0]
	} else {
		x = diag.NewLineIndex(p.File, src)
	}
	want := x.Pos(p.Offset)
	want.File = p.File
	if want != p {
		t.Fatalf("position %v disagrees with its offset (%v)", p, want)
	}
}
