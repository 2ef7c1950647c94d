package main

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/hosttheme"
)

// Dart Sass as the workflow init writes installs it for a theme that
// compiles SCSS with it: the Sass project's standalone Dart Sass for
// linux-x64 (the GitHub runner's), as the npm registry serves it in the
// package sass-embedded-linux-x64 (package/dart-sass/sass), pinned by
// version and by the SHA-256 of that archive (its sha512 is the
// registry's integrity record of the version).
const (
	dartSassVersion = "1.108.2"
	dartSassSHA256  = "c31d5cfb9af5948d7c16be4f77c9f3c8eafc518eaa24883f4ac8468f562fb8b4"
)

// workflowInstallStep is the line of the scaffold workflow before which
// the steps installing what the site's theme needs go.
const workflowInstallStep = "      - name: Install evdoc\n"

// workflowCacheKey is the scaffold workflow's cache key of the pinned
// Hugo; a workflow that also caches the extended edition keys it apart.
var workflowCacheKey = "key: evdoc-hugo-" + pinnedHugoVersion + "-"

// workflowWithTools returns the scaffold workflow wf with steps that
// install what building the site needs besides evdoc and the Hugo it
// builds (hosttheme.Toolchain): Hugo's extended edition at the pinned
// version, Dart Sass, a theme's npm packages. It returns one line per
// step added, for init's report, and wf unchanged when none is needed
// or wf has no step to put them before (a rewritten scaffold).
func workflowWithTools(wf []byte, tools hosttheme.Tools) ([]byte, []string) {
	var steps strings.Builder
	var notes []string
	if tools.Extended != "" {
		fmt.Fprintf(&steps, `      # %s %s: Hugo's extended
      # edition, built once at evdoc's pinned version from the Go module
      # proxy (checked against the Go checksum database; cgo and the
      # runner's C compiler) into the cache restored above. evdoc runs the
      # hugo it finds on PATH.
      - name: Hugo extended %s (the theme %s)
        run: |
          dir="$HOME/.cache/evdoc/hugo-extended/%s"
          if [ ! -x "$dir/hugo" ]; then
            mkdir -p "$dir"
            (cd "$dir" && CGO_ENABLED=1 GOBIN="$dir" GOFLAGS=-buildvcs=false GOWORK=off go install -tags extended github.com/gohugoio/hugo@%s)
          fi
          "$dir/hugo" version
          echo "$dir" >> "$GITHUB_PATH"
`, tools.Extended, tools.ExtendedWhy, pinnedHugoVersion, tools.ExtendedWhy, pinnedHugoVersion, pinnedHugoVersion)
		notes = append(notes, fmt.Sprintf("installs Hugo extended %s (%s %s)", pinnedHugoVersion, tools.Extended, tools.ExtendedWhy))
	}
	if tools.DartSass != "" {
		fmt.Fprintf(&steps, `      # %s compiles SCSS with Dart Sass (transpiler "dartsass"),
      # which Hugo runs as the program sass from PATH: the Sass project's
      # standalone Dart Sass for linux-x64 as the npm registry serves it,
      # pinned by version and checked against its SHA-256 before it is
      # unpacked.
      - name: Dart Sass %s (the theme compiles SCSS with it)
        env:
          DART_SASS_VERSION: "%s"
          DART_SASS_SHA256: %s
        run: |
          dir="$RUNNER_TEMP/dart-sass"
          mkdir -p "$dir"
          curl -fsSL -o "$dir/sass.tgz" "https://registry.npmjs.org/sass-embedded-linux-x64/-/sass-embedded-linux-x64-$DART_SASS_VERSION.tgz"
          echo "$DART_SASS_SHA256  $dir/sass.tgz" | sha256sum --check --strict
          tar -xzf "$dir/sass.tgz" -C "$dir"
          "$dir/package/dart-sass/sass" --version
          echo "$dir/package/dart-sass" >> "$GITHUB_PATH"
`, tools.DartSass, dartSassVersion, dartSassVersion, dartSassSHA256)
		notes = append(notes, fmt.Sprintf("installs Dart Sass %s (%s compiles SCSS with it)", dartSassVersion, tools.DartSass))
	}
	if tools.NPM != "" {
		cmd, what := "npm install --omit=dev --no-audit --no-fund", "the versions its package.json allows"
		if tools.NPMLock {
			cmd, what = "npm ci --omit=dev --no-audit --no-fund", "the versions its package-lock.json records"
		}
		fmt.Fprintf(&steps, `      # The theme mounts directories of its node_modules (its configuration
      # names them): its packages, %s.
      - name: The theme's npm packages (%s)
        working-directory: %s
        run: %s
`, what, tools.NPM, tools.NPM, cmd)
		notes = append(notes, fmt.Sprintf("runs %s in %s (the theme mounts its node_modules)", strings.Fields(cmd)[0]+" "+strings.Fields(cmd)[1], tools.NPM))
	}
	if steps.Len() == 0 {
		return wf, nil
	}
	i := bytes.Index(wf, []byte(workflowInstallStep))
	if i < 0 {
		return wf, nil
	}
	out := append([]byte{}, wf[:i]...)
	out = append(out, steps.String()...)
	out = append(out, wf[i:]...)
	if tools.Extended != "" {
		out = bytes.Replace(out, []byte(workflowCacheKey), []byte(workflowCacheKey+"extended-"), 1)
	}
	return out, notes
}
