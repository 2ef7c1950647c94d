package hugoconf

import "strings"

// PublishURLs is what the configuration sets of the URL rewriting Hugo
// applies to the bytes it writes (its publisher's absURL transform),
// which claims filled in after Hugo (generator/slots) must be given
// alike.
type PublishURLs struct {
	// Rewrite is set when canonifyURLs or relativeURLs is true (at the
	// top or for a language): Hugo rewrites the root-relative URLs of
	// every HTML file it writes.
	Rewrite bool
	// Multihost is set when a language sets its own baseURL.
	Multihost bool
	// BaseURLs holds the baseURL of each language that sets its own,
	// by the language's code (lower case, as Hugo reads it).
	BaseURLs map[string]string
	// Relative is set when relativeURLs is true (at the top or for a
	// language): Hugo makes the root-relative URLs of every HTML file
	// relative to the file.
	Relative bool
	// RSSFile is the base name of the files Hugo writes with the rss
	// output format (whose root-relative URLs it always makes absolute):
	// outputFormats.rss.baseName ("index") and the first suffix of its
	// media type ("xml"), "index.xml" by default.
	RSSFile string
	// RSSUnsure is set when evdoc cannot tell the rss output format's
	// files by name: its media type is not application/rss+xml, or
	// another output format the configuration declares may write files
	// of that name.
	RSSUnsure bool
}

// publishURLs reads PublishURLs from the merged configuration (keys in
// lower case).
func publishURLs(merged map[string]any) PublishURLs {
	var p PublishURLs
	rewrites := func(m map[string]any) bool {
		for _, k := range []string{"canonifyurls", "relativeurls"} {
			if b := configBool(m, k); b != nil && *b {
				return true
			}
		}
		return false
	}
	relative := func(m map[string]any) bool {
		b := configBool(m, "relativeurls")
		return b != nil && *b
	}
	p.Rewrite, p.Relative = rewrites(merged), relative(merged)
	for code, v := range configMap(merged, "languages") {
		lm, _ := v.(map[string]any)
		if rewrites(lm) {
			p.Rewrite = true
		}
		if relative(lm) {
			p.Relative = true
		}
		if b := configString(lm, "baseurl"); b != "" {
			p.Multihost = true
			if p.BaseURLs == nil {
				p.BaseURLs = map[string]string{}
			}
			p.BaseURLs[strings.ToLower(code)] = b
		}
	}
	mediaTypes := configMap(merged, "mediatypes")
	// suffix returns the first suffix of media type t, "" when neither
	// the configuration nor Hugo's built-in XML types give one.
	suffix := func(t string) string {
		t = strings.ToLower(t)
		if mt := configMap(mediaTypes, t); mt != nil {
			switch s := mt["suffixes"].(type) {
			case []any:
				if len(s) > 0 {
					if str, ok := s[0].(string); ok {
						return strings.ToLower(str)
					}
				}
				return ""
			case []string:
				if len(s) > 0 {
					return strings.ToLower(s[0])
				}
				return ""
			}
		}
		switch t {
		case "application/rss+xml", "application/xml", "text/xml":
			return "xml"
		}
		return ""
	}
	formats := configMap(merged, "outputformats")
	rss := configMap(formats, "rss")
	base := "index"
	if b := configString(rss, "basename"); b != "" {
		base = b
	}
	mt := "application/rss+xml"
	if t := configString(rss, "mediatype"); t != "" {
		mt = strings.ToLower(t)
	}
	sfx := suffix(mt)
	if mt != "application/rss+xml" || sfx == "" {
		p.RSSUnsure = true
	}
	p.RSSFile = base + "." + sfx
	for name, v := range formats {
		f, _ := v.(map[string]any)
		if name == "rss" || f == nil {
			continue
		}
		b := configString(f, "basename")
		if b == "" {
			b = "index"
		}
		t := configString(f, "mediatype")
		// a format of an unknown media type may have any suffix
		if b == base && (t == "" || suffix(t) == "" || suffix(t) == sfx) {
			p.RSSUnsure = true
		}
	}
	return p
}
