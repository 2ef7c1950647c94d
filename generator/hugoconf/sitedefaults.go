package hugoconf

import (
	"strings"
	"time"
)

// Site defaults the evidence pages must not move. evdoc stages one page
// per evidence set and file under the evidence section; without care
// that section becomes the site's largest, and Hugo, where the project
// sets no mainSections, takes the top-level section with the most
// regular pages as the site's main section (site.MainSections,
// site.Params.mainSections): a theme's home page listing the main
// sections would list evidence pages, or nothing. The staged build
// therefore names the main section Hugo would compute without the
// pages evdoc adds.

// mainSectionsKey returns the languages whose mainSections the merged
// configuration m (lower-case keys, see LoadConfig) sets where Hugo reads
// it: "" for every language (at the top level or under params), else
// each language code that sets it under languages.X or
// languages.X.params. nil when nothing sets it.
func mainSectionsKey(m map[string]any) map[string]bool {
	has := func(m map[string]any) bool {
		_, top := m["mainsections"]
		_, param := configMap(m, "params")["mainsections"]
		return top || param
	}
	if has(m) {
		return map[string]bool{"": true}
	}
	var out map[string]bool
	for code, v := range configMap(m, "languages") {
		if l, ok := v.(map[string]any); ok && has(l) {
			if out == nil {
				out = map[string]bool{}
			}
			out[strings.ToLower(code)] = true
		}
	}
	return out
}

// HasMainSections reports whether the configuration sets mainSections
// for language code (Config.MainSectionsSet).
func (c *Config) HasMainSections(code string) bool {
	return c.MainSectionsSet[""] || c.MainSectionsSet[strings.ToLower(code)]
}

// MainSectionsEnvNames are the environment variables through which a
// user sets mainSections for every language (Hugo reads HUGO_ keys as
// configuration); with one of them set, the user's value stands.
var MainSectionsEnvNames = []string{"HUGO_MAINSECTIONS", "HUGO_PARAMS_MAINSECTIONS"}

// Published reports whether Hugo builds a page with front matter fm:
// not a draft, not published in the future, not expired (unless c's
// buildDrafts, buildFuture, buildExpired say so).
func Published(c *Config, fm map[string]any, now time.Time) bool {
	return publishWindow(c, fm).Includes(now)
}

// Window is when a page is published or linkable: never when Never,
// else from From (with HasFrom; else any time before) until Until (with
// HasUntil; else any time after), both included.
type Window struct {
	Never             bool
	HasFrom, HasUntil bool
	From, Until       time.Time
}

// Includes reports whether the page is published or linkable at now.
func (w Window) Includes(now time.Time) bool {
	return !w.Never && (!w.HasFrom || !w.From.After(now)) && (!w.HasUntil || !w.Until.Before(now))
}

// publishWindow is when Published holds for fm: its draft, its publish
// date and its expiry date read as Published reads them.
func publishWindow(c *Config, fm map[string]any) Window {
	if b, ok := FmValue(fm, "draft").(bool); ok && b && !c.BuildDrafts {
		return Window{Never: true}
	}
	var w Window
	if !c.BuildFuture {
		for _, k := range []string{"publishdate", "pubdate", "published", "date"} {
			if t, ok := FmTime(FmValue(fm, k)); ok {
				w.From, w.HasFrom = t, true
				break
			}
		}
	}
	if !c.BuildExpired {
		for _, k := range []string{"expirydate", "unpublishdate"} {
			if t, ok := FmTime(FmValue(fm, k)); ok {
				w.Until, w.HasUntil = t, true
				break
			}
		}
	}
	return w
}
