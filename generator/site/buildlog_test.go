package site

import (
	"regexp"
	"strings"
	"testing"
)

// TestBuildLogQuietUnlessVerbose: a build that succeeds logs Hugo's
// warnings and one summary line; with Verbose it also logs each step and
// Hugo's whole report; a Hugo that fails has its whole output in the
// error, verbose or not.
func TestBuildLogQuietUnlessVerbose(t *testing.T) {
	s, _ := smallProject(t)
	hugo := fakeHugo(`printf 'Start building sites …\n'; printf 'WARN  a theme warning\n' >&2; ` +
		`printf '  | KO | JA\nPages | 3 | 3\nERROR a logged error\nTotal in 12 ms\n'; mkdir -p "$4" && echo x > "$4/index.html"`)
	summary := regexp.MustCompile(`(?m)^evdoc: built public: \d+ pages, \d+ claims checked; 0 error\(s\), 0 warning\(s\) \([0-9.]+ s\)$`)
	for _, verbose := range []bool{false, true} {
		var log strings.Builder
		if err := build(s, BuildOptions{Hugo: hugo, Log: &log, Verbose: verbose}); err != nil {
			t.Fatal(err)
		}
		got := log.String()
		if !summary.MatchString(got) {
			t.Errorf("verbose=%v: no summary line in:\n%s", verbose, got)
		}
		for _, l := range []string{"WARN  a theme warning\n", "ERROR a logged error\n"} {
			if !strings.Contains(got, l) {
				t.Errorf("verbose=%v: Hugo's %q is not logged:\n%s", verbose, l, got)
			}
		}
		for _, l := range []string{"Pages | 3 | 3", "evdoc: staged (", "evdoc: running sh", "claims checked, ", "s CPU; Hugo ", "evdoc used "} {
			if strings.Contains(got, l) != verbose {
				t.Errorf("verbose=%v: logged %q = %v:\n%s", verbose, l, !verbose, got)
			}
		}
		if !verbose && strings.Count(got, "\n") != 3 {
			t.Errorf("quiet build logged %d lines, want Hugo's two problems and the summary:\n%s", strings.Count(got, "\n"), got)
		}
	}
	var log strings.Builder
	err := build(s, BuildOptions{Hugo: fakeHugo(`printf 'Pages | 3\nError: template broken\n'; exit 1`), Log: &log})
	if err == nil || !strings.Contains(err.Error(), "Error: template broken") || !strings.Contains(err.Error(), "Pages | 3") {
		t.Errorf("a failed Hugo's output is not in the error: %v (log %q)", err, log.String())
	}
}

// TestHugoErrorNamesThePage: Hugo names the staged copy of a page
// (".evdoc/stage-N/content/…"); the log and the error name the
// project's page instead, with Hugo's own cause.
func TestHugoErrorNamesThePage(t *testing.T) {
	s, _ := smallProject(t)
	hugo := fakeHugo(`echo "ERROR error building site: \"$2/content/ko/docs/p.md:7:1\": unclosed shortcode action" >&2; exit 1`)
	var log strings.Builder
	err := build(s, BuildOptions{Hugo: hugo, Log: &log})
	want := `"content/ko/docs/p.md:7:1": unclosed shortcode action`
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "stage-") {
		t.Errorf("error %v; want it to name %s", err, want)
	}
	if got := log.String(); !strings.Contains(got, want) || strings.Contains(got, "stage-") {
		t.Errorf("log %q; want it to name %s", got, want)
	}
}
