package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/internal/txtartest"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// commands returns every command of the tree under c, c first, in the
// order --help lists them.
func commands(c *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			out = append(out, commands(sub)...)
		}
	}
	return out
}

// valueName is how --help names a flag's value: a back-quoted word of its
// usage, else its type.
var valueName = regexp.MustCompile(`^[A-Z][A-Z_]*$`)

// TestHelpFlagValueNames: every flag that takes a value names it in
// capitals (--root DIR, --format FORMAT), never a Go type or a phrase
// taken from its usage.
func TestHelpFlagValueNames(t *testing.T) {
	for _, c := range commands(newRootCmd(nil, nil)) {
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() == "bool" {
				return
			}
			if name, _ := pflag.UnquoteUsage(f); !valueName.MatchString(name) {
				t.Errorf("%s --%s: --help shows its value as %q; name it in its usage with a back-quoted word in capitals", c.CommandPath(), f.Name, name)
			}
		})
	}
}

// TestHelpListsOnlyFlagsUsed: a command lists the flags it reads, and
// none of the ones it ignores (--root, --approx, --max-file-size are no
// global flags).
func TestHelpListsOnlyFlagsUsed(t *testing.T) {
	judge := []string{"approx", "max-file-size", "root"}
	want := map[string][]string{
		"evdoc":              {},
		"evdoc version":      {},
		"evdoc rules":        {"format"},
		"evdoc init":         {"root", "verbose"},
		"evdoc doctor":       {"build", "hugo", "keep", "lock-wait", "root"},
		"evdoc i18n":         {"root"},
		"evdoc i18n status":  {"format", "root"},
		"evdoc i18n mark":    {"lock-wait", "root"},
		"evdoc values":       {"as", "format", "max-file-size", "root"},
		"evdoc new":          {},
		"evdoc new evidence": {"as", "date", "environment", "from", "lock-wait", "max-file-size", "origin", "report", "root", "source", "title"},
		"evdoc check":        append([]string{"format", "strict", "verbose"}, judge...),
		"evdoc build":        append([]string{"hugo", "hugo-timeout", "keep-stage", "lock-wait", "out", "strict", "verbose"}, judge...),
		"evdoc serve":        append([]string{"base-url", "bind", "debounce", "hugo", "port", "strict", "verbose"}, judge...),
		"evdoc fix":          append([]string{"allow-scale", "dry-run", "lock-wait"}, judge...),
		"evdoc figures":      append([]string{"check"}, judge...),
		"evdoc impact":       append([]string{"base", "format"}, judge...),
		"evdoc lsp":          judge,
	}
	for _, c := range commands(newRootCmd(nil, nil)) {
		var got []string
		c.InheritedFlags().VisitAll(func(f *pflag.Flag) { got = append(got, f.Name) })
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Name != "help" {
				got = append(got, f.Name)
			}
		})
		slices.Sort(got)
		w, ok := want[c.CommandPath()]
		if !ok {
			t.Errorf("%s: not in this test's table; add it with the flags it reads: %v", c.CommandPath(), got)
			continue
		}
		w = slices.Clone(w)
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s lists flags %v, want %v", c.CommandPath(), got, w)
		}
	}
}

// TestRulesHelpIsShort: `evdoc rules --help` says what the command does;
// the catalogue is the command's output, not its help.
func TestRulesHelpIsShort(t *testing.T) {
	code, stdout, _ := evdoc("rules", "--help")
	if code != 0 || strings.Contains(stdout, "claim-mismatch") || strings.Count(stdout, "\n") > 25 {
		t.Errorf("rules --help: exit %d, %d lines:\n%s", code, strings.Count(stdout, "\n"), stdout)
	}
}

// TestCheckQuietUnlessVerbose: a check that passes prints one summary
// line; -v adds each page's coverage before it.
func TestCheckQuietUnlessVerbose(t *testing.T) {
	dir := extract(t, "../../generator/checker/testdata/check/clean.txtar")
	summary := regexp.MustCompile(`^evdoc: \d+/\d+ claims match their evidence in \d+ pages; 0 error\(s\), 0 warning\(s\)\n$`)
	code, stdout, stderr := evdoc("check", "--root", dir)
	if code != 0 || stdout != "" || !summary.MatchString(stderr) {
		t.Errorf("check: exit %d, stdout %q, stderr %q; want exit 0, nothing and the summary line", code, stdout, stderr)
	}
	code, _, stderr = evdoc("check", "-v", "--root", dir)
	lines := strings.SplitAfter(stderr, "\n")
	if code != 0 || len(lines) < 3 || !summary.MatchString(lines[len(lines)-2]) {
		t.Fatalf("check -v: exit %d, stderr %q", code, stderr)
	}
	for _, l := range lines[:len(lines)-2] {
		if !strings.Contains(l, ": coverage ") {
			t.Errorf("check -v: %q is no coverage line", l)
		}
	}
}

// commandsDoc is the command reference generated from the commands'
// --help.
const commandsDoc = "../../docs/guide/commands.md"

// TestCommandsDoc holds docs/guide/commands.md equal to every command's
// --help (-update rewrites it).
func TestCommandsDoc(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# Commands\n\n" +
		"<!-- Generated from the commands' --help by `go test ./cmd/evdoc -run TestCommandsDoc -update`; do not edit. -->\n\n" +
		"Every command's `--help`, as `evdoc COMMAND --help` prints it. Every command exits with one of\n" +
		"these statuses (see [troubleshooting](troubleshooting.md)):\n\n| status | meaning |\n|---|---|\n")
	for _, e := range exitStatuses() {
		fmt.Fprintf(&b, "| %s | %s |\n", e.code, e.meaning)
	}
	for _, c := range commands(newRootCmd(nil, nil)) {
		var h bytes.Buffer
		c.SetOut(&h)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n## " + c.CommandPath() + "\n\n```text\n" + strings.TrimRight(h.String(), "\n") + "\n```\n")
	}
	if txtartest.Updating() {
		if err := os.WriteFile(commandsDoc, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(commandsDoc)
	if err != nil || !bytes.Equal(got, b.Bytes()) {
		t.Errorf("%s is not the commands' --help (%v); run go test ./cmd/evdoc -run TestCommandsDoc -update", commandsDoc, err)
	}
}
