package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
)

// accessLogSet writes an evidence set "al" reading an Envoy access log
// of n lines (6 numeric fields a line) without select, under root.
func accessLogSet(t testing.TB, root string, n int) {
	t.Helper()
	dir := filepath.Join(root, "evidence", "al")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "[2024-03-01T08:15:02.%03dZ] \"GET /api/items%d HTTP/1.1\" %d - 0 %d %d %d \"-\" \"hey/0.0.1\" \"5f1c9a1e-%012d\" \"items.lab:8080\" \"10.1.4.7:8080\"\n",
			i%1000, i, 200+303*(i%3/2), 1000+i%4000, 100+i%900, 50+i%700, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "access.log"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mtext := "id = \"al\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n\n" +
		"[[read]]\nfile = \"access.log\"\nformat = \"envoy-access-log\"\nname = \"a\"\n"
	if err := os.WriteFile(filepath.Join(dir, manifest.FileName), []byte(mtext), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadedSetLiveMemory holds the cost of a loaded set (RELIABILITY.md,
// "Cost bounds"): a [[read]] without select keeps its readings, not a
// Value each (about 300 bytes), so the set of a 20,000-line access log
// (120,000 readings, 3.3 MB) holds at most 100 bytes live per reading,
// the file's own bytes included, counted by the runtime after a
// collection. A value looked up is the reading's, and is one Value for
// every lookup.
func TestLoadedSetLiveMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("heap figures are those of a build without the race detector")
	}
	root := t.TempDir()
	const lines = 20000
	accessLogSet(t, root, lines)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	set, errs := LoadSet(root, "evidence/al")
	runtime.GC()
	runtime.ReadMemStats(&after)
	if set == nil || errs.HasErrors() {
		t.Fatalf("set %v, errs %v", set, errs)
	}
	n := set.Len()
	if n != 6*lines {
		t.Fatalf("%d values; want %d", n, 6*lines)
	}
	per := float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
	t.Logf("%d values: %.0f bytes live per value", n, per)
	if per > 100 {
		t.Errorf("a loaded set of %d readings holds %.0f bytes per reading; want at most 100", n, per)
	}
	v, _ := set.Value("a.r12345.bytes_sent")
	if v == nil || v.Value.String() != fmt.Sprint(1000+12344%4000) || v.Ref != "al/a.r12345.bytes_sent" || v.Pos.Line != 12345 {
		t.Fatalf("a.r12345.bytes_sent = %+v", v)
	}
	if w, _ := set.Value("a.r12345.bytes_sent"); w != v {
		t.Errorf("two lookups of one value give two Values")
	}
	runtime.KeepAlive(set)
}

// TestLazySameAsEager: a set whose [[read]] values are built from their
// readings when asked holds the values, and gives the findings, that
// naming every value at once gives: units and changes declared on them,
// a duplicate name, a key naming no value, a curl time in µs beside one
// in seconds, spreads, a derived value on a lazy one.
func TestLazySameAsEager(t *testing.T) {
	head := "id = \"s\"\ntitle = \"t\"\ndate = \"unknown\"\nenvironment = \"e\"\nreport = \"r\"\norigin = \"raw\"\n\n"
	for name, tc := range map[string]struct{ manifest, file, src string }{
		"units and changes": {
			"[[read]]\nfile = \"a.csv\"\nformat = \"csv\"\nname = \"c\"\nkey = \"name\"\nunits = { \"*.v\" = \"ms\", \"*.share\" = \"%p\" }\nchanges = [\"*.share\", \"a.w\"]\n\n[derived]\nsum = \"c.a.v + c.b.v\"\n",
			"a.csv", "name,v,share,w\na,12,3%,1\nb,4.5,4%,2\nc,7,5%,3\n"},
		"unit contradicted": {
			"[[read]]\nfile = \"a.csv\"\nformat = \"csv\"\nname = \"c\"\nkey = \"name\"\nunits = { \"*.v\" = \"ms\", \"b.v\" = \"s\", \"*.nothing\" = \"s\" }\n",
			"a.csv", "name,v\na,12\nb,4.5\n"},
		"duplicate and empty key": {
			"[[read]]\nfile = \"a.json\"\nformat = \"json\"\nname = \"j\"\n\n[[read]]\nfile = \"b.json\"\nformat = \"json\"\nname = \"k\"\n",
			"a.json", "{\"x\": 1, \"\": 2, \"y\": {\"z\": 3}, \"x\": 4}"},
		"empty key": {
			"[[read]]\nfile = \"a.json\"\nformat = \"json\"\nname = \"j\"\n",
			"a.json", "{\"x\": 1, \"\": 2, \"y\": {\"z\": 3}}"},
		"access log": {
			"[[read]]\nfile = \"access.log\"\nformat = \"envoy-access-log\"\nname = \"a\"\nunits = { \"*.duration\" = \"s\" }\n",
			"access.log", "[2024-03-01T08:15:02.000Z] \"GET /a HTTP/1.1\" 503 - 0 2472 405 667 \"-\" \"hey/0.0.1\" \"x\" \"h:8080\" \"10.1.4.7:8080\"\n"},
		"benchstat spreads": {
			"[[read]]\nfile = \"b.txt\"\nformat = \"benchstat\"\nname = \"b\"\n",
			"b.txt", " │   a    │          b           │\n │ sec/op │ sec/op   vs base     │\nGet-10   9.5n ± 1%   9.9n ± 1%  +4.21% (p=0.000 n=10)\n"},
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "evidence", "s")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for f, src := range map[string]string{manifest.FileName: head + tc.manifest, tc.file: tc.src, "b.json": "{\"z\": 5, \"q\": 6}"} {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(src), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			load := func(eager bool) ([]*Value, string) {
				eagerOnly = eager
				defer func() { eagerOnly = false }()
				set, errs := LoadSet(root, "evidence/s")
				if set == nil {
					return nil, errs.Error()
				}
				if !eager && set.lazy == nil {
					t.Errorf("no value is held lazily")
				}
				return set.Sorted(), errs.Error()
			}
			lazy, lerrs := load(false)
			eager, eerrs := load(true)
			if lerrs != eerrs {
				t.Errorf("findings differ:\nlazy:  %s\neager: %s", lerrs, eerrs)
			}
			if len(lazy) != len(eager) {
				t.Fatalf("%d values lazily, %d eagerly", len(lazy), len(eager))
			}
			for i := range lazy {
				if !reflect.DeepEqual(lazy[i], eager[i]) {
					t.Errorf("value %d:\nlazy:  %+v\neager: %+v", i, lazy[i], eager[i])
				}
			}
			t.Logf("%d values; %s", len(lazy), lerrs)
		})
	}
}
