package docstest

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/figure/spec"
)

var update = flag.Bool("update", false, "rewrite docs/reference.md from the code")

const reference = "docs/reference.md"

// refTable is one TOML table of a file format: its heading in the
// reference, the Go type declaring its keys, and the file declaring it.
type refTable struct {
	heading, typ, file string
}

var manifestTables = []refTable{
	{"Top level", "Manifest", "generator/evidence/manifest/manifest.go"},
	{"`[text.LANG]`: the set in one site language", "SetText", "generator/evidence/manifest/manifest.go"},
	{"`[[file]]`: provenance of one raw file", "FileSpec", "generator/evidence/manifest/manifest.go"},
	{"`[[table]]`: a Markdown table of a report", "TableSpec", "generator/evidence/manifest/manifest.go"},
	{"`[[transcript]]`: a `key=value` lab transcript", "TranscriptSpec", "generator/evidence/manifest/manifest.go"},
	{"`[[read]]`: a raw file read by a format reader", "ReadSpec", "generator/evidence/manifest/manifest.go"},
}

var figureTables = []refTable{
	{"Top level", "Spec", "generator/figure/spec/spec.go"},
	{"`[[panel]]`", "Panel", "generator/figure/spec/spec.go"},
	{"`[[panel.series]]` (spectrum, timeseries, distribution)", "Series", "generator/figure/spec/kinds.go"},
	{"`[[event]]` (timeseries)", "Event", "generator/figure/spec/kinds.go"},
	{"`[[panel.group]]` (bars, rate, compare)", "Group", "generator/figure/spec/spec.go"},
	{"`[[panel.group.bar]]` (bars, compare)", "Bar", "generator/figure/spec/spec.go"},
	{"`[[panel.group.bar.segment]]` (stacked bars)", "Segment", "generator/figure/spec/spec.go"},
}

// keyRows returns one Markdown table row per TOML key of type typ in
// file: key, Go type, and the field's doc comment.
func keyRows(t *testing.T, file, typ string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../../"+file, nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var st *ast.StructType
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == typ {
			st, _ = ts.Type.(*ast.StructType)
		}
		return st == nil
	})
	if st == nil {
		t.Fatalf("%s: no struct %s", file, typ)
	}
	var b strings.Builder
	b.WriteString("| key | type | meaning |\n|---|---|---|\n")
	for _, fld := range st.Fields.List {
		if fld.Tag == nil || len(fld.Names) == 0 {
			continue
		}
		tag := reflect.StructTag(strings.Trim(fld.Tag.Value, "`")).Get("toml")
		key := strings.Split(tag, ",")[0]
		if key == "" || key == "-" {
			continue
		}
		doc := ""
		if fld.Doc != nil {
			doc = fld.Doc.Text()
		} else if fld.Comment != nil {
			doc = fld.Comment.Text()
		}
		doc = strings.Join(strings.Fields(doc), " ")
		if doc == "" {
			doc = "see the struct's documentation"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", key, tomlType(fld.Type), strings.ReplaceAll(doc, "|", "\\|"))
	}
	return b.String()
}

// tomlType names a Go field type as the TOML value it takes.
func tomlType(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.Ident:
		switch x.Name {
		case "string":
			return "string"
		case "int", "int64", "float64":
			return "number"
		case "bool":
			return "boolean"
		case "Text":
			return "text per language (`{ ko = \"…\", ja = \"…\" }`)"
		}
		return "table"
	case *ast.ArrayType:
		if id, ok := x.Elt.(*ast.Ident); ok && id.Name == "string" {
			return "array of strings"
		}
		if id, ok := x.Elt.(*ast.Ident); ok && (id.Name == "float64" || id.Name == "int") {
			return "array of numbers"
		}
		return "array of tables"
	case *ast.MapType:
		if id, ok := x.Value.(*ast.Ident); ok && id.Name == "Text" {
			return "table of texts per language"
		}
		if id, ok := x.Value.(*ast.Ident); ok && id.Name == "SetText" {
			return "table per language (`[text.ko]`, `[text.ja]`)"
		}
		return "table of strings"
	}
	return "value"
}

func generateReference(t *testing.T) string {
	var b strings.Builder
	b.WriteString(`# evdoc reference: evidence manifests and figure specs

<!-- Generated from the code by internal/docstest (go test ./internal/docstest -update);
do not edit: change the Go types' doc comments instead. -->

This page lists every key of the two file formats evdoc reads besides
Markdown pages, as the Go types that decode them declare them. The guide's
[evidence](guide/evidence.md) and [figures](guide/figures.md) pages show
them in use; [rules](guide/rules.md) lists every rule id (also
` + "`evdoc rules`" + `).

## Evidence manifests (` + "`evidence/SET/evidence.toml`" + `)

An unknown key is an ` + "`evidence-manifest`" + ` error naming the keys the
table accepts.
`)
	for _, tb := range manifestTables {
		fmt.Fprintf(&b, "\n### %s\n\n%s", tb.heading, keyRows(t, tb.file, tb.typ))
	}
	b.WriteString("\n### Formats of `[[read]]`\n\n`format` is one of (as `evdoc values --as` takes them): ")
	var fs []string
	for _, f := range formats.Names() {
		fs = append(fs, "`"+f+"`")
	}
	b.WriteString(strings.Join(fs, ", ") + ".\n")
	b.WriteString("\n## Figure specs (`figures/NAME.toml`)\n\n`kind` is one of: ")
	var ks []string
	for _, k := range spec.Kinds {
		ks = append(ks, "`"+k+"`")
	}
	b.WriteString(strings.Join(ks, ", ") + ". Which keys apply depends on the kind ([figures](guide/figures.md) has one spec per kind); a malformed spec is a `figure-spec` error.\n")
	for _, tb := range figureTables {
		fmt.Fprintf(&b, "\n### %s\n\n%s", tb.heading, keyRows(t, tb.file, tb.typ))
	}
	return b.String()
}

// TestReferenceDoc holds docs/reference.md equal to what the code
// declares (-update rewrites it).
func TestReferenceDoc(t *testing.T) {
	want := generateReference(t)
	if *update {
		if err := os.WriteFile("../../"+reference, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile("../../" + reference)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not what the code declares; run go test ./internal/docstest -update", reference)
	}
}
