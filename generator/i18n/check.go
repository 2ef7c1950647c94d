package i18n

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/hosttheme"
	"github.com/evdoc-lab/evdoc/internal/safefile"
)

// owner returns the directory a position's file belongs to: "" for the
// project's own files, "themes/NAME" for a theme's.
func owner(file string) string {
	if rest, ok := strings.CutPrefix(file, "themes/"); ok {
		name, _, _ := strings.Cut(rest, "/")
		return "themes/" + name
	}
	return ""
}

// Check reports every i18n string that one language of langs (the
// site's language codes) lacks while the layouts use it or another
// language's i18n files have it:
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
func Check(root string, themes []string, langs []string) diag.List {
	var ds diag.List
	tables := map[string]i18nTable{}
	for _, l := range langs {
		t, errs := readI18n(root, themes, l)
		ds = append(ds, errs...)
		tables[l] = t
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
		t := tables[l]
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
				id := strings.Join(ts, ", ") + "\x00" + l
				if gapOf[id] == nil {
					gapOf[id] = &themeGap{themes: strings.Join(ts, ", "), lang: l}
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
				file = path.Join("i18n", l+".toml")
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
				if pos, ok := tables[o].keys[k]; ok && o != l {
					d.Related = append(d.Related, diag.Related{Pos: pos, Message: "defined for " + o + " here"})
					where = append(where, o+" defines it")
				}
			}
			if !exists {
				d.Message = fmt.Sprintf("no i18n file of the project or its themes defines %q for %s (%s); Hugo would print an empty string or another language's text: add it to %s", k, l, strings.Join(where, ", "), file)
			} else {
				d.Message = fmt.Sprintf("i18n string %q is missing or empty for %s (%s); Hugo would print an empty string or another language's text", k, l, strings.Join(where, ", "))
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
func themeStrings(root, themes, code string, keys []string, tables map[string]i18nTable, langs []string, uses map[string]diag.Position) diag.Diagnostic {
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
			if pos, ok := tables[o].keys[k]; ok && o != code {
				d.Related = append(d.Related, diag.Related{Pos: pos, Message: fmt.Sprintf("%q defined for %s here", k, o)})
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
func walkLayouts(root, dir string, langs []string, uses map[string]diag.Position, own func(key, file string)) {
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
				k := string(src[m[2]:m[3]]) + l + string(src[m[4]:m[5]])
				own(k, ix.Pos(m[2]).File)
				if _, ok := uses[k]; !ok {
					uses[k] = ix.Pos(m[2])
				}
			}
		}
		return nil
	})
}
