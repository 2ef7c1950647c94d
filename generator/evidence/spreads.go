package evidence

import (
	"sort"
	"strings"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// linkSpreads gives each value the spread known for it (Value.Spread):
// the reading its reader printed after ± next to it (raw.Reading.SpreadOf:
// a markdown-tables cell "319.5 ± 11.2", benchstat's ±11%, fortio's
// "avg A +/- S"), else the value the entry's spreads declares. It runs
// after applyUnits, so a declared unit counts. An absolute spread with no
// unit of its own is in its value's unit (the tool printed both in one),
// and so is its named value.
func (l *loader) linkSpreads() {
	for _, s := range l.spreads {
		mean := l.byKey[s.entry][s.of]
		if mean == nil || mean.Spread != nil {
			continue // the mean is not named (select), or has its spread
		}
		sp := &Spread{Value: s.r.Number.Value, Unit: s.r.Number.Unit, Relative: s.r.SpreadRelative, Raw: s.r.Raw, Pos: s.r.Pos}
		if s.named != nil {
			sp.Unit, sp.Ref = s.named.Unit, s.named.Ref
			s.named.SpreadOf = mean.Ref
		}
		if !sp.Relative && sp.Unit == "" {
			sp.Unit = mean.Unit
			if s.named != nil {
				s.named.Unit = mean.Unit // "319.5 ± 11.2" with units = { "*.mean" = "ms" }: 11.2 ms
			}
		}
		mean.Spread = sp
	}
	for _, e := range l.entries() {
		keys := make([]string, 0, len(e.spreads))
		for k := range e.spreads {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, key := range keys {
			target := e.spreads[key]
			if strings.HasPrefix(key, "*.") != strings.HasPrefix(target, "*.") {
				l.errs = append(l.errs, diag.Errorf(l.at(key), diag.EvidenceManifest, "spreads: %q = %q: expected both local names or both \"*.suffix\" (\"*.mean\" = \"*.mean_sd\")", key, target))
				continue
			}
			matched := false
			for name, mean := range l.set.values {
				local, ok := strings.CutPrefix(name, e.name+".")
				if !ok || !matchesLocal(local, key) || mean.Derived {
					continue
				}
				matched = true
				spreadLocal := target
				if strings.HasPrefix(key, "*.") {
					spreadLocal = strings.TrimSuffix(local, key[1:]) + target[1:]
					if local == key[2:] {
						spreadLocal = target[2:]
					}
				}
				sv, ok := l.set.values[e.name+"."+spreadLocal]
				if !ok {
					l.errs = append(l.errs, diag.Errorf(l.at(key), diag.EvidenceManifest, "spreads: %q = %q: %s has no value %s.%s to be its spread; expected the spread's local name", key, target, mean.Ref, e.name, spreadLocal))
					continue
				}
				if mean.Spread != nil && mean.Spread.Ref != sv.Ref {
					l.errs = append(l.errs, diag.Errorf(l.at(key), diag.EvidenceManifest, "spreads: %q = %q: %s already has the spread %s its reader printed after ± (%s); expected no declaration for it", key, target, mean.Ref, mean.Spread.Raw, mean.Spread.Pos))
					continue
				}
				// a percentage next to a value in another unit is a share
				// of it, as benchstat's ±11% is
				rel := sv.Unit == "%" && mean.Unit != "%" && mean.Unit != "%p"
				if !rel && sv.Unit == "" {
					sv.Unit = mean.Unit // a spread is in its mean's unit
				}
				mean.Spread = &Spread{Value: sv.Value, Unit: sv.Unit, Relative: rel, Raw: sv.Raw, Pos: sv.Pos, Ref: sv.Ref}
				sv.SpreadOf = mean.Ref
			}
			if !matched {
				l.errs = append(l.errs, diag.Errorf(l.at(key), diag.EvidenceManifest, "spreads: %q matches no value of %q; expected a local name or \"*.suffix\" of its values", key, e.name))
			}
		}
	}
}
