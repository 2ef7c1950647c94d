package hugoconf

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/evdoc-lab/evdoc/generator/claim"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/emphasis"
	"github.com/evdoc-lab/evdoc/generator/translation"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/yuin/goldmark"
	"go.yaml.in/yaml/v3"
)

// yamlLineRe matches the line number in a yaml.v3 error ("yaml: line 3: …").
var yamlLineRe = regexp.MustCompile(`line (\d+)`)

// ConfigFile is the root configuration file of the reference site and
// of the projects evdoc init writes. Hugo also reads the others of
// RootConfigFiles and a ConfigDir; LoadConfig merges them all.
const ConfigFile = "hugo.toml"

// RootConfigFiles are the configuration files Hugo looks for at a project
// root, in its order of precedence: only the first that exists is read.
var RootConfigFiles = []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json"}

// ConfigDir is Hugo's configuration directory: ConfigDir/_default, then
// ConfigDir/Environment, each file NAME.{toml,yaml,yml,json} holding the
// root key NAME ("hugo" and "config" hold the root itself; NAME.LANG the
// key NAME of language LANG).
const ConfigDir = "config"

// Environment is the Hugo environment evdoc reads the configuration
// directory for and runs Hugo in (HUGO_ENVIRONMENT): Hugo's default for a
// build.
const Environment = "production"

// Language is one site language as hugo.toml declares it (see
// translation.Language).
type Language = translation.Language

// Config is the part of the project's Hugo configuration evdoc needs,
// merged as Hugo merges it (see LoadConfig).
type Config struct {
	// BaseURL is Hugo's baseURL setting as written ("" when unset).
	BaseURL string
	// BuildDrafts, BuildFuture and BuildExpired are Hugo's settings of
	// those names: whether draft, future and expired pages are built.
	BuildDrafts, BuildFuture, BuildExpired bool
	DefaultContentLanguage                 string
	Languages                              map[string]Language
	Params                                 struct {
		// SourceLanguage names the language translations are made from;
		// defaultContentLanguage when empty.
		SourceLanguage string
		// EditURLBase is params.editURL.base when params.editURL.enable
		// is true: Hextra's "Edit this page" setting, the URL of the
		// project's content/ directory in its repository.
		EditURLBase string
		// EditPostBase is params.editPost.URL when
		// params.editPost.appendFilePath is true: PaperMod's "Edit"
		// link, the URL of the content directory its page files' paths
		// (.File.Path) are appended to.
		EditPostBase string
	}
	// CJK is markup.goldmark.extensions.cjk; nil fields are unset.
	CJK struct {
		Enable, EscapedSpace *bool
		EastAsianLineBreaks  bool
	}
	// EnableGitInfo is Hugo's enableGitInfo: pages get .GitInfo and a
	// lastmod from the project's git history.
	EnableGitInfo bool
	// Unsafe is markup.goldmark.renderer.unsafe: Hugo renders raw HTML
	// in pages (false, Hugo's default: it omits it).
	Unsafe bool
	// Minify is minify.minifyOutput (or the older top-level
	// minifyOutput): Hugo minifies what it writes.
	Minify bool
	// PublishURLs is what the configuration sets of the URL rewriting
	// Hugo applies to what it writes (canonifyURLs, relativeURLs, a
	// baseURL per language, the rss output format's files).
	PublishURLs PublishURLs
	// SummaryLength is the largest summaryLength the configuration sets
	// (at the top or for a language), Hugo's default 70 when none: the
	// number of words Hugo's automatic summary of a page counts.
	SummaryLength int
	// Themes is Hugo's theme setting, a list in order of precedence
	// (theme = ["evdoc", "mytheme"]), after any module imports (Imports);
	// each lives in hosttheme.Dir (themes/NAME).
	Themes []string
	// OtherLayouts is set when Hugo may read templates from outside the
	// project's layouts/ and themes/ directories: Hugo modules
	// (module.imports, module.mounts), themesDir or layoutDir.
	OtherLayouts bool
	// ThemesDir is Hugo's themesDir as the configuration sets it ("":
	// not set, themes/).
	ThemesDir string
	// Files are the configuration files read, relative to the root, in
	// merge order (later ones override earlier ones).
	Files []string

	// Markdown is what the configuration changes in how Hugo's goldmark
	// reads pages (markup.goldmark: passthrough, extensions turned off,
	// parser settings); NewMarkdown builds the goldmark every stage reads
	// the site's pages with.
	Markdown claim.MarkdownConfig

	// Imports are the paths of the configuration's Hugo Modules imports
	// (module.imports), in order; when there are any, Themes lists them
	// first, then the theme setting's entries. A theme's files are under
	// hosttheme.Dir (themes/PATH, or _vendor/PATH once vendored).
	Imports []string

	// MainSectionsSet holds the languages whose mainSections the
	// configuration sets, "" for all of them (mainSectionsKey).
	MainSectionsSet map[string]bool
	// Cascade tells whether the configuration has a cascade of its own
	// (which may give the evidence pages a type or layout).
	Cascade bool
}

// Ordered returns the languages by weight, then code; the source language
// (see Source) is first.
func (c *Config) Ordered() []Language {
	var out []Language
	for code, l := range c.Languages {
		l.Code = code
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if src := c.SourceCode(); (a.Code == src) != (b.Code == src) {
			return a.Code == src
		}
		if a.Weight != b.Weight {
			return a.Weight < b.Weight
		}
		return a.Code < b.Code
	})
	return out
}

// BasePath returns the path the site is served under, from baseURL:
// "/" or "/sub/" (with both slashes); "/" when baseURL is unset or has
// no path.
func (c *Config) BasePath() string {
	u, err := url.Parse(c.BaseURL)
	if err != nil || strings.Trim(u.Path, "/") == "" {
		return "/"
	}
	return "/" + strings.Trim(u.Path, "/") + "/"
}

// SourceCode returns the code of the source language: params.sourceLanguage
// when set, else defaultContentLanguage.
func (c *Config) SourceCode() string {
	if c.Params.SourceLanguage != "" {
		return c.Params.SourceLanguage
	}
	return c.DefaultContentLanguage
}

// Source returns the source language (see SourceCode).
func (c *Config) Source() Language {
	code := c.SourceCode()
	l := c.Languages[code]
	l.Code = code
	return l
}

// readConfig reads and merges the project's configuration files (see
// LoadConfig): the merged keys (lower-case), where each key was set last,
// and the files read in merge order. No configuration is an error.
func readConfig(root string) (map[string]any, map[string]diag.Position, []string, error) {
	merged := map[string]any{}
	var files []string
	// where each key was set last, for confine's findings
	keyPos := map[string]diag.Position{}
	addPositions := func(name, prefix string, src []byte) {
		for k, p := range keyPositions(name, src) {
			keyPos[joinKey(prefix, k)] = p
		}
		if prefix != "" {
			keyPos[prefix] = diag.Position{File: name, Line: 1, Column: 1}
		}
	}
	for _, name := range RootConfigFiles {
		src, err := safefile.ReadPath(filepath.Join(root, name), safefile.SpecMaxSize)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("%s: %v", name, err)
		}
		m, err := decodeConfig(name, src)
		if err != nil {
			return nil, nil, nil, err
		}
		mergeConfig(merged, m)
		addPositions(name, "", src)
		files = append(files, name)
		break
	}
	for _, sub := range []string{"_default", Environment} {
		dir := path.Join(ConfigDir, sub)
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, nil, nil, err
		}
		for _, e := range entries {
			ext := path.Ext(e.Name())
			if e.IsDir() || !configExts[ext] {
				continue
			}
			rel := path.Join(dir, e.Name())
			src, err := safefile.ReadPath(filepath.Join(root, filepath.FromSlash(rel)), safefile.SpecMaxSize)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("%s: %v", rel, err)
			}
			m, err := decodeConfig(rel, src)
			if err != nil {
				return nil, nil, nil, err
			}
			key, lang, _ := strings.Cut(strings.ToLower(strings.TrimSuffix(e.Name(), ext)), ".")
			prefix := ""
			switch {
			case key == "hugo" || key == "config":
			case lang != "":
				m = map[string]any{"languages": map[string]any{lang: map[string]any{key: m}}}
				prefix = "languages." + lang + "." + key
			default:
				m = map[string]any{key: m}
				prefix = key
			}
			mergeConfig(merged, m)
			addPositions(rel, prefix, src)
			files = append(files, rel)
		}
	}
	if len(files) == 0 {
		return nil, nil, nil, fmt.Errorf("no Hugo configuration: expected %s (or %s, or a %s/_default directory) at the project root", ConfigFile, strings.Join(RootConfigFiles[1:], ", "), ConfigDir)
	}
	return merged, keyPos, files, nil
}

// ConfineConfig returns the findings of LoadConfig about what the
// project's configuration names outside the project or widens in Hugo's
// security policy (a diag.List), and nil when there are none or the
// project has no configuration that reads: for a command that writes
// into the project without reading the site (new evidence).
func ConfineConfig(root string) error {
	merged, keyPos, files, err := readConfig(root)
	if err != nil || len(files) == 0 {
		return nil
	}
	if ds := confine(root, merged, func(key string) diag.Position { return positionOf(keyPos, files[0], key) }); len(ds) > 0 {
		return ds
	}
	return nil
}

// LoadConfig reads the project's Hugo configuration as Hugo merges it:
// the first of RootConfigFiles, then every file of ConfigDir/_default and
// ConfigDir/Environment (in name order; later values override earlier
// ones, maps merge key by key, keys compare case-insensitively). Every
// language without a contentDir gets the root contentDir ("content" by
// default: languages told apart by file name, page.ja.md). The default
// content language and params.sourceLanguage must be languages. A file
// that does not parse is a site-config diagnostic at its position
// (diag.List); a project with no configuration or no languages is an
// error. With an error about the languages (none, or a default or source
// language that is not one) the configuration read so far is returned
// too, for `evdoc init` to say what to add.
func LoadConfig(root string) (*Config, error) {
	merged, keyPos, files, err := readConfig(root)
	if err != nil {
		return nil, err
	}
	// Before anything is read or written by it: every path the
	// configuration names stays in the project, and Hugo's security
	// policy is not widened.
	if ds := confine(root, merged, func(key string) diag.Position { return positionOf(keyPos, files[0], key) }); len(ds) > 0 {
		return nil, ds
	}
	where := strings.Join(files, ", ")
	c := Config{Languages: map[string]Language{}, Files: files}
	c.BaseURL = configString(merged, "baseurl")
	for k, f := range map[string]*bool{"builddrafts": &c.BuildDrafts, "buildfuture": &c.BuildFuture, "buildexpired": &c.BuildExpired} {
		if b := configBool(merged, k); b != nil {
			*f = *b
		}
	}
	c.MainSectionsSet = mainSectionsKey(merged)
	_, c.Cascade = merged["cascade"]
	c.DefaultContentLanguage = configString(merged, "defaultcontentlanguage")
	if c.DefaultContentLanguage == "" {
		c.DefaultContentLanguage = "en" // Hugo's default
	}
	c.Params.SourceLanguage = configString(configMap(merged, "params"), "sourcelanguage")
	if eu := configMap(configMap(merged, "params"), "editurl"); configBool(eu, "enable") != nil && *configBool(eu, "enable") {
		c.Params.EditURLBase = configString(eu, "base")
	}
	if ep := configMap(configMap(merged, "params"), "editpost"); configBool(ep, "appendfilepath") != nil && *configBool(ep, "appendfilepath") {
		c.Params.EditPostBase = configString(ep, "url")
	}
	cjk := configMap(configMap(configMap(configMap(merged, "markup"), "goldmark"), "extensions"), "cjk")
	c.CJK.Enable, c.CJK.EscapedSpace = configBool(cjk, "enable"), configBool(cjk, "escapedspace")
	if b := configBool(cjk, "eastasianlinebreaks"); b != nil {
		c.CJK.EastAsianLineBreaks = *b
	}
	if b := configBool(merged, "enablegitinfo"); b != nil {
		c.EnableGitInfo = *b
	}
	c.SummaryLength = 70
	if n, ok := configInt(merged["summarylength"]); ok {
		c.SummaryLength = n
	}
	for _, v := range configMap(merged, "languages") {
		if lm, ok := v.(map[string]any); ok {
			if n, ok := configInt(lm["summarylength"]); ok && n > c.SummaryLength {
				c.SummaryLength = n
			}
		}
	}
	for _, b := range []*bool{configBool(merged, "minifyoutput"), configBool(configMap(merged, "minify"), "minifyoutput")} {
		if b != nil && *b {
			c.Minify = true
		}
	}
	c.PublishURLs = publishURLs(merged)
	if b := configBool(configMap(configMap(configMap(merged, "markup"), "goldmark"), "renderer"), "unsafe"); b != nil {
		c.Unsafe = *b
	}
	c.Markdown = goldmarkConfig(configMap(configMap(merged, "markup"), "goldmark"))
	if pt := configMap(configMap(configMap(configMap(merged, "markup"), "goldmark"), "extensions"), "passthrough"); pt != nil {
		if b := configBool(pt, "enable"); b != nil && *b {
			d := configMap(pt, "delimiters")
			c.Markdown.PassthroughInline = delimiterPairs(d["inline"])
			c.Markdown.PassthroughBlock = delimiterPairs(d["block"])
		}
	}
	switch t := merged["theme"].(type) {
	case string:
		c.Themes = []string{t}
	case []any:
		for _, v := range t {
			if s, ok := v.(string); ok {
				c.Themes = append(c.Themes, s)
			}
		}
	case []string:
		c.Themes = t
	}
	mod := configMap(merged, "module")
	// Hugo Modules: the imports come before the theme setting's entries
	// (Hugo turns each into an import and appends them), so an import
	// of the theme shadows a component listed only in theme.
	var imports []string
	addImport := func(m map[string]any) {
		for k, v := range m {
			if p, ok := v.(string); ok && strings.EqualFold(k, "path") && p != "" && !slices.Contains(imports, p) {
				imports = append(imports, p)
			}
		}
	}
	switch list := mod["imports"].(type) {
	case []map[string]any: // TOML's array of tables
		for _, m := range list {
			addImport(m)
		}
	case []any:
		for _, v := range list {
			if m, ok := v.(map[string]any); ok {
				addImport(m)
			}
		}
	}
	if len(imports) > 0 {
		c.Imports = imports
		for _, t := range c.Themes {
			if !slices.Contains(imports, t) {
				imports = append(imports, t)
			}
		}
		c.Themes = imports
	}
	c.ThemesDir = configString(merged, "themesdir")
	c.OtherLayouts = mod["imports"] != nil || mod["mounts"] != nil || configString(merged, "themesdir") != "" || configString(merged, "layoutdir") != ""
	contentDir := configString(merged, "contentdir")
	if contentDir == "" {
		contentDir = "content"
	}
	for code, v := range configMap(merged, "languages") {
		m, _ := v.(map[string]any)
		l := Language{
			Label:      configString(m, "label"),
			Locale:     configString(m, "locale"),
			ContentDir: configString(m, "contentdir"),
			Title:      configString(m, "title"),
		}
		if l.Label == "" {
			l.Label = configString(m, "languagename")
		}
		switch w := m["weight"].(type) {
		case int64:
			l.Weight = int(w)
		case int:
			l.Weight = w
		case float64:
			l.Weight = int(w)
		case uint64:
			l.Weight = int(w)
		}
		if l.ContentDir == "" {
			l.ContentDir = contentDir
		}
		c.Languages[code] = l
	}
	if len(c.Languages) == 0 {
		return &c, fmt.Errorf("%s: no languages; expected one table per language ([languages.ko], [languages.ja]) with its contentDir", where)
	}
	if _, ok := c.Languages[c.DefaultContentLanguage]; !ok {
		return &c, fmt.Errorf("%s: defaultContentLanguage %q is not among the languages (%s)", where, c.DefaultContentLanguage, strings.Join(SortedKeys(c.Languages), ", "))
	}
	if _, ok := c.Languages[c.SourceCode()]; !ok {
		return &c, fmt.Errorf("%s: params.sourceLanguage %q is not among the languages (%s)", where, c.Params.SourceLanguage, strings.Join(SortedKeys(c.Languages), ", "))
	}
	return &c, nil
}

var configExts = map[string]bool{".toml": true, ".yaml": true, ".yml": true, ".json": true}

// decodeConfig parses one configuration file by its extension into a map
// with lower-case keys. A syntax error is a site-config diagnostic at its
// position.
func decodeConfig(name string, src []byte) (map[string]any, error) {
	m := map[string]any{}
	// bad reports a problem at line:col, spanning n bytes (0: the rest of
	// the line).
	bad := func(line, col, n int, format string, args ...any) error {
		pos, end := diag.NewLineIndex(name, src).LineColSpan(line, col, n)
		return diag.List{diag.Errorf(pos, diag.SiteConfig, format, args...).Spanning(end)}
	}
	switch path.Ext(name) {
	case ".toml":
		if _, err := toml.Decode(string(src), &m); err != nil {
			var pe toml.ParseError
			if errors.As(err, &pe) {
				return nil, bad(pe.Position.Line, pe.Position.Col, pe.Position.Len, "invalid TOML: %s", pe.Message)
			}
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	case ".yaml", ".yml":
		var n yaml.Node
		if err := yaml.Unmarshal(src, &n); err != nil {
			line := 1
			if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
				line, _ = strconv.Atoi(m[1])
			}
			return nil, bad(line, 1, 0, "invalid YAML: %s", strings.TrimPrefix(err.Error(), "yaml: "))
		}
		if len(n.Content) > 0 {
			if err := n.Decode(&m); err != nil {
				return nil, bad(n.Line, n.Column, 0, "expected a YAML mapping of configuration keys: %v", err)
			}
		}
	case ".json":
		if err := json.Unmarshal(src, &m); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				off := max(int(se.Offset)-1, 0)
				p, end := diag.NewLineIndex(name, src).Span(off, off+1) // the offending byte
				return nil, diag.List{diag.Errorf(p, diag.SiteConfig, "invalid JSON: %v", err).Spanning(end)}
			}
			return nil, bad(1, 1, 0, "expected a JSON object of configuration keys: %v", err)
		}
	}
	return lowerKeys(m), nil
}

// lowerKeys returns m with every map key lower-cased, recursively: Hugo's
// configuration keys are case-insensitive.
func lowerKeys(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch x := v.(type) {
		case map[string]any:
			v = lowerKeys(x)
		}
		out[strings.ToLower(k)] = v
	}
	return out
}

// mergeConfig merges src into dst: maps merge key by key, any other value
// of src replaces dst's.
func mergeConfig(dst, src map[string]any) {
	for k, v := range src {
		if sm, ok := v.(map[string]any); ok {
			if dm, ok := dst[k].(map[string]any); ok {
				mergeConfig(dm, sm)
				continue
			}
			cp := map[string]any{}
			mergeConfig(cp, sm)
			dst[k] = cp
			continue
		}
		dst[k] = v
	}
}

// NewMarkdown returns goldmark configured as Hugo configures it for this
// site (claim.NewMarkdownWith of markdown()).
func (c *Config) NewMarkdown() goldmark.Markdown {
	return claim.NewMarkdownWith(c.MarkdownConfig())
}

// MarkdownConfig is the site's goldmark configuration; Hugo's defaults for a
// nil Config.
func (c *Config) MarkdownConfig() claim.MarkdownConfig {
	if c == nil {
		return claim.MarkdownConfig{}
	}
	return c.Markdown
}

// goldmarkConfig reads what Hugo's markup.goldmark settings gm change in
// how goldmark reads pages, besides passthrough: the extensions turned off
// (table = false …, typographer.disable = true or typographer = false),
// the inline tags of the extras extension turned on (extras.mark.enable =
// true …) and the parser's autoHeadingID and attribute.title.
func goldmarkConfig(gm map[string]any) claim.MarkdownConfig {
	var mc claim.MarkdownConfig
	ext, prs := configMap(gm, "extensions"), configMap(gm, "parser")
	off := func(m map[string]any, k string) bool {
		b := configBool(m, k)
		return b != nil && !*b
	}
	for k, f := range map[string]*bool{"table": &mc.NoTable, "strikethrough": &mc.NoStrikethrough, "linkify": &mc.NoLinkify,
		"tasklist": &mc.NoTaskList, "definitionlist": &mc.NoDefinitionList, "footnote": &mc.NoFootnote} {
		*f = off(ext, k)
	}
	if d := configBool(configMap(ext, "typographer"), "disable"); d != nil && *d || off(ext, "typographer") {
		mc.NoTypographer = true
	}
	ex := configMap(ext, "extras")
	for k, f := range map[string]*bool{"delete": &mc.Delete, "insert": &mc.Insert, "mark": &mc.Mark, "subscript": &mc.Subscript, "superscript": &mc.Superscript} {
		b := configBool(configMap(ex, k), "enable")
		*f = b != nil && *b
	}
	mc.NoAutoHeadingID = off(prs, "autoheadingid")
	mc.NoAttribute = off(configMap(prs, "attribute"), "title")
	return mc
}

// delimiterPairs reads a list of [open, close] pairs (Hugo's passthrough
// delimiters); anything else in the list is left out.
func delimiterPairs(v any) [][2]string {
	list, _ := v.([]any)
	var out [][2]string
	for _, e := range list {
		if pair, ok := e.([]any); ok && len(pair) == 2 {
			o, ok1 := pair[0].(string)
			c, ok2 := pair[1].(string)
			if ok1 && ok2 && o != "" && c != "" {
				out = append(out, [2]string{o, c})
			}
		}
	}
	return out
}

func configMap(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}

func configString(m map[string]any, k string) string {
	v, _ := m[k].(string)
	return v
}

// configInt reads an integer setting as the configuration formats
// decode it.
func configInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case uint64:
		return int(n), true
	case float64:
		return int(n), n == float64(int(n))
	}
	return 0, false
}

func configBool(m map[string]any, k string) *bool {
	if v, ok := m[k].(bool); ok {
		return &v
	}
	return nil
}

func SortedKeys(m map[string]Language) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// HugoEnv returns the environment variables Hugo runs with so that it
// reads the Markdown evdoc stages as evdoc reads it (Hugo's HUGO_… keys
// override every configuration file): the environment evdoc merged the
// configuration for and goldmark's CJK extension with escapedSpace on.
// It also returns the CJK options evdoc's staging must honour. An
// explicit enable = false or escapedSpace = false is an error: evdoc
// cannot make emphasis next to CJK punctuation render without them.
func (c *Config) HugoEnv() ([]string, emphasis.MarkdownOptions, error) {
	opt := emphasis.MarkdownOptions{EastAsianLineBreaks: c.CJK.EastAsianLineBreaks, Markdown: c.Markdown}
	if c.CJK.Enable != nil && !*c.CJK.Enable || c.CJK.EscapedSpace != nil && !*c.CJK.EscapedSpace {
		return nil, opt, fmt.Errorf("%s: markup.goldmark.extensions.cjk must have enable = true and escapedSpace = true (or leave them unset); evdoc writes escaped spaces so that emphasis next to CJK punctuation renders", strings.Join(c.Files, ", "))
	}
	return []string{
		"HUGO_ENVIRONMENT=" + Environment,
		"HUGO_MARKUP_GOLDMARK_EXTENSIONS_CJK_ENABLE=true",
		"HUGO_MARKUP_GOLDMARK_EXTENSIONS_CJK_ESCAPEDSPACE=true",
	}, opt, nil
}

// PageFile returns the path of a page evdoc stages for lang: dir (slash-
// separated, within the content directory) and name ("x.md",
// "_index.md") under lang's content directory in stage. When languages
// share that directory (Hugo then tells them apart by file name) the
// name carries the language: x.ja.md, _index.ko.md.
func (c *Config) PageFile(stage string, lang Language, dir, name string) string {
	shared := 0
	for _, l := range c.Languages {
		if path.Clean(l.ContentDir) == path.Clean(lang.ContentDir) {
			shared++
		}
	}
	if shared > 1 {
		name = strings.TrimSuffix(name, ".md") + "." + lang.Code + ".md"
	}
	return filepath.Join(stage, filepath.FromSlash(lang.ContentDir), filepath.FromSlash(dir), name)
}

// EditURL returns the "Edit this page" URL of the project file rel
// (slash-separated, relative to the project root) for a site whose theme
// builds it from params.editURL.base as Hextra does: base names the
// project's content/ directory, so rel is joined to its parent. It is ""
// when the site sets no such base. A page evdoc build generates carries
// it as its editURL, which Hextra uses instead of the page's file.
func (c *Config) EditURL(rel string) string {
	return joinParent(c.Params.EditURLBase, rel)
}

// EditPostURL is EditURL for PaperMod's params.editPost.URL (with
// appendFilePath): the URL of the project file rel, or "" when the site
// sets no such URL.
func (c *Config) EditPostURL(rel string) string {
	return joinParent(c.Params.EditPostBase, rel)
}

// joinParent returns the URL base (of the project's content directory)
// with its last path element replaced by rel, or "" when base is empty
// or no URL.
func joinParent(base, rel string) string {
	if base == "" {
		return ""
	}
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	u.Path = path.Join(u.Path, "..", rel)
	u.RawPath = ""
	return u.String()
}

// HasEditLink reports whether the site sets an edit link evdoc knows
// how to point at the repository file a generated page shows (EditURL,
// EditPostURL).
func (c *Config) HasEditLink() bool {
	return c.Params.EditURLBase != "" || c.Params.EditPostBase != ""
}

// SetEditURL gives the front matter fm of a page evdoc build generates,
// which names the file it shows (translation.SourceParam), the edit link
// of that file in the params the theme reads: editURL (EditURL, Hextra)
// and editPost (EditPostURL, PaperMod: the page's own URL, not joined
// with its file), unless it has one or the site sets no base.
func (c *Config) SetEditURL(fm map[string]any) {
	rel, _ := fm[translation.SourceParam].(string)
	if rel == "" {
		return
	}
	if _, own := fm["editURL"]; !own {
		if u := c.EditURL(rel); u != "" {
			fm["editURL"] = u
		}
	}
	if _, own := fm["editPost"]; !own {
		if u := c.EditPostURL(rel); u != "" {
			fm["editPost"] = map[string]any{"URL": u, "appendFilePath": false}
		}
	}
}

// NoEditLink gives the front matter fm of a page evdoc build generates
// that shows no single repository file (the evidence index) the params
// that keep a theme from drawing an edit link for it: editPost.disabled
// (PaperMod) when the site sets params.editPost.URL. Hextra reads no
// such switch and, without an editURL, builds the link from the page's
// own file, which only the staged project has: when the site sets
// params.editURL the page's editURL is "./", the page itself, naming no
// file.
func (c *Config) NoEditLink(fm map[string]any) {
	if _, own := fm["editPost"]; !own && c.Params.EditPostBase != "" {
		fm["editPost"] = map[string]any{"disabled": true}
	}
	if _, own := fm["editURL"]; !own && c.Params.EditURLBase != "" {
		fm["editURL"] = "./"
	}
}
