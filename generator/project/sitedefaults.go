package project

import (
	"fmt"
	"os"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/evdoc-lab/evdoc/generator/hugoconf"
)

// MainSections returns, for each language code, the main section Hugo
// computes for the project's own pages: the top-level section with the
// most regular pages that Hugo builds (drafts, future and expired pages
// left out as the configuration says; a leaf bundle's index is one page,
// its other files resources). "" is Hugo's answer for a site whose
// regular pages are all at the root. Where two sections have as many
// pages Hugo's own choice depends on map order; the name that sorts
// first is returned, and tie is true for that language.
func (s *Site) MainSections(now time.Time) (main map[string]string, tie map[string]bool) {
	count := map[string]map[string]int{}
	bundles := map[string]bool{} // lang\x00dir of each leaf bundle
	for _, p := range s.Pages {
		if !p.Section && hugoconf.IsIndex(p.Rel) {
			bundles[p.Lang+"\x00"+path.Dir(p.Rel)] = true
		}
	}
	for _, p := range s.Pages {
		if p.Section || !hugoconf.Published(s.Config, p.FrontMatter, now) {
			continue
		}
		if !hugoconf.IsIndex(p.Rel) && inBundle(bundles, p.Lang, path.Dir(p.Rel)) {
			continue // a bundle's resource
		}
		sec, _, nested := strings.Cut(p.Rel, "/")
		if !nested {
			continue // a root page: Hugo counts it under "", never chosen
		}
		if count[p.Lang] == nil {
			count[p.Lang] = map[string]int{}
		}
		count[p.Lang][sec]++
	}
	main, tie = map[string]string{}, map[string]bool{}
	for code := range s.Config.Languages {
		var names []string
		for sec := range count[code] {
			names = append(names, sec)
		}
		sort.Strings(names)
		best, n := "", 0
		for _, sec := range names {
			switch c := count[code][sec]; {
			case c > n:
				best, n = sec, c
				tie[code] = false
			case c == n:
				tie[code] = true
			}
		}
		main[code] = best
	}
	return main, tie
}

// inBundle reports whether dir (or a directory above it) of lang is a
// leaf bundle's.
func inBundle(bundles map[string]bool, lang, dir string) bool {
	for ; dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
		if bundles[lang+"\x00"+dir] {
			return true
		}
	}
	return false
}

// SiteDefaultsEnv returns the environment variables that keep the
// staged site's defaults those of the project without evidence pages:
// for each language, HUGO_LANGUAGES_<CODE>_MAINSECTIONS naming the main
// section Hugo computes for the project's own pages (MainSections), when
// neither the configuration (for every language or for that one) nor
// evdoc's own environment sets mainSections. An empty value is Hugo's
// [""], the answer for a site with no section.
func (s *Site) SiteDefaultsEnv(now time.Time) []string {
	for _, k := range hugoconf.MainSectionsEnvNames {
		if _, ok := os.LookupEnv(k); ok {
			return nil
		}
	}
	main, _ := s.MainSections(now)
	var env []string
	for _, code := range hugoconf.SortedKeys(s.Config.Languages) {
		if !s.Config.HasMainSections(code) {
			env = append(env, "HUGO_LANGUAGES_"+strings.ToUpper(code)+"_MAINSECTIONS="+main[code])
		}
	}
	return env
}

// MainSectionTies returns a note for each language whose main section is
// a tie (MainSections): plain Hugo picks one of the tied sections at
// random, evdoc build the one that sorts first.
func (s *Site) MainSectionTies(now time.Time) []string {
	main, tie := s.MainSections(now)
	var out []string
	for _, code := range hugoconf.SortedKeys(s.Config.Languages) {
		if tie[code] && !s.Config.HasMainSections(code) {
			out = append(out, fmt.Sprintf("evdoc: note: in %s two or more top-level sections have as many pages as %q, the main section evdoc build uses (site.MainSections, which a home page may list); plain Hugo picks one of them at random: set mainSections in %s to choose", code, main[code], strings.Join(s.Config.Files, ", ")))
		}
	}
	return out
}
