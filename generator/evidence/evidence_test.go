package evidence

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence/manifest"
)

// writeSet creates evidence/<id>/ under a temporary root with the files.
func writeSet(t *testing.T, id string, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, "evidence", id, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const manifestHead = `id = "s"
title = "t"
date = "2026-07-09"
environment = "lab"
report = "r.md"
origin = "raw"
`

const reportMD = "## D-3 outlier\n\n| stage | attempts | failed | rate |\n|---|---:|---:|---:|\n| A(no outlier) | 29 | 15 | 51.7% |\n| B(+outlier) | 2905 | 6 | 0.21% |\n"

func TestLoadSet(t *testing.T) {
	root := writeSet(t, "s", map[string]string{
		"report.md": reportMD,
		"evidence.toml": manifestHead + `
[[table]]
file = "report.md"
heading = "D-3"
name = "d3"
rows = { "A(no outlier)" = "a", "B(+outlier)" = "b" }

[derived]
"d3.b.pct" = "percent(d3.b.failed, d3.b.attempts)"
"d3.both" = "sum(d3.a.failed, d3.b.failed)"
"d3.chain" = "d3.both * 2 - 1"
`,
	})
	set, errs := LoadSet(root, "evidence/s")
	if errs != nil {
		t.Fatal(errs)
	}
	check := func(name, value, pos string) {
		t.Helper()
		v, ok := set.Value(name)
		if !ok {
			t.Fatalf("no value %s; have %v", name, slices.Collect(set.Names()))
		}
		if v.Value.String() != value || v.Pos.String() != pos {
			t.Errorf("%s = %s at %s, want %s at %s", name, v.Value, v.Pos, value, pos)
		}
	}
	check("d3.a.attempts", "29", "evidence/s/report.md:5:19")
	check("d3.b.rate", "0.21", "evidence/s/report.md:6:28")
	check("d3.b.pct", "0.2065404475043029259896729776", "evidence/s/evidence.toml:15:1")
	check("d3.chain", "41", "evidence/s/evidence.toml:17:1")
	if got := set.get("d3.chain").Inputs; len(got) != 2 || got[0].String() != "evidence/s/report.md:5:24" {
		t.Errorf("d3.chain inputs = %v", got)
	}
}

func TestLoadSetErrors(t *testing.T) {
	tests := []struct {
		name     string
		manifest string
		extra    map[string]string
		want     string
	}{
		{"toml syntax", manifestHead + "[[table]\n", nil, "evidence/s/evidence.toml:8:1: error: invalid TOML"},
		{"unknown key", manifestHead + "colour = 1\n", nil, "unknown manifest key \"colour\"; expected id, title, date, environment, report, origin, source, source_file, text, file, table, transcript, read, derived or decimal"},
		// A key unknown in one language's [text.LANG] lists that table's keys.
		{"unknown text key", manifestHead + "[text.ja]\ntitel = \"x\"\n", nil, "unknown manifest key \"text.ja.titel\" in [text.ja]; expected title, environment or source"},
		// A key unknown in a [[table]] lists that table's keys, not the top level's.
		{"unknown table key", manifestHead + "[[table]]\nfile = \"report.md\"\nheding = \"x\"\nname = \"t\"\n", nil, "unknown manifest key \"table.heding\" in [[table]]; expected file, heading, index, name, rows, columns, units, decimal, changes or spreads"},
		{"unknown read key", manifestHead + "[[read]]\nfile = \"report.md\"\nformat = \"csv\"\nname = \"t\"\nselects = {}\n", nil, "unknown manifest key \"read.selects\" in [[read]]; expected file, format, name, select, key, count_where, paths, patterns, section, skip, units, decimal, changes or spreads"},
		{"id mismatch", strings.Replace(manifestHead, `"s"`, `"x"`, 1), nil, "must equal the evidence set's directory name"},
		{"bad date", strings.Replace(manifestHead, "2026-07-09", "July", 1), nil, `date "July": expected YYYY-MM-DD`},
		{"no such day", strings.Replace(manifestHead, "2026-07-09", "2026-02-30", 1), nil, `date "2026-02-30" is not a day of the calendar`},
		{"no such month", strings.Replace(manifestHead, "2026-07-09", "9999-99-99", 1), nil, `date "9999-99-99" is not a day of the calendar`},
		{"escaping path", manifestHead + "[[table]]\nfile = \"../other/r.md\"\nheading = \"x\"\nname = \"t\"\n", nil, "leaves evidence/s"},
		{"absolute path", manifestHead + "[[table]]\nfile = \"/etc/passwd\"\nheading = \"x\"\nname = \"t\"\n", nil, "expected a relative path"},
		{"missing heading", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"nope\"\nname = \"t\"\n", nil, "has 0 table(s) under a heading containing \"nope\""},
		{"unnamed column", manifestHead + "[[table]]\nfile = \"k.md\"\nheading = \"K\"\nname = \"t\"\n", map[string]string{"k.md": "# K\n| 항목 | 성공 |\n|---|---|\n| a | 1 |\n"}, "evidence/s/k.md:2:12: error: column label \"성공\" has no name segment"},
		{"duplicate spec name", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n", nil, `name "tbl" is given to two`},
		{"duplicate value", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\nrows = { \"A(no outlier)\" = \"x\", \"B(+outlier)\" = \"x\" }\n", nil, "is also named at evidence/s/report.md:5:"},
		{"derived shadows raw", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n[derived]\n\"tbl.a.attempts\" = \"1\"\n", nil, `derived value "tbl.a.attempts" is also read from evidence/s/report.md:5:19`},
		{"short row", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n", map[string]string{"report.md": "## D-3\n| a | b | c |\n|---|---|---|\n| x | 1 |\n"}, "evidence/s/report.md:4:1: error: table row has 2 cells but its header row has 3"},
		{"non-numeric input", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\n[derived]\n\"x\" = \"tbl.a.attempts + 1\"\n", map[string]string{"report.md": "## D-3\n| stage | attempts |\n|---|---|\n| a | forty-one |\n"}, `evidence/s/report.md:4:7: error: "forty-one" is not a number; expected a number for tbl.a.attempts`},
		{"units do not add", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"r.t + r.p\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "+ cannot combine s and %"},
		{"units do not multiply", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"r.t * r.t\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "cannot multiply s by s"},
		{"units do not divide", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"ratio(r.p, r.t)\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "cannot divide % by s"},
		{"max of mixed units", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"x\" = \"max(r.t, r.p)\"\n", map[string]string{"r.txt": "t=40s p=44%\n"}, "max cannot combine s and %"},
		{"ambiguous heading", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-\"\nname = \"tbl\"\n", map[string]string{"report.md": reportMD + "\n## D-4\n| a | b |\n|---|---|\n| x | 1 |\n"}, `heading "D-" matches 2 headings ("D-3 outlier", "D-4")`},
		{"unused row relabel", manifestHead + "[[table]]\nfile = \"report.md\"\nheading = \"D-3\"\nname = \"tbl\"\nrows = { \"C(nope)\" = \"c\", \"A(no outlier)\" = \"a\", \"B(+outlier)\" = \"b\" }\n", nil, `rows relabel "C(nope)" matches no row label`},
		{"unmatched section", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nsections = { \"3a\" = \"before\", \"3c\" = \"after\" }\n", map[string]string{"r.txt": "[3a] x\nv=1\n[3b] y\nv=2\nw=3\n"}, `sections relabel "3c" matches no [3c] section`},
		{"unknown unit", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nunits = { \"age\" = \"weeks\" }\n", map[string]string{"r.txt": "age=3\n"}, `unit "weeks" for "age": expected one of %, %p, /s, B,`},
		{"unmatched change", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nchanges = [\"*.overhead\"]\n", map[string]string{"r.txt": "age=3\n"}, `changes: "*.overhead" matches no value of "r"`},
		{"unmatched spread", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nspreads = { \"*.mean\" = \"*.mean_sd\" }\n", map[string]string{"r.txt": "age=3\n"}, `spreads: "*.mean" matches no value of "r"`},
		{"spread missing", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nspreads = { \"*.mean\" = \"*.mean_sd\" }\n", map[string]string{"r.txt": "[S1] x\nmean=3\n"}, `spreads: "*.mean" = "*.mean_sd": s/r.s1.mean has no value r.s1.mean_sd to be its spread`},
		{"spread forms differ", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nspreads = { \"*.mean\" = \"sd\" }\n", map[string]string{"r.txt": "mean=3 sd=1\n"}, `expected both local names or both "*.suffix"`},
		{"spread printed and declared", manifestHead + "[[table]]\nfile = \"b.md\"\nheading = \"B\"\nname = \"h\"\nspreads = { \"*.mean\" = \"*.max\" }\n", map[string]string{"b.md": "## B\n| c | mean | max |\n|---|---|---|\n| a | 3 ± 1 | 5 |\n"}, `s/h.a.mean already has the spread 1 its reader printed after ±`},
		{"cycle", manifestHead + "[derived]\n\"a\" = \"b + 1\"\n\"b\" = \"a + 1\"\n", nil, "dependency cycle"},
		{"division by zero", manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n[derived]\n\"z\" = \"ratio(r.x, r.zero)\"\n", map[string]string{"r.txt": "x=1 zero=0\n"}, "division by zero"},
		{"unknown input", manifestHead + "[derived]\n\"a\" = \"nope.x + 1\"\n", nil, `unknown value "nope.x"`},
		{"bad expression", manifestHead + "[derived]\n\"a\" = \"1 +\"\n", nil, "cannot parse expression"},
		{"unsupported", manifestHead + "[derived]\n\"a\" = \"1 > 2\"\n", nil, `unsupported operator ">"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"report.md": reportMD, "evidence.toml": tt.manifest}
			for k, v := range tt.extra {
				files[k] = v
			}
			root := writeSet(t, "s", files)
			set, errs := LoadSet(root, "evidence/s")
			if !errs.HasErrors() {
				t.Fatalf("LoadSet succeeded; want error containing %q", tt.want)
			}
			if set != nil {
				// Only derived values that cannot be computed leave the
				// set loaded: without them, each recorded as unavailable
				// at the error that explains it.
				for _, e := range errs {
					if e.Severity == diag.Error && e.Rule != diag.EvidenceDerived {
						t.Errorf("set loaded despite %s", e)
					}
				}
				if len(set.Unavailable) == 0 {
					t.Errorf("set loaded with errors but no unavailable value: %v", errs)
				}
				for n, at := range set.Unavailable {
					if _, ok := set.Value(n); ok || !at.IsValid() {
						t.Errorf("unavailable %s: value %v, at %v", n, set.get(n), at)
					}
				}
			}
			if !strings.Contains(errs.Error(), tt.want) {
				t.Errorf("errors:\n%s\nwant one containing %q", errs.Error(), tt.want)
			}
			for _, e := range errs {
				if !e.Pos.IsValid() && e.Pos.File == "" {
					t.Errorf("error without position: %v", e)
				}
			}
		})
	}
}

func TestSymlinkRejected(t *testing.T) {
	root := writeSet(t, "s", map[string]string{"evidence.toml": manifestHead + "[[table]]\nfile = \"link.md\"\nheading = \"D-3\"\nname = \"t\"\n", "real.md": reportMD})
	if err := os.Symlink(filepath.Join(root, "evidence", "s", "real.md"), filepath.Join(root, "evidence", "s", "link.md")); err != nil {
		t.Skip(err)
	}
	_, errs := LoadSet(root, "evidence/s")
	if !strings.Contains(errs.Error(), "is a symbolic link") {
		t.Errorf("errs = %v", errs)
	}
}

var _ = diag.Position{}

func TestProvenance(t *testing.T) {
	root := writeSet(t, "s", map[string]string{
		"t.txt":   "x=1\n",
		"raw.txt": "y=2\n",
		"u.txt":   "z=3\n",
		"evidence.toml": strings.Replace(manifestHead, `origin = "raw"`, `origin = "transcribed"
source = "published page, appendix E"
source_file = "../shared/seeds/page.txt"`, 1) + `
[text.ja]
source = "公開ページ、付録E"

[[file]]
path = "raw.txt"
origin = "raw"

[[file]]
path = "u.txt"
source = "published page, appendix B"

[[transcript]]
file = "t.txt"
name = "t"

[[transcript]]
file = "raw.txt"
name = "raw"

[[transcript]]
file = "u.txt"
name = "u"
`,
	})
	set, errs := LoadSet(root, "evidence/s")
	if errs != nil {
		t.Fatal(errs)
	}
	for _, tt := range []struct {
		file string
		want Provenance
	}{
		// the set's source, and its [text.ja] source for ja pages
		{"evidence/s/t.txt", Provenance{OriginTranscribed, "published page, appendix E", "../shared/seeds/page.txt", map[string]string{"ja": "公開ページ、付録E"}}},
		{"evidence/s/raw.txt", Provenance{Origin: OriginRaw}},
		// a file naming its own source does not take the set's ja text
		{"evidence/s/u.txt", Provenance{OriginTranscribed, "published page, appendix B", "../shared/seeds/page.txt", nil}},
	} {
		if got := set.Provenance(tt.file); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Provenance(%s) = %+v, want %+v", tt.file, got, tt.want)
		}
	}
}

func TestMissingOriginKeepsValues(t *testing.T) {
	root := writeSet(t, "s", map[string]string{
		"r.txt":         "x=1\n",
		"evidence.toml": strings.Replace(manifestHead, "origin = \"raw\"\n", "", 1) + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\n",
	})
	set, errs := LoadSet(root, "evidence/s")
	if set == nil || set.get("r.x") == nil {
		t.Fatalf("set without origin did not load its values: %v", errs)
	}
	if len(errs) != 1 || errs[0].Rule != diag.EvidenceOrigin || errs[0].Pos.String() != "evidence/s/evidence.toml:1:1" || errs[0].Severity != diag.Error {
		t.Errorf("errs = %v; want one %s error at evidence/s/evidence.toml:1:1", errs, diag.EvidenceOrigin)
	}
}

// TestManifestUnitsFromUnitPackage: a manifest accepts every canonical
// unit name of package unit (wk, mo, yr included), not a list of its own.
func TestManifestUnitsFromUnitPackage(t *testing.T) {
	for _, u := range []string{"wk", "mo", "yr", "us", "/s", "count"} {
		m := manifestHead + "[[transcript]]\nfile = \"r.txt\"\nname = \"r\"\nunits = { \"age\" = \"" + u + "\" }\n"
		root := writeSet(t, "s", map[string]string{"evidence.toml": m, "r.txt": "age=3\n"})
		set, errs := LoadSet(root, "evidence/s")
		if set == nil || errs.Count(diag.Error) > 0 {
			t.Fatalf("unit %q: %v", u, errs)
		}
		if got := set.get("r.age").Unit; got != u {
			t.Errorf("unit %q: value carries %q", u, got)
		}
	}
}

// TestManifestFindingsOnce: each manifest mistake is one finding, at the
// key, naming what was expected: an unknown table is not reported again
// for each of its keys, a value of the wrong type is reported at its line
// (not 1:1), and a scalar where a table is expected is an error rather
// than an empty table (BurntSushi/toml decodes it silently).
func TestManifestFindingsOnce(t *testing.T) {
	read := "[[read]]\nfile = \"r.csv\"\nformat = \"csv\"\nname = \"r\"\n"
	tests := []struct {
		name, manifest string
		want           []string
	}{
		{"top-level units", manifestHead + "units = { \"p99\" = \"ms\", \"p50\" = \"ms\" }\n" + read,
			[]string{`evidence/s/evidence.toml:7:1: error: unknown manifest key "units"; expected id, title, date, environment, report, origin, source, source_file, text, file, table, transcript, read, derived or decimal (units belongs to a [[table]], [[transcript]] or [[read]] entry: write it after that entry's header) [evidence-manifest]`}},
		{"unknown table", manifestHead + "[colours]\na = 1\nb = 2\n" + read,
			[]string{`evidence/s/evidence.toml:7:2: error: unknown manifest key "colours"; expected id, title, date, environment, report, origin, source, source_file, text, file, table, transcript, read, derived or decimal [evidence-manifest]`}},
		{"unit of wrong type", manifestHead + read + "units = { \"p99\" = 3 }\n",
			[]string{`evidence/s/evidence.toml:11:11: error: read.units.p99: incompatible types: TOML value has type int64; destination has type string [evidence-manifest]`}},
		{"units not a table", manifestHead + read + "units = \"ms\"\n",
			[]string{`evidence/s/evidence.toml:11:1: error: read.units in [[read]] is a string; expected a table of name = value pairs, such as units = { "p99" = "ms" } [evidence-manifest]`}},
		{"second entry's select not a table", manifestHead + read + strings.Replace(read, `"r"`, `"q"`, 1) + "select = [\"a\"]\n",
			[]string{`evidence/s/evidence.toml:15:1: error: read.select in [[read]] is an array; expected a table of name = value pairs, such as select = { "p99" = "ms" } [evidence-manifest]`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeSet(t, "s", map[string]string{"r.csv": "k,v\na,1\n", "evidence.toml": tt.manifest})
			set, errs := LoadSet(root, "evidence/s")
			if set != nil {
				t.Fatalf("LoadSet succeeded; want %q", tt.want)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.String())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestChangesMarkDifferences: a value the manifest's "changes" names is a
// difference, written with a sign or not; the others are not.
func TestChangesMarkDifferences(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "evidence", "s")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	manifest := manifestHead + "[[table]]\nfile = \"o.md\"\nheading = \"Overhead\"\nname = \"o\"\nunits = { \"*.p99\" = \"ms\" }\nchanges = [\"*.overhead\"]\n"
	table := "## Overhead\n| mode | p99 | overhead |\n|---|---|---|\n| base | 12.1 | 0% |\n| mtls | 14.85 | 22.73% |\n"
	for f, b := range map[string]string{"evidence.toml": manifest, "o.md": table} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, errs := Load(root, "evidence")
	if errs.HasErrors() {
		t.Fatal(errs)
	}
	for ref, want := range map[string]bool{"s/o.mtls.overhead": true, "s/o.base.overhead": true, "s/o.mtls.p99": false} {
		if v, ok := st.Lookup(ref); !ok || v.Delta != want {
			t.Errorf("%s: %+v, %v; want Delta %v", ref, v, ok, want)
		}
	}
}

// TestUnnamedReadingReported: a reading whose native key has an empty
// part (JSON's "" key) gets no slug name; it is an evidence-number
// warning at the reading, not a value that vanishes unsaid.
func TestUnnamedReadingReported(t *testing.T) {
	root := writeSet(t, "s", map[string]string{
		"r.json": `{"ok": 5, "a": {"": 7}}`,
		"evidence.toml": manifestHead + `
[[read]]
file = "r.json"
format = "json"
name = "j"
`,
	})
	set, errs := LoadSet(root, "evidence/s")
	if set == nil {
		t.Fatal(errs)
	}
	if _, ok := set.Value("j.ok"); !ok {
		t.Fatalf("no value j.ok; have %v", slices.Collect(set.Names()))
	}
	found := false
	for _, d := range errs {
		if d.Rule == diag.EvidenceNumber && strings.Contains(d.Message, "empty part") && d.Pos.Line == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("the reading of key a. (value 7) vanished without a warning: %v", errs)
	}
}

// TestManifestInLanguage: [text.LANG] replaces the fields it gives for
// that language only; the others, and every other language, keep the
// top-level strings.
func TestManifestInLanguage(t *testing.T) {
	root := writeSet(t, "s", map[string]string{
		"r.txt": "x=1\n",
		"evidence.toml": manifestHead + `
[text.ja]
title  = "題名"
source = "出典、付録E"

[text.ko]
environment = "환경"

[[transcript]]
file = "r.txt"
name = "r"
`,
	})
	set, errs := LoadSet(root, "evidence/s")
	if errs != nil {
		t.Fatal(errs)
	}
	m := set.Manifest
	for _, tt := range []struct {
		lang string
		want manifest.SetText
	}{
		{"ja", manifest.SetText{Title: "題名", Environment: m.Environment, Source: "出典、付録E"}},
		{"ko", manifest.SetText{Title: m.Title, Environment: "환경", Source: m.Source}},
		{"en", manifest.SetText{Title: m.Title, Environment: m.Environment, Source: m.Source}},
	} {
		if got := m.InLanguage(tt.lang); got != tt.want {
			t.Errorf("InLanguage(%s) = %+v, want %+v", tt.lang, got, tt.want)
		}
	}
	if m.Title == "題名" || m.Environment == "환경" {
		t.Errorf("[text.LANG] changed the top-level fields: %+v", m)
	}
}

// TestSpreadsLinked: a value knows the spread its reader printed after ±
// (benchstat's ±11%, relative, kept as the value's spread even where
// select names only the mean), or the spreads declaration names (a
// transcript's sd, absolute in the mean's unit; a % next to a time,
// relative); a value with neither has none, whatever its neighbours are
// called.
func TestSpreadsLinked(t *testing.T) {
	root := writeSet(t, "s", map[string]string{
		"evidence.toml": manifestHead + `[[read]]
file = "b.txt"
format = "benchstat"
name = "b"
select = { "Encode.time_op.old" = "old" }

[[transcript]]
file = "r.txt"
name = "r"
units = { "*.mean" = "ms", "*.cv" = "%" }
spreads = { "*.mean" = "*.sd", "x.rate" = "x.cv" }

[[table]]
file = "t.md"
heading = "T"
name = "h"
units = { "*.mean" = "ms" }
`,
		"t.md":  "## T\n| c | mean |\n|---|---|\n| a | 319.5 ± 11.2 |\n",
		"b.txt": "name       old time/op    new time/op    delta\nEncode-8   825µs ±11%     451µs ± 5%  -45.31%  (p=0.100 n=3+3)\n",
		"r.txt": "[A] a\nmean=40.5 sd=1.2 other=3 other_sd=1\n[X] x\nmean=7 sd=0.5 rate=120 cv=11\n",
	})
	set, errs := LoadSet(root, "evidence/s")
	if set == nil || errs.HasErrors() {
		t.Fatalf("LoadSet: %v", errs)
	}
	for name, want := range map[string]string{
		"b.old":    "11 % relative  @evidence/s/b.txt:2:21",
		"r.a.mean": "1.2 ms absolute s/r.a.sd @evidence/s/r.txt:2:14",
		"r.x.mean": "0.5 ms absolute s/r.x.sd @evidence/s/r.txt:4:11",
		"r.x.rate": "11 % relative s/r.x.cv @evidence/s/r.txt:4:27",
	} {
		v := set.get(name)
		if v == nil || v.Spread == nil {
			t.Errorf("%s: %+v knows no spread", name, v)
			continue
		}
		sp := v.Spread
		kind := "absolute"
		if sp.Relative {
			kind = "relative"
		}
		if got := fmt.Sprintf("%s %s %s %s @%s", sp.Value, sp.Unit, kind, sp.Ref, sp.Pos); got != want {
			t.Errorf("%s spread = %s, want %s", name, got, want)
		}
	}
	// a cell's spread is in its mean's unit, declared for the mean alone
	if v := set.get("h.a.mean_pm"); v == nil || v.Unit != "ms" || v.SpreadOf != "s/h.a.mean" || set.get("h.a.mean").Spread.Unit != "ms" {
		t.Errorf("h.a.mean_pm = %+v; want 11.2 ms, the spread of s/h.a.mean", v)
	}
	if v := set.get("r.a.sd"); v.SpreadOf != "s/r.a.mean" || v.Unit != "ms" {
		t.Errorf("r.a.sd = %+v; want the spread of s/r.a.mean, in ms", v)
	}
	if of := set.get("r.a.sd").SpreadOf; of != "s/r.a.mean" {
		t.Errorf("r.a.sd SpreadOf = %q", of)
	}
	for _, name := range []string{"r.a.other", "r.a.sd", "r.a.other_sd"} {
		if v := set.get(name); v == nil || v.Spread != nil {
			t.Errorf("%s = %+v; want no spread (no ± printed, none declared)", name, v)
		}
	}
	if _, named := set.Value("b.old_var"); named {
		t.Errorf("b.old_var named without select")
	}
}

// get returns the value of s named name, or nil.
func (s *Set) get(name string) *Value {
	v, _ := s.Value(name)
	return v
}
