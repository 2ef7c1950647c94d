package slots

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestFillCites fills a viewer window's citations placeholder with the
// rows the evdoc/evidence shortcode writes from the same fields, and
// refuses a placeholder it cannot fill exactly.
func TestFillCites(t *testing.T) {
	fields := []string{"n5", "p/docs/a", "t51.7%", "t+3 <b> & \"q\" 'x'", "p/docs/b", "t15건", "n12", "p/docs/a", "t", "p/docs/c", "t\x00"}
	a, b, c := `<a href="/docs/a/">A &amp; B</a>`, `<a href="/ko/docs/b/">B</a>`, `/docs/c`
	links := "<evdoc-l>" + a + "</evdoc-l><evdoc-l>" + b + "</evdoc-l><evdoc-l>" + c + "</evdoc-l>"
	rows := `
  <tr id="cite-L5"><td><a href="#L5">5</a></td><td><ul><li>` + a + `: <q>51.7%</q></li><li>` + a + `: <q>&#43;3 &lt;b&gt; &amp; &#34;q&#34; &#39;x&#39;</q></li><li>` + b + `: <q>15건</q></li></ul></td></tr>
  <tr id="cite-L12"><td><a href="#L12">12</a></td><td><ul><li>` + a + `: <q></q></li><li>` + c + ": <q>\uFFFD</q></li></ul></td></tr>"
	for _, tc := range []struct {
		name   string
		fields []string
		in     string
		want   string
		err    string
	}{
		{name: "rows", fields: fields, in: `<tbody><evdoc-c d="ev:#-0">` + links + `</evdoc-c></tbody>`, want: "<tbody>" + rows + "</tbody>"},
		{name: "no citation", fields: nil, in: `x<evdoc-c d="ev:#-0"></evdoc-c>y`, want: "xy"},
		{name: "a link short", fields: fields, in: `<evdoc-c d="ev:#-0"><evdoc-l>` + a + `</evdoc-l></evdoc-c>`, err: "fewer than the pages"},
		{name: "a link over", fields: fields, in: `<evdoc-c d="ev:#-0">` + links + `<evdoc-l>x</evdoc-l></evdoc-c>`, err: "from 3 page(s)"},
		{name: "text between links", fields: fields, in: `<evdoc-c d="ev:#-0"> ` + links + `</evdoc-c>`, err: "where a page link"},
		{name: "a link unclosed", fields: fields, in: `<evdoc-c d="ev:#-0"><evdoc-l>x</evdoc-c>`, err: "no closing"},
		{name: "no such window", fields: fields, in: `<evdoc-c d="ev:#-1"></evdoc-c>`, err: "names no viewer window"},
		{name: "escaped", fields: fields, in: `&lt;evdoc-c d=&#34;ev:#-0&#34;&gt;&lt;/evdoc-c&gt;`, err: "escaped here"},
		{name: "json", fields: fields, in: `\u003cevdoc-c d=\"ev:#-0\"\u003e\u003c/evdoc-c\u003e`, err: "escaped here"},
		{name: "a line not a number", fields: []string{"nx", "p/a", "t1"}, in: `<evdoc-c d="ev:#-0"><evdoc-l>a</evdoc-l></evdoc-c>`, err: `line "x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := NewTable(0)
			slot := tb.AddCites(tc.fields)
			if slot[0] != "i-0" {
				t.Fatalf("id field %q, want i-0", slot[0])
			}
			f := &Filler{t: tb}
			out, changed, err := f.Fill("evidence/run/result-txt/index.html", []byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil || !changed {
				t.Fatalf("changed %v, error %v", changed, err)
			}
			if string(out) != tc.want {
				t.Errorf("filled\n%q\nwant\n%q", out, tc.want)
			}
		})
	}
}

// TestAddCites gives each window its own id and lists each citing page
// once, in the order the rows first name it.
func TestAddCites(t *testing.T) {
	tb := NewTable(0)
	tb.AddCites([]string{"n1", "p/a", "t1"})
	got := tb.AddCites([]string{"n1", "p/b", "t1", "p/a", "t2", "n2", "p/b", "t3", "p/c", "t4"})
	want := []string{"i-1", "p/b", "p/a", "p/c"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("AddCites: %q, want %q", got, want)
	}
	if tb.CitesLen() != 2 {
		t.Errorf("CitesLen %d, want 2", tb.CitesLen())
	}
	if _, ok := tb.Slot("-1"); ok {
		t.Error("a citations id reads as a claim's slot")
	}
}

// TestReserveCites: ids reserved, then set side by side in any order,
// give each table the id and the slot form AddCites gives it in the
// order of the ids.
func TestReserveCites(t *testing.T) {
	fields := [][]string{{"n1", "p/a", "t1"}, {"n2", "p/b", "t2", "p/a", "t3"}, {"n3", "p/c", "t4"}, {"n4", "p/d", "t5"}}
	added := NewTable(0)
	var want [][]string
	for _, f := range fields {
		want = append(want, added.AddCites(f))
	}
	tb := NewTable(0)
	tb.AddCites(fields[0])
	first := tb.ReserveCites(len(fields) - 1)
	if first != 1 || tb.CitesLen() != len(fields) {
		t.Fatalf("ReserveCites(%d) after one table: first %d, %d tables; want 1, %d", len(fields)-1, first, tb.CitesLen(), len(fields))
	}
	got := make([][]string, len(fields))
	got[0] = want[0]
	var wg sync.WaitGroup
	for i := len(fields) - 1; i >= 1; i-- {
		wg.Go(func() { got[i] = tb.SetCites(i, fields[i]) })
	}
	wg.Wait()
	for i := range fields {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("table %d: SetCites %q, AddCites %q", i, got[i], want[i])
		}
		if !slices.Equal(tb.cites[i].fields, added.cites[i].fields) {
			t.Errorf("table %d: fields %q, AddCites's %q", i, tb.cites[i].fields, added.cites[i].fields)
		}
	}
}

// TestFillCitesFeed fills a citations placeholder in a feed: the page
// links, which Hugo already made absolute in the placeholder, stay as
// they are; a root-relative URL in a claim's text gets Hugo's rewrite,
// as Hugo gives it to the rows it writes without slots.
func TestFillCitesFeed(t *testing.T) {
	feed, err := NewFeed("index.xml", "https://example.org/lab/")
	if err != nil {
		t.Fatal(err)
	}
	tb := NewTable(0)
	tb.SetFeed(feed)
	tb.AddCites([]string{"n3", "p/a", `thref="/x"`})
	f := &Filler{t: tb}
	in := `<rss><content><evdoc-c d="ev:#-0"><evdoc-l><a href="https://example.org/lab/a/">A</a></evdoc-l></evdoc-c></content></rss>`
	want := `<rss><content>` + "\n" + `  <tr id="cite-L3"><td><a href="#L3">3</a></td><td><ul><li><a href="https://example.org/lab/a/">A</a>: <q>href=&#34;https://example.org/lab/x&#34;</q></li></ul></td></tr></content></rss>`
	out, _, err := f.Fill("docs/index.xml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != want {
		t.Errorf("filled\n%s\nwant\n%s", out, want)
	}
}
