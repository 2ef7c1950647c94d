package site

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/evidence"
	"github.com/evdoc-lab/evdoc/generator/figure"
	"github.com/evdoc-lab/evdoc/generator/translation"
)

// BuildOptions configures Build.
type BuildOptions struct {
	// Out is the site output directory relative to Root ("public").
	Out string
	// Hugo is the command that runs the pinned Hugo, program first. Empty
	// means {"go", "-C", ROOT/tools/hugo, "tool", "hugo"}; the EVDOC_HUGO
	// environment variable, when set, names a hugo binary to use instead.
	Hugo []string
	// Log receives Hugo's output and progress lines; nil discards them.
	Log io.Writer
	// Check tunes claim judgement.
	Check check.Options
}

// workDir is where Build stages the Hugo project, relative to Root.
const workDir = ".evdoc"

// Build checks the site, renders figures, stages the Hugo project with the
// generated pages (translation fallbacks, raw evidence pages) and data, and
// runs Hugo on it. The output replaces Out only when Hugo succeeded, so a
// failed build never leaves a partial site. A site with error findings is
// not built: Build returns them as a diag.List.
func (s *Site) Build(ctx context.Context, opt BuildOptions) error {
	logw := opt.Log
	if logw == nil {
		logw = io.Discard
	}
	out := opt.Out
	if out == "" {
		out = "public"
	}
	final, err := s.outputDir(out)
	if err != nil {
		return err
	}
	results, ds := s.Check(opt.Check)
	if ds.HasErrors() {
		return ds
	}
	work := filepath.Join(s.Root, workDir)
	stage := filepath.Join(work, "stage")
	if err := os.RemoveAll(stage); err != nil {
		return err
	}
	for _, d := range []string{"layouts", "static", "i18n", "content"} {
		if err := copyTree(filepath.Join(s.Root, d), filepath.Join(stage, d)); err != nil {
			return fmt.Errorf("staging %s: %v", d, err)
		}
	}
	if err := copyFile(filepath.Join(s.Root, ConfigFile), filepath.Join(stage, ConfigFile)); err != nil {
		return err
	}
	fmt.Fprintf(logw, "evdoc: %d claims checked, %d pages, %d evidence sets\n", len(results), len(s.Pages), len(s.Store.Sets))
	if err := s.stageFallbacks(stage); err != nil {
		return err
	}
	if err := s.stageEvidence(stage); err != nil {
		return err
	}
	if err := s.stageClaims(stage, results); err != nil {
		return err
	}
	if err := s.stageFigures(stage, logw); err != nil {
		return err
	}
	tmpOut := filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".evdoc-new")
	if err := os.RemoveAll(tmpOut); err != nil {
		return err
	}
	cmd := opt.Hugo
	if len(cmd) == 0 {
		if bin := os.Getenv("EVDOC_HUGO"); bin != "" {
			cmd = []string{bin}
		} else {
			cmd = []string{"go", "-C", filepath.Join(s.Root, "tools", "hugo"), "tool", "hugo"}
		}
	}
	absStage, _ := filepath.Abs(stage)
	absOut, _ := filepath.Abs(tmpOut)
	args := append(append([]string{}, cmd[1:]...), "--source", absStage, "--destination", absOut, "--logLevel", "warn", "--panicOnWarning")
	fmt.Fprintf(logw, "evdoc: running %s\n", strings.Join(append([]string{cmd[0]}, args...), " "))
	c := exec.CommandContext(ctx, cmd[0], args...)
	var hugoOut bytes.Buffer
	c.Stdout = io.MultiWriter(logw, &hugoOut)
	c.Stderr = io.MultiWriter(logw, &hugoOut)
	c.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(absStage, "..", "hugo-cache"))
	if err := c.Run(); err != nil {
		_ = os.RemoveAll(tmpOut)
		if opt.Log != nil {
			return fmt.Errorf("hugo failed: %v (its output is above)", err)
		}
		return fmt.Errorf("hugo failed: %v\n%s", err, hugoOut.String())
	}
	old := filepath.Join(filepath.Dir(final), "."+filepath.Base(final)+".evdoc-old")
	_ = os.RemoveAll(old)
	if _, err := os.Stat(final); err == nil {
		if err := os.Rename(final, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmpOut, final); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// sourceDirs are the project directories an output may never replace.
var sourceDirs = []string{"content", EvidenceDir, FiguresDir, "layouts", "static", "i18n", "assets", "tools", "cmd", "generator", ".git", workDir}

// outputDir resolves out (relative to Root, or absolute) and refuses
// destinations that would replace sources: the root itself or an
// ancestor, a source directory or anything inside one, an existing file,
// or a non-empty directory that is not a previous site (no index.html).
func (s *Site) outputDir(out string) (string, error) {
	root, err := filepath.Abs(s.Root)
	if err != nil {
		return "", err
	}
	abs := out
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(root, out)
	}
	abs = filepath.Clean(abs)
	refuse := func(why string) (string, error) {
		return "", fmt.Errorf("--out %s: %s; expected a new or previously built output directory such as public", out, why)
	}
	if rel, err := filepath.Rel(abs, root); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
		return refuse("it contains the project")
	}
	for _, d := range sourceDirs {
		src := filepath.Join(root, d)
		if rel, err := filepath.Rel(src, abs); err == nil && (rel == "." || !strings.HasPrefix(rel, "..")) {
			return refuse("it is inside the project's " + d + "/ directory")
		}
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && !fi.IsDir():
		return refuse("it is an existing file")
	case err == nil:
		entries, _ := os.ReadDir(abs)
		if _, ierr := os.Stat(filepath.Join(abs, "index.html")); len(entries) > 0 && ierr != nil {
			return refuse("it is a non-empty directory without index.html, not a previous site")
		}
	}
	return abs, nil
}

// Fallbacks returns, for each target language, the generated pages that
// show a source page it has no translation of (see translation.Set).
func (s *Site) Fallbacks() map[string][]Fallback { return s.Translations.Fallbacks() }

// Fallback is one generated target-language page (see translation.Fallback).
type Fallback = translation.Fallback

func (s *Site) stageFallbacks(stage string) error {
	src := s.Config.Source()
	for _, fbs := range s.Fallbacks() {
		for _, f := range fbs {
			b, err := f.Render(src)
			if err != nil {
				return err
			}
			if err := writeFile(filepath.Join(stage, filepath.FromSlash(f.File(src))), b); err != nil {
				return err
			}
		}
	}
	return nil
}

// EvidencePageURL returns the site URL of the raw page of a repository
// file such as "evidence/dns-inflight-part2/report.md":
// "/evidence/dns-inflight-part2/report-md/".
func EvidencePageURL(file string) string {
	dir, base := path.Split(file)
	return "/" + dir + strings.ReplaceAll(base, ".", "-") + "/"
}

func (s *Site) stageEvidence(stage string) error {
	content := filepath.Join(stage, s.Config.Source().ContentDir)
	idx := map[string]any{"title": "Evidence", "translationKey": "evidence"}
	if err := writeFrontMatterPage(filepath.Join(content, EvidenceDir, "_index.md"), idx); err != nil {
		return err
	}
	for _, set := range s.Store.Sets {
		m := set.Manifest
		fm := map[string]any{"title": m.Title, "translationKey": "evidence/" + m.ID,
			"evdoc_set": map[string]string{"id": m.ID, "date": m.Date, "environment": m.Environment, "report": m.Report,
				"origin": m.Origin, "source": m.Source}}
		if err := writeFrontMatterPage(filepath.Join(content, EvidenceDir, m.ID, "_index.md"), fm); err != nil {
			return err
		}
		files := append([]string{path.Join(set.Dir, evidence.ManifestName)}, set.Files...)
		for i, f := range files {
			raw, err := os.ReadFile(filepath.Join(s.Root, f))
			if err != nil {
				return err
			}
			lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
			base := path.Base(f)
			pfm := map[string]any{"title": f, "weight": i + 1, "evdoc_lines": lines,
				"url": EvidencePageURL(f)}
			if i > 0 { // raw files, not the manifest
				p := set.Provenance(f)
				pfm["evdoc_origin"] = map[string]string{"origin": p.Origin, "source": p.Source}
			}
			name := strings.ReplaceAll(base, ".", "-") + ".md"
			if err := writeFrontMatterPage(filepath.Join(content, EvidenceDir, m.ID, name), pfm); err != nil {
				return err
			}
		}
	}
	return nil
}

// claimData is what the link render hook needs for one claim destination:
// the raw line it links to, the tooltip text, and the provenance of the
// linked file (origin "raw" or "transcribed", and the source document),
// which the hook renders in the page's language.
type claimData struct {
	Href   string `json:"href"`
	Title  string `json:"title"`
	Origin string `json:"origin,omitempty"`
	Source string `json:"source,omitempty"`
}

// provenance returns the provenance of a repository-relative evidence
// file, or the zero Provenance when no loaded set holds it.
func (s *Site) provenance(file string) evidence.Provenance {
	for _, set := range s.Store.Sets {
		if strings.HasPrefix(file, set.Dir+"/") {
			return set.Provenance(file)
		}
	}
	return evidence.Provenance{}
}

func (s *Site) stageClaims(stage string, results []check.Result) error {
	data := map[string]claimData{}
	for _, r := range results {
		dest := r.Claim.Destination
		if _, ok := data[dest]; ok || len(r.Bindings) == 0 {
			continue
		}
		var titles []string
		for _, b := range r.Bindings {
			titles = append(titles, fmt.Sprintf("%s = %s%s — %s", b.Ref, b.Value, b.Unit, b.Evidence))
		}
		first := r.Bindings[0]
		if first.Evidence == nil {
			continue
		}
		pos := *first.Evidence
		if len(first.Inputs) > 0 {
			pos = first.Inputs[0]
		}
		prov := s.provenance(pos.File)
		data[dest] = claimData{Href: fmt.Sprintf("%s#L%d", EvidencePageURL(pos.File), pos.Line), Title: strings.Join(titles, "\n"),
			Origin: prov.Origin, Source: prov.Source}
	}
	b, err := json.MarshalIndent(data, "", " ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(stage, "data", "evdoc", "claims.json"), b)
}

type figureData struct {
	Alt        map[string]string `json:"alt"`
	Caption    map[string]string `json:"caption"`
	Width      int               `json:"width"`
	Height     int               `json:"height"`
	SourceHref string            `json:"source_href"`
}

func (s *Site) stageFigures(stage string, logw io.Writer) error {
	data := map[string]figureData{}
	w, h := figure.PixelSize()
	for _, f := range s.Figures {
		_, inputs, err := f.Data(s.Store)
		if err != nil {
			return err
		}
		fd := figureData{Alt: f.Alt, Caption: f.Caption, Width: w / 2, Height: h / 2}
		if len(inputs) > 0 {
			fd.SourceHref = fmt.Sprintf("%s#L%d", EvidencePageURL(inputs[0].Pos.File), inputs[0].Pos.Line)
		}
		for _, lang := range s.Config.Ordered() {
			ttf, err := os.ReadFile(filepath.Join(s.Root, FontsDir, FontFor(lang.Code)))
			if err != nil {
				return fmt.Errorf("figure %q: font for %q: %v", f.Name, lang.Code, err)
			}
			png, err := f.Render(s.Store, lang.Code, ttf)
			if err != nil {
				return err
			}
			if err := writeFile(filepath.Join(stage, "static", "figures", f.Name+"."+lang.Code+".png"), png); err != nil {
				return err
			}
			fmt.Fprintf(logw, "evdoc: figure %s.%s.png (%d bytes)\n", f.Name, lang.Code, len(png))
		}
		data[f.Name] = fd
	}
	b, err := json.MarshalIndent(data, "", " ")
	if err != nil {
		return err
	}
	return writeFile(filepath.Join(stage, "data", "evdoc", "figures.json"), b)
}

// FontFor returns the TrueType file under assets/fonts used to draw figure
// text in a language: NanumSquare for Korean, IPA P Gothic otherwise
// (it covers kana, kanji and Latin).
func FontFor(lang string) string {
	if lang == "ko" {
		return "NanumSquareR.ttf"
	}
	return "ipagp.ttf"
}

func writeFrontMatterPage(p string, fm map[string]any) error {
	y, err := yaml.Marshal(fm)
	if err != nil {
		return err
	}
	return writeFile(p, append(append([]byte("---\n"), y...), []byte("---\n")...))
}

func writeFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return writeFile(to, b)
}

func copyTree(from, to string) error {
	if _, err := os.Stat(from); os.IsNotExist(err) {
		return nil
	}
	var files []string
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(files)
	for _, p := range files {
		rel, _ := filepath.Rel(from, p)
		if err := copyFile(p, filepath.Join(to, rel)); err != nil {
			return err
		}
	}
	return nil
}
