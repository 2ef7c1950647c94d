package checker

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/check"
	"github.com/evdoc-lab/evdoc/generator/project"
)

// BenchmarkLoadAndCheck measures what `evdoc check` does on the reference
// site: read hugo.toml, evidence and pages, then judge every claim and
// prose number. Run: go test ./generator/site -bench LoadAndCheck -benchmem
func BenchmarkLoadAndCheck(b *testing.B) {
	for b.Loop() {
		s, err := project.Load(repoRoot)
		if err != nil {
			b.Fatal(err)
		}
		if _, ds := Check(s, check.DefaultOptions()); ds.HasErrors() {
			b.Fatal(ds)
		}
	}
}
