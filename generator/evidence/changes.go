package evidence

import (
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// applyChanges marks the values each entry's "changes" names as
// differences (Value.Delta): an "Overhead %" or growth column holds
// changes, written with or without a sign, and a signed claim ([+22.73%],
// [12% 감소]) binds to them as to a derived difference. A name that matches
// no value of the entry is an error.
func (l *loader) applyChanges() {
	var rules []changeRule
	for _, e := range l.entries() {
		for _, key := range e.changes {
			rules = append(rules, changeRule{prefix: e.name + ".", key: key})
		}
	}
	matched := make([]bool, len(rules))
	for name, v := range l.set.values {
		for k, c := range rules {
			if local, ok := strings.CutPrefix(name, c.prefix); ok && matchesLocal(local, c.key) {
				v.Delta, matched[k] = true, true
			}
		}
	}
	if z := l.set.lazy; z != nil && len(rules) > 0 {
		for _, name := range z.live() {
			for k, c := range rules {
				if local, ok := strings.CutPrefix(name, c.prefix); ok && matchesLocal(local, c.key) {
					matched[k] = true
				}
			}
		}
		z.chg = rules
	}
	for k, c := range rules {
		if !matched[k] {
			l.errs = append(l.errs, diag.Errorf(l.at(c.key), diag.EvidenceManifest, "changes: %q matches no value of %q; expected a local name or \"*.suffix\" of its values", c.key, strings.TrimSuffix(c.prefix, ".")))
		}
	}
}

// matchesLocal reports whether a value's local name matches key of a
// units or changes declaration: the name itself, or "*.suffix".
func matchesLocal(local, key string) bool {
	return local == key || strings.HasPrefix(key, "*.") && (strings.HasSuffix(local, key[1:]) || local == key[2:])
}
