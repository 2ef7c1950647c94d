package cmdtools_test

import (
	"testing"

	"github.com/evdoc-lab/evdoc/generator/evidence/raw/internal/rawtest"
)

func FuzzIstioctlTable(f *testing.F) {
	rawtest.LabFormatFuzz(f, []string{
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
	rawtest.RunFormatCases(t, "istioctl-table", []rawtest.FormatCase{
		{Name: "clusters", Src: clusters, Count: 3, Want: map[string][2]string{
			"istiod.istio-system.svc.PORT": {"15010", "15010"}, "istiod.istio-system.svc.PORT#2": {"15012", "15012"}, "t1.rows": {"3", "SERVICE FQDN"}}},
		{Name: "single-space column", Src: listeners, Count: 3, Want: map[string][2]string{
			"listener/main_internal.PORT": {"0", "0"}, "listener/.PORT": {"15021", "15021"}, "t1.rows": {"2", "NAME"}}},
		{Name: "misaligned row split by column count", Src: status, Count: 2, Want: map[string][2]string{"x.VERSION": {"7", "7"}}},
		{Name: "two tables", Src: "A  B\nx  1\n\nC  D\ny  2\n", Count: 4, Want: map[string][2]string{"x.B": {"1", "1"}, "y.D": {"2", "2"}, "t2.rows": {"1", "C"}}},
		{Name: "unalignable row with a number", Src: "NAME   PORT   TYPE\na      1      EDS\nbbbbbbbbbb 5 x y\n", Want: map[string][2]string{"a.PORT": {"1", "1"}}, Diags: []string{"f:3:1: error: row has 1 cells that do not line up"}},
		{Name: "no table", Src: "just prose\n", Diags: []string{"f:1:1: error: no table header"}},
	})
}
