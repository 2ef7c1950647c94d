package jsontree

import (
	"encoding/json"
	"strings"
	"testing"
)

// checkTree holds what a reader relies on for every node of a parsed
// document: its byte range [Start, End) lies inside its parent's, after
// its previous sibling's, and is itself one JSON text of its kind; a
// string's Str is that text decoded.
func checkTree(t *testing.T, src []byte, n *Node, lo, hi int) {
	t.Helper()
	if n.Start < lo || n.End > hi || n.Start >= n.End {
		t.Fatalf("%s at [%d,%d) outside [%d,%d) of %q", n.Kind, n.Start, n.End, lo, hi, src)
	}
	text := src[n.Start:n.End]
	if !json.Valid(text) {
		t.Fatalf("%s at [%d,%d) is not one JSON text: %q", n.Kind, n.Start, n.End, text)
	}
	first := text[0]
	want := map[byte]Kind{'{': Object, '[': Array, '"': String, 'n': Null, 't': Bool, 'f': Bool}[first]
	if first == '-' || first >= '0' && first <= '9' {
		want = Number
	}
	if n.Kind != want {
		t.Fatalf("%q parsed as %s, want %s", text, n.Kind, want)
	}
	switch n.Kind {
	case String:
		var s string
		if err := json.Unmarshal(text, &s); err != nil || s != n.Str {
			t.Fatalf("string %q decoded as %q, encoding/json %q (%v)", text, n.Str, s, err)
		}
	case Array:
		at := n.Start + 1
		for _, e := range n.Elems {
			checkTree(t, src, e, at, n.End-1)
			at = e.End
		}
	case Object:
		at := n.Start + 1
		for _, m := range n.Members {
			checkTree(t, src, m.Val, at, n.End-1)
			at = m.Val.End
		}
	}
}

// hasDupKey reports whether an object in n repeats a key.
func hasDupKey(n *Node) bool {
	dup := false
	Walk(n, func(_ string, n *Node) {
		seen := map[string]bool{}
		for _, m := range n.Members {
			dup = dup || seen[m.Key]
			seen[m.Key] = true
		}
	})
	return dup
}

// FuzzParseJSON: Parse accepts exactly the documents encoding/json
// accepts (but for its depth bound), every node's offsets give back its
// own text, and RejectDupKeys rejects exactly the documents with a
// repeated key.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"a": 1, "b": [true, false, null, "x\u00e9\n"], "c": {"d": -0.5e+3}}`,
		`[1, 2.50, -0, 1E9, "", {}]`, ` "t\"q" `, `{"k": 1, "k": 2}`, `01`, `[1,]`,
		`{"a" 1}`, "\"\x01\"", `"\ud800"`, `1.`, `-`, `[` + strings.Repeat(`[`, 600) + `]`,
		`{"cluster": {"upstream_rq_total": 86}} trailing`, "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		n, serr := Parse(src, 0, len(src), AllowDupKeys)
		valid := json.Valid(src)
		if serr != nil {
			if serr.Off < 0 || serr.Off > len(src) || serr.Msg == "" {
				t.Fatalf("error %+v outside %d bytes or without a message", serr, len(src))
			}
			if valid && !serr.deep {
				t.Fatalf("rejected %q, which encoding/json accepts: %s at %d", src, serr.Msg, serr.Off)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted %q, which encoding/json rejects", src)
		}
		checkTree(t, src, n, 0, len(src))
		_, rerr := Parse(src, 0, len(src), RejectDupKeys)
		if dup := hasDupKey(n); dup != (rerr != nil) {
			t.Fatalf("%q: a repeated key %v, RejectDupKeys error %v", src, dup, rerr)
		}
	})
}

// TestParseJSONDepth: a document nested deeper than MaxDepth is rejected
// as too deep, at the byte that goes one level too far; MaxDepth levels
// are read.
func TestParseJSONDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse([]byte(ok), 0, len(ok), RejectDupKeys); err != nil {
		t.Fatalf("%d levels: %v", MaxDepth, err)
	}
	deep := "[" + ok + "]"
	_, err := Parse([]byte(deep), 0, len(deep), RejectDupKeys)
	if err == nil || !err.deep || err.Off != MaxDepth {
		t.Fatalf("%d levels: %+v, want a depth error at offset %d", MaxDepth+1, err, MaxDepth)
	}
}

// TestParseJSONRange: offsets are offsets in the whole file when the
// document is a part of it.
func TestParseJSONRange(t *testing.T) {
	src := []byte(`prefix {"rq": [7, "x"]} suffix`)
	n, err := Parse(src, 7, 23, RejectDupKeys)
	if err != nil {
		t.Fatal(err)
	}
	checkTree(t, src, n, 7, 23)
	if v := n.Get("rq").Elems[0]; string(src[v.Start:v.End]) != "7" {
		t.Fatalf("rq[0] at [%d,%d): %q", v.Start, v.End, src[v.Start:v.End])
	}
}
