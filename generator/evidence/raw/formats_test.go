package raw_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"

	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

// formatCase is one reader input: the readings it must give (key -> value and
// raw text), keys it must not give, and diagnostics it must report (each
// a substring of one diagnostic's String(), such as "f:2:3: error:").
type formatCase struct {
	name   string
	src    string
	opt    raw.ReadOptions
	want   map[string][2]string
	absent []string
	diags  []string
	count  int // exact number of readings when > 0
}

// checkReadings asserts the invariants of every reader: positions inside src,
// Raw at Pos (aggregates named in aggregates excepted), Start/End over Raw.
func checkReadings(t testing.TB, src []byte, rs []raw.Reading, errs diag.List, aggregates map[string]string) {
	t.Helper()
	ix := diag.NewLineIndex("f", src)
	for _, e := range errs {
		inside(t, src, e.Pos, ix)
	}
	for _, r := range rs {
		inside(t, src, r.Pos, ix)
		for _, p := range r.Inputs {
			inside(t, src, p, ix)
		}
		if pred, ok := aggregates[r.Key]; ok {
			if r.Raw != pred {
				t.Fatalf("count %s: raw %q, want the predicate %q", r.Key, r.Raw, pred)
			}
			continue
		}
		if r.Pos.Offset+len(r.Raw) > len(src) || string(src[r.Pos.Offset:r.Pos.Offset+len(r.Raw)]) != r.Raw {
			t.Fatalf("reading %s: raw %q is not at %v", r.Key, r.Raw, r.Pos)
		}
		if r.Number.Implied && r.Raw != "" && r.Number.Start == 0 && r.Number.End == 0 {
			continue // a value the format implies at the token Raw
		}
		if r.Raw == "" || r.Number.Start != 0 || r.Number.End != len(r.Raw) {
			t.Fatalf("reading %s: raw %q, number range [%d,%d)", r.Key, r.Raw, r.Number.Start, r.Number.End)
		}
	}
}

func runFormatCases(t *testing.T, format string, cases []formatCase) {
	t.Helper()
	read, err := formats.ReaderFor(format)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rs, errs := read("f", []byte(c.src), c.opt)
			checkReadings(t, []byte(c.src), rs, errs, c.opt.CountWhere)
			got := map[string]raw.Reading{}
			for _, r := range rs {
				if _, dup := got[r.Key]; dup {
					t.Errorf("duplicate key %q", r.Key)
				}
				got[r.Key] = r
			}
			for k, w := range c.want {
				r, ok := got[k]
				if !ok {
					t.Errorf("no reading %q; got %v", k, readingKeys(rs))
					continue
				}
				if r.Number.Value.String() != w[0] || r.Raw != w[1] {
					t.Errorf("%s = %s raw %q, want %s raw %q", k, r.Number.Value, r.Raw, w[0], w[1])
				}
			}
			for _, k := range c.absent {
				if _, ok := got[k]; ok {
					t.Errorf("unexpected reading %q", k)
				}
			}
			if c.count > 0 && len(rs) != c.count {
				t.Errorf("got %d readings %v, want %d", len(rs), readingKeys(rs), c.count)
			}
			for _, e := range errs {
				matched := false
				for _, d := range c.diags {
					if strings.Contains(e.String(), d) {
						matched = true
					}
				}
				if !matched {
					t.Errorf("unexpected diagnostic %v", e)
				}
			}
			for _, d := range c.diags {
				found := false
				for _, e := range errs {
					if strings.Contains(e.String(), d) {
						found = true
					}
				}
				if !found {
					t.Errorf("no diagnostic containing %q in %v", d, errs)
				}
			}
		})
	}
}

func readingKeys(rs []raw.Reading) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Key)
	}
	return out
}

func TestLabFormatsRegistered(t *testing.T) {
	for _, f := range []string{"fortio-json", "fortio-text", "curl-writeout", "csv", "json", "istioctl-table", "dig"} {
		if _, err := formats.ReaderFor(f); err != nil {
			t.Errorf("formats.ReaderFor(%q): %v", f, err)
		}
	}
}

// corpusDir is the shared corpus of real third-party samples.
var corpusDir = sharedCorpus()

// sharedCorpus is ../shared/corpus beside the repository, or $EVDOC_CORPUS
// (for a worktree that has no ../shared beside it).
func sharedCorpus() string {
	if d := os.Getenv("EVDOC_CORPUS"); d != "" {
		return d
	}
	return "../../../../shared/corpus"
}

// corpusFormat names the format of corpus files Sniff cannot place.
var corpusFormat = map[string]string{
	// Only two bare values and comments: nothing says curl but the source.
	"curl_issue_3489_locale_comma.txt": "curl-writeout",
}

func TestLabFormatsCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("shared corpus not present")
	}
	type result struct {
		rs   []raw.Reading
		errs diag.List
	}
	results := map[string]result{}
	for _, dir := range []string{"fortio", "curl-writeout", "dig", "istioctl"} {
		files, _ := filepath.Glob(filepath.Join(corpusDir, dir, "*"))
		if len(files) == 0 {
			t.Errorf("no corpus files in %s", dir)
		}
		sort.Strings(files)
		for _, p := range files {
			base := filepath.Base(p)
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			format := corpusFormat[base]
			if format == "" {
				format = raw.Sniff(base, src)
			}
			read, err := formats.ReaderFor(format)
			if err != nil {
				t.Errorf("%s: %v", base, err)
				continue
			}
			rs, errs := read(base, src, raw.ReadOptions{})
			checkReadings(t, src, rs, errs, nil)
			switch {
			case errs.HasErrors():
				for _, e := range errs {
					if !e.Pos.IsValid() || e.Pos.File != base {
						t.Errorf("%s: unpositioned error %v", base, e)
					}
				}
				t.Logf("%s (%s): rejected: %v", base, format, errs)
			case len(rs) == 0:
				t.Errorf("%s (%s): no readings and no error", base, format)
			}
			results[base] = result{rs, errs}
		}
	}
	value := func(file, key string) (raw.Reading, bool) {
		for _, r := range results[file].rs {
			if r.Key == key {
				return r, true
			}
		}
		return raw.Reading{}, false
	}
	for _, c := range []struct{ file, key, val, raw, pos string }{
		{"istio_io_circuit_breaking_2020_fortio_c2_n20.txt", "code.200", "17", "17", "27:12"},
		{"istio_io_circuit_breaking_2020_fortio_c2_n20.txt", "code.503", "3", "3", "28:12"},
		{"istio_io_circuit_breaking_2020_fortio_c2_n20.txt", "code.503.pct", "15", "15.0 %", "28:15"},
		{"istio_io_circuit_breaking_2018_fortio_c3_n30.txt", "code.200", "19", "19", ""},
		{"istio_io_circuit_breaking_2018_fortio_c3_n30.txt", "code.503", "11", "11", ""},
		{"istio_io_circuit_breaking_2018_fortio_c3_n30.txt", "avg_ms", "5.336", "5.336 ms", ""},
		{"fortio_readme_5kqps_2017_text.txt", "code.200", "300000", "300000", ""},
		{"fortio_readme_tcp_text.txt", "tcp.ok", "100000", "100000", ""},
		{"fortio_readme_http_result.json", "RetCodes.200", "4", "4", "55:12"},
		{"fortio_readme_http_result.json", "RequestedQPS", "40", "40", "5:20"},
		{"fortio_readme_http_result.json", "DurationHistogram.p99_9", "0.0009295303506666667", "0.0009295303506666667", ""},
		{"fortio_readme_grpc_result.json", "RetCodes.1", "40", "40", ""},
		{"nighthawk_output_formatter.medium.fortio.gold.json", "DurationHistogram.Count", "53", "53", "8:13"},
		{"nighthawk_output_formatter.medium.fortio.gold.json", "RetCodes.200", "56", "56", ""},
		{"curl_issue_3489_locale_comma.txt", "value", "1.232", "1,232", "4:1"},
		{"susam_timing_with_curl_blog.txt", "time_total", "0.982326", "0.982326", "9:13"},
		{"coredns_nomad_readme_block1_lines150-173.txt", "query_time_ms", "4", "4", ""},
		{"coredns_nomad_readme_block1_lines150-173.txt", "msg_size", "165", "165", ""},
		{"coredns_rewrite_readme_block5_lines524-533.txt", "answer.my-app.com.cdn.example.net.A.ttl#2", "300", "300", ""},
		{"istio_io_debug-vm_proxy-config_clusters_file.txt", "istiod.istio-system.svc.cluster.local.PORT#2", "15010", "15010", ""},
		{"istio_writer__envoy__configdump__testdata__endpoint__emptyfilter_output.txt", "t1.rows", "36", "NAME", "1:1"},
	} {
		if _, ok := results[c.file]; !ok {
			t.Errorf("%s: not read", c.file)
			continue
		}
		r, ok := value(c.file, c.key)
		if !ok {
			t.Errorf("%s: no reading %q", c.file, c.key)
			continue
		}
		if r.Number.Value.String() != c.val || r.Raw != c.raw {
			t.Errorf("%s: %s = %s raw %q, want %s raw %q", c.file, c.key, r.Number.Value, r.Raw, c.val, c.raw)
		}
		if c.pos != "" && !strings.HasSuffix(r.Pos.String(), ":"+c.pos) {
			t.Errorf("%s: %s at %v, want line:col %s", c.file, c.key, r.Pos, c.pos)
		}
	}
	// The locale comma is read with a warning at its position.
	errs := results["curl_issue_3489_locale_comma.txt"].errs
	if len(errs) != 1 || errs[0].Severity != diag.Warning || errs[0].Rule != "evidence-curl-locale" || errs[0].Pos.String() != "curl_issue_3489_locale_comma.txt:4:1" {
		t.Errorf("locale comma diagnostics = %v, want one evidence-curl-locale warning at 4:1", errs)
	}
	// Invalid JSON as Envoy's docs publish it is rejected at the first
	// syntax error.
	if src, err := os.ReadFile(filepath.Join(corpusDir, "envoy-stats-json", "envoy_docs_admin_stats_format_json_detailed_AS_PUBLISHED_INVALID.json")); err == nil {
		rs, errs := allOf(raw.ReadJSON("bad.json", src, raw.ReadOptions{}))
		if len(rs) != 0 || len(errs) != 1 || errs[0].Pos.String() != "bad.json:12:34" || errs[0].Rule != "evidence-json" {
			t.Errorf("invalid Envoy JSON: %d readings, diagnostics %v; want one error at 12:34", len(rs), errs)
		}
	}
	// The istioctl JSON sibling is read as generic JSON.
	src, err := os.ReadFile(filepath.Join(corpusDir, "istioctl", "istio_writer__envoy__configdump__testdata__endpoint__portfilter_output.json"))
	if err == nil {
		rs, errs := allOf(raw.ReadJSON("p.json", src, raw.ReadOptions{Paths: []string{"[0].endpoints[0].lbEndpoints[0].endpoint.address.socketAddress.portValue"}}))
		if len(errs) != 0 || len(rs) != 1 || rs[0].Number.Value.String() != "8080" {
			t.Errorf("portfilter_output.json portValue: %v %v", rs, errs)
		}
	}
}
