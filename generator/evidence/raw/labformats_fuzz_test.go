package raw

import (
	"testing"
)

// fuzzLabFormat runs read on arbitrary input and checks the invariants of
// every reader: no panic, every position inside the file and consistent
// with its offset, Raw at Pos (count_where aggregates excepted), and a
// non-empty Raw spanned by Number.Start/End.
func fuzzLabFormat(f *testing.F, seeds []string, read Reader, opts ...ReadOptions) {
	addSeeds(f)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if len(opts) == 0 {
		opts = []ReadOptions{{}}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, opt := range opts {
			rs, errs := read("f", src, opt)
			lfValid(t, src, rs, errs, opt.CountWhere)
		}
	})
}

func FuzzFortioJSON(f *testing.F) {
	fuzzLabFormat(f, []string{
		`{"RetCodes": {"200": 4, "-1": "2"}, "RequestedQPS": "30", "DurationHistogram": {"Count": "53", "Percentiles": [{"Percentile": 99.9, "Value": 1e-3}]}}`,
		`{"RetCodes": []}`, `[1]`, `{"RetCodes": {"200": 1e999}}`, `{"a": "\u00e9\"x"}`,
	}, ReadFortioJSON)
}

func FuzzFortioText(f *testing.F) {
	fuzzLabFormat(f, []string{
		"Code 200 : 18 (90.0 %)\nCode -1 : 2 (10.0 %)\nSockets used: 3 (for perfect keepalive, would be 2)\n",
		"All done 20 calls (plus 0 warmup) 7.917 ms avg, 2517.8 qps\n# target 99.9% 0.0144\n",
		"Aggregated Sleep Time : count 2 avg 1e-05 +/- 0 min -0.5 max 0.001 sum 2\nEnded after 1s : 3 calls. qps=1.0301e+05\ntcp OK : 100 (100.0 %)\n",
	}, ReadFortioText)
}

func FuzzCurlWriteout(f *testing.F) {
	fuzzLabFormat(f, []string{
		"time_namelookup:  0.001\ntime_total: 1,232s\n", "TIME=40,045811 CODE=200 url=http://x:80/?a=1\n",
		"1,232\n0.534 + 0.545 = 0.545\nhttp://x/a,0.1,4682\n", `{"time_total":0.5,"x":{"y":1}}` + "\n", "$ curl \\\n  -w x=1\n",
	}, ReadCurlWriteout)
}

func FuzzCSV(f *testing.F) {
	fuzzLabFormat(f, []string{
		"pod,code,latency\na,200,12.5\nb,503,\"1,234\"\n", "a,b\n1\n\"x\"\"y\",2\n", "a\n\"1\n2\",3\n", "a,b\n1,x\"y\n",
	}, ReadCSV, ReadOptions{}, ReadOptions{Key: "pod", CountWhere: map[string]string{"all": "true", "big": "code > 300"}},
		ReadOptions{CountWhere: map[string]string{"n": "len($env) > 0"}})
}

func FuzzJSON(f *testing.F) {
	fuzzLabFormat(f, []string{
		`{"a": {"b": [{"c": 1.5}, {"c": "2"}]}, "e": -1e5}`, `[1, "2", [3]]`, `42`, `{"a": 1, "a": 2}`, `{"a"`,
	}, ReadJSON, ReadOptions{}, ReadOptions{Paths: []string{"a", "a.b[0].c", "[0]", "$"}})
}

func FuzzIstioctlTable(f *testing.F) {
	fuzzLabFormat(f, []string{
		"SERVICE FQDN   PORT   TYPE\nx.y            80     EDS\n",
		"NAME                   ADDRESSES PORT  MATCH DESTINATION\nlistener/              0.0.0.0   15021 ALL   Inline\n",
		"A      B\nbbbbbbbbbb 5\n\nC  D\ny  2\n", "NAME  PORT\nä  1\n",
	}, ReadIstioctlTable)
}

func FuzzDig(f *testing.F) {
	fuzzLabFormat(f, []string{
		";; flags: qr; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 0\n;; ANSWER SECTION:\nx.\t5\tIN\tA\t1.2.3.4\n\n;; Query time: 4 msec\n;; MSG SIZE  rcvd: 108\n",
		"x. 300 IN A 1.2.3.4\n. 5 IN NS a.\n", ";; AUTHORITY SECTION:\nx. 5 SOA a. b. 1 2 3 4 5\n",
	}, ReadDig)
}
