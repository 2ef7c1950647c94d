package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/domdebugger"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"golang.org/x/net/html"
)

// What a reader sees, on the reference site built once by TestBrowser
// (readerView runs as its subtests, on the same build and browser).

// popoverReport is what popoverScript measures of every claim's popover
// on a page, shown by keyboard focus.
type popoverReport struct {
	Claims, InTables int
	// Bad lists the popovers not fully visible: outside the viewport,
	// clipped by a scroll container or covered (at most 10).
	Bad []string
	// NoRawLine counts the popovers of a claim on a raw value without
	// the raw line and its marked token.
	NoRawLine int
	Contrast  float64 // lowest text contrast ratio inside a popover
}

// popoverScript focuses each claim in turn and measures its popover with
// getBoundingClientRect: inside the viewport, inside every ancestor
// that clips it (overflow other than visible, which a fixed popover
// escapes unless the ancestor is its containing block), and on top at
// its centre and corners (elementFromPoint). It also computes the WCAG
// contrast ratio of the popover's text against its background.
const popoverScript = `(() => {
	const vw = document.documentElement.clientWidth, vh = window.innerHeight;
	const rgb = s => { const m = s.match(/[\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
	const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
	const bgOf = el => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor); if (c.a > 0.5) return c; } return {r: 255, g: 255, b: 255, a: 1}; };
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const out = {Claims: 0, InTables: 0, Bad: [], NoRawLine: 0, Contrast: 99};
	for (const ev of document.querySelectorAll(".ev")) {
		const a = ev.querySelector(":scope > a.ev-claim"), pop = ev.querySelector(":scope > .ev-pop");
		if (!a || !pop) continue;
		out.Claims++;
		if (ev.closest(".table-wrap")) out.InTables++;
		a.scrollIntoView({block: "center", inline: "nearest"});
		a.focus();
		const r = pop.getBoundingClientRect();
		const what = a.textContent + " (" + a.dataset.evAt + ")";
		if (getComputedStyle(pop).display === "none" || r.width === 0) { out.Bad.push(what + ": hidden"); continue; }
		let vis = {left: Math.max(r.left, 0), top: Math.max(r.top, 0), right: Math.min(r.right, vw), bottom: Math.min(r.bottom, vh)};
		const fixed = getComputedStyle(pop).position === "fixed";
		for (let el = pop.parentElement; el && el !== document.documentElement; el = el.parentElement) {
			const s = getComputedStyle(el);
			if (fixed && s.transform === "none" && s.filter === "none" && !/paint|strict|content/.test(s.contain)) continue;
			if (s.overflowX !== "visible" || s.overflowY !== "visible") {
				const c = el.getBoundingClientRect();
				vis = {left: Math.max(vis.left, c.left), top: Math.max(vis.top, c.top), right: Math.min(vis.right, c.right), bottom: Math.min(vis.bottom, c.bottom)};
			}
		}
		const inside = vis.left <= r.left + 1 && vis.top <= r.top + 1 && vis.right >= r.right - 1 && vis.bottom >= r.bottom - 1;
		const pts = [[(r.left + r.right) / 2, (r.top + r.bottom) / 2], [r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]];
		const covered = pts.some(([x, y]) => { const e = document.elementFromPoint(x, y); return !e || !pop.contains(e); });
		if (!inside || covered) {
			out.Bad.push(what + ": " + (inside ? "covered" : "cut off") + " [" + [r.left, r.top, r.right, r.bottom].map(Math.round) + "] in " + vw + "x" + vh);
		}
		// Wide screens: the script places the popover at its claim.
		const ar = a.getBoundingClientRect();
		if (vw > 640 && (!pop.classList.contains("ev-placed") || Math.min(Math.abs(r.top - ar.bottom), Math.abs(r.bottom - ar.top)) > 4)) {
			out.Bad.push(what + ": not beside its claim [" + [r.top, r.bottom, ar.top, ar.bottom].map(Math.round) + "]");
		}
		if (!pop.querySelector(".ev-der") && !pop.querySelector(".ev-rawline mark.ev-token")) out.NoRawLine++;
		const bg = bgOf(pop);
		for (const el of [pop, ...pop.querySelectorAll(".ev-value, .ev-ref, .ev-line, .ev-exact, .ev-der-label, .ev-origin")]) {
			out.Contrast = Math.min(out.Contrast, ratio(rgb(getComputedStyle(el).color), bgOf(el) || bg));
		}
		a.blur();
	}
	out.Bad = out.Bad.slice(0, 10);
	return out;
})()`

// rawPanelReport is what rawPanelScript measures of an evidence page's
// raw panel.
type rawPanelReport struct {
	Panel    float64 // the panel's relative luminance
	Tokens   int     // highlighted tokens, line numbers and marks measured
	Contrast float64 // the lowest contrast ratio of one against its background
	Worst    string
}

// rawPanelScript measures the evidence viewer's raw panel: its
// background's relative luminance, and the WCAG contrast ratio of every
// highlighted token, line number and citation mark against the
// background it is drawn on.
const rawPanelScript = `(() => {
	const rgb = s => { const m = s.match(/[\d.]+/g).map(Number); return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
	const lum = c => { const f = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }; return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b); };
	const bgOf = el => { for (; el; el = el.parentElement) { const c = rgb(getComputedStyle(el).backgroundColor); if (c.a > 0.5) return c; } return {r: 255, g: 255, b: 255, a: 1}; };
	const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
	const box = document.querySelector(".evidence-raw");
	const out = {Panel: lum(bgOf(box)), Tokens: 0, Contrast: 99, Worst: ""};
	for (const el of box.querySelectorAll(".cl span[class], .cl mark, .ln, .cite-mark")) {
		if (!el.textContent.trim()) continue;
		const c = ratio(rgb(getComputedStyle(el).color), bgOf(el));
		out.Tokens++;
		if (c < out.Contrast) { out.Contrast = c; out.Worst = el.className + " " + getComputedStyle(el).color + " on " + getComputedStyle(el).backgroundColor; }
	}
	return out;
})()`

// layoutReport is what layoutScript measures of a page's layout.
type layoutReport struct {
	// ChartText is the smallest chart text in CSS px (the figure's
	// recorded smallest font scaled to the drawn width), per figure.
	ChartText []float64
	// FigureMargin is the largest side margin of a figure, in px.
	FigureMargin float64
	// Letters lists evtable header cells broken into lines of fewer
	// than 3 characters on average.
	Letters []string
	TOC     bool
	// Headings counts the h2/h3 of the article; Anchored those with an
	// anchor link to themselves.
	Headings, Anchored int
	Skip               bool
	// BoxDrawing is the widest ratio, over the page's pre blocks holding
	// box-drawing characters, of a box-drawing character's width to a
	// Latin letter's in that block's font: 1 keeps ASCII diagrams
	// aligned; a CJK font draws them full width (2).
	BoxDrawing float64
}

const layoutScript = `(() => {
	const out = {ChartText: [], FigureMargin: 0, Letters: [], TOC: !!document.querySelector(".evdoc-toc #TableOfContents a"), Headings: 0, Anchored: 0,
		Skip: !!document.querySelector("a.evdoc-skip[href='#main']") && !!document.getElementById("main"), BoxDrawing: 0};
	for (const pre of document.querySelectorAll("pre")) {
		if (!/[\u2500-\u257f]/.test(pre.textContent)) continue;
		const host = pre.querySelector("code") || pre, probe = document.createElement("span");
		probe.textContent = "\u2500\u2502\u250c\u2510\u2514\u2518\u253c\u2500\u2500\u2500";
		host.appendChild(probe);
		const box = probe.getBoundingClientRect().width;
		probe.textContent = "abcdefghij";
		out.BoxDrawing = Math.max(out.BoxDrawing, box / probe.getBoundingClientRect().width);
		probe.remove();
	}
	for (const f of document.querySelectorAll("figure.ev-figure")) {
		const img = f.querySelector("img"), s = getComputedStyle(f);
		out.FigureMargin = Math.max(out.FigureMargin, parseFloat(s.marginLeft), parseFloat(s.marginRight));
		const min = parseFloat(f.dataset.minFont || "0"), drawn = parseFloat(img.getAttribute("width"));
		const src = img.currentSrc || img.src, narrow = /\.narrow\./.test(src);
		const w = narrow ? parseFloat(f.dataset.narrowWidth) : drawn;
		out.ChartText.push(min * img.getBoundingClientRect().width / w);
	}
	for (const c of document.querySelectorAll(".evtable th code")) {
		const range = document.createRange(); range.selectNodeContents(c);
		const tops = new Set(Array.from(range.getClientRects()).map(r => Math.round(r.top)));
		const chars = c.textContent.length;
		if (tops.size > 1 && chars / tops.size < 3) out.Letters.push(c.textContent + ": " + tops.size + " lines");
	}
	for (const h of document.querySelectorAll("article h2[id], article h3[id]")) {
		out.Headings++;
		const a = h.querySelector("a.evdoc-anchor");
		if (a && a.pathname === location.pathname && decodeURIComponent(a.hash.slice(1)) === h.id) out.Anchored++;
	}
	return out;
})()`

// readerView checks what a reader sees on the reference site served at
// base, with browser b: every popover inside the viewport and not
// clipped by its table, chart text, figure margins, evidence table
// names, the table of contents, heading anchors, the skip link, Escape,
// the raw line at the landing, and dark mode (a host page of its own is
// written to hosts, which the server at base serves too).
func readerView(t *testing.T, base, hosts, shots string) {
	loaded := chromedp.Poll[chromedp.Void](`document.readyState === "complete" && Array.from(document.images).every(i => i.complete)`, chromedp.WithPollingTimeout(15*time.Second))
	shoot := func(t *testing.T, ctx context.Context, name string) {
		if buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err != nil {
			t.Errorf("%s: screenshot: %v", name, err)
		} else if err := os.WriteFile(filepath.Join(shots, name+".png"), buf, 0o644); err != nil {
			t.Error(err)
		}
	}
	pages := []struct{ lang, path string }{
		{"ko", "/docs/istio/egress/gslb-dns-flip-qa/"},
		{"ja", "/ja/docs/istio/egress/gslb-dns-flip-qa/"},
	}
	for _, width := range []int64{390, 1280} {
		for _, p := range pages {
			name := fmt.Sprintf("reader-%s-%d", p.lang, width)
			t.Run(name, func(t *testing.T) {
				b := parallelTab(t) // focus emulation on (parallelTab)
				ctx, do := b.ctx, b.do
				do(t, name, chromedp.EmulateViewport(width, 800), chromedp.Navigate(base+p.path), loaded)
				pr, err := chromedp.Run(ctx, chromedp.Evaluate[popoverReport](popoverScript))
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: %d claims, %d in tables; lowest popover contrast %.1f", name, pr.Claims, pr.InTables, pr.Contrast)
				if pr.Claims < 100 || pr.InTables < 50 {
					t.Errorf("only %d claims (%d in tables) found", pr.Claims, pr.InTables)
				}
				if len(pr.Bad) > 0 {
					t.Errorf("popovers not fully visible (of %d, %d in tables):\n%s", pr.Claims, pr.InTables, strings.Join(pr.Bad, "\n"))
				}
				if pr.NoRawLine > 0 {
					t.Errorf("%d popovers lack the raw line with the value marked", pr.NoRawLine)
				}
				if pr.Contrast < 4.5 {
					t.Errorf("popover text contrast %.2f, want at least 4.5", pr.Contrast)
				}
				lr, err := chromedp.Run(ctx, chromedp.Evaluate[layoutReport](`window.scrollTo(0, 0), `+layoutScript))
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%s: chart text %v px, figure margin %v px, %d headings", name, lr.ChartText, lr.FigureMargin, lr.Headings)
				for i, px := range lr.ChartText {
					if px < 11 {
						t.Errorf("figure %d: smallest chart text %.1f CSS px, want at least 11", i+1, px)
					}
				}
				if len(lr.ChartText) == 0 {
					t.Error("no figure measured")
				}
				if lr.FigureMargin > 1 {
					t.Errorf("figures keep %.0f px side margins", lr.FigureMargin)
				}
				if len(lr.Letters) > 0 {
					t.Errorf("evidence table names broken a few letters a line: %v", lr.Letters)
				}
				if !lr.TOC {
					t.Error("no table of contents on the long Q&A page")
				}
				if lr.Headings < 5 || lr.Anchored != lr.Headings {
					t.Errorf("%d of %d headings have an anchor link", lr.Anchored, lr.Headings)
				}
				if lr.BoxDrawing == 0 || lr.BoxDrawing > 1.05 {
					t.Errorf("box-drawing characters in pre are %.2f times a letter's width (0: no diagram found), want 1", lr.BoxDrawing)
				}
				if !lr.Skip {
					t.Error("no skip link to #main")
				}
				ov, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`[document.documentElement.scrollWidth, document.documentElement.clientWidth]`))
				if err != nil {
					t.Fatal(err)
				}
				if ov[0] > ov[1] {
					t.Errorf("horizontal overflow: %d px wide in %d", ov[0], ov[1])
				}
				// A popover opened in a table, for the record.
				do(t, name, chromedp.Evaluate[chromedp.Void](`(() => { const a = document.querySelector(".table-wrap .ev > a.ev-claim"); a.scrollIntoView({block: "center"}); a.focus(); })()`))
				shoot(t, ctx, name+"-table-popover")
				// Escape closes it while it keeps focus.
				do(t, name+": Escape", chromedp.KeyEvent(kb.Escape))
				shown, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const a = document.activeElement; return a.matches("a.ev-claim") ? getComputedStyle(a.parentNode.querySelector(".ev-pop")).display : "focus lost"; })()`))
				if err != nil {
					t.Fatal(err)
				}
				if shown != "none" {
					t.Errorf("after Escape the popover shows (display %s)", shown)
				}
				// The first Tab reaches the skip link, shown on screen.
				do(t, name+": Tab", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(), window.scrollTo(0, 0)`),
					chromedp.Navigate(base+p.path), loaded, chromedp.KeyEvent(kb.Tab))
				skip, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const a = document.activeElement; if (!a.matches(".evdoc-skip")) return []; const r = a.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; })()`))
				if err != nil {
					t.Fatal(err)
				}
				if len(skip) != 4 || skip[2] < 20 || skip[0] < 0 || skip[1] < 0 {
					t.Errorf("the first Tab stop is not a visible skip link: %v", skip)
				}
			})
		}
	}

	// A claim's raw line at the landing: the value is marked and, on a
	// phone too, inside the viewport.
	for _, width := range []int64{390, 1280} {
		name := fmt.Sprintf("landing-%d", width)
		t.Run(name, func(t *testing.T) {
			b := parallelTab(t)
			ctx, do := b.ctx, b.do
			do(t, name, chromedp.EmulateViewport(width, 800), chromedp.Navigate(base+pages[0].path), loaded)
			href, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { for (const a of document.querySelectorAll(".ev > a.ev-claim")) { const m = a.parentNode.querySelector(".ev-rawline mark.ev-token"); if (m && a.parentNode.querySelectorAll(".ev-val").length === 1 && a.parentNode.querySelector(".ev-rawline").textContent.length > 40) return a.href; } return ""; })()`))
			if err != nil || href == "" {
				t.Fatalf("no claim with a long raw line: %v", err)
			}
			do(t, name, chromedp.Navigate(href), loaded, chromedp.Poll[chromedp.Void](`document.querySelector(":target") !== null`, chromedp.WithPollingTimeout(10*time.Second)))
			got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const m = document.querySelector(".evidence-raw mark.ev-token.ev-here"); if (!m) return []; const r = m.getBoundingClientRect(); return [r.left, r.right, r.top, r.bottom, document.documentElement.clientWidth, window.innerHeight]; })()`))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) == 0 {
				t.Fatalf("%s: the landing line marks no value", href)
			}
			if got[0] < 0 || got[1] > got[4] || got[2] < 0 || got[3] > got[5] {
				t.Errorf("%s: the marked value [%v %v %v %v] is not inside the %vx%v viewport", href, got[0], got[1], got[2], got[3], got[4], got[5])
			}
			shoot(t, ctx, name)
		})
	}

	// Dark mode: under prefers-color-scheme: dark, and on a host page
	// with a .dark class and its own three-column layout, popovers are
	// readable and the host keeps its background and columns.
	t.Run("dark", func(t *testing.T) {
		b := parallelTab(t)
		ctx, do := b.ctx, b.do
		setDark := func(on bool) chromedp.Action[chromedp.Void] {
			return chromedp.Func(func(ctx2 context.Context, tg *chromedp.Target) error {
				v := "light"
				if on {
					v = "dark"
				}
				_, err := cdp.Call(ctx2, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}})
				return err
			})
		}
		defer chromedp.Do(ctx, setDark(false))
		do(t, "dark", setDark(true), chromedp.EmulateViewport(1280, 800), chromedp.Navigate(base+pages[0].path), loaded)
		pr, err := chromedp.Run(ctx, chromedp.Evaluate[popoverReport](popoverScript))
		if err != nil {
			t.Fatal(err)
		}
		if pr.Contrast < 4.5 || len(pr.Bad) > 0 {
			t.Errorf("dark mode: popover contrast %.2f (want ≥ 4.5), not fully visible: %v", pr.Contrast, pr.Bad)
		}
		bg, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.body).backgroundColor`))
		if err != nil {
			t.Fatal(err)
		}
		if bg == "rgb(255, 255, 255)" {
			t.Error("dark mode: the reference site's background is white")
		}
		do(t, "dark", chromedp.Evaluate[chromedp.Void](`(() => { const a = document.querySelector(".ev > a.ev-claim"); a.scrollIntoView({block: "center"}); a.focus(); })()`))
		shoot(t, ctx, "dark-popover")

		// A host page of its own (dark class, three columns) with the
		// claims of the built page and evdoc's stylesheet and script.
		snippet, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { for (const p of document.querySelectorAll(".ev-pop")) { p.removeAttribute("style"); p.classList.remove("ev-placed"); } return Array.from(document.querySelectorAll("article > p")).filter(p => p.querySelector(".ev")).slice(0, 4).map(p => p.outerHTML).join("\n") + (document.querySelector("article .table-wrap") || {outerHTML: ""}).outerHTML; })()`))
		if err != nil {
			t.Fatal(err)
		}
		// and an evidence viewer's raw panel with a line far wider than
		// the page, which must scroll inside its own box.
		rawPanel := `<div class="evidence-raw" tabindex="0"><pre class="chroma"><code><span class="line" id="L1"><a class="ln" href="#L1">1</a><span class="cl">` + strings.Repeat("cluster.outbound|443||api.example.org.upstream_rq_total: 86 ", 12) + `</span></span></code></pre></div>`
		host := `<!DOCTYPE html><html lang="ko" class="dark"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>host</title>
<style>body { margin: 0; background: rgb(17, 17, 17); color: rgb(230, 230, 230); display: grid; grid-template-columns: 200px 1fr 200px; } a { color: rgb(120, 170, 255); }</style>
<link rel="stylesheet" href="/evdoc/css/site.css"><script src="/evdoc/js/evdoc.js" defer></script>
<link rel="stylesheet" href="/evdoc/css/site.css"><script src="/evdoc/js/evdoc.js" defer></script></head>
<body><nav id="left">left</nav><main>` + snippet + rawPanel + `</main><aside id="right">right</aside></body></html>`
		if err := os.WriteFile(filepath.Join(hosts, "dark-host.html"), []byte(host), 0o644); err != nil {
			t.Fatal(err)
		}
		do(t, "dark host", setDark(false), chromedp.Navigate(base+"/dark-host.html"), loaded)
		type hostReport struct {
			Background          string
			Left, Right, Scroll float64
			RightEdge, Viewport float64
		}
		hr, err := chromedp.Run(ctx, chromedp.Evaluate[hostReport](`({Background: getComputedStyle(document.body).backgroundColor, Left: document.getElementById("left").getBoundingClientRect().width, Right: document.getElementById("right").getBoundingClientRect().width,
			Scroll: document.documentElement.scrollWidth, RightEdge: document.getElementById("right").getBoundingClientRect().right, Viewport: document.documentElement.clientWidth})`))
		if err != nil {
			t.Fatal(err)
		}
		if hr.Background != "rgb(17, 17, 17)" || hr.Left != 200 || hr.Right != 200 {
			t.Errorf("evdoc's stylesheet changed the host: background %s, side columns %v and %v px (want rgb(17, 17, 17), 200, 200)", hr.Background, hr.Left, hr.Right)
		}
		if hr.Scroll > hr.Viewport || hr.RightEdge > hr.Viewport {
			t.Errorf("evdoc's tables or raw panel widen the host's content column: page %v px wide, right column ends at %v, in a %v px viewport", hr.Scroll, hr.RightEdge, hr.Viewport)
		}
		pr, err = chromedp.Run(ctx, chromedp.Evaluate[popoverReport](popoverScript))
		if err != nil {
			t.Fatal(err)
		}
		if pr.Claims == 0 || pr.Contrast < 4.5 || len(pr.Bad) > 0 {
			t.Errorf("dark host: %d claims, popover contrast %.2f (want ≥ 4.5), not fully visible: %v", pr.Claims, pr.Contrast, pr.Bad)
		}
		do(t, "dark", chromedp.Evaluate[chromedp.Void](`(() => { const a = document.querySelector(".ev > a.ev-claim"); a.focus(); })()`))
		shoot(t, ctx, "dark-host-popover")
		// A light host page without a light class, under a dark system
		// setting: evdoc reads the host's white background and stays light.
		light := strings.Replace(strings.Replace(host, `class="dark"`, "", 1), "background: rgb(17, 17, 17); color: rgb(230, 230, 230);", "background: rgb(255, 255, 255); color: rgb(17, 17, 17);", 1)
		if err := os.WriteFile(filepath.Join(hosts, "light-host.html"), []byte(light), 0o644); err != nil {
			t.Fatal(err)
		}
		do(t, "light host", setDark(true), chromedp.Navigate(base+"/light-host.html"), loaded)
		lh, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => { const a = document.querySelector(".ev > a.ev-claim"); a.focus(); return [document.documentElement.getAttribute("data-evdoc-scheme"), getComputedStyle(a.parentNode.querySelector(".ev-pop")).backgroundColor]; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if len(lh) != 2 || lh[0] != "light" || lh[1] != "rgb(255, 255, 255)" {
			t.Errorf("light host under a dark system setting: scheme %q, popover background %q; want light, rgb(255, 255, 255)", lh[0], lh[1])
		}
		// A light host page with a 62.5 % root font size (Stack's) and a
		// body.dark class its light mode keeps, under a dark system
		// setting: the popover is light, as evdoc.js reads the page (the
		// body's class does not override the scheme inside body), and
		// its text is as large as on any host (px, not rem).
		stack := strings.Replace(strings.Replace(light, "<body>", `<body class="dark">`, 1), `<html lang="ko" `, `<html lang="ko" style="font-size: 62.5%" `, 1)
		if stack == light || !strings.Contains(stack, "62.5%") {
			t.Fatal("the 62.5 % host page was not made from the light one")
		}
		if err := os.WriteFile(filepath.Join(hosts, "stack-host.html"), []byte(stack), 0o644); err != nil {
			t.Fatal(err)
		}
		do(t, "stack host", setDark(true), chromedp.Navigate(base+"/stack-host.html"), loaded)
		sh, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => { const a = document.querySelector(".ev > a.ev-claim"); a.focus(); const p = a.parentNode.querySelector(".ev-pop"); const v = p.querySelector(".ev-value"); return [document.documentElement.getAttribute("data-evdoc-scheme"), getComputedStyle(p).backgroundColor, getComputedStyle(p).fontSize, v ? getComputedStyle(v).fontSize : ""]; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if len(sh) != 4 || sh[0] != "light" || sh[1] != "rgb(255, 255, 255)" || sh[2] != "13.6px" || sh[3] != "16px" {
			t.Errorf("light host with body.dark and a 62.5 %% root under a dark system setting: scheme, popover background, popover and value font sizes %q; want light, rgb(255, 255, 255), 13.6px, 16px", sh)
		}
		// A light host whose dark switch is an attribute of its own on
		// <html> (Relearn's data-r-theme-variant), thrown after the page
		// loaded: evdoc.js reads the page again and turns dark.
		variant := strings.Replace(light, "</head>", `<style>html[data-r-theme-variant="zen-dark"] body { background: rgb(17, 17, 17) !important; color: rgb(230, 230, 230) !important; }</style></head>`, 1)
		if variant == light {
			t.Fatal("the variant host page was not made from the light one")
		}
		if err := os.WriteFile(filepath.Join(hosts, "variant-host.html"), []byte(variant), 0o644); err != nil {
			t.Fatal(err)
		}
		do(t, "variant host", setDark(false), chromedp.Navigate(base+"/variant-host.html"), loaded,
			chromedp.Evaluate[chromedp.Void](`document.documentElement.setAttribute("data-r-theme-variant", "zen-dark")`))
		// Until the page shows what the check below wants (at most 5 s:
		// a page that never turns dark is reported by the check).
		_ = chromedp.Do(ctx, chromedp.Poll[chromedp.Void](`getComputedStyle(document.body).backgroundColor === "rgb(17, 17, 17)" && document.documentElement.getAttribute("data-evdoc-scheme") === "dark"`, chromedp.WithPollingTimeout(5*time.Second)))
		vh, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => { const a = document.querySelector(".ev > a.ev-claim"); a.focus(); return [getComputedStyle(document.body).backgroundColor, document.documentElement.getAttribute("data-evdoc-scheme"), getComputedStyle(a.parentNode.querySelector(".ev-pop")).backgroundColor]; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if len(vh) != 3 || vh[0] != "rgb(17, 17, 17)" || vh[1] != "dark" || vh[2] != "rgb(28, 33, 40)" {
			t.Errorf("light host switched dark by an attribute of its own on <html>: body background, scheme, popover background %q; want rgb(17, 17, 17), dark, rgb(28, 33, 40)", vh)
		}
		// The evidence viewer in dark mode: a dark raw panel, every token
		// and line number readable on it.
		for _, page := range []string{"/evidence/dns-passthrough-tcp/report-md/", "/evidence/dns-passthrough-tcp/evidence-toml/"} {
			do(t, "dark evidence", setDark(true), chromedp.Navigate(base+page), loaded)
			rp, err := chromedp.Run(ctx, chromedp.Evaluate[rawPanelReport](rawPanelScript))
			if err != nil {
				t.Fatal(err)
			}
			if rp.Tokens == 0 || rp.Panel > 0.18 || rp.Contrast < 4.5 {
				t.Errorf("dark mode %s: raw panel luminance %.2f (want ≤ 0.18), %d tokens, lowest contrast %.2f (%s), want ≥ 4.5", page, rp.Panel, rp.Tokens, rp.Contrast, rp.Worst)
			}
			shoot(t, ctx, "dark-evidence"+strings.ReplaceAll(strings.TrimSuffix(page, "/"), "/", "-"))
		}
		do(t, "light evidence", setDark(false), chromedp.Navigate(base+"/evidence/dns-passthrough-tcp/evidence-toml/"), loaded)
		rp, err := chromedp.Run(ctx, chromedp.Evaluate[rawPanelReport](rawPanelScript))
		if err != nil {
			t.Fatal(err)
		}
		if rp.Tokens == 0 || rp.Panel < 0.5 || rp.Contrast < 4.5 {
			t.Errorf("light mode: raw panel luminance %.2f (want ≥ 0.5), %d tokens, lowest contrast %.2f (%s), want ≥ 4.5", rp.Panel, rp.Tokens, rp.Contrast, rp.Worst)
		}
		do(t, "dark host again", setDark(false), chromedp.Navigate(base+"/dark-host.html"), loaded)
		// The host page loads evdoc.js twice (a theme's head hook and the
		// site's own head): one set of listeners.
		for _, l := range []struct{ target, typ string }{{`document.querySelector(".ev")`, "focusin"}, {`document.querySelector(".ev > a.ev-claim")`, "click"}, {"document", "keydown"}} {
			if n := listeners(t, ctx, l.target, l.typ); n != 1 {
				t.Errorf("dark host, evdoc.js loaded twice: %s has %d %s listeners, want 1", l.target, n, l.typ)
			}
		}
	})
}

// listeners returns how many listeners of type typ the object target (a
// JavaScript expression) has, as DevTools lists them.
func listeners(t *testing.T, ctx context.Context, target, typ string) int {
	t.Helper()
	n := -1
	err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		obj, err := cdp.Call(ctx, tg, runtime.Evaluate, runtime.EvaluateParams{Expression: target})
		if err != nil {
			return err
		}
		if obj.Result == nil || obj.Result.ObjectID == "" {
			return fmt.Errorf("%s: no object", target)
		}
		res, err := cdp.Call(ctx, tg, domdebugger.GetEventListeners, domdebugger.GetEventListenersParams{ObjectID: obj.Result.ObjectID})
		if err != nil {
			return err
		}
		n = 0
		for _, l := range res.Listeners {
			if l.Type == typ {
				n++
			}
		}
		return nil
	}))
	if err != nil {
		t.Fatalf("listeners of %s: %v", target, err)
	}
	return n
}

// checkQuotes fails on a built ko or ja page whose prose has a straight
// double quote or curly quotes that do not pair (“ … ” in order) within
// one block: what Hugo's typographer makes of straight quotes next to
// Hangul particles ("…"는 → “…"는).
func checkQuotes(t *testing.T, public string) {
	n := 0
	err := filepath.WalkDir(public, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") || strings.Contains(p, string(filepath.Separator)+"evidence"+string(filepath.Separator)) {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		z := html.NewTokenizer(f)
		// skipped holds, for each open element, whether its text is left
		// out: code, scripts, and a claim's popover (its text is evidence
		// data, such as a source document's title, not the page's prose).
		var skipped []bool
		var block strings.Builder
		flush := func() {
			s := block.String()
			block.Reset()
			open := false
			for _, r := range s {
				switch r {
				case '"':
					t.Errorf("%s: straight double quote in prose: %q", p, clip(s))
					return
				case '“':
					if open {
						t.Errorf("%s: “ inside an open quotation: %q", p, clip(s))
						return
					}
					open = true
				case '”':
					if !open {
						t.Errorf("%s: ” without its “: %q", p, clip(s))
						return
					}
					open = false
				}
			}
			if open {
				t.Errorf("%s: “ never closed: %q", p, clip(s))
			}
		}
		for {
			tt := z.Next()
			switch tt {
			case html.ErrorToken:
				flush()
				n++
				return nil
			case html.StartTagToken, html.EndTagToken:
				name, hasAttr := z.TagName()
				tag := string(name)
				switch tag {
				case "p", "li", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "figcaption", "dd", "dt":
					flush()
				case "br", "img", "wbr", "hr", "input", "meta", "link", "source", "col", "area", "base", "embed", "track":
					continue // void elements
				}
				if tt == html.EndTagToken {
					if len(skipped) > 0 {
						skipped = skipped[:len(skipped)-1]
					}
					continue
				}
				skip := len(skipped) > 0 && skipped[len(skipped)-1]
				switch tag {
				case "pre", "code", "script", "style", "title", "kbd", "samp", "q":
					skip = true
				}
				for hasAttr {
					var k, v []byte
					k, v, hasAttr = z.TagAttr()
					if string(k) == "class" && strings.Contains(" "+string(v)+" ", " ev-pop ") {
						skip = true
					}
				}
				skipped = append(skipped, skip)
			case html.TextToken:
				if len(skipped) == 0 || !skipped[len(skipped)-1] {
					block.Write(z.Text())
				}
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("only %d pages read", n)
	}
}

func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
