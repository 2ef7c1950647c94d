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
	for _, e := range l.entries() {
		for _, key := range e.changes {
			matched := false
			for name, v := range l.set.Values {
				if local, ok := strings.CutPrefix(name, e.name+"."); ok && matchesLocal(local, key) {
					v.Delta, matched = true, true
				}
			}
			if !matched {
				l.errs = append(l.errs, diag.Errorf(l.at(key), diag.EvidenceManifest, "changes: %q matches no value of %q; expected a local name or \"*.suffix\" of its values", key, e.name))
			}
		}
	}
}

// matchesLocal reports whether a value's local name matches key of a
// units or changes declaration: the name itself, or "*.suffix".
func matchesLocal(local, key string) bool {
	return local == key || strings.HasPrefix(key, "*.") && (strings.HasSuffix(local, key[1:]) || local == key[2:])
}
