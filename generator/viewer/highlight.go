package viewer

import (
	"math"
	"reflect"
	"sync"
	"time"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// Highlighting must not depend on the machine's load. chroma compiles
// every rule of a regex lexer with a 250 ms match timeout (regexp2's
// MatchTimeout), and a match that times out counts as no match: another
// rule matches or the character becomes an error token. On a loaded
// machine (or when regexp2's background clock goroutine is starved, which
// makes a short match look long), the same raw file then highlighted
// differently from one build to the next. The viewer's lexers are
// therefore copies of chroma's with the timeout removed (noMatchTimeout),
// in a registry of their own, so that a lexer another delegates to (the
// shell of a console transcript, a Markdown fence's language) is such a
// copy too.

// untimedRegistry holds a copy of every regex lexer of chroma's registry
// with no match timeout (a lexer that wraps one, as chroma's Markdown
// lexer does to read a YAML front matter first, is copied as its regex
// lexer); a copy reads its rules from chroma's lexer when first used.
// Other lexers (chroma's delegating lexers) are not in it.
var untimedRegistry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		rl := regexLexer(l)
		if rl == nil {
			continue
		}
		cfg := *l.Config()
		reg.Register(chroma.MustNewLexer(&cfg, func() chroma.Rules {
			rules, err := rl.Rules()
			if err != nil {
				panic(err) // chroma's own lexers compile
			}
			return withoutTimeouts(rules)
		}))
	}
	return reg
})

// regexLexer returns l as a regex lexer, or the regex lexer a wrapper
// type holds in an embedded Lexer field, or nil.
func regexLexer(l chroma.Lexer) *chroma.RegexLexer {
	if rl, ok := l.(*chroma.RegexLexer); ok {
		return rl
	}
	v := reflect.ValueOf(l)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	if f := v.Elem().FieldByName("Lexer"); f.IsValid() && f.CanInterface() {
		rl, _ := f.Interface().(*chroma.RegexLexer)
		return rl
	}
	return nil
}

// untimedLexer returns the copy of chroma's lexer of that name, chroma's
// own when it has no copy, plaintext's copy when chroma has none.
func untimedLexer(name string) chroma.Lexer {
	if l := untimedRegistry().Get(name); l != nil {
		return l
	}
	if l := lexers.Get(name); l != nil {
		return l
	}
	return untimedRegistry().Get("plaintext")
}

// withoutTimeouts returns a copy of rules whose root state starts with a
// rule carrying noMatchTimeout, which chroma runs once its rules are
// compiled.
func withoutTimeouts(rules chroma.Rules) chroma.Rules {
	out := make(chroma.Rules, len(rules))
	for state, rs := range rules {
		out[state] = append([]chroma.Rule(nil), rs...)
	}
	out["root"] = append([]chroma.Rule{{Pattern: "", Mutator: noMatchTimeout{}}}, out["root"]...)
	return out
}

// noMatchTimeout is a chroma.LexerMutator: when chroma has compiled a
// lexer's rules it sets every rule's match timeout to regexp2's "never"
// (math.MaxInt64, regexp2.DefaultMatchTimeout) and removes its own rule.
type noMatchTimeout struct{}

func (noMatchTimeout) Mutate(*chroma.LexerState) error { return nil }

func (noMatchTimeout) MutateLexer(rules chroma.CompiledRules, state string, i int) error {
	rules[state] = append(rules[state][:i:i], rules[state][i+1:]...)
	for _, rs := range rules {
		for _, r := range rs {
			if r.Regexp != nil {
				r.Regexp.MatchTimeout = time.Duration(math.MaxInt64)
			}
		}
	}
	return nil
}
