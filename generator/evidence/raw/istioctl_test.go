package raw_test

import "testing"

func FuzzIstioctlTable(f *testing.F) {
	fuzzLabFormat(f, []string{
		"SERVICE FQDN   PORT   TYPE\nx.y            80     EDS\n",
		"NAME                   ADDRESSES PORT  MATCH DESTINATION\nlistener/              0.0.0.0   15021 ALL   Inline\n",
		"A      B\nbbbbbbbbbb 5\n\nC  D\ny  2\n", "NAME  PORT\nä  1\n",
	}, "istioctl-table")
}

func TestReadIstioctlTable(t *testing.T) {
	clusters := "SERVICE FQDN                    PORT      SUBSET  DIRECTION  TYPE\n" +
		"BlackHoleCluster                -         -       -          STATIC\n" +
		"istiod.istio-system.svc         15010     -       outbound   EDS\n" +
		"istiod.istio-system.svc         15012     -       outbound   EDS\n"
	listeners := "Istio Version:       1.21.0\n\n" +
		"NAME                   ADDRESSES PORT  MATCH DESTINATION\n" +
		"listener/main_internal           0     ALL   Cluster: encap\n" +
		"listener/              0.0.0.0   15021 ALL   Inline Route: /healthz/ready*\n"
	status := "PROXY           CDS        LDS        VERSION\n" +
		"details-v1      SYNCED     SYNCED     1.1.2\n" +
		"x      SYNCED  NOT SENT     7\n"
	runFormatCases(t, "istioctl-table", []formatCase{
		{name: "clusters", src: clusters, count: 3, want: map[string][2]string{
			"istiod.istio-system.svc.PORT": {"15010", "15010"}, "istiod.istio-system.svc.PORT#2": {"15012", "15012"}, "t1.rows": {"3", "SERVICE FQDN"}}},
		{name: "single-space column", src: listeners, count: 3, want: map[string][2]string{
			"listener/main_internal.PORT": {"0", "0"}, "listener/.PORT": {"15021", "15021"}, "t1.rows": {"2", "NAME"}}},
		{name: "misaligned row split by column count", src: status, count: 2, want: map[string][2]string{"x.VERSION": {"7", "7"}}},
		{name: "two tables", src: "A  B\nx  1\n\nC  D\ny  2\n", count: 4, want: map[string][2]string{"x.B": {"1", "1"}, "y.D": {"2", "2"}, "t2.rows": {"1", "C"}}},
		{name: "unalignable row with a number", src: "NAME   PORT   TYPE\na      1      EDS\nbbbbbbbbbb 5 x y\n", want: map[string][2]string{"a.PORT": {"1", "1"}}, diags: []string{"f:3:1: error: row has 1 cells that do not line up"}},
		{name: "no table", src: "just prose\n", diags: []string{"f:1:1: error: no table header"}},
	})
}
