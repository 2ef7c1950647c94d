package viewer

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// timeoutProbe is a chroma.LexerMutator that records, when chroma has
// compiled a lexer's rules, the match timeouts of every rule.
type timeoutProbe struct{ seen *[]time.Duration }

func (timeoutProbe) Mutate(*chroma.LexerState) error { return nil }

func (p timeoutProbe) MutateLexer(rules chroma.CompiledRules, state string, i int) error {
	rules[state] = append(rules[state][:i:i], rules[state][i+1:]...)
	for _, rs := range rules {
		for _, r := range rs {
			if r.Regexp != nil {
				*p.seen = append(*p.seen, r.Regexp.MatchTimeout)
			}
		}
	}
	return nil
}

// TestUntimedLexers: the viewer's lexers have no match timeout on any
// rule (chroma's own have 250 ms, which made highlighting depend on the
// machine's load), and they highlight every evidence file of the
// reference site exactly as chroma's lexers do.
func TestUntimedLexers(t *testing.T) {
	for _, name := range []string{"markdown", "toml", "json", "yaml", "console", "bash", "plaintext"} {
		t.Run(name, func(t *testing.T) {
			rl := regexLexer(lexers.Get(name))
			if rl == nil {
				t.Fatalf("chroma's %s lexer is not a regex lexer", name)
			}
			if regexLexer(untimedLexer(name)) == nil || untimedLexer(name) == lexers.Get(name) {
				t.Fatalf("no untimed copy of %s", name)
			}
			for _, untimed := range []bool{false, true} {
				var seen []time.Duration
				l := chroma.MustNewLexer(rl.Config(), func() chroma.Rules {
					rules := rl.MustRules()
					if untimed {
						rules = withoutTimeouts(rules)
					}
					rules["root"] = append(rules["root"], chroma.Rule{Pattern: "", Mutator: timeoutProbe{&seen}})
					return rules
				})
				l.SetRegistry(untimedRegistry())
				if _, err := l.Tokenise(nil, "x\n"); err != nil {
					t.Fatal(err)
				}
				if len(seen) == 0 {
					t.Fatal("the probe saw no rule")
				}
				for _, d := range seen {
					if untimed && d != time.Duration(math.MaxInt64) || !untimed && d == time.Duration(math.MaxInt64) {
						t.Fatalf("untimed %v: a rule's match timeout is %v", untimed, d)
					}
				}
			}
		})
	}
	files, _ := filepath.Glob("../../evidence/*/*")
	if len(files) == 0 {
		t.Fatal("no evidence files")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := lexerName(f, true)
		tokens := func(l chroma.Lexer) []chroma.Token {
			it, err := chroma.Coalesce(l).Tokenise(nil, string(b))
			if err != nil {
				t.Fatal(err)
			}
			return it.Tokens()
		}
		if !reflect.DeepEqual(tokens(untimedLexer(name)), tokens(lexers.Get(name))) {
			t.Errorf("%s: the %s lexer's copy highlights it otherwise than chroma's", f, name)
		}
	}
}
