package manifest

import (
	"fmt"
	"regexp"
	"strings"
)

// Slug turns a table label or section id into a name segment (see
// package evidence's doc); it returns "" when no valid segment results.
func Slug(label string) string {
	s := strings.NewReplacer("**", "", "`", "").Replace(strings.TrimSpace(label))
	if quantileLabel.MatchString(s) {
		s = strings.TrimSuffix(s, ")") // k6's p(90) is p_90, not p
	} else if i := strings.IndexAny(s, "( \t"); i >= 0 {
		s = s[:i]
	}
	out := strings.Trim(underscored(s), "_")
	if !segmentRe.MatchString(out) {
		return ""
	}
	return out
}

// quantileLabel is a key naming a quantile with its number in
// parentheses, as k6 writes p(90)= and p(99.9)=.
var quantileLabel = regexp.MustCompile(`^[A-Za-z_]\w*\([0-9.]+\)$`)

// underscored lower-cases s and turns every character outside
// [a-z0-9_] into "_", one for one: the alphabet of a name segment.
func underscored(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// SlugKey names a reading by its native key: each dot-separated segment
// is slugged (lower case, anything outside [a-z0-9_] becomes "_", a leading
// digit gets a "_" prefix). It returns "" for a key with an empty segment.
func SlugKey(key string) string {
	if isSlug(key) {
		return key // the common case, without allocating
	}
	return slugSegments(key)
}

// slugSegments is SlugKey segment by segment.
func slugSegments(key string) string {
	parts := strings.Split(key, ".")
	for i, p := range parts {
		if quantileLabel.MatchString(p) {
			p = strings.TrimSuffix(p, ")") // p(90) is p_90
		}
		seg := underscored(p)
		if seg == "" {
			return ""
		}
		if seg[0] >= '0' && seg[0] <= '9' {
			seg = "_" + seg
		}
		parts[i] = seg
	}
	return strings.Join(parts, ".")
}

// isSlug reports whether key is its own SlugKey: segments of [a-z0-9_],
// none empty, none starting with a digit.
func isSlug(key string) bool {
	start := true
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '.':
			if start {
				return false
			}
			start = true
			continue
		case c >= '0' && c <= '9':
			if start {
				return false
			}
		case c >= 'a' && c <= 'z' || c == '_':
		default:
			return false
		}
		start = false
	}
	return !start
}

func KeyFor(label string, relabel map[string]string) (string, error) {
	if k, ok := relabel[label]; ok {
		return k, nil
	}
	stripped := strings.NewReplacer("**", "", "`", "").Replace(label)
	if k, ok := relabel[stripped]; ok {
		return k, nil
	}
	if k := Slug(label); k != "" {
		return k, nil
	}
	return "", fmt.Errorf("label %q has no name segment; relabel it in %s", label, FileName)
}
