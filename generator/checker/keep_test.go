package checker

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"golang.org/x/tools/txtar"
)

// keepSite has two pages citing set s (a, with its Japanese translation,
// and b), one citing set u and one citing nothing.
const keepSite = `-- hugo.toml --
defaultContentLanguage = "ko"
[languages.ko]
  weight = 1
  contentDir = "content/ko"
[languages.ja]
  weight = 2
  contentDir = "content/ja"
-- evidence/s/evidence.toml --
id = "s"
title = "t"
date = "2026-11-03"
environment = "lab"
origin = "raw"
report = "lab run"

[[table]]
file = "t.md"
heading = "T"
name = "t"
units = { "*.rate" = "ratio", "*.ms" = "ms" }
-- evidence/s/t.md --
## T
| run | rate | ms |
|---|---|---|
| r | 0.9975 | 40.3 |
| q | 0.5 | 12 |
-- evidence/u/evidence.toml --
id = "u"
title = "u"
date = "2026-11-03"
environment = "lab"
origin = "raw"
report = "lab run"

[[table]]
file = "t.md"
heading = "T"
name = "t"
units = { "*.ms" = "ms" }
-- evidence/u/t.md --
## T
| run | ms |
|---|---|
| r | 7 |
-- content/ko/docs/a.md --
---
title: "a"
translationKey: "a"
---

통과율은 [0.9975](ev:s/t.r.rate)였고 지연은 [40.3 ms](ev:s/t.r.ms)였다.
-- content/ja/docs/a.md --
---
title: "a"
translationKey: "a"
---

成功率は[99.75%](ev:s/t.r.rate)で、遅延は[40.3 ms](ev:s/t.r.ms)だった。
-- content/ko/docs/b.md --
---
title: "b"
---

지연은 [12 ms](ev:s/t.q.ms)와 [40.3 ms](ev:s/t.r.ms)였다.
-- content/ko/docs/c.md --
---
title: "c"
---

지연은 [7 ms](ev:u/t.r.ms)였다.
-- content/ko/docs/d.md --
---
title: "d"
---

설명만 있다.
`

// TestCheckerKeepCiting: under KeepCiting an evidence edit after the
// first judges the pages citing a changed value from the claims kept of
// them, without parsing them again, while each page's source is the
// same bytes; a page changed on disk, a page re-read by Recheck and the
// pages of a translation pair compared again are parsed. At each step
// the findings and the stage data equal those of a Checker keeping
// nothing, taken through the same steps, and the findings equal a fresh
// check's.
func TestCheckerKeepCiting(t *testing.T) {
	dir := txtartest.Write(t, txtar.Parse([]byte(keepSite)))
	opt := check.DefaultOptions()
	newChecker := func(keep int64) *Checker {
		s, err := project.LoadWith(dir, project.LoadOptions{Lazy: true})
		if err != nil {
			t.Fatal(err)
		}
		return NewCheckerWith(s, CheckerOptions{Check: opt, CountsOnly: true, Stage: true, CitesIndex: true, KeepCiting: keep})
	}
	kept, plain, tight := newChecker(1<<30), newChecker(0), newChecker(1)
	edit := func(rel, old, new string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), old) {
			t.Fatalf("%s has no %q", rel, old)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		name string
		do   func()
		// pages: the pages the re-check re-reads (nil: an evidence
		// edit); fresh: compare with a fresh check (not while a page
		// changed on disk is not re-read)
		pages []string
		fresh bool
		// parsed: the pages the keeping checker parses
		parsed int
	}{
		{name: "r's latency changed: a and b, parsed the first time", do: func() { edit("evidence/s/t.md", "| 40.3 |", "| 41.3 |") }, fresh: true, parsed: 3},
		{name: "changed back: judged from the kept claims", do: func() { edit("evidence/s/t.md", "| 41.3 |", "| 40.3 |") }, fresh: true, parsed: 0},
		{name: "q's latency: b alone, kept", do: func() { edit("evidence/s/t.md", "| q | 0.5 | 12 |", "| q | 0.5 | 13 |") }, fresh: true, parsed: 0},
		{name: "u's value: c, never kept", do: func() { edit("evidence/u/t.md", "| r | 7 |", "| r | 8 |") }, fresh: true, parsed: 1},
		{name: "u's value back: c kept now", do: func() { edit("evidence/u/t.md", "| r | 8 |", "| r | 7 |") }, fresh: true, parsed: 0},
		{name: "b changed on disk, not re-read: parsed, and found changed", do: func() {
			edit("content/ko/docs/b.md", "[12 ms]", "[13 ms]")
			edit("evidence/s/t.md", "| q | 0.5 | 13 |", "| q | 0.5 | 12 |")
		}, parsed: 1},
		{name: "b re-read", pages: []string{"content/ko/docs/b.md"}, fresh: true, parsed: 1},
		{name: "q's latency with b re-read: b parsed, its old claims dropped", do: func() { edit("evidence/s/t.md", "| q | 0.5 | 12 |", "| q | 0.5 | 13 |") }, fresh: true, parsed: 1},
		{name: "r's rate in percent: the pair compared again, a parsed", do: func() { edit("evidence/s/evidence.toml", `"*.rate" = "ratio"`, `"*.rate" = "%"`) }, fresh: true, parsed: 2},
		{name: "r's rate back", do: func() { edit("evidence/s/evidence.toml", `"*.rate" = "%"`, `"*.rate" = "ratio"`) }, fresh: true, parsed: 2},
		{name: "r's latency again: a, ja/a and b kept", do: func() { edit("evidence/s/t.md", "| 40.3 |", "| 40.4 |") }, fresh: true, parsed: 0},
	} {
		if step.do != nil {
			step.do()
		}
		before := kept.parses
		beforeTight := tight.parses
		for _, c := range []*Checker{kept, plain, tight} {
			if step.pages != nil {
				if err := c.Recheck(step.pages...); err != nil {
					t.Fatalf("%s: %v", step.name, err)
				}
			} else {
				c.RecheckEvidence()
			}
		}
		if got := kept.parses - before; got != step.parsed {
			t.Errorf("%s: %d pages parsed, want %d", step.name, got, step.parsed)
		}
		if len(tight.kept) != 0 || tight.parses-beforeTight < step.parsed {
			t.Errorf("%s: a 1-byte KeepCiting kept %d pages, parsed %d", step.name, len(tight.kept), tight.parses-beforeTight)
		}
		want := strings.Join(diagStrings(plain.Diagnostics()), "\n")
		for _, c := range []*Checker{kept, tight} {
			if got := strings.Join(diagStrings(c.Diagnostics()), "\n"); got != want {
				t.Errorf("%s: findings differ from a checker keeping nothing:\nkeeping nothing:\n%s\nkeeping %d bytes:\n%s", step.name, want, c.keepBytes, got)
			}
			if !sameValue(reflect.ValueOf(c.StageData()), reflect.ValueOf(plain.StageData())) {
				t.Errorf("%s: the stage data differs from a checker keeping nothing (keeping %d bytes)", step.name, c.keepBytes)
			}
		}
		if step.fresh {
			fresh, err := project.Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			_, fds := Check(fresh, opt)
			if got := strings.Join(diagStrings(fds), "\n"); got != want {
				t.Errorf("%s: findings differ from a fresh check:\nfresh:\n%s\nre-checked:\n%s", step.name, got, want)
			}
		}
		if n := parsedPages(kept); n != 0 {
			t.Errorf("%s: %d pages hold their parse after the re-check", step.name, n)
		}
	}
}

// sameValue is reflect.DeepEqual with a nil slice or map equal to an
// empty one (stage data built claim by claim leaves either).
func sameValue(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			w := b.MapIndex(k)
			if !w.IsValid() || !sameValue(a.MapIndex(k), w) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !sameValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	panic("sameValue: " + a.Kind().String())
}
