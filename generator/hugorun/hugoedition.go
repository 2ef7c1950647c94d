package hugorun

import (
	"bytes"
	"fmt"
)

// featureNotAvailable is how Hugo's standard edition fails a feature
// only the extended edition has (libsass's toCSS, which themes compiling
// SCSS use; WebP encoding in older releases).
var featureNotAvailable = []byte("this feature is not available in your current Hugo")

// dartSassMissing is how Hugo fails css.Sass with the Dart Sass
// transpiler when PATH has no sass program.
var dartSassMissing = []byte("TOCSS-DART")

// ExtendedAdvice returns what to do when Hugo's output out says the
// site needs Hugo's extended edition, which bin (the Hugo that ran) is
// not: "" when it does not say so.
func ExtendedAdvice(out []byte, bin string) string {
	if !bytes.Contains(out, featureNotAvailable) {
		return ""
	}
	// Dart Sass (css.Sass with transpiler "dartsass": FixIt) is not a
	// feature of an edition: either edition runs the program sass, and
	// fails this way when PATH has none.
	if bytes.Contains(out, dartSassMissing) {
		return "\nthe site's theme compiles SCSS with Dart Sass (Hugo's transpiler \"dartsass\"), which Hugo, standard or extended, runs as the program sass from PATH, and there is none: " +
			"install Dart Sass (a release archive from https://github.com/sass/dart-sass/releases, or your package manager's dart-sass) so that `sass --version` runs in the shell that runs evdoc; evdoc passes PATH to Hugo"
	}
	return fmt.Sprintf("\nthe site needs Hugo's extended edition (its theme compiles SCSS with libsass, or encodes WebP), and %s is the standard edition: "+
		"install Hugo extended (a release archive named hugo_extended_VERSION_OS-ARCH from https://github.com/gohugoio/hugo/releases, or "+
		"CGO_ENABLED=1 go install -tags extended github.com/gohugoio/hugo@VERSION, which needs a C compiler) and put it on PATH "+
		"(evdoc uses a hugo on PATH in its supported range: evdoc version lists it), or pass --hugo PATH or EVDOC_HUGO=PATH", bin)
}
