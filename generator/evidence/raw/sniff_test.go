package raw

import "testing"

func TestSniff(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"r.md", "| a |\n", "markdown-tables"},
		{"x.CSV", "a,b\n", "csv"},
		{"r.json", `{"RetCodes": {"200": 1}}`, "fortio-json"},
		{"c.json", `{"cluster_statuses": []}`, "envoy-clusters-json"},
		{"s.json", `{"stats": [{"name": "a.b", "value": 1}]}`, "envoy-stats-json"},
		{"s.txt", `[{"name": "a.b", "value": 1}]`, "envoy-stats-json"},
		{"bad.json", `{"stats": [1 2]}`, "envoy-stats-json"},
		{"o.json", `{"a": 1}`, "json"},
		{"o.out", `{"a": 1}`, "json"},
		{"result.txt", "[D-2] title\n$ curl -w 'TIME=%{time_total}'\nTIME=1\n", "transcript"},
		{"c.txt", "outbound|80||x::10.0.0.1:80::rq_total::5\n", "envoy-clusters"},
		{"d.txt", ";; ANSWER SECTION:\nx. 5 IN A 1.2.3.4\n", "dig"},
		{"f.txt", "Code 200 : 3 (100.0 %)\n", "fortio-text"},
		{"f2.txt", "All done 3 calls (plus 0 warmup) 1 ms avg, 3 qps\n", "fortio-text"},
		{"w.txt", "time_namelookup: 0.1\n", "curl-writeout"},
		{"i.txt", "NAME   PORT\nx      80\n", "istioctl-table"},
		{"e.txt", "cluster.a.upstream_rq_total: 5\ncluster.a.upstream_rq_200: 5\n", "envoy-stats"},
		{"t.txt", "hello\nx=1\n", "transcript"},
		{"empty", "", "transcript"},
	}
	for _, tt := range tests {
		if got := Sniff(tt.name, []byte(tt.src)); got != tt.want {
			t.Errorf("Sniff(%q, %q) = %q, want %q", tt.name, tt.src, got, tt.want)
		}
	}
}
