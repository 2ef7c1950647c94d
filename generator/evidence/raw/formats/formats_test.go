package formats_test

import (
	"github.com/evdoc-lab/evdoc/generator/evidence/raw"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/formats"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
	"github.com/evdoc-lab/evdoc/generator/evidence/raw/structured"

	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/evdoc-lab/evdoc/generator/diag"
)

func TestLabFormatsRegistered(t *testing.T) {
	for _, f := range []string{"fortio-json", "fortio-text", "curl-writeout", "csv", "json", "istioctl-table", "dig"} {
		if _, err := formats.ReaderFor(f); err != nil {
			t.Errorf("formats.ReaderFor(%q): %v", f, err)
		}
	}
}

func TestLabFormatsCorpus(t *testing.T) {
	if _, err := os.Stat(rawtest.CorpusDir); err != nil {
		t.Skip("shared corpus not present")
	}
	type result struct {
		rs   []raw.Reading
		errs diag.List
	}
	results := map[string]result{}
	for _, dir := range []string{"fortio", "curl-writeout", "dig", "istioctl"} {
		files, _ := filepath.Glob(filepath.Join(rawtest.CorpusDir, dir, "*"))
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
			format := rawtest.FormatOf(base, src)
			read, err := formats.ReaderFor(format)
			if err != nil {
				t.Errorf("%s: %v", base, err)
				continue
			}
			rs, errs := read(base, src, raw.ReadOptions{})
			rawtest.CheckReadings(t, src, rs, errs, nil)
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
	if src, err := os.ReadFile(filepath.Join(rawtest.CorpusDir, "envoy-stats-json", "envoy_docs_admin_stats_format_json_detailed_AS_PUBLISHED_INVALID.json")); err == nil {
		rs, errs := rawtest.AllOf(structured.ReadJSON("bad.json", src, raw.ReadOptions{}))
		if len(rs) != 0 || len(errs) != 1 || errs[0].Pos.String() != "bad.json:12:34" || errs[0].Rule != "evidence-json" {
			t.Errorf("invalid Envoy JSON: %d readings, diagnostics %v; want one error at 12:34", len(rs), errs)
		}
	}
	// The istioctl JSON sibling is read as generic JSON.
	src, err := os.ReadFile(filepath.Join(rawtest.CorpusDir, "istioctl", "istio_writer__envoy__configdump__testdata__endpoint__portfilter_output.json"))
	if err == nil {
		rs, errs := rawtest.AllOf(structured.ReadJSON("p.json", src, raw.ReadOptions{Paths: []string{"[0].endpoints[0].lbEndpoints[0].endpoint.address.socketAddress.portValue"}}))
		if len(errs) != 0 || len(rs) != 1 || rs[0].Number.Value.String() != "8080" {
			t.Errorf("portfilter_output.json portValue: %v %v", rs, errs)
		}
	}
}
