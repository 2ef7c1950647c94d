package translation

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
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

// I18nString is one string of an i18n file (a key's translation, or one
// of its plural forms) and where the file writes it.
type I18nString struct {
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

// IsI18nFile reports whether name is an i18n file Hugo reads: TOML, YAML
// or JSON, by its extension.
func IsI18nFile(name string) bool {
	for _, ext := range i18nExts {
		if strings.EqualFold(path.Ext(name), ext) {
			return true
		}
	}
	return false
}

// I18nStrings returns the non-empty strings of the YAML or JSON i18n file
// rel, whose bytes are src, in file order, read as the i18n string check
// reads the file: a mapping of keys or go-i18n's list of {id,
// translation}, each a string or a mapping of plural forms (every form is
// returned). A file that cannot be parsed yields its diagnostics and no
// strings. TOML files are not read here: their strings keep exact
// positions through the TOML parser of the callers that need them.
func I18nStrings(rel string, src []byte) ([]I18nString, diag.List) {
	ix := diag.NewLineIndex(rel, src)
	entries, ds := yamlI18nEntries(rel, src, ix)
	var out []I18nString
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
func yamlString(ix *diag.LineIndex, src []byte, key string, n *yaml.Node) I18nString {
	start := max(ix.LineStart(n.Line), 0)
	for c := 1; c < n.Column && start < len(src) && src[start] != '\n'; c++ {
		_, w := utf8.DecodeRune(src[start:])
		start += w
	}
	s := I18nString{Key: key, Text: n.Value, Start: start, End: ix.LineEnd(start).Offset}
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

// owner returns the directory a position's file belongs to: "" for the
// project's own files, "themes/NAME" for a theme's.
func owner(file string) string {
	if rest, ok := strings.CutPrefix(file, "themes/"); ok {
		name, _, _ := strings.Cut(rest, "/")
		return "themes/" + name
	}
	return ""
}

// CheckI18nStrings reports every i18n string that one language lacks
// while the layouts use it or another language's i18n files have it:
// Hugo would print an empty string (or the default language's text, when
// enableMissingTranslationPlaceholders is off and a fallback exists), so
// a figure's source link or the fallback notice would be empty or in the
// wrong language. root is the project directory; strings and layouts are
// read from its i18n/ and layouts/ and those of each of themes
// (root/themes/NAME), as Hugo merges them (see readI18n).
//
// A missing string is reported on the project's own i18n file for the
// language, where a site adds what its themes lack; without one, on
// evdoc's component's file when the string is evdoc's (its layouts use
// it or its files define it), else at the file the project would add
// (i18n/CODE.toml). A string that only a host theme uses and defines is
// the theme's gap, not the site's: a warning.
func CheckI18nStrings(root string, themes []string, langs []Language) diag.List {
	var ds diag.List
	tables := map[string]i18nTable{}
	for _, l := range langs {
		t, errs := readI18n(root, themes, l.Code)
		ds = append(ds, errs...)
		tables[l.Code] = t
	}
	// uses: key → first template position using it; owners: key → the
	// directories whose layouts use it or whose i18n files define it.
	uses := map[string]diag.Position{}
	owners := map[string]map[string]bool{}
	own := func(k, file string) {
		if owners[k] == nil {
			owners[k] = map[string]bool{}
		}
		owners[k][owner(file)] = true
	}
	for _, dir := range themeDirs(root, themes) {
		walkLayouts(root, dir, langs, uses, own)
	}
	for _, t := range tables {
		for k, pos := range t.keys {
			own(k, pos.File)
		}
	}
	keys := make([]string, 0, len(owners))
	for k := range owners {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	evdocDir := hosttheme.Dir(root, evdocComponent)
	// themeGaps gathers, per theme and language, the strings only the
	// theme uses and defines: one finding each (themeStrings).
	type themeGap struct {
		themes string
		lang   string
		keys   []string
	}
	var gaps []*themeGap
	gapOf := map[string]*themeGap{}
	for _, l := range langs {
		t := tables[l.Code]
		for _, k := range keys {
			if _, ok := t.keys[k]; ok {
				continue
			}
			if !owners[k][""] && !owners[k][evdocDir] {
				var ts []string
				for o := range owners[k] {
					ts = append(ts, o)
				}
				sort.Strings(ts)
				id := strings.Join(ts, ", ") + "\x00" + l.Code
				if gapOf[id] == nil {
					gapOf[id] = &themeGap{themes: strings.Join(ts, ", "), lang: l.Code}
					gaps = append(gaps, gapOf[id])
				}
				gapOf[id].keys = append(gapOf[id].keys, k)
				continue
			}
			file := t.own
			if file == "" && owners[k][evdocDir] {
				file = t.evdoc
			}
			exists := file != ""
			if !exists {
				file = path.Join("i18n", l.Code+".toml")
			}
			d := diag.Diagnostic{Pos: diag.Position{File: file, Line: 1, Column: 1}, Severity: diag.Error, Rule: diag.TranslationI18nString}
			d.End = d.Pos
			if ix := t.ix[file]; ix != nil {
				d.Pos, d.End = ix.Pos(0), ix.LineEnd(0)
			}
			var where []string
			if u, ok := uses[k]; ok {
				d.Related = append(d.Related, diag.Related{Pos: u, Message: "used here"})
				where = append(where, "the layouts use it")
			}
			for _, o := range langs {
				if pos, ok := tables[o.Code].keys[k]; ok && o.Code != l.Code {
					d.Related = append(d.Related, diag.Related{Pos: pos, Message: "defined for " + o.Code + " here"})
					where = append(where, o.Code+" defines it")
				}
			}
			if !exists {
				d.Message = fmt.Sprintf("no i18n file of the project or its themes defines %q for %s (%s); Hugo would print an empty string or another language's text: add it to %s", k, l.Code, strings.Join(where, ", "), file)
			} else {
				d.Message = fmt.Sprintf("i18n string %q is missing or empty for %s (%s); Hugo would print an empty string or another language's text", k, l.Code, strings.Join(where, ", "))
			}
			ds = append(ds, d)
		}
	}
	for _, g := range gaps {
		ds = append(ds, themeStrings(root, g.themes, g.lang, g.keys, tables, langs, uses))
	}
	return ds
}

// themeStrings is the one finding (rule translation-theme-strings, a
// note unless the project raises it) for the strings keys that only the
// host theme(s) named by themes use and define and that language code
// lacks. It stands at the theme's own i18n file for the language when
// the theme has one, else at the theme file that defines the first key
// for another language, else at the first key's use: always a file the
// project has. Each key's use and definitions are related positions.
func themeStrings(root, themes, code string, keys []string, tables map[string]i18nTable, langs []Language, uses map[string]diag.Position) diag.Diagnostic {
	d := diag.Diagnostic{Severity: diag.Note, Rule: diag.TranslationThemeStrings}
	first := strings.SplitN(themes, ", ", 2)[0]
	for _, ext := range i18nExts {
		rel := path.Join(first, "i18n", code+ext)
		if src, err := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(rel)), safefile.TextMaxSize); err == nil {
			ix := diag.NewLineIndex(rel, src)
			d.Pos, d.End = ix.Pos(0), ix.LineEnd(0)
			break
		}
	}
	for _, k := range keys {
		if u, ok := uses[k]; ok {
			d.Related = append(d.Related, diag.Related{Pos: u, Message: fmt.Sprintf("%q used here", k)})
		}
		for _, o := range langs {
			if pos, ok := tables[o.Code].keys[k]; ok && o.Code != code {
				d.Related = append(d.Related, diag.Related{Pos: pos, Message: fmt.Sprintf("%q defined for %s here", k, o.Code)})
				if d.Pos.File == "" {
					d.Pos, d.End = pos, pos
				}
			}
		}
		if d.Pos.File == "" && len(d.Related) > 0 {
			d.Pos, d.End = d.Related[0].Pos, d.Related[0].Pos
		}
	}
	target := tables[code].own
	if target == "" {
		target = path.Join("i18n", code+".toml")
	}
	quoted := make([]string, 0, len(keys))
	for i, k := range keys {
		if i == 5 {
			quoted = append(quoted, fmt.Sprintf("and %d more", len(keys)-5))
			break
		}
		quoted = append(quoted, strconv.Quote(k))
	}
	d.Message = fmt.Sprintf("%s defines no %s text for %d string(s) only it uses (%s); Hugo prints an empty string or another language's text there. This is the theme's gap: add the keys to the project's %s to translate them, or raise %s in evdoc.toml to fail on it",
		themes, code, len(keys), strings.Join(quoted, ", "), target, diag.TranslationThemeStrings)
	return d
}

// walkLayouts records in uses the first position of every i18n key the
// templates under root/dir/layouts use.
func walkLayouts(root, dir string, langs []Language, uses map[string]diag.Position, own func(key, file string)) {
	_ = filepath.WalkDir(filepath.Join(root, filepath.FromSlash(dir), "layouts"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		src, err := safefile.ReadPath(p, safefile.TextMaxSize)
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		ix := diag.NewLineIndex(filepath.ToSlash(rel), src)
		for _, m := range tCallRe.FindAllSubmatchIndex(src, -1) {
			k := string(src[m[2]:m[3]])
			own(k, ix.Pos(m[2]).File)
			if _, ok := uses[k]; !ok {
				uses[k] = ix.Pos(m[2])
			}
		}
		for _, m := range tPrintfRe.FindAllSubmatchIndex(src, -1) {
			for _, l := range langs {
				k := string(src[m[2]:m[3]]) + l.Code + string(src[m[4]:m[5]])
				own(k, ix.Pos(m[2]).File)
				if _, ok := uses[k]; !ok {
					uses[k] = ix.Pos(m[2])
				}
			}
		}
		return nil
	})
}

// I18nText returns the string Hugo's T gives key in language code for
// the project at root with the theme list themes: the first definition
// in Hugo's order (readI18n: the project's i18n/ files, then each
// theme's, TOML, YAML and JSON), its "other" form when it has plural
// forms. ok is false when no file defines it (or a file that would
// cannot be read).
func I18nText(root string, themes []string, code, key string) (text string, ok bool) {
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
				strs, ds := I18nStrings(rel, src)
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
