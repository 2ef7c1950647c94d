package hosttheme

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// Tools is what building a site needs besides Hugo's standard edition,
// found in its templates and its themes' (Toolchain). Each field names
// the file (relative to the project) that needs it, "" when none does.
type Tools struct {
	// Extended: a template compiles SCSS with libsass (toCSS,
	// css.Sass or resources.ToCSS without the transpiler "dartsass"),
	// which only Hugo's extended edition has (Stack), or tests
	// hugo.IsExtended in a template that warns or fails (FixIt warns
	// without it, which fails evdoc build --strict; PaperMod's test
	// only chooses image formats).
	Extended string
	// ExtendedWhy says which of the two Extended's file does.
	ExtendedWhy string
	// DartSass: a template names the transpiler "dartsass", which
	// Hugo of either edition runs as the program sass from PATH
	// (FixIt, Docsy).
	DartSass string
	// NPM: a theme mounts directories of its node_modules (its
	// configuration names node_modules) and ships a package.json:
	// the packages are installed in its directory (Docsy's Bootstrap
	// and Font Awesome). The theme's directory.
	NPM string
	// NPMLock: NPM's directory has a package-lock.json (npm ci
	// installs exactly what it records).
	NPMLock bool
}

// sassCallRe finds a SCSS compilation in a template.
var sassCallRe = regexp.MustCompile(`\b(?:toCSS|css\.Sass|resources\.ToCSS)\b`)

// isExtendedRe finds a template's test of Hugo's edition.
var isExtendedRe = regexp.MustCompile(`\bhugo\.IsExtended\b`)

// warnRe finds a template's warning or error (which a test of the
// edition may give: FixIt's "SCSS needs Hugo Extended").
var warnRe = regexp.MustCompile(`\b(?:warnf|warnidf|errorf|erroridf)\b`)

// dartSassRe finds the Dart Sass transpiler's name as a template string.
var dartSassRe = regexp.MustCompile("[\"`]dartsass[\"`]")

// Toolchain returns what the project at root and the themes of its
// theme list (evdoc's component aside; a theme Hugo fetches as a module
// into its cache, in neither _vendor/ nor themes/, is not read) need to
// build: it reads every template (layouts/**.html) with its comments
// removed. A template that compiles SCSS and names "dartsass" needs Dart
// Sass; one that compiles SCSS without naming it, libsass (Hugo's
// default transpiler), so the extended edition, as does one testing
// hugo.IsExtended and warning or failing (FixIt's warning without it
// fails build --strict).
func Toolchain(root string, themes []string) Tools {
	var out Tools
	dirs := []string{"."}
	for _, t := range themes {
		if t != Component {
			dirs = append(dirs, Dir(root, t))
		}
	}
	for _, d := range dirs {
		base := filepath.Join(root, filepath.FromSlash(d))
		_ = filepath.WalkDir(filepath.Join(base, "layouts"), func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".html") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			b = templateCommentRe.ReplaceAll(b, nil)
			rel, _ := filepath.Rel(root, p)
			rel = filepath.ToSlash(rel)
			dart := dartSassRe.Match(b)
			if dart && out.DartSass == "" {
				out.DartSass = rel
			}
			switch {
			case out.Extended != "":
			case !dart && sassCallRe.Match(b):
				out.Extended, out.ExtendedWhy = rel, "compiles SCSS with libsass"
			case isExtendedRe.Match(b) && warnRe.Match(b):
				out.Extended, out.ExtendedWhy = rel, "tests hugo.IsExtended"
			}
			return nil
		})
		if d == "." || out.NPM != "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(base, "package.json")); err != nil {
			continue
		}
		for _, c := range []string{"hugo.toml", "hugo.yaml", "hugo.yml", "hugo.json", "config.toml", "config.yaml", "config.yml", "config.json", "theme.toml"} {
			if b, err := os.ReadFile(filepath.Join(base, c)); err == nil && strings.Contains(string(b), "node_modules") {
				out.NPM = path.Clean(d)
				_, err := os.Stat(filepath.Join(base, "package-lock.json"))
				out.NPMLock = err == nil
				break
			}
		}
	}
	return out
}
