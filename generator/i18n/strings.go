package i18n

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

var (
	// tCallRe finds T / i18n calls with a literal key in Hugo templates.
	tCallRe = regexp.MustCompile(`\b(?:T|i18n|lang\.Translate)\s+"([^"]+)"`)
	// tPrintfRe finds T (printf "prefix%s" …): one key per language code.
	tPrintfRe = regexp.MustCompile(`\b(?:T|i18n|lang\.Translate)\s+\(\s*printf\s+"([^"%]*)%s([^"%]*)"`)
)

// themeDirs returns the directories Hugo merges templates and i18n
// strings from, relative to root, in order: the project's, then each
// theme's (hosttheme.Dir: themes/NAME, or _vendor/PATH for a vendored
// Hugo module).
func themeDirs(root string, themes []string) []string {
	dirs := []string{""}
	for _, t := range themes {
		dirs = append(dirs, hosttheme.Dir(root, t))
	}
	return dirs
}

// i18nExts are the extensions of the i18n files Hugo reads, in the order
// evdoc reads a directory's files for one language.
var i18nExts = []string{".toml", ".yaml", ".yml", ".json"}

// i18nTable is one language's strings, as Hugo merges the i18n files of
// the project and its themes: the first definition of a key wins.
type i18nTable struct {
	// keys holds each defined key's position in the file that defines
	// it first; an empty string is not a definition.
	keys map[string]diag.Position
	// own is the project's own i18n file for the language ("" when it
	// has none), evdoc the component's.
	own, evdoc string
	// ix indexes the files read, by path.
	ix map[string]*diag.LineIndex
}

// readI18n reads the i18n files of language code from the project's
// i18n/ directory and each theme's, in Hugo's order (the project, then
// the themes as listed), in every format Hugo reads: TOML, YAML and JSON,
// each either a table of keys (key = "…", or key = {other = "…"}) or
// go-i18n's list (- id: key / translation: "…"). A file name matches the
// code case-insensitively.
func readI18n(root string, themes []string, code string) (i18nTable, diag.List) {
	t := i18nTable{keys: map[string]diag.Position{}, ix: map[string]*diag.LineIndex{}}
	var ds diag.List
	for _, dir := range themeDirs(root, themes) {
		entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir), "i18n"))
		for _, ext := range i18nExts {
			for _, e := range entries {
				name := e.Name()
				if e.IsDir() || !strings.EqualFold(name, code+ext) {
					// (a FIFO, device or link of that name is read, and reported, by readI18nFile)
					continue
				}
				rel := path.Join(dir, "i18n", name)
				switch {
				case dir == "" && t.own == "":
					t.own = rel
				case dir == path.Join("themes", evdocComponent) && t.evdoc == "":
					t.evdoc = rel
				}
				keys, ix, errs := readI18nFile(root, rel)
				ds = append(ds, errs...)
				t.ix[rel] = ix
				for _, k := range keys {
					if _, ok := t.keys[k.key]; !ok {
						t.keys[k.key] = k.pos
					}
				}
			}
		}
	}
	return t, ds
}

// evdocComponent is the theme component's directory name under themes/.
const evdocComponent = "evdoc"

// i18nKey is one key an i18n file defines with a non-empty string.
type i18nKey struct {
	key string
	pos diag.Position
}

// readI18nFile reads the keys of the i18n file rel (TOML, YAML or JSON
// by its extension) that have a non-empty string, with their positions,
// and the file's line index (nil when it cannot be read).
func readI18nFile(root, rel string) ([]i18nKey, *diag.LineIndex, diag.List) {
	src, err := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(rel)), safefile.TextMaxSize)
	if err != nil {
		return nil, nil, diag.List{diag.Errorf(diag.Position{File: rel, Line: 1, Column: 1}, diag.TranslationI18nString, "cannot read: %v", err).Spanning(diag.Position{File: rel, Line: 1, Column: 1})}
	}
	ix := diag.NewLineIndex(rel, src)
	if strings.EqualFold(path.Ext(rel), ".toml") {
		keys, d := tomlI18n(rel, src, ix)
		return keys, ix, d
	}
	keys, d := yamlI18n(rel, src, ix)
	return keys, ix, d
}

// tomlI18n reads a TOML i18n file: a table of keys, each a string or a
// table of plural forms with "other".
func tomlI18n(rel string, src []byte, ix *diag.LineIndex) ([]i18nKey, diag.List) {
	var m map[string]any
	if _, err := toml.Decode(string(src), &m); err != nil {
		pos, end := ix.Pos(0), ix.LineEnd(0)
		var pe toml.ParseError
		if errors.As(err, &pe) {
			pos, end = ix.LineColSpan(pe.Position.Line, pe.Position.Col, pe.Position.Len)
		}
		return nil, diag.List{diag.Errorf(pos, diag.TranslationI18nString, "invalid TOML: %v", err).Spanning(end)}
	}
	lines := strings.Split(string(src), "\n")
	var out []i18nKey
	for k, v := range flatI18n(m) {
		if !nonEmptyTranslation(v) {
			continue
		}
		out = append(out, i18nKey{k, ix.LineCol(tomlKeyLine(lines, k), 1)})
	}
	return out, nil
}

// tomlKeyLine returns the 1-based line of the TOML i18n file's lines that
// defines the (possibly dotted, see flatI18n) key k: the line of its last
// part after the table header of the parts before it ([a] or [a.b]), a
// dotted key written whole (a.b = …), or a table header naming k whole
// ([k]); line 1 when no line matches.
func tomlKeyLine(lines []string, k string) int {
	starts := func(t, key string) bool {
		return strings.HasPrefix(t, key+" ") || strings.HasPrefix(t, key+"=") || strings.HasPrefix(t, "["+key+"]") || strings.HasPrefix(t, `"`+key+`"`)
	}
	from := 0
	leaf := k
	if i := strings.LastIndex(k, "."); i >= 0 {
		for n, l := range lines {
			if t := strings.TrimSpace(l); starts(t, k) {
				return n + 1
			}
		}
		for n, l := range lines {
			if t := strings.TrimSpace(l); t == "["+k[:i]+"]" {
				from, leaf = n+1, k[i+1:]
				break
			}
		}
	}
	for n := from; n < len(lines); n++ {
		if starts(strings.TrimSpace(lines[n]), leaf) {
			return n + 1
		}
	}
	return 1
}

// flatI18n returns the keys of a decoded i18n table as Hugo's go-i18n
// reads them: a nested table that is not a message (one with no plural
// form, id, description or translation key) names its keys after its
// own with a dot ([article] readingTime = "…" defines
// "article.readingTime"), to any depth; a message table keeps its key
// (or the id it gives).
func flatI18n(m map[string]any) map[string]any {
	out := map[string]any{}
	var walk func(prefix string, m map[string]any)
	walk = func(prefix string, m map[string]any) {
		for k, v := range m {
			t, isTable := v.(map[string]any)
			switch {
			case !isTable:
				out[prefix+k] = v
			case i18nMessage(t):
				key := prefix + k
				if id, ok := t["id"].(string); ok && id != "" {
					key = prefix + id
				}
				out[key] = t
			default:
				walk(prefix+k+".", t)
			}
		}
	}
	walk("", m)
	return out
}

// i18nReserved are the keys that make a table a message (go-i18n's
// reserved keys, compared in lower case), when their value is a string.
var i18nReserved = map[string]bool{"id": true, "description": true, "hash": true, "leftdelim": true, "rightdelim": true,
	"zero": true, "one": true, "two": true, "few": true, "many": true, "other": true, "translation": true}

// i18nMessage reports whether the table t is one message (plural forms
// and the like) rather than a table of nested keys: one of its keys is
// reserved (with a string value; "translation" with any).
func i18nMessage(t map[string]any) bool {
	for k, v := range t {
		if _, isStr := v.(string); i18nReserved[strings.ToLower(k)] && (isStr || k == "translation") {
			return true
		}
	}
	return false
}

// nonEmptyTranslation reports whether v, a key's value in an i18n file,
// is a non-empty string or a table of plural forms whose "other" is one.
func nonEmptyTranslation(v any) bool {
	s, ok := v.(string)
	if t, isTable := v.(map[string]any); isTable {
		for k, o := range t {
			if strings.EqualFold(k, "other") {
				s, ok = o.(string)
			}
		}
	}
	return ok && strings.TrimSpace(s) != ""
}

// yamlI18n reads a YAML or JSON i18n file (JSON is read as the YAML it
// is, for positions): a mapping of keys, or go-i18n's sequence of
// {id, translation}; a translation is a string or a mapping of plural
// forms with "other".
func yamlI18n(rel string, src []byte, ix *diag.LineIndex) ([]i18nKey, diag.List) {
	entries, ds := yamlI18nEntries(rel, src, ix)
	var out []i18nKey
	for _, e := range entries {
		if yamlTranslation(e.tr) {
			pos := ix.Pos(0)
			if e.key.Line >= 1 {
				pos = ix.LineCol(e.key.Line, 1)
			}
			out = append(out, i18nKey{e.key.Value, pos})
		}
	}
	return out, ds
}

// yamlEntry is one key of a YAML or JSON i18n file and its translation
// node (a string, or a mapping of plural forms).
type yamlEntry struct {
	key, tr *yaml.Node
}

// yamlI18nEntries parses a YAML or JSON i18n file into its keys and their
// translation nodes, in file order.
func yamlI18nEntries(rel string, src []byte, ix *diag.LineIndex) ([]yamlEntry, diag.List) {
	format := "YAML"
	if strings.EqualFold(path.Ext(rel), ".json") {
		format = "JSON"
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		pos := ix.Pos(0)
		if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= 1 {
				pos = ix.LineCol(n, 1)
			}
		}
		return nil, diag.List{diag.Errorf(pos, diag.TranslationI18nString, "invalid %s: %v", format, strings.TrimPrefix(err.Error(), "yaml: ")).Spanning(ix.LineEnd(pos.Offset))}
	}
	if len(doc.Content) == 0 {
		return nil, nil // an empty file
	}
	var out []yamlEntry
	top := doc.Content[0]
	switch top.Kind {
	case yaml.MappingNode:
		out = flatYAMLI18n("", top, out)
	case yaml.SequenceNode:
		for _, item := range top.Content {
			if item.Kind != yaml.MappingNode {
				pos := ix.LineCol(max(item.Line, 1), 1)
				return nil, diag.List{diag.Errorf(pos, diag.TranslationI18nString, "invalid i18n file: expected a list of {id, translation} mappings, found an item that is not one").Spanning(ix.LineEnd(pos.Offset))}
			}
			var id, tr *yaml.Node
			for i := 0; i+1 < len(item.Content); i += 2 {
				switch item.Content[i].Value {
				case "id":
					id = item.Content[i+1]
				case "translation":
					tr = item.Content[i+1]
				}
			}
			if id != nil && id.Kind == yaml.ScalarNode && tr != nil {
				out = append(out, yamlEntry{id, tr})
			}
		}
	default:
		pos := ix.Pos(0)
		if top.Line >= 1 {
			pos = ix.LineCol(top.Line, 1)
		}
		return nil, diag.List{diag.Errorf(pos, diag.TranslationI18nString, "invalid i18n file: expected a %s table of strings or a list of {id, translation}", format).Spanning(ix.LineEnd(pos.Offset))}
	}
	return out, nil
}

// flatYAMLI18n appends to out the keys of the mapping node m as Hugo's
// go-i18n reads them (see flatI18n): a nested mapping that is not a
// message names its keys after its own with a dot, to any depth. A
// nested key's node is a copy of its last part's, with the dotted key as
// its value.
func flatYAMLI18n(prefix string, m *yaml.Node, out []yamlEntry) []yamlEntry {
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind == yaml.MappingNode && !yamlMessage(v) {
			out = flatYAMLI18n(prefix+k.Value+".", v, out)
			continue
		}
		key := k
		if prefix != "" {
			c := *k
			c.Value = prefix + k.Value
			key = &c
		}
		out = append(out, yamlEntry{key, v})
	}
	return out
}

// yamlMessage reports whether the mapping node n is one message (see
// i18nMessage).
func yamlMessage(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := strings.ToLower(n.Content[i].Value), n.Content[i+1]
		if i18nReserved[k] && (v.Kind == yaml.ScalarNode || k == "translation") {
			return true
		}
	}
	return false
}

// String is one string of an i18n file (a key's translation, or one
// of its plural forms) and where the file writes it.
type String struct {
	Key  string
	Text string
	// Start and End are the byte range of the value as the file writes it
	// (its quotes included; to the end of its first line when the file
	// does not spell Text byte for byte).
	Start, End int
	// Exact reports whether the file spells Text byte for byte from
	// TextStart (no escape, no folded line, no block scalar), so that a
	// range inside Text is the same range of the file.
	Exact     bool
	TextStart int
}

// IsFile reports whether name is an i18n file Hugo reads: TOML, YAML
// or JSON, by its extension.
func IsFile(name string) bool {
	for _, ext := range i18nExts {
		if strings.EqualFold(path.Ext(name), ext) {
			return true
		}
	}
	return false
}

// Strings returns the non-empty strings of the YAML or JSON i18n file
// rel, whose bytes are src, in file order, read as the i18n string check
// reads the file: a mapping of keys or go-i18n's list of {id,
// translation}, each a string or a mapping of plural forms (every form is
// returned). A file that cannot be parsed yields its diagnostics and no
// strings. TOML files are not read here: their strings keep exact
// positions through the TOML parser of the callers that need them.
func Strings(rel string, src []byte) ([]String, diag.List) {
	ix := diag.NewLineIndex(rel, src)
	entries, ds := yamlI18nEntries(rel, src, ix)
	var out []String
	add := func(key string, n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && n.Tag != "!!null" && strings.TrimSpace(n.Value) != "" {
			out = append(out, yamlString(ix, src, key, n))
		}
	}
	for _, e := range entries {
		switch e.tr.Kind {
		case yaml.ScalarNode:
			add(e.key.Value, e.tr)
		case yaml.MappingNode:
			for i := 0; i+1 < len(e.tr.Content); i += 2 {
				add(e.key.Value, e.tr.Content[i+1])
			}
		}
	}
	return out, ds
}

// yamlString locates the scalar n of key in src. The parser gives its
// line and its column in characters; a quoted value's text starts after
// the quote.
func yamlString(ix *diag.LineIndex, src []byte, key string, n *yaml.Node) String {
	start := max(ix.LineStart(n.Line), 0)
	for c := 1; c < n.Column && start < len(src) && src[start] != '\n'; c++ {
		_, w := utf8.DecodeRune(src[start:])
		start += w
	}
	s := String{Key: key, Text: n.Value, Start: start, End: ix.LineEnd(start).Offset}
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return s
	}
	quoted := n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
	ts := start
	if quoted {
		ts++
	}
	if e := ts + len(n.Value); e <= len(src) && string(src[ts:e]) == n.Value {
		s.Exact, s.TextStart, s.End = true, ts, e
		if quoted && e < len(src) {
			s.End++
		}
	}
	return s
}

// yamlLineRe finds the line number in a YAML parser's error.
var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// yamlTranslation reports whether n is a non-empty string or a mapping
// of plural forms whose "other" is one.
func yamlTranslation(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		return n.Tag != "!!null" && strings.TrimSpace(n.Value) != ""
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "other" {
				return yamlTranslation(n.Content[i+1])
			}
		}
	}
	return false
}

// Text returns the string Hugo's T gives key in language code for
// the project at root with the theme list themes: the first definition
// in Hugo's order (readI18n: the project's i18n/ files, then each
// theme's, TOML, YAML and JSON), its "other" form when it has plural
// forms. ok is false when no file defines it (or a file that would
// cannot be read).
func Text(root string, themes []string, code, key string) (text string, ok bool) {
	for _, dir := range themeDirs(root, themes) {
		entries, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir), "i18n"))
		for _, ext := range i18nExts {
			for _, e := range entries {
				if e.IsDir() || !strings.EqualFold(e.Name(), code+ext) {
					continue
				}
				rel := path.Join(dir, "i18n", e.Name())
				src, err := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(rel)), safefile.TextMaxSize)
				if err != nil {
					return "", false
				}
				if ext == ".toml" {
					var m map[string]any
					if _, err := toml.Decode(string(src), &m); err != nil {
						return "", false
					}
					v := flatI18n(m)[key]
					if t, isTable := v.(map[string]any); isTable {
						v = t["other"]
					}
					if s, isStr := v.(string); isStr && strings.TrimSpace(s) != "" {
						return s, true
					}
					continue
				}
				strs, ds := Strings(rel, src)
				if len(ds) > 0 {
					return "", false
				}
				for _, s := range strs {
					if s.Key == key {
						return s.Text, true
					}
				}
			}
		}
	}
	return "", false
}
