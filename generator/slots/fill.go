package slots

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/evdoc-lab/evdoc/internal/crash"
	"golang.org/x/sync/errgroup"
)

// FormatsFile is the base name of the file Hugo writes the formats of
// one language into: the evdocslots output format of that language's
// evidence index page (themes/evdoc/hugo.toml,
// layouts/section.evdocslots.json). Fill reads them and removes them
// from the output.
const FormatsFile = "evdoc-slots.json"

// formatsMagic is the formats file's first member.
const formatsMagic = `{"evdoc-slots":1,`

// formatsJSON is a formats file: its language and, per data key,
// claim.html's three formats.
type formatsJSON struct {
	Slots   int                  `json:"evdoc-slots"`
	Lang    string               `json:"lang"`
	Formats map[string][3]string `json:"formats"`
}

// Filler fills the placeholders of a built site's files.
type Filler struct {
	t       *Table
	formats map[string]map[string]*[3]format // language → key → formats
	src     map[string]string                // language → its formats file
}

// Load reads the formats files under dir (Hugo's output), removes
// them, and returns the Filler of table t. A placeholder whose
// language or data key has no format is Fill's error.
func (t *Table) Load(dir string) (*Filler, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == FormatsFile && d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	f, ours, err := t.read(dir, files)
	if err != nil {
		return nil, err
	}
	for _, p := range ours {
		if err := os.Remove(p); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// Early returns the Filler of table t from the formats files (paths
// under dir) Hugo has written so far, while it runs (Hugo writes one
// language's after another), and whether it read any: outscan.Early
// fills in the files whose languages it has, and the output check
// takes what it filled only where the Filler Load returns after Hugo
// Agrees.
func (t *Table) Early(dir string, files []string) (*Filler, bool) {
	f, _, err := t.read(dir, files)
	if err != nil || len(f.formats) == 0 {
		return nil, false
	}
	return f, true
}

// Agrees reports whether every language of f has the same formats in
// g.
func (f *Filler) Agrees(g *Filler) bool {
	if f == nil || g == nil {
		return false
	}
	for l, s := range f.src {
		if g.src[l] != s {
			return false
		}
	}
	return true
}

// read reads the formats files of table t (paths under dir) and
// returns their Filler and the files that are formats files.
func (t *Table) read(dir string, files []string) (*Filler, []string, error) {
	f := &Filler{t: t, formats: map[string]map[string]*[3]format{}, src: map[string]string{}}
	var ours []string
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, nil, err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if !bytes.HasPrefix(b, []byte(formatsMagic)) {
			continue // a file of the site's own by that name
		}
		ours = append(ours, p)
		var fj formatsJSON
		if err := json.Unmarshal(b, &fj); err != nil {
			return nil, nil, fmt.Errorf("%s: reading the claims' formats: %v", rel, err)
		}
		if prev, ok := f.src[fj.Lang]; ok {
			// one language rendered twice (a second host): the same
			// formats
			if string(b) != prev {
				return nil, nil, fmt.Errorf("%s: the claims' formats of language %q differ from another file's", rel, fj.Lang)
			}
			continue
		}
		f.src[fj.Lang] = string(b)
		m := make(map[string]*[3]format, len(fj.Formats))
		for k, fs := range fj.Formats {
			m[k] = &[3]format{compile(fs[0]), compile(fs[1]), compile(fs[2])}
			for _, ff := range m[k] {
				if !ff.countsText() {
					return nil, nil, fmt.Errorf("%s: the claim markup of %q puts its link text right after an attribute (%q), where Hugo's automatic summary does not count it as a word; evdoc build stages claims with slots only where each claim's markup counts one (evdoc/claim-link.html)", rel, k, ff.src)
				}
			}
		}
		f.formats[fj.Lang] = m
	}
	return f, ours, nil
}

// form is how a placeholder is written in a file: as the hook wrote it
// (raw, also minified: its attribute unquoted), escaped as HTML or XML
// text (an RSS item's description, transform.XMLEscape, html,
// htmlEscape, html/template), or inside a JSON string (jsonify).
type form uint8

const (
	raw form = iota
	escaped
	jsonEscaped
)

// placeholder is one spelling of a placeholder: its opening up to the
// id, what ends the opening after it, and its closing.
type placeholder struct {
	open, openEnd, close string
	form                 form
}

// spellings are the placeholders Fill reads, each found by the name
// "evdoc-c" (tagName) and the bytes before it.
var spellings = []placeholder{
	{`<evdoc-c d="ev:#`, `">`, `</evdoc-c>`, raw},
	{`<evdoc-c d=ev:#`, `>`, `</evdoc-c>`, raw},
	{`&lt;evdoc-c d=&#34;ev:#`, `&#34;&gt;`, `&lt;/evdoc-c&gt;`, escaped},
	{`\u003cevdoc-c d=\"ev:#`, `\"\u003e`, `\u003c/evdoc-c\u003e`, jsonEscaped},
}

const tagName = "evdoc-c"

// nameAt reports whether b holds the name "evdoc-c" at i as a whole
// name (not "evdoc-claim").
func nameAt(b []byte, i int) bool {
	if !bytes.HasPrefix(b[i:], []byte(tagName)) {
		return false
	}
	if e := i + len(tagName); e < len(b) {
		c := b[e]
		if c == '-' || c == '_' || c == ':' || c == '.' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// opening returns the spelling whose opening starts at start and names
// the tag at i, and start, or -1.
func opening(b []byte, i int) (placeholder, int) {
	for _, s := range spellings {
		pre := strings.Index(s.open, tagName)
		st := i - pre
		if st >= 0 && bytes.HasPrefix(b[st:], []byte(s.open)) {
			return s, st
		}
	}
	return placeholder{}, -1
}

// isIDByte reports whether c may be in a slot id.
func isIDByte(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || c == '-' }

// PosError is a placeholder Fill cannot fill: the file (a slash path
// relative to the output) and the line and column (in bytes) of the
// placeholder's tag name.
type PosError struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *PosError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
}

// posError returns the error msg at offset i of b, file rel.
func posError(rel string, b []byte, i int, msg string) error {
	line := bytes.Count(b[:i], []byte{'\n'}) + 1
	col := i - (bytes.LastIndexByte(b[:i], '\n') + 1) + 1
	return &PosError{File: rel, Line: line, Col: col, Msg: msg}
}

// fillFunc writes the markup of the placeholder whole, with id (the
// bytes after Scheme) and link text (as found, in form f), into out.
type fillFunc func(out []byte, whole, id, text []byte, f form) ([]byte, error)

// fillBytes returns b with each placeholder replaced by what fill
// writes, and whether it held any; every byte outside placeholders is
// kept. A raw tag named evdoc-c that is no whole placeholder (its
// opening cut or malformed, no closing before the next tag of that
// name: a placeholder cut by a truncation, or a stray </evdoc-c> in its
// link text) is an error at its place; so is an escaped opening that
// does not end with a placeholder's closing. Text naming the tag
// otherwise (escaped as prose is, "&lt;evdoc-c d=&quot;") is kept.
func fillBytes(rel string, b []byte, fill fillFunc) ([]byte, bool, error) {
	i := bytes.Index(b, []byte(tagName))
	if i < 0 {
		return b, false, nil
	}
	var out []byte
	last := 0
	for ; i >= 0; i = nextName(b, i+len(tagName)) {
		if !nameAt(b, i) || i < last {
			continue
		}
		s, st := opening(b, i)
		if st < 0 {
			if i > 0 && b[i-1] == '<' || i > 1 && b[i-2] == '<' && b[i-1] == '/' {
				return nil, false, posError(rel, b, i, "an evdoc-c tag that is not a whole claim placeholder (<evdoc-c d=\"ev:#ID\">TEXT</evdoc-c>): a placeholder cut by a truncation, or a link text holding </evdoc-c>")
			}
			continue // prose naming the tag
		}
		idStart := st + len(s.open)
		j := idStart
		for j < len(b) && isIDByte(b[j]) {
			j++
		}
		if j == idStart || !bytes.HasPrefix(b[j:], []byte(s.openEnd)) {
			return nil, false, posError(rel, b, i, "a claim placeholder whose opening is cut or malformed")
		}
		id := b[idStart:j]
		textStart := j + len(s.openEnd)
		// the closing: the next tag of that name
		k := nextName(b, textStart)
		closeAt := -1
		if k >= 0 {
			pre := strings.Index(s.close, tagName)
			if c := k - pre; c >= textStart && bytes.HasPrefix(b[c:], []byte(s.close)) {
				closeAt = c
			}
		}
		if closeAt < 0 {
			return nil, false, posError(rel, b, i, fmt.Sprintf("the claim placeholder %s%s has no closing %s before the next evdoc-c (a placeholder cut by a truncation, or a link text holding the tag)", Scheme, id, s.close))
		}
		if out == nil {
			// the markup is some ten times the placeholder's bytes
			out = make([]byte, 0, 2*len(b)+4096)
		}
		out = append(out, b[last:st]...)
		var err error
		if out, err = fill(out, b[st:closeAt+len(s.close)], id, b[textStart:closeAt], s.form); err != nil {
			return nil, false, posError(rel, b, i, err.Error())
		}
		last = closeAt + len(s.close)
	}
	if out == nil {
		return b, false, nil
	}
	return append(out, b[last:]...), true, nil
}

// nextName returns the offset of the next "evdoc-c" in b at or after
// from, or -1.
func nextName(b []byte, from int) int {
	if from >= len(b) {
		return -1
	}
	k := bytes.Index(b[from:], []byte(tagName))
	if k < 0 {
		return -1
	}
	return from + k
}

// Fill returns the bytes b of the output file rel (a slash path
// relative to the output) with each claim placeholder replaced by the
// claim's markup, and whether it replaced any. An id the table does not
// hold, a placeholder cut or stray, and a form whose escaping cannot be
// reproduced are errors at the placeholder's place.
//
// In a file of Hugo's rss output format (Table.SetFeed) the markup
// filled in gets the URL rewrite Hugo gives the file (Feed); the
// bytes around it are kept.
func (f *Filler) Fill(rel string, b []byte) ([]byte, bool, error) {
	feed := f.t.feed
	if feed != nil && path.Base(rel) != feed.File {
		feed = nil
	}
	var spans [][2]int
	out, changed, err := fillBytes(rel, b, func(out []byte, _, id, text []byte, fm form) ([]byte, error) {
		if n, ok := citesID(id); ok {
			// the rows' links are Hugo's own, rewritten in a feed as
			// Hugo wrote them; the rest of the rows gets the rewrite
			// Hugo gives the file (feed.rewrite leaves a URL it made
			// absolute as it is)
			start := len(out)
			out, err := f.t.fillCites(out, n, text, fm)
			if feed != nil && len(out) > start {
				spans = append(spans, [2]int{start, len(out)})
			}
			return out, err
		}
		p, s, ok := f.t.lookup(id)
		if !ok {
			return out, fmt.Errorf("the claim placeholder %s%s names no claim of this build", Scheme, id)
		}
		fs := f.formats[p.lang][s.key]
		if fs == nil {
			return out, fmt.Errorf("no format of the claim data key %q in language %q", s.key, p.lang)
		}
		start := len(out)
		var err error
		if fm == raw {
			out = fs[s.role].appendTo(out, p, s, text)
		} else {
			out, err = fs[s.role].appendEscaped(out, p, s, text, fm)
		}
		if feed != nil && len(out) > start {
			spans = append(spans, [2]int{start, len(out)})
		}
		return out, err
	})
	if err != nil {
		return out, changed, err
	}
	if changed {
		if h := fingerprinted(rel, b); h != "" {
			return nil, false, posError(rel, b, bytes.Index(b, []byte(tagName)), fmt.Sprintf("the file's name holds the %s digest of its bytes (a fingerprinted resource, resources.Fingerprint): filling in its claims would change its bytes but not its name nor any integrity attribute naming it; a template puts a page's .Content into a resource: use .Plain there, or build without claim slots", h))
		}
	}
	if len(spans) == 0 {
		return out, changed, nil
	}
	filled, ferr := feed.rewrite(out, spans)
	if ferr != nil {
		return nil, false, posError(rel, out, ferr.at, ferr.msg)
	}
	return filled, changed, nil
}

// Reads reports whether Fill reads output files with extension ext
// (lower case, with its dot): every file but those of the binary
// formats a site publishes (images, fonts, media, archives, PDF,
// WebAssembly), so that a placeholder in an output format of any name
// is filled.
func (f *Filler) Reads(ext string) bool {
	return !slices.Contains(binaryExts, ext)
}

var binaryExts = []string{
	".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico", ".bmp", ".tif", ".tiff",
	".woff", ".woff2", ".ttf", ".otf", ".eot",
	".mp4", ".webm", ".mov", ".mp3", ".ogg", ".wav", ".flac", ".m4a",
	".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".tar", ".pdf", ".wasm",
}

// FillDir fills every file under dir that Fill reads, on GOMAXPROCS
// workers, rewriting those with placeholders in place.
func (f *Filler) FillDir(dir string) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() && f.Reads(strings.ToLower(filepath.Ext(p))) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return err
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, p := range files {
		g.Go(func() error {
			defer crash.Guard()
			rel, _ := filepath.Rel(dir, p)
			_, err := f.FillFile(p, filepath.ToSlash(rel))
			return err
		})
	}
	return g.Wait()
}

// FillFile fills file p (rel: its slash path in the output) in place and
// returns its bytes after.
func (f *Filler) FillFile(p, rel string) ([]byte, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	out, changed, err := f.Fill(rel, b)
	if err != nil || !changed {
		return b, err
	}
	return out, os.WriteFile(p, out, 0o644)
}

// fingerprinted returns the name of the digest ("sha256", "sha384",
// "sha512", "md5") whose hex spelling of b is a dot-separated part of
// the base name of rel (Hugo's resources.Fingerprint writes
// NAME.DIGEST.EXT), or "" when none is: the fill must not change such a
// file's bytes, which its name and an integrity attribute vouch for.
func fingerprinted(rel string, b []byte) string {
	for _, part := range strings.Split(path.Base(rel), ".") {
		var name string
		var sum []byte
		switch len(part) {
		case 32:
			name = "md5"
		case 64:
			name = "sha256"
		case 96:
			name = "sha384"
		case 128:
			name = "sha512"
		default:
			continue
		}
		if _, err := hex.DecodeString(part); err != nil {
			continue
		}
		switch name {
		case "md5":
			h := md5.Sum(b)
			sum = h[:]
		case "sha256":
			h := sha256.Sum256(b)
			sum = h[:]
		case "sha384":
			h := sha512.Sum384(b)
			sum = h[:]
		case "sha512":
			h := sha512.Sum512(b)
			sum = h[:]
		}
		if strings.EqualFold(part, hex.EncodeToString(sum)) {
			return name
		}
	}
	return ""
}
