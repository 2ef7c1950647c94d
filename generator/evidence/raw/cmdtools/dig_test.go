package cmdtools_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzDig(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
		";; flags: qr; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 0\n;; ANSWER SECTION:\nx.\t5\tIN\tA\t1.2.3.4\n\n;; Query time: 4 msec\n;; MSG SIZE  rcvd: 108\n",
		"x. 300 IN A 1.2.3.4\n. 5 IN NS a.\n", ";; AUTHORITY SECTION:\nx. 5 SOA a. b. 1 2 3 4 5\n",
	}, "dig")
}

func TestReadDig(t *testing.T) {
	src := "$ dig example.com\n\n" +
		";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 1\n" +
		";; flags: qr rd ra; QUERY: 1, ANSWER: 2, AUTHORITY: 0, ADDITIONAL: 1\n\n" +
		";; QUESTION SECTION:\n;example.com.\t\t\tIN\tA\n\n" +
		";; ANSWER SECTION:\n" +
		"example.com.\t\t5\tIN\tA\t10.0.0.1\n" +
		"example.com.\t\t7\tIN\tA\t10.0.0.2\n" +
		".\t\t100\tIN\tNS\ta.root-servers.net.\n\n" +
		";; ADDITIONAL SECTION:\nns.example.com.  60  IN  AAAA  ::1\n\n" +
		";; Query time: 0 msec\n;; SERVER: 10.0.0.10#53(10.0.0.10) (UDP)\n;; MSG SIZE  rcvd: 108\n"
	rawtest.RunFormatCases(t, "dig", []rawtest.FormatCase{
		{Name: "full", Src: src, Count: 10, Want: map[string][2]string{
			"query_count": {"1", "1"}, "answer_count": {"2", "2"}, "additional_count": {"1", "1"},
			"answer.example.com.A.ttl": {"5", "5"}, "answer.example.com.A.ttl#2": {"7", "7"}, "answer.root.NS.ttl": {"100", "100"},
			"additional.ns.example.com.AAAA.ttl": {"60", "60"}, "query_time_ms": {"0", "0"}, "msg_size": {"108", "108"}}},
		{Name: "noall answer", Src: "example.com. 300 IN A 1.2.3.4\nnot a record 5 here\n", Count: 1, Want: map[string][2]string{"answer.example.com.A.ttl": {"300", "300"}},
			Diags: []string{`f:2:14: warning: number "5" is not read by the dig format`}},
		{Name: "usec", Src: ";; Query time: 250 usec\n", Want: map[string][2]string{"query_time_us": {"250", "250"}}},
		{Name: "nothing", Src: "hello\n", Diags: []string{"f:1:1: error: no dig output", "[evidence-dig]"}},
	})
}
