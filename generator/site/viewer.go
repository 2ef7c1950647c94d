package site

import (
	"fmt"
	"html"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/generator/evidence"
)

// Evidence viewer windows: a raw file is shown on pages of at most
// windowLines lines and about windowBytes bytes each, so a large dump
// does not become one multi-megabyte HTML page.
const (
	windowLines = 400
	windowBytes = 96 << 10
)

// viewerFile is one raw file of an evidence set as the viewer shows it.
type viewerFile struct {
	File  string // repository-relative path
	Set   *evidence.Set
	Lines []string
	// Starts holds the first line (1-based) of each window.
	Starts []int
}

// window returns the index of the window showing line.
func (f *viewerFile) window(line int) int {
	i := sort.SearchInts(f.Starts, line+1) - 1
	if i < 0 {
		return 0
	}
	return i
}

// pagePath returns the Hugo page path of window i, such as
// "/evidence/dns-passthrough-tcp/report-md" or ".../report-md-p2".
func (f *viewerFile) pagePath(i int) string {
	p := "/" + strings.TrimSuffix(evidencePageDir(f.File), "/")
	if i > 0 {
		p += fmt.Sprintf("-p%d", i+1)
	}
	return p
}

// evidencePageDir is the logical path of a raw file's first viewer page:
// "evidence/SET/report-md/".
func evidencePageDir(file string) string {
	dir, base := path.Split(file)
	return dir + strings.ReplaceAll(base, ".", "-") + "/"
}

// viewer holds every raw file the evidence pages show, by path.
type viewer struct {
	files map[string]*viewerFile
	order []string
}

func (s *Site) newViewer() (*viewer, error) {
	v := &viewer{files: map[string]*viewerFile{}}
	for _, set := range s.Store.Sets {
		files := append([]string{path.Join(set.Dir, evidence.ManifestName)}, set.Files...)
		for _, f := range files {
			if _, ok := v.files[f]; ok {
				continue
			}
			raw, err := os.ReadFile(filepath.Join(s.Root, filepath.FromSlash(f)))
			if err != nil {
				return nil, err
			}
			vf := &viewerFile{File: f, Set: set, Lines: strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")}
			vf.Starts = windowStarts(vf.Lines)
			v.files[f] = vf
			v.order = append(v.order, f)
		}
	}
	return v, nil
}

// windowStarts splits lines into viewer windows of at most windowLines
// lines and, unless one line alone is larger, windowBytes bytes; it
// returns the first line (1-based) of each.
func windowStarts(lines []string) []int {
	var starts []int
	size := 0
	for i, l := range lines {
		if len(starts) == 0 || i+1-starts[len(starts)-1] >= windowLines || (size > 0 && size+len(l) > windowBytes) {
			starts = append(starts, i+1)
			size = 0
		}
		size += len(l) + 1
	}
	return starts
}

// target is where a claim or figure links: a viewer page and line.
type target struct {
	File string `json:"file"`
	Line int    `json:"line"`
	// Page is the Hugo page path of the viewer window showing Line;
	// layouts resolve it with site.GetPage in the reader's language.
	Page string `json:"page"`
	// Origin and Source are the file's provenance (see
	// evidence.Provenance): "raw" or "transcribed", and the document.
	Origin string `json:"origin,omitempty"`
	Source string `json:"source,omitempty"`
}

func (v *viewer) target(p diag.Position) (target, bool) {
	f, ok := v.files[p.File]
	if !ok || p.Line < 1 {
		return target{}, false
	}
	prov := f.Set.Provenance(p.File)
	return target{File: p.File, Line: p.Line, Page: f.pagePath(f.window(p.Line)), Origin: prov.Origin, Source: prov.Source}, true
}

// claimValue is one evidence value a claim binds, as the claim's popover
// shows it.
type claimValue struct {
	Ref   string `json:"ref"`
	Value string `json:"value"`
	target
	Derivation *derivationData `json:"derivation,omitempty"`
}

type derivationData struct {
	Derivation
	Inputs []inputData `json:"inputs"`
}

type inputData struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	target
}

// claimData is what the link render hook needs for one claim
// destination: the line the claim links to and each bound value.
type claimData struct {
	target
	Values []claimValue `json:"values"`
}

var decimalsRe = regexp.MustCompile(`[.．](\d+)`)

// writtenPlaces returns the number of decimal places of a claim's written
// number ("56.1" → 1), 0 when it has none.
func writtenPlaces(number string) int {
	if m := decimalsRe.FindStringSubmatch(number); m != nil {
		return len(m[1])
	}
	return 0
}

// claims returns the render hook's data for every claim destination.
func (v *viewer) claims(results []check.Result, st *evidence.Store) map[string]claimData {
	data := map[string]claimData{}
	for _, r := range results {
		dest := r.Claim.Destination
		if _, ok := data[dest]; ok || len(r.Bindings) == 0 {
			continue
		}
		var cd claimData
		for _, b := range r.Bindings {
			if b.Evidence == nil {
				continue
			}
			val, ok := st.Lookup(b.Ref)
			if !ok {
				continue
			}
			at := *b.Evidence
			if len(b.Inputs) > 0 {
				at = b.Inputs[0]
			}
			t, ok := v.target(at)
			if !ok {
				continue
			}
			cv := claimValue{Ref: b.Ref, Value: formatQuantity(val.Value, val.Unit, val.Delta), target: t}
			if val.Derived {
				if d, ok := explainDerived(val, st, writtenPlaces(b.Number)); ok {
					dd := &derivationData{Derivation: d}
					short := map[string]string{}
					var names []string
					for _, in := range d.Inputs {
						names = append(names, in.Name)
					}
					for k, s := range shortNames(names) {
						short[k] = s
					}
					for _, in := range d.Inputs {
						pos := in.Pos
						if len(in.Inputs) > 0 {
							pos = in.Inputs[0]
						}
						it, ok := v.target(pos)
						if !ok {
							continue
						}
						dd.Inputs = append(dd.Inputs, inputData{Name: short[in.Name], Value: formatQuantity(in.Value, in.Unit, in.Delta), target: it})
					}
					cv.Derivation = dd
				}
			}
			if len(cd.Values) == 0 {
				cd.target = t
			}
			cd.Values = append(cd.Values, cv)
		}
		if len(cd.Values) > 0 {
			data[dest] = cd
		}
	}
	return data
}

// citation is a claim that cites a raw line, on the viewer page of one
// language.
type citation struct {
	Page string `yaml:"page" json:"page"` // Hugo page path of the citing page
	Text string `yaml:"text" json:"text"` // the claim as written
}

// viewerLine is one raw line of a viewer page: its number, its
// highlighted HTML (chroma token spans; text escaped) and the claims
// citing it.
type viewerLine struct {
	N     int        `yaml:"n" json:"n"`
	HTML  string     `yaml:"html" json:"html"`
	Cites []citation `yaml:"cites,omitempty" json:"cites,omitempty"`
}

// citations maps, for one language, file → line → claims citing it.
// Pages of the language count, and so do source-language pages the
// language falls back to.
func (s *Site) citations(results []check.Result, lang string, fallbacks []Fallback) map[string]map[int][]citation {
	pages := map[string]string{} // repo path → Hugo page path in lang
	for _, p := range s.Pages {
		if p.Lang == lang && !p.IsEmpty() {
			pages[p.Path] = "/" + p.Logical
		}
	}
	for _, f := range fallbacks {
		pages[f.Source.Path] = "/" + f.Source.Logical
	}
	out := map[string]map[int][]citation{}
	seen := map[string]bool{}
	for _, r := range results {
		pp, ok := pages[r.Claim.Page]
		if !ok {
			continue
		}
		for _, b := range r.Bindings {
			if b.Evidence == nil {
				continue
			}
			ps := []diag.Position{*b.Evidence}
			if len(b.Inputs) > 0 {
				ps = b.Inputs
			}
			for _, p := range ps {
				key := fmt.Sprintf("%s:%d:%s:%s", p.File, p.Line, pp, r.Claim.Literal)
				if seen[key] {
					continue
				}
				seen[key] = true
				if out[p.File] == nil {
					out[p.File] = map[int][]citation{}
				}
				out[p.File][p.Line] = append(out[p.File][p.Line], citation{Page: pp, Text: r.Claim.Literal})
			}
		}
	}
	return out
}

// lexerFor picks the chroma lexer of a raw file by its format: Markdown
// reports, TOML manifests, JSON, Envoy admin stats ("name: value", read
// as YAML), shell transcripts; anything else is plain text.
func lexerFor(file string, src string) chroma.Lexer {
	name := ""
	switch strings.ToLower(path.Ext(file)) {
	case ".md":
		name = "markdown"
	case ".toml":
		name = "toml"
	case ".json":
		name = "json"
	case ".stats", ".yaml", ".yml":
		name = "yaml"
	case ".csv", ".tsv":
		name = "plaintext"
	case ".txt", ".log":
		if strings.Contains(src, "\n$ ") || strings.HasPrefix(src, "$ ") {
			name = "console"
		}
	}
	if l := lexers.Get(name); l != nil && name != "" {
		return chroma.Coalesce(l)
	}
	return chroma.Coalesce(lexers.Get("plaintext"))
}

// highlightLines returns the HTML of each line of src: chroma token
// spans with the classes of static/css/chroma.css, text escaped.
func highlightLines(file string, lines []string) []string {
	src := strings.Join(lines, "\n") + "\n"
	out := make([]string, len(lines))
	it, err := lexerFor(file, src).Tokenise(nil, src)
	if err != nil {
		for i, l := range lines {
			out[i] = html.EscapeString(l)
		}
		return out
	}
	for i, toks := range chroma.SplitTokensIntoLines(it.Tokens()) {
		if i >= len(lines) {
			break
		}
		var b strings.Builder
		for _, t := range toks {
			text := strings.TrimSuffix(t.Value, "\n")
			if text == "" {
				continue
			}
			if c := tokenClass(t.Type); c != "" {
				fmt.Fprintf(&b, `<span class="%s">%s</span>`, c, html.EscapeString(text))
			} else {
				b.WriteString(html.EscapeString(text))
			}
		}
		out[i] = b.String()
	}
	// A lexer that dropped text would hide raw data: fall back to
	// plain escaped lines when the highlighted text differs.
	for i, l := range lines {
		if stripTags(out[i]) != html.EscapeString(l) {
			out[i] = html.EscapeString(l)
		}
	}
	return out
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

func stripTags(s string) string { return tagRe.ReplaceAllString(s, "") }

func tokenClass(t chroma.TokenType) string {
	for _, c := range []chroma.TokenType{t, t.SubCategory(), t.Category()} {
		if s, ok := chroma.StandardTypes[c]; ok && s != "" {
			return s
		}
	}
	return ""
}

// viewerFrontMatter is the front matter of one viewer page: evdoc_file
// describes the window, evdoc_lines its lines.
type viewerFrontMatter struct {
	File    string `yaml:"file" json:"file"`
	Set     string `yaml:"set" json:"set"`
	Part    int    `yaml:"part" json:"part"`
	Parts   int    `yaml:"parts" json:"parts"`
	First   int    `yaml:"first" json:"first"`
	Last    int    `yaml:"last" json:"last"`
	Total   int    `yaml:"total" json:"total"`
	Prev    string `yaml:"prev,omitempty" json:"prev,omitempty"`
	Next    string `yaml:"next,omitempty" json:"next,omitempty"`
	Lexer   string `yaml:"lexer" json:"lexer"`
	Cited   int    `yaml:"cited" json:"cited"`
	SetPage string `yaml:"set_page" json:"set_page"`
}

// stageEvidence writes the evidence index, one page per evidence set and
// the viewer pages of every raw file, in every language's content
// directory (translations paired by translationKey).
func (s *Site) stageEvidence(stage string, v *viewer, results []check.Result) error {
	fallbacks := s.Fallbacks()
	highlighted := map[string][]string{}
	for _, f := range v.order {
		highlighted[f] = highlightLines(f, v.files[f].Lines)
	}
	for _, lang := range s.Config.Ordered() {
		content := filepath.Join(stage, lang.ContentDir)
		idx := map[string]any{"title": "Evidence", "translationKey": "evidence", "evdoc_index": true}
		if err := writeFrontMatterPage(filepath.Join(content, EvidenceDir, "_index.md"), idx); err != nil {
			return err
		}
		cites := s.citations(results, lang.Code, fallbacks[lang.Code])
		for _, set := range s.Store.Sets {
			m := set.Manifest
			fm := map[string]any{"title": m.Title, "translationKey": "evidence/" + m.ID,
				"evdoc_set": map[string]string{"id": m.ID, "date": m.Date, "environment": m.Environment, "report": m.Report,
					"origin": m.Origin, "source": m.Source}}
			if err := writeFrontMatterPage(filepath.Join(content, EvidenceDir, m.ID, "_index.md"), fm); err != nil {
				return err
			}
		}
		for fi, f := range v.order {
			vf := v.files[f]
			lines := highlighted[f]
			for w, start := range vf.Starts {
				end := len(vf.Lines)
				if w+1 < len(vf.Starts) {
					end = vf.Starts[w+1] - 1
				}
				meta := viewerFrontMatter{File: f, Set: vf.Set.Manifest.ID, Part: w + 1, Parts: len(vf.Starts), First: start, Last: end,
					Total: len(vf.Lines), Lexer: lexerFor(f, "").Config().Name, SetPage: "/" + EvidenceDir + "/" + vf.Set.Manifest.ID}
				if strings.HasSuffix(f, ".txt") {
					meta.Lexer = lexerFor(f, strings.Join(vf.Lines, "\n")).Config().Name
				}
				if w > 0 {
					meta.Prev = vf.pagePath(w - 1)
				}
				if w+1 < len(vf.Starts) {
					meta.Next = vf.pagePath(w + 1)
				}
				var ls []viewerLine
				for n := start; n <= end; n++ {
					l := viewerLine{N: n, HTML: lines[n-1], Cites: cites[f][n]}
					if len(l.Cites) > 0 {
						meta.Cited++
					}
					ls = append(ls, l)
				}
				title := f
				if len(vf.Starts) > 1 {
					title = fmt.Sprintf("%s (%d–%d)", f, start, end)
				}
				prov := vf.Set.Provenance(f)
				pfm := map[string]any{"evdoc_origin": map[string]string{"origin": prov.Origin, "source": prov.Source}, "title": title, "weight": (fi+1)*1000 + w, "translationKey": strings.TrimPrefix(vf.pagePath(w), "/"),
					"evdoc_file": meta, "evdoc_lines": ls}
				if w > 0 {
					pfm["evdoc_continuation"] = true
				}
				name := path.Base(vf.pagePath(w)) + ".md"
				dir := path.Dir(strings.TrimPrefix(vf.pagePath(w), "/"))
				if err := writeJSONFrontMatterPage(filepath.Join(content, filepath.FromSlash(dir), name), pfm); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// setValue is one named value of an evidence set for the evtable
// shortcode: its name, its value as a reader sees it, the exact decimal
// (for arithmetic) and its raw line.
type setValue struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Decimal string `json:"decimal"`
	target
}

// setData is one evidence set for the evtable shortcode: values read from
// raw files, in the order of their position (file, line, column), so a
// table follows its report.
type setData struct {
	Title  string     `json:"title"`
	Page   string     `json:"page"`
	Values []setValue `json:"values"`
}

// sets returns the evtable shortcode's data for every evidence set.
func (v *viewer) sets(st *evidence.Store) map[string]setData {
	out := map[string]setData{}
	for _, set := range st.Sets {
		sd := setData{Title: set.Manifest.Title, Page: "/" + EvidenceDir + "/" + set.Manifest.ID}
		var vals []*evidence.Value
		for _, val := range set.Values {
			if !val.Derived {
				vals = append(vals, val)
			}
		}
		sort.Slice(vals, func(i, j int) bool {
			a, b := vals[i].Pos, vals[j].Pos
			if a.File != b.File {
				return a.File < b.File
			}
			if a.Line != b.Line {
				return a.Line < b.Line
			}
			return a.Column < b.Column
		})
		for _, val := range vals {
			t, ok := v.target(val.Pos)
			if !ok {
				continue
			}
			sd.Values = append(sd.Values, setValue{Name: val.Name, Value: formatQuantity(val.Value, val.Unit, val.Delta), Decimal: val.Value.String(), target: t})
		}
		out[set.Manifest.ID] = sd
	}
	return out
}
