package translation

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

var (
	// tCallRe finds T / i18n calls with a literal key in Hugo templates.
	tCallRe = regexp.MustCompile(`\b(?:T|i18n|lang\.Translate)\s+"([^"]+)"`)
	// tPrintfRe finds T (printf "prefix%s" …): one key per language code.
	tPrintfRe = regexp.MustCompile(`\b(?:T|i18n|lang\.Translate)\s+\(\s*printf\s+"([^"%]*)%s([^"%]*)"`)
)

// i18nFile is one language's string table, i18n/CODE.toml of the project
// and its themes merged: path is the first that exists.
type i18nFile struct {
	path string
	keys map[string]diag.Position // key → its line
	ok   bool
	// first and firstEnd are the range of the file's first line (an empty
	// range at 1:1 when the file does not exist): where a missing key is
	// reported.
	first, firstEnd diag.Position
}

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

// readI18n reads CODE.toml from the i18n/ directory of the project and
// of each theme, as Hugo merges them (the first definition of a key
// wins). Values are strings or Hugo's {other = "…"} tables; an empty
// string counts as missing.
func readI18n(root string, themes []string, code string) (i18nFile, diag.List) {
	var out i18nFile
	var ds diag.List
	for _, dir := range themeDirs(themes) {
		f, errs := readI18nFile(root, path.Join(dir, "i18n", code+".toml"))
		ds = append(ds, errs...)
		if out.keys == nil || !out.ok && f.ok {
			// the first file, or the first that exists: missing keys
			// are reported on it (no earlier file holds a key)
			out = f
			continue
		}
		for k, pos := range f.keys {
			if _, ok := out.keys[k]; !ok {
				out.keys[k] = pos
			}
		}
	}
	return out, ds
}

// readI18nFile reads one string table at rel.
func readI18nFile(root, rel string) (i18nFile, diag.List) {
	f := i18nFile{path: rel, keys: map[string]diag.Position{}}
	f.first = diag.Position{File: rel, Line: 1, Column: 1}
	f.firstEnd = f.first
	src, err := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(rel)), safefile.TextMaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, diag.List{diag.Errorf(diag.Position{File: rel}, diag.TranslationI18nString, "cannot read: %v", err)}
	}
	ix := diag.NewLineIndex(rel, src)
	f.first, f.firstEnd = ix.Pos(0), ix.LineEnd(0)
	var m map[string]any
	_, err = toml.Decode(string(src), &m)
	if err != nil {
		pos, end := f.first, f.firstEnd
		var pe toml.ParseError
		if errors.As(err, &pe) {
			pos, end = ix.LineColSpan(pe.Position.Line, pe.Position.Col, pe.Position.Len)
		}
		return f, diag.List{diag.Errorf(pos, diag.TranslationI18nString, "invalid TOML: %v", err).Spanning(end)}
	}
	f.ok = true
	lines := strings.Split(string(src), "\n")
	for k, v := range m {
		s, isStr := v.(string)
		if t, isTable := v.(map[string]any); isTable {
			s, isStr = t["other"].(string)
		}
		if !isStr || strings.TrimSpace(s) == "" {
			continue
		}
		pos := diag.Position{File: rel, Line: 1, Column: 1}
		for i, l := range lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, k+" ") || strings.HasPrefix(t, k+"=") || strings.HasPrefix(t, "["+k+"]") || strings.HasPrefix(t, `"`+k+`"`) {
				pos = ix.LineCol(i+1, 1)
				break
			}
		}
		f.keys[k] = pos
	}
	return f, nil
}

// CheckI18nStrings reports every i18n string that one language lacks
// while the layouts use it or another language's i18n file has it: Hugo
// would print an empty string (or the default language's text, when
// enableMissingTranslationPlaceholders is off and a fallback exists), so
// a figure's source link or the fallback notice would be empty or in the
// wrong language. root is the project directory; strings and layouts are
// read from its i18n/ and layouts/ and those of each of themes
// (root/themes/NAME), as Hugo merges them.
func CheckI18nStrings(root string, themes []string, langs []Language) diag.List {
	var ds diag.List
	files := map[string]i18nFile{}
	for _, l := range langs {
		f, errs := readI18n(root, themes, l.Code)
		ds = append(ds, errs...)
		files[l.Code] = f
	}
	// uses: key → first template position using it.
	uses := map[string]diag.Position{}
	for _, dir := range themeDirs(themes) {
		walkLayouts(root, dir, langs, uses)
	}
	// every key some language defines or a layout uses
	all := map[string]bool{}
	for k := range uses {
		all[k] = true
	}
	for _, f := range files {
		for k := range f.keys {
			all[k] = true
		}
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, l := range langs {
		f := files[l.Code]
		for _, k := range keys {
			if _, ok := f.keys[k]; ok {
				continue
			}
			d := diag.Diagnostic{Pos: f.first, End: f.firstEnd, Severity: diag.Error, Rule: diag.TranslationI18nString}
			var where []string
			if u, ok := uses[k]; ok {
				d.Related = append(d.Related, diag.Related{Pos: u, Message: "used here"})
				where = append(where, "the layouts use it")
			}
			for _, o := range langs {
				if pos, ok := files[o.Code].keys[k]; ok && o.Code != l.Code {
					d.Related = append(d.Related, diag.Related{Pos: pos, Message: "defined for " + o.Code + " here"})
					where = append(where, o.Code+" defines it")
				}
			}
			if !f.ok {
				d.Message = fmt.Sprintf("no %s for language %s: i18n string %q is missing (%s); Hugo would print an empty string or another language's text", f.path, l.Code, k, strings.Join(where, ", "))
			} else {
				d.Message = fmt.Sprintf("i18n string %q is missing or empty for %s (%s); Hugo would print an empty string or another language's text", k, l.Code, strings.Join(where, ", "))
			}
			ds = append(ds, d)
		}
	}
	return ds
}

// walkLayouts records in uses the first position of every i18n key the
// templates under root/dir/layouts use.
func walkLayouts(root, dir string, langs []Language, uses map[string]diag.Position) {
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
			if _, ok := uses[k]; !ok {
				uses[k] = ix.Pos(m[2])
			}
		}
		for _, m := range tPrintfRe.FindAllSubmatchIndex(src, -1) {
			for _, l := range langs {
				k := string(src[m[2]:m[3]]) + l.Code + string(src[m[4]:m[5]])
				if _, ok := uses[k]; !ok {
					uses[k] = ix.Pos(m[2])
				}
			}
		}
		return nil
	})
}
