// Package config reads evdoc.toml, the optional file at a project's root
// that holds evdoc's own settings (Hugo's settings stay in hugo.toml).
// Today it holds one table, the severity of each rule:
//
//	[rules]
//	link-missing-page = "error"    # error, warning, note (or info) or off
//	claim-unchecked   = "off"
//
// A key must be a rule id of the catalogue (`evdoc rules` lists them);
// a core rule (CoreRules: the rules that judge a published number) may
// only be set to "error", since the file is part of the repository evdoc
// checks and a pull request must not be able to switch off the check of
// its own numbers; an unknown id, an unknown severity, a value that is not a string or a
// key outside [rules] is an error at its file:line:col. The file is read
// with the TOML 1.0 parser of github.com/pelletier/go-toml/v2, whose
// syntax tree keeps the byte range of every key and value.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/evdoc-lab/evdoc/generator/diag"
	"github.com/evdoc-lab/evdoc/internal/safefile"
	"github.com/evdoc-lab/evdoc/internal/tomlpos"
)

// File is the name of evdoc's configuration file at a project's root.
const File = "evdoc.toml"

// Config is a project's evdoc settings.
type Config struct {
	// Rules overrides the catalogue's default severities.
	Rules diag.RuleConfig
}

// Load reads root/evdoc.toml. A project without the file has the zero
// Config (every rule at its default). A file that cannot be read is an
// error; a malformed one is a diag.List of site-config diagnostics.
func Load(root string) (*Config, error) {
	src, err := safefile.ReadPath(filepath.Join(root, File), safefile.SpecMaxSize)
	if errors.Is(err, os.ErrNotExist) {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %v", File, err)
	}
	c, ds := Parse(File, src)
	if len(ds) > 0 {
		return nil, ds
	}
	return c, nil
}

// CoreRules returns the rules the checked repository cannot switch off or
// lower (evdoc.toml may set them only to "error"): those that decide
// whether a number a page publishes is proven by its evidence. With one of
// them lowered, a contradicted or unjudged number would pass check
// --strict and be published: a claim that does not parse (claim-syntax,
// claim-literal), a unit written outside it (claim-unit-outside), a count
// of numbers that differs from its references (claim-arity), a reference
// to no value (claim-unknown-ref), a number that disagrees with its value
// (claim-mismatch). The evidence rules need not be core: a reading they
// report is dropped (or keeps the unit its raw text gives), so a claim on
// it is still claim-unknown-ref or claim-mismatch; so is a translation's
// claim, which translation-claims only compares with its source's.
func CoreRules() []diag.RuleID {
	return []diag.RuleID{diag.ClaimSyntax, diag.ClaimLiteral, diag.ClaimUnitOutside, diag.ClaimArity,
		diag.ClaimUnknownRef, diag.ClaimMismatch}
}

// IsCore reports whether id is one of CoreRules.
func IsCore(id diag.RuleID) bool {
	return slices.Contains(CoreRules(), id)
}

// severityNames lists the settings a rule may be given.
const severityNames = "error, warning, note (or info) or off"

// severityOf maps a setting to its severity.
func severityOf(name string) (diag.Severity, bool) {
	switch name {
	case "error":
		return diag.Error, true
	case "warning":
		return diag.Warning, true
	case "note", "info":
		return diag.Note, true
	case "off":
		return diag.Off, true
	}
	return "", false
}

// Parse reads the content src of a configuration file named file in
// positions. It returns every problem found, each at the key or value it
// concerns.
func Parse(file string, src []byte) (*Config, diag.List) {
	ix := diag.NewLineIndex(file, src)
	c := &Config{Rules: diag.RuleConfig{}}
	var ds diag.List
	var p unstable.Parser
	p.Reset(src)
	at := func(r unstable.Range) diag.Position { return ix.Pos(int(r.Offset)) }
	errorf := func(r unstable.Range, format string, args ...any) {
		_, end := ix.Span(int(r.Offset), int(r.Offset+r.Length))
		ds = append(ds, diag.Errorf(at(r), diag.SiteConfig, format, args...).Spanning(end))
	}
	seen := map[diag.RuleID]diag.Position{}
	// rule records one key = value of the rules table.
	rule := func(key *unstable.Node, val *unstable.Node) {
		id, ok := diag.ParseRuleID(string(key.Data))
		if !ok {
			errorf(key.Raw, "unknown rule %q in [rules]; expected a rule id that `evdoc rules` lists", key.Data)
			return
		}
		if val.Kind != unstable.String {
			errorf(key.Raw, "rule %s: expected a string, one of %s", id, severityNames)
			return
		}
		sev, ok := severityOf(string(val.Data))
		if !ok {
			errorf(val.Raw, "rule %s: severity %q; expected one of %s", id, val.Data, severityNames)
			return
		}
		if IsCore(id) && sev != diag.Error {
			errorf(val.Raw, "rule %s is a core rule: it judges the numbers a page publishes, and the repository being checked cannot set it to %q; expected no setting, or \"error\"", id, val.Data)
			return
		}
		if prev, dup := seen[id]; dup {
			errorf(key.Raw, "rule %s is already set at %s; expected each rule once", id, prev)
			return
		}
		seen[id] = at(key.Raw)
		c.Rules[id] = sev
	}
	keys := tomlpos.Keys
	inRules, rulesTable := false, false
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			k := keys(e)
			inRules = len(k) == 1 && string(k[0].Data) == "rules"
			switch {
			case !inRules:
				errorf(k[0].Raw, "unknown table [%s]; expected [rules]", tomlpos.JoinKey(k))
			case rulesTable:
				errorf(k[0].Raw, "[rules] is defined twice; expected one [rules] table")
			}
			rulesTable = rulesTable || inRules
		case unstable.ArrayTable:
			k := keys(e)
			inRules = false
			errorf(k[0].Raw, "unknown table [[%s]]; expected [rules]", tomlpos.JoinKey(k))
		case unstable.KeyValue:
			k, val := keys(e), e.Value()
			switch {
			case inRules && len(k) == 1:
				rule(k[0], val)
			case inRules:
				errorf(k[0].Raw, "dotted key %s in [rules]; expected a rule id", tomlpos.JoinKey(k))
			case len(k) == 2 && string(k[0].Data) == "rules":
				rule(k[1], val)
			case len(k) == 1 && string(k[0].Data) == "rules" && val.Kind == unstable.InlineTable:
				for it := val.Children(); it.Next(); {
					kv := it.Node()
					kk := keys(kv)
					if len(kk) != 1 {
						errorf(kk[0].Raw, "dotted key %s in rules; expected a rule id", tomlpos.JoinKey(kk))
						continue
					}
					rule(kk[0], kv.Value())
				}
			default:
				errorf(k[0].Raw, "unknown key %s; expected a [rules] table", tomlpos.JoinKey(k))
			}
		}
	}
	if d, ok := tomlpos.ParseError(&p, ix, len(src), diag.SiteConfig); ok {
		ds = append(ds, d)
	}
	return c, ds
}
