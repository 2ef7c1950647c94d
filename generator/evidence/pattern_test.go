package evidence

import (
	"strings"
	"testing"
)

// The pattern format reads a file from its manifest alone; a pattern that
// does not compile is an evidence-pattern error at the pattern's line and
// column in the manifest.
func TestPatternManifest(t *testing.T) {
	files := map[string]string{
		"iperf3.txt": "[  5]   0.00-10.00  sec  1.10 GBytes   941 Mbits/sec    0             sender\n" +
			"[  5]   0.00-10.04  sec  1.09 GBytes   937 Mbits/sec                  receiver\n",
		"evidence.toml": manifestHead + "\n[[read]]\nfile = \"iperf3.txt\"\nformat = \"pattern\"\nname = \"ip\"\nkey = \"{role}\"\n" +
			"patterns = ['^\\[\\s*%{INT:stream}\\]\\s+%{NUMBER:start}-%{NUMBER:end}\\s+sec\\s+%{NUMBER:transfer} (?P<transfer_unit>[KMG]Bytes)\\s+%{NUMBER:bitrate} Mbits/sec(?:\\s+%{INT:retr})?\\s+(?P<role>sender|receiver)$']\n" +
			"units = { \"*.start\" = \"s\", \"*.end\" = \"s\" }\n",
	}
	set, errs := LoadSet(writeSet(t, "s", files), "evidence/s")
	if set == nil {
		t.Fatal(errs)
	}
	for name, want := range map[string]string{"ip.sender.transfer": "1.1 GiB", "ip.receiver.bitrate": "937 ", "ip.receiver.end": "10.04 s", "ip.sender.retr": "0 "} {
		if v := set.get(name); v == nil || v.Value.String()+" "+v.Unit != want {
			t.Errorf("%s = %v, want %s", name, v, want)
		}
	}
	if v := set.get("ip.receiver.transfer"); v == nil || v.Pos.String() != "evidence/s/iperf3.txt:2:26" {
		t.Errorf("ip.receiver.transfer at %v, want iperf3.txt:2:26", v)
	}
	files["evidence.toml"] = manifestHead + "\n[[read]]\nfile = \"iperf3.txt\"\nformat = \"pattern\"\nname = \"ip\"\n" +
		"patterns = [\n  '^(?P<a>%{NUMBER}',\n  '%{NUMBR:b}',\n]\n"
	set, errs = LoadSet(writeSet(t, "s", files), "evidence/s")
	if set != nil {
		t.Fatal("a set with bad patterns loads")
	}
	for _, want := range []string{
		`evidence.toml:13:4: error: read "ip": pattern: missing closing ): ` + "`" + `^(?P<a>(?:[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)` + "`" + `; expected a Go regular expression (RE2 syntax) [evidence-pattern]`,
		`evidence.toml:14:4: error: read "ip": pattern: unknown sub-pattern %{NUMBR}; expected one of DATA, DURATION, GREEDY, INT, NOTSPACE, NUMBER, PERCENT, SIZE, WORD [evidence-pattern]`,
	} {
		if !strings.Contains(errs.Error(), want) {
			t.Errorf("errors:\n%v\nlack %s", errs, want)
		}
	}
}
