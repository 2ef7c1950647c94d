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

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"

	"github.com/evdoc-lab/evdoc/generator/diag"
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
// theme's (themes/NAME).
func themeDirs(themes []string) []string {
	dirs := []string{""}
	for _, t := range themes {
		dirs = append(dirs, path.Join("themes", t))
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
	for _, dir := range themeDirs(themes) {
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
	for k, v := range m {
		if !nonEmptyTranslation(v) {
			continue
		}
		pos := ix.Pos(0)
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, k+" ") || strings.HasPrefix(t, k+"=") || strings.HasPrefix(t, "["+k+"]") || strings.HasPrefix(t, `"`+k+`"`) {
				pos = ix.LineCol(i+1, 1)
				break
			}
		}
		out = append(out, i18nKey{k, pos})
	}
	return out, nil
}

// nonEmptyTranslation reports whether v, a key's value in an i18n file,
// is a non-empty string or a table of plural forms whose "other" is one.
func nonEmptyTranslation(v any) bool {
	s, ok := v.(string)
	if t, isTable := v.(map[string]any); isTable {
		s, ok = t["other"].(string)
	}
	return ok && strings.TrimSpace(s) != ""
}

// yamlI18n reads a YAML or JSON i18n file (JSON is read as the YAML it
// is, for positions): a mapping of keys, or go-i18n's sequence of
// {id, translation}; a translation is a string or a mapping of plural
// forms with "other".
func yamlI18n(rel string, src []byte, ix *diag.LineIndex) ([]i18nKey, diag.List) {
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
	at := func(n *yaml.Node) diag.Position {
		if n.Line < 1 {
			return ix.Pos(0)
		}
		return ix.LineCol(n.Line, 1)
	}
	var out []i18nKey
	top := doc.Content[0]
	switch top.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(top.Content); i += 2 {
			k, v := top.Content[i], top.Content[i+1]
			if yamlTranslation(v) {
				out = append(out, i18nKey{k.Value, at(k)})
			}
		}
	case yaml.SequenceNode:
		for _, item := range top.Content {
			if item.Kind != yaml.MappingNode {
				continue
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
			if id != nil && id.Kind == yaml.ScalarNode && tr != nil && yamlTranslation(tr) {
				out = append(out, i18nKey{id.Value, at(id)})
			}
		}
	default:
		return nil, diag.List{diag.Errorf(at(top), diag.TranslationI18nString, "invalid i18n file: expected a %s table of strings or a list of {id, translation}", format).Spanning(ix.LineEnd(at(top).Offset))}
	}
	return out, nil
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
	for _, dir := range themeDirs(themes) {
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
	evdocDir := path.Join("themes", evdocComponent)
	for _, l := range langs {
		t := tables[l.Code]
		for _, k := range keys {
			if _, ok := t.keys[k]; ok {
				continue
			}
			hostOnly := !owners[k][""] && !owners[k][evdocDir]
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
			if hostOnly {
				d.Severity = diag.Warning
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
			theme := ""
			if hostOnly {
				var ts []string
				for o := range owners[k] {
					ts = append(ts, o)
				}
				sort.Strings(ts)
				theme = "; only " + strings.Join(ts, ", ") + " uses and defines it"
			}
			if !exists {
				d.Message = fmt.Sprintf("no i18n file of the project or its themes defines %q for %s (%s%s); Hugo would print an empty string or another language's text: add it to %s", k, l.Code, strings.Join(where, ", "), theme, file)
			} else {
				d.Message = fmt.Sprintf("i18n string %q is missing or empty for %s (%s%s); Hugo would print an empty string or another language's text", k, l.Code, strings.Join(where, ", "), theme)
			}
			ds = append(ds, d)
		}
	}
	return ds
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
