package hugoconf

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/evdoc-lab/evdoc/internal/tomlpos"
	"github.com/pelletier/go-toml/v2/unstable"
	"go.yaml.in/yaml/v3"
)

// WorkDirName is where Build stages the Hugo project, relative to Root.
const WorkDirName = ".evdoc"

// The repository evdoc checks is untrusted, and its Hugo configuration is
// part of it. Every directory Hugo or evdoc reads or writes by that
// configuration must lie inside the project, and the configuration must
// not widen Hugo's security policy: LoadConfig, which every command
// reads the configuration with, refuses one that does (confine) before
// anything is read or written by it.

// DirKeys are Hugo's configuration keys naming a directory of the project
// (lower-case, as LoadConfig keys them), each valid at the root and in a
// language's table (languages.LANG.KEY); staticdir may be a list, and
// staticdir0 … staticdir10 add to it.
var DirKeys = []string{"contentdir", "staticdir", "assetdir", "datadir", "layoutdir", "i18ndir", "archetypedir",
	"resourcedir", "cachedir", "publishdir", "themesdir", "workingdir",
	"staticdir0", "staticdir1", "staticdir2", "staticdir3", "staticdir4", "staticdir5",
	"staticdir6", "staticdir7", "staticdir8", "staticdir9", "staticdir10"}

// hugoSecurityDefaults are the lists of Hugo's security policy
// (security.KEY) with Hugo v0.165's default entries: a configuration may
// keep or drop entries, never add one.
var hugoSecurityDefaults = map[string][]string{
	"exec.allow":   {"^(dart-)?sass$", "^go$", "^git$", "^node$", "^postcss$"},
	"exec.osenv":   {`(?i)^((HTTPS?|NO)_PROXY|PATH(EXT)?|APPDATA|TE?MP|TERM|GO\w+|(XDG_CONFIG_)?HOME|USERPROFILE|SSH_AUTH_SOCK|DISPLAY|LANG|SYSTEMDRIVE|PROGRAMDATA)$`},
	"funcs.getenv": {"^HUGO_", "^CI$"},
	"http.urls":    {`(?i)^https?://[a-z0-9]`, `! ^https?://\d+\.`, `! (?i)localhost`, `! (?i)^https?://[^/?#]*@`},
	"http.methods": {"(?i)GET|POST"},
	// node.permissions: the lists of what a Node tool may do.
	"node.permissions.allowread":         {"."},
	"node.permissions.allowwrite":        {},
	"node.permissions.allowaddons":       {"tailwindcss"},
	"node.permissions.allowworker":       {"tailwindcss"},
	"node.permissions.allowchildprocess": {"tailwindcss"},
}

// pathSetting is one path the configuration names: its key, its value,
// the directory a relative value is resolved from (absolute), and the
// directory it must stay in (absolute).
type pathSetting struct {
	key, value string
	// written is the value as the configuration writes it, when value
	// is what Hugo makes of it (a cache directory's placeholder
	// replaced).
	written      string
	base, within string
	// cache: it may also lie in evdoc's own cache directory.
	cache bool
}

// CheckConfigPath decides whether value, a path the configuration gives
// key, stays inside within once resolved from base (a relative value)
// and through every symbolic link: it returns nil when it does, else an
// error saying where it leads and what was expected. A Windows-style path
// (a backslash, a drive letter), one starting with ~ (which Hugo does not
// expand; a shell would), one with a NUL byte and one that leads out by
// .., by being absolute or through a link are refused; with cache, a
// path inside evdoc's own cache directory (cacheDir, see
// os.UserCacheDir) is accepted too. It is the one function that decides;
// confine calls it for every path setting of a configuration.
func CheckConfigPath(key, value, base, within string, cache bool) error {
	switch {
	case strings.ContainsRune(value, 0):
		return fmt.Errorf("%s = %q holds a NUL byte; expected a path inside the project", key, value)
	case strings.Contains(value, `\`) || len(value) >= 2 && value[1] == ':' && isASCIILetter(value[0]):
		return fmt.Errorf("%s = %q is a Windows-style path; expected a slash-separated path relative to the project root", key, value)
	case strings.HasPrefix(value, "~"):
		return fmt.Errorf("%s = %q starts with ~, which Hugo does not expand; expected a path relative to the project root", key, value)
	}
	p := filepath.FromSlash(value)
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	p = filepath.Clean(p)
	inside := func(dir string) bool {
		if dir == "" {
			return false
		}
		if !safefile.Within(p, dir) {
			return false
		}
		r, err := safefile.Resolve(p)
		rd, err2 := safefile.Resolve(dir)
		return err == nil && err2 == nil && safefile.Within(r, rd)
	}
	if inside(within) {
		return nil
	}
	if cache {
		if dir, err := os.UserCacheDir(); err == nil && inside(filepath.Join(dir, "evdoc")) {
			return nil
		}
	}
	to := p
	if r, err := safefile.Resolve(p); err == nil && r != p {
		to = p + " → " + r
	}
	return fmt.Errorf("%s = %q leads to %s, outside %s; expected a path inside it", key, value, to, within)
}

func isASCIILetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }

// pathSettings lists the paths the merged configuration m names, for the
// project at root (absolute): the directory keys at the root and in each
// language (inside the project), the file caches' directories (inside
// the project or evdoc's cache), Hugo Modules' mounts (inside their
// module), imports and replacements (inside themesDir) and workspace,
// and the output file names Hugo writes under publishDir (output
// formats' path and baseName, the sitemap's filename: inside it).
func pathSettings(root string, m map[string]any) []pathSetting {
	var out []pathSetting
	add := func(key string, v any, base, within string, cache bool) {
		switch x := v.(type) {
		case string:
			if x != "" {
				out = append(out, pathSetting{key: key, value: x, base: base, within: within, cache: cache})
			}
		case []any:
			for i, e := range x {
				if s, ok := e.(string); ok && s != "" {
					out = append(out, pathSetting{key: key + "." + strconv.Itoa(i), value: s, base: base, within: within, cache: cache})
				}
			}
		case []string:
			for i, s := range x {
				if s != "" {
					out = append(out, pathSetting{key: key + "." + strconv.Itoa(i), value: s, base: base, within: within, cache: cache})
				}
			}
		}
	}
	dirs := func(prefix string, t map[string]any) {
		for _, k := range DirKeys {
			add(prefix+k, t[k], root, root, k == "cachedir")
		}
	}
	dirs("", m)
	for _, lang := range sortedMapKeys(configMap(m, "languages")) {
		dirs("languages."+lang+".", configMap(configMap(m, "languages"), lang))
	}
	// themesDir (refused above when it leads out)
	themes := filepath.Join(root, "themes")
	switch td := filepath.FromSlash(configString(m, "themesdir")); {
	case filepath.IsAbs(td):
		themes = filepath.Clean(td)
	case td != "":
		themes = filepath.Join(root, td)
	}
	// File caches: a dir may start with a placeholder, which Hugo
	// replaces (:cacheDir, :resourceDir; :project is a name).
	for _, name := range sortedMapKeys(configMap(m, "caches")) {
		dir := configString(configMap(configMap(m, "caches"), name), "dir")
		d := strings.ReplaceAll(dir, ":project", "project")
		switch {
		case strings.HasPrefix(d, ":cacheDir"):
			d = strings.TrimPrefix(strings.TrimPrefix(d, ":cacheDir"), "/")
			if cd := configString(m, "cachedir"); cd != "" {
				d = path.Join(cd, d)
			} else {
				d = path.Join(WorkDirName, "hugo-cache", d) // evdoc's HUGO_CACHEDIR
			}
		case strings.HasPrefix(d, ":resourceDir"):
			rd := configString(m, "resourcedir")
			if rd == "" {
				rd = "resources"
			}
			d = path.Join(rd, strings.TrimPrefix(strings.TrimPrefix(d, ":resourceDir"), "/"))
		}
		if dir != "" {
			out = append(out, pathSetting{key: "caches." + name + ".dir", value: d, written: dir, base: root, within: root, cache: true})
		}
	}
	mod := configMap(m, "module")
	// A mount's source is read from its module: the project's own, or
	// an import's directory, which it must not leave.
	mounts := func(key string, v any, base string) {
		for i, mt := range tables(v) {
			k := key + "." + strconv.Itoa(i)
			add(k+".source", mt["source"], base, base, false)
			add(k+".target", mt["target"], root, root, false)
		}
	}
	mounts("module.mounts", mod["mounts"], root)
	for i, im := range tables(mod["imports"]) {
		k := "module.imports." + strconv.Itoa(i)
		p := configString(im, "path")
		add(k+".path", p, themes, themes, false)
		if p != "" && !filepath.IsAbs(p) {
			mounts(k+".mounts", im["mounts"], filepath.Join(themes, filepath.FromSlash(p)))
		}
	}
	// replacements: "module/path -> ../local, …" (a string or a list)
	var reps []string
	switch r := mod["replacements"].(type) {
	case string:
		reps = strings.Split(r, ",")
	case []any:
		for _, e := range r {
			if s, ok := e.(string); ok {
				reps = append(reps, s)
			}
		}
	}
	for i, r := range reps {
		if _, to, ok := strings.Cut(r, "->"); ok {
			add("module.replacements."+strconv.Itoa(i), strings.TrimSpace(to), themes, themes, false)
		}
	}
	if ws := configString(mod, "workspace"); ws != "" && ws != "off" {
		add("module.workspace", ws, root, root, false)
	}
	// Output file names, joined to publishDir (evdoc's own output
	// directory when it builds; a leading / is that directory's root):
	// they must stay in it.
	pub := filepath.Join(root, "public")
	published := func(key string, v any) {
		if s, ok := v.(string); ok {
			add(key, strings.TrimLeft(s, "/"), pub, pub, false)
		}
	}
	for _, f := range sortedMapKeys(configMap(m, "outputformats")) {
		of := configMap(configMap(m, "outputformats"), f)
		published("outputformats."+f+".path", of["path"])
		published("outputformats."+f+".basename", of["basename"])
	}
	published("sitemap.filename", configMap(m, "sitemap")["filename"])
	return out
}

// tables returns the tables of an array of tables (TOML's
// []map[string]any, YAML's and JSON's []any of maps).
func tables(v any) []map[string]any {
	switch l := v.(type) {
	case []map[string]any:
		return l
	case []any:
		var out []map[string]any
		for _, e := range l {
			if t, ok := e.(map[string]any); ok {
				out = append(out, t)
			} else {
				out = append(out, nil)
			}
		}
		return out
	}
	return nil
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// securitySettings returns the findings of the merged configuration m's
// security table: every list of Hugo's security policy
// (hugoSecurityDefaults) set to an entry Hugo's default does not have.
func securitySettings(m map[string]any, at func(key string) diag.Position) diag.List {
	var ds diag.List
	sec := configMap(m, "security")
	for _, key := range slices.Sorted(mapKeys(hugoSecurityDefaults)) {
		t, parts := sec, strings.Split(key, ".")
		for _, p := range parts[:len(parts)-1] {
			t = configMap(t, p)
		}
		v, set := t[parts[len(parts)-1]]
		if !set {
			continue
		}
		var entries []string
		ok := true
		switch x := v.(type) {
		case string:
			entries = []string{x}
		case []any:
			for _, e := range x {
				s, isString := e.(string)
				ok = ok && isString
				entries = append(entries, s)
			}
		default:
			ok = false
		}
		var extra []string
		for _, e := range entries {
			if !slices.Contains(hugoSecurityDefaults[key], e) {
				extra = append(extra, strconv.Quote(e))
			}
		}
		if !ok || len(extra) > 0 {
			what := "a value that is not a list of strings"
			if ok {
				what = strings.Join(extra, ", ")
			}
			full := "security." + key
			ds = append(ds, diag.Errorf(at(full), diag.SiteConfig, "%s widens Hugo's security policy with %s: the repository's layouts could read the environment, run programs or fetch URLs; expected no setting, or entries of Hugo's default %s", full, what, quoteAll(hugoSecurityDefaults[key])))
		}
	}
	return ds
}

func mapKeys(m map[string][]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func quoteAll(l []string) string {
	if len(l) == 0 {
		return "[] (none)"
	}
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// confine returns an error finding, at the key that sets it, for every
// path of the merged configuration m that leads outside the project at
// root (CheckConfigPath) and every widening of Hugo's security policy.
// at gives a key's position (keyPositions).
func confine(root string, m map[string]any, at func(key string) diag.Position) diag.List {
	abs, err := filepath.Abs(root)
	if err != nil {
		return diag.List{diag.Errorf(at(""), diag.SiteConfig, "project root %s: %v; expected a directory", root, err)}
	}
	var ds diag.List
	for _, s := range pathSettings(abs, m) {
		if err := CheckConfigPath(s.key, s.value, s.base, s.within, s.cache); err != nil {
			if s.written != "" && s.written != s.value {
				err = fmt.Errorf("%s = %q, that is %v", s.key, s.written, err)
			}
			ds = append(ds, diag.Errorf(at(s.key), diag.SiteConfig, "%v", err))
		}
	}
	ds = append(ds, securitySettings(m, at)...)
	ds.Sort()
	return ds
}

// keyPositions returns the position of every key of the configuration
// file name (content src), by its lower-case dotted path ("languages.ko.
// contentdir"; an array's elements by index: "module.mounts.0.source").
func keyPositions(name string, src []byte) map[string]diag.Position {
	out := map[string]diag.Position{}
	ix := diag.NewLineIndex(name, src)
	switch path.Ext(name) {
	case ".toml":
		tomlKeyPositions(src, ix, out)
	case ".yaml", ".yml":
		var n yaml.Node
		if yaml.Unmarshal(src, &n) == nil && len(n.Content) > 0 {
			yamlKeyPositions(n.Content[0], "", ix, out)
		}
	case ".json":
		jsonKeyPositions(src, ix, out)
	}
	return out
}

func joinKey(prefix, k string) string {
	if prefix == "" {
		return strings.ToLower(k)
	}
	return prefix + "." + strings.ToLower(k)
}

func tomlKeyPositions(src []byte, ix *diag.LineIndex, out map[string]diag.Position) {
	var p unstable.Parser
	p.Reset(src)
	dotted := func(prefix string, n *unstable.Node) (string, diag.Position) {
		keys := tomlpos.Keys(n)
		k := prefix
		for _, part := range keys {
			k = joinKey(k, string(part.Data))
		}
		var pos diag.Position
		if len(keys) > 0 {
			pos = ix.Pos(int(keys[0].Raw.Offset))
		}
		return k, pos
	}
	var keyValue func(prefix string, n *unstable.Node)
	var value func(key string, pos diag.Position, v *unstable.Node)
	keyValue = func(prefix string, n *unstable.Node) {
		k, pos := dotted(prefix, n)
		out[k] = pos
		value(k, pos, n.Value())
	}
	value = func(key string, pos diag.Position, v *unstable.Node) {
		switch v.Kind {
		case unstable.InlineTable:
			for it := v.Children(); it.Next(); {
				keyValue(key, it.Node())
			}
		case unstable.Array:
			i := 0
			for it := v.Children(); it.Next(); i++ {
				k := key + "." + strconv.Itoa(i)
				out[k] = pos
				value(k, pos, it.Node())
			}
		}
	}
	prefix := ""
	arrays := map[string]int{}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			var pos diag.Position
			prefix, pos = dotted("", e)
			if _, ok := out[prefix]; !ok {
				out[prefix] = pos
			}
		case unstable.ArrayTable:
			k, pos := dotted("", e)
			prefix = k + "." + strconv.Itoa(arrays[k])
			arrays[k]++
			out[prefix] = pos
			if _, ok := out[k]; !ok {
				out[k] = pos
			}
		case unstable.KeyValue:
			keyValue(prefix, e)
		}
	}
}

func yamlKeyPositions(n *yaml.Node, key string, ix *diag.LineIndex, out map[string]diag.Position) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := joinKey(key, n.Content[i].Value)
			out[k] = ix.LineCol(n.Content[i].Line, n.Content[i].Column)
			yamlKeyPositions(n.Content[i+1], k, ix, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			k := key + "." + strconv.Itoa(i)
			out[k] = ix.LineCol(c.Line, c.Column)
			yamlKeyPositions(c, k, ix, out)
		}
	}
}

// jsonKeyPositions reads src's tokens, recording each object key at the
// byte where it starts.
func jsonKeyPositions(src []byte, ix *diag.LineIndex, out map[string]diag.Position) {
	dec := json.NewDecoder(strings.NewReader(string(src)))
	start := func(off int64) int {
		o := int(off)
		for o < len(src) && strings.IndexByte(" \t\r\n,:", src[o]) >= 0 {
			o++
		}
		return o
	}
	var walk func(key string) bool
	walk = func(key string) bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				off := start(dec.InputOffset())
				kt, err := dec.Token()
				ks, ok := kt.(string)
				if err != nil || !ok {
					return false
				}
				k := joinKey(key, ks)
				out[k] = ix.Pos(off)
				if !walk(k) {
					return false
				}
			}
			_, err := dec.Token()
			return err == nil
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				k := key + "." + strconv.Itoa(i)
				out[k] = ix.Pos(start(dec.InputOffset()))
				if !walk(k) {
					return false
				}
			}
			_, err := dec.Token()
			return err == nil
		}
		return true
	}
	walk("")
}

// positionOf returns a key's position in pos, else its nearest parent's,
// else line 1 of file.
func positionOf(pos map[string]diag.Position, file, key string) diag.Position {
	for k := key; k != ""; {
		if p, ok := pos[k]; ok {
			return p
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return diag.Position{File: file, Line: 1, Column: 1}
}

// HugoEnvNames are the variables of evdoc's environment Hugo runs with
// (besides the HUGO_ settings evdoc gives it, Config.HugoEnv): what Hugo
// and the programs Hugo's default policy lets it run (go for Hugo
// Modules, git for enableGitInfo, sass, node, postcss) need to find
// programs, a home, temporary and cache directories, the locale, the Go
// toolchain's settings and a proxy. Nothing else of evdoc's environment
// reaches Hugo, so a template's getenv cannot read a secret (a cloud key,
// a token) into the site. LC_ variables are passed too (HugoEnviron).
var HugoEnvNames = []string{
	"PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TMP", "TEMP", "TZ", "LANG", "LANGUAGE",
	"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "SSL_CERT_FILE", "SSL_CERT_DIR",
	"GOROOT", "GOPATH", "GOCACHE", "GOMODCACHE", "GOTOOLCHAIN", "GOFLAGS", "GOPROXY", "GONOSUMDB", "GONOPROXY", "GOPRIVATE", "GOSUMDB", "GOINSECURE",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	"CI",
	// Windows
	"SYSTEMROOT", "SYSTEMDRIVE", "APPDATA", "LOCALAPPDATA", "USERPROFILE", "PROGRAMDATA", "PATHEXT", "COMSPEC",
}

// HugoEnviron returns the environment Hugo runs with: the variables of
// environ (os.Environ's form, NAME=value) that HugoEnvNames lists or whose
// name starts with LC_, then extra (evdoc's own HUGO_ settings, which
// win). A HUGO_ variable of evdoc's environment is not passed.
func HugoEnviron(environ, extra []string) []string {
	var out []string
	for _, kv := range environ {
		name, _, ok := strings.Cut(kv, "=")
		if ok && (slices.Contains(HugoEnvNames, name) || strings.HasPrefix(name, "LC_")) {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}
