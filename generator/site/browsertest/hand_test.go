package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The reader's hand and ear on the reference site: a thumb on a phone
// (390 px, touch emulation), a keyboard at 1280 px, a screen reader
// (Chromium's accessibility tree), a click through to the evidence
// viewer, and the page printed.

// tapScript places the claim numbered by the argument (in document order
// of ".ev > a.ev-claim") with its centre at 80 % of the viewport's
// height (as far as the page scrolls) and returns the point to tap: the
// centre of its first line box, and where that is.
const tapScript = `((i) => {
	const a = document.querySelectorAll(".ev > a.ev-claim")[i];
	a.scrollIntoView({block: "center", inline: "center"});
	const vh = window.innerHeight;
	let r = a.getClientRects()[0];
	window.scrollBy(0, (r.top + r.bottom) / 2 - 0.8 * vh);
	r = a.getClientRects()[0];
	const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
	return {X: (r.left + r.right) / 2, Y: (r.top + r.bottom) / 2, At: ((r.top + r.bottom) / 2) / vh, Text: a.textContent, Hit: hit === a || a.contains(hit)};
})`

// tapReport is what tappedScript measures after a tap on claim i.
type tapReport struct {
	URL              string
	Open             bool    // the claim's popover shows
	Visible          bool    // the claim is inside the viewport and on top at its centre
	Overlap          bool    // the popover's box intersects the claim's
	Expanded         string  // aria-expanded of the claim
	At               float64 // the claim's centre, as a fraction of the viewport's height
	Claim, Pop       []float64
	Text, Obstructor string
	Debug            string
}

const tappedScript = `((i) => {
	const a = document.querySelectorAll(".ev > a.ev-claim")[i];
	if (!a) return {URL: location.href};
	const pop = a.parentNode.querySelector(":scope > .ev-pop");
	const vh = window.innerHeight, vw = document.documentElement.clientWidth;
	const r = a.getClientRects()[0], p = pop.getBoundingClientRect();
	const open = getComputedStyle(pop).display !== "none" && p.height > 0;
	const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
	const top = document.elementFromPoint(cx, cy);
	const visible = r.top >= 0 && r.bottom <= vh && r.left >= 0 && r.right <= vw && !!top && a.contains(top);
	const overlap = open && !(p.bottom <= r.top || p.top >= r.bottom || p.right <= r.left || p.left >= r.right);
	return {URL: location.href, Open: open, Visible: visible, Overlap: overlap, Expanded: a.getAttribute("aria-expanded") || "",
		At: cy / vh, Claim: [r.left, r.top, r.right, r.bottom].map(Math.round), Pop: [p.left, p.top, p.right, p.bottom].map(Math.round),
		Text: a.textContent, Obstructor: top ? top.tagName + "." + top.className : "none",
		Debug: "active " + (document.activeElement ? document.activeElement.tagName + "." + document.activeElement.className : "none") + ", ev " + a.parentNode.className + ", pop " + getComputedStyle(pop).display + " " + Math.round(p.height)};
})`

// tapClick is what the page's handlers did with the click a tap made:
// Follows is the link the click follows (an a[href] whose default
// action no handler prevented), or the page the tap led to; "" when it
// follows none.
type tapClick struct{ Follows string }

// armClickScript sets window.evTapClick to a promise of the next click
// event's tapClick, read by a listener on window: the last the event
// bubbles to, so the page's own listeners have run and defaultPrevented
// is final. awaitClickScript waits for it, and fails after 5 s; in
// another document than the one armed (the tap led away before the
// wait began) it gives that document's address.
const (
	armClickScript   = `window.evTapClick = new Promise(r => window.addEventListener("click", e => { const l = e.target.closest && e.target.closest("a[href]"); r({Follows: l && !e.defaultPrevented ? l.href : ""}); }, {once: true}))`
	awaitClickScript = `window.evTapClick ? Promise.race([window.evTapClick, new Promise((_, no) => setTimeout(() => no(new Error("no click event within 5 s of the tap")), 5000))]) : {Follows: location.href}`
)

// tap taps the page at x, y and returns once the click the tap makes
// has been handled: touch events go to the page at once, and Chromium
// makes the click from them after, so the tap's effect is read after
// the click, not after a fixed wait. The page's click handlers run
// synchronously (evdoc.js opens or closes a popover in them). A tap
// that leads to another page returns its address, even when the page
// it was made on is gone before the wait.
func tap(t *testing.T, ctx context.Context, x, y float64) tapClick {
	t.Helper()
	from, err := chromedp.Run(ctx, chromedp.Location())
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](armClickScript), chromedp.TapXY(x, y))
	}
	if err != nil {
		t.Fatalf("tap at %v,%v: %v", x, y, err)
	}
	c, err := chromedp.Run(ctx, chromedp.Evaluate[tapClick](awaitClickScript, chromedp.EvalAwaitPromise))
	if err != nil {
		// the document was replaced while the wait ran
		if loc, lerr := chromedp.Run(ctx, chromedp.Location()); lerr == nil && loc != from {
			return tapClick{Follows: loc}
		}
		t.Fatalf("tap at %v,%v: %v", x, y, err)
	}
	return c
}

// landingReport is what landingScript measures on an evidence viewer
// page a claim's link landed on: the marks of the line, and which of them
// look landed on (an outline the other marks lack).
type landingReport struct {
	Line        string
	Marks       int      // cited-token marks on the line
	Landed      []string // texts of the marks drawn as the landing
	LandedCols  []string // the token each belongs to (its id, or data-ev-tok)
	InView      bool     // the landed token (else the line) is inside the viewport
	FirstIsCite bool     // the line's first mark is the landed one
	Switch      []string // the language switcher's links (other languages)
}

const landingScript = `(() => {
	const t = document.querySelector(":target");
	if (!t) return {Line: "none"};
	const line = t.closest(".line");
	if (!line) return {Line: "not a line: " + t.id};
	const marks = Array.from(line.querySelectorAll("mark.ev-token"));
	const landed = marks.filter(m => getComputedStyle(m).outlineStyle !== "none");
	const vh = window.innerHeight, vw = document.documentElement.clientWidth;
	const el = landed[0] || line, r = el.getBoundingClientRect();
	return {Line: line.id, Marks: marks.length, Landed: landed.map(m => m.textContent), LandedCols: landed.map(m => m.id || m.dataset.evTok || ""),
		InView: r.top >= 0 && r.bottom <= vh && r.left >= 0 && r.right <= vw, FirstIsCite: marks.length > 0 && landed.length > 0 && marks[0] === landed[0],
		Switch: Array.from(document.querySelectorAll("a[hreflang]:not([aria-current])")).map(a => a.href)};
})()`

// landedScript (with the address navigated to) waits, at most 15 s,
// until the document at that address has loaded with its images and
// has a fragment target, then two animation frames, so that the page
// has been drawn with the fragment scrolled to and the landing marked.
// It runs in the tab's current document (Runtime.evaluate with no
// context id): a poll bound to the execution context chromedp last saw
// can name the document the navigation replaced ("Cannot find context
// with specified id"), under load.
const landedScript = `new Promise((r, no) => {
	const end = Date.now() + 15000;
	const f = () => {
		if (location.href === %q && document.readyState === "complete" && Array.from(document.images).every(i => i.complete) && document.querySelector(":target") !== null) {
			requestAnimationFrame(() => requestAnimationFrame(() => r()));
		} else if (Date.now() > end) {
			no(new Error("not landed within 15 s: " + location.href + ", " + document.readyState + ", target " + (document.querySelector(":target") !== null)));
		} else {
			setTimeout(f, 20);
		}
	};
	f();
})`

// pageReport2 is what keyboardScript measures of a page at 1280 px: each
// claim's accessible description (the text of the elements its
// aria-describedby names), aria-expanded while its popover shows and
// after, popover numbers and origin notes.
type keyboardReport struct {
	Claims         int
	LongestDesc    int
	LongDesc       []string
	ExpandedWrong  []string
	MaxDigits      int
	ManyDigits     []string
	MaxOrigins     int // most .ev-origin notes in one popover
	RepeatedOrigin []string
	DetailsMissing int // claims whose popover no aria-details / aria-controls names
}

const keyboardScript = `(() => {
	const out = {Claims: 0, LongestDesc: 0, LongDesc: [], ExpandedWrong: [], MaxDigits: 0, ManyDigits: [], MaxOrigins: 0, RepeatedOrigin: [], DetailsMissing: 0};
	const sig = s => s.replace(/[.,]/g, "").replace(/^0+/, "").length;
	for (const ev of document.querySelectorAll(".ev")) {
		const a = ev.querySelector(":scope > a.ev-claim"), pop = ev.querySelector(":scope > .ev-pop");
		if (!a || !pop) continue;
		out.Claims++;
		const what = a.textContent + " (" + a.dataset.evAt + ")";
		const desc = (a.getAttribute("aria-describedby") || "").split(/\s+/).filter(Boolean)
			.map(id => { const e = document.getElementById(id); return e ? e.textContent : ""; }).join(" ").replace(/\s+/g, " ").trim();
		if (desc.length > out.LongestDesc) out.LongestDesc = desc.length;
		if (desc.length > 300 || desc.length === 0) out.LongDesc.push(what + ": " + desc.length);
		const rel = (a.getAttribute("aria-details") || "") + " " + (a.getAttribute("aria-controls") || "");
		if (!rel.split(/\s+/).includes(pop.id)) out.DetailsMissing++;
		a.scrollIntoView({block: "center"});
		a.focus();
		const shown = getComputedStyle(pop).display !== "none";
		if (!shown || a.getAttribute("aria-expanded") !== "true") out.ExpandedWrong.push(what + ": focused, popover " + (shown ? "shows" : "hidden") + ", aria-expanded " + a.getAttribute("aria-expanded"));
		for (const el of pop.querySelectorAll(".ev-value, .ev-exact, .ev-der, .ev-input")) {
			const text = Array.from(el.childNodes).filter(n => !(n.nodeType === 1 && n.matches(".ev-rawline, .ev-ref"))).map(n => n.textContent).join(" ");
			for (const m of text.matchAll(/\d[\d,]*(?:\.\d+)?/g)) {
				const n = sig(m[0]);
				if (n > out.MaxDigits) out.MaxDigits = n;
				if (n > 12) out.ManyDigits.push(what + ": " + m[0]);
			}
		}
		const notes = Array.from(pop.querySelectorAll(".ev-origin")).map(o => o.textContent.trim());
		out.MaxOrigins = Math.max(out.MaxOrigins, notes.length);
		if (new Set(notes).size !== notes.length) out.RepeatedOrigin.push(what + ": " + notes.length + " notes, " + new Set(notes).size + " distinct");
		a.blur();
		if (getComputedStyle(pop).display === "none" && a.getAttribute("aria-expanded") !== "false") out.ExpandedWrong.push(what + ": blurred, aria-expanded " + a.getAttribute("aria-expanded"));
	}
	out.LongDesc = out.LongDesc.slice(0, 5); out.ExpandedWrong = out.ExpandedWrong.slice(0, 5); out.ManyDigits = out.ManyDigits.slice(0, 5); out.RepeatedOrigin = out.RepeatedOrigin.slice(0, 5);
	return out;
})()`

// phoneReport is what phoneScript measures of a page at 390 px: table
// cells squeezed to one letter a line, claims broken across lines,
// blockquotes' width.
type phoneReport struct {
	Narrow     []string // table cells one letter wide
	Split      []string // claims broken across lines
	SplitCount int
	Quote      []float64 // narrowest blockquote's width and its parent's content width
}

const phoneScript = `(() => {
	const out = {Narrow: [], Split: [], SplitCount: 0, Quote: []};
	for (const c of document.querySelectorAll("article td, article th")) {
		const text = c.textContent.trim();
		if ([...text].length < 3) continue;
		const range = document.createRange(); range.selectNodeContents(c);
		const rects = Array.from(range.getClientRects()).filter(r => r.width > 0);
		const tops = new Set(rects.map(r => Math.round(r.top)));
		const fs = parseFloat(getComputedStyle(c).fontSize);
		const s = getComputedStyle(c), inner = c.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
		if (inner < 1.6 * fs && tops.size > 1) out.Narrow.push(text.slice(0, 20) + ": " + Math.round(inner) + " px wide, " + tops.size + " lines, " + Math.round(c.getBoundingClientRect().height) + " px tall");
	}
	for (const a of document.querySelectorAll(".ev > a.ev-claim")) {
		const tops = new Set(Array.from(a.getClientRects()).filter(r => r.width > 0).map(r => Math.round(r.top)));
		if (tops.size > 1) { out.SplitCount++; if (out.Split.length < 5) out.Split.push(a.textContent); }
	}
	let q = null;
	for (const b of document.querySelectorAll("article blockquote")) {
		const w = b.getBoundingClientRect().width, ps = getComputedStyle(b.parentElement);
		const pw = b.parentElement.clientWidth - parseFloat(ps.paddingLeft) - parseFloat(ps.paddingRight);
		if (!q || w < q[0]) q = [w, pw];
	}
	out.Quote = q || [];
	out.Narrow = out.Narrow.slice(0, 5);
	return out;
})()`

// TestReaderHand opens the reference site's ko and ja Q&A pages as a
// reader uses them: taps at 80 % of a phone's height, keyboard and
// screen-reader use at 1280 px, landings on the evidence viewer, tables
// and claims on a phone, the 404 page and print.
func TestReaderHand(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Hugo and Chromium")
	}
	t.Parallel() // tabs of its own (newBrowser)
	dir := builtReference(t)
	public := filepath.Join(dir, "public")
	srv := httptest.NewServer(http.FileServer(http.Dir(public)))
	// Closed when the parallel subtests below have ended (a defer would
	// close it before they start).
	t.Cleanup(srv.Close)
	// Each subtest runs beside the others in a tab of its own
	// (parallelTab), focus emulation on.
	tab := func(t *testing.T) (context.Context, func(t *testing.T, what string, steps ...chromedp.Action[chromedp.Void])) {
		t.Helper()
		b := parallelTab(t)
		return b.ctx, b.do
	}
	loaded := chromedp.Poll[chromedp.Void](`document.readyState === "complete" && Array.from(document.images).every(i => i.complete)`, chromedp.WithPollingTimeout(15*time.Second))
	pages := []struct{ lang, path string }{
		{"ko", "/docs/istio/egress/gslb-dns-flip-qa/"},
		{"ja", "/ja/docs/istio/egress/gslb-dns-flip-qa/"},
	}
	touch := func(on bool) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: on, MaxTouchPoints: 5})
			return err
		})
	}
	const sample = 30 // claims tapped and followed per page
	// evtable cells followed per page and width
	const cellSample = 4

	for _, p := range pages {
		// A thumb on a phone: tap each sampled claim with it at 80 % of
		// the screen's height.
		name := "tap-" + p.lang + "-390"
		t.Run(name, func(t *testing.T) {
			ctx, do := tab(t)
			do(t, name, chromedp.EmulateViewport(390, 800, chromedp.EmulateTouch, chromedp.EmulateMobile), touch(true), chromedp.Navigate(srv.URL+p.path), loaded)
			defer chromedp.Do(ctx, touch(false), chromedp.EmulateViewport(1280, 800))
			n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll(".ev > a.ev-claim").length`))
			if err != nil || n < sample {
				t.Fatalf("%d claims: %v", n, err)
			}
			var covered, navigated, closed, tapped int
			var bad []string
			for k := range sample {
				i := k * n / sample
				type point struct {
					X, Y, At float64
					Text     string
					Hit      bool
				}
				pt, err := chromedp.Run(ctx, chromedp.Evaluate[point](fmt.Sprintf("%s(%d)", tapScript, i)))
				if err != nil {
					t.Fatal(err)
				}
				if pt.At < 0.7 {
					continue // the page does not scroll that far
				}
				tapped++
				// Two frames after the scroll, so the browser's hit testing
				// sees the scrolled page; then the tap, and the click it
				// makes (tapClick: what the page's handlers did with it).
				do(t, "frames", chromedp.Evaluate[chromedp.Void](`new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))`, chromedp.EvalAwaitPromise))
				c := tap(t, ctx, pt.X, pt.Y)
				var r tapReport
				if c.Follows == "" {
					if r, err = chromedp.Run(ctx, chromedp.Evaluate[tapReport](fmt.Sprintf("%s(%d)", tappedScript, i))); err != nil {
						t.Fatal(err)
					}
				} else {
					r.URL = c.Follows // the link the tap followed
				}
				// A tap on the page's margin closes the popover, as a reader
				// does before the next claim (the page's left margin half
				// way down: the sheet is at the top or the bottom, and inset
				// from the sides). The page is mobile-optimized (width=
				// device-width), so Chromium reads no double tap and sends
				// each tap's click at once.
				if c.Follows == "" {
					if away := tap(t, ctx, 2, 400); away.Follows != "" {
						t.Fatalf("a tap on the page's margin followed %s", away.Follows)
					}
					if open, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Array.from(document.querySelectorAll(".ev-pop")).filter(p => getComputedStyle(p).display !== "none").length`)); err != nil || open > 0 {
						t.Errorf("%d popovers still show after a tap beside the text (%v)", open, err)
						do(t, "close", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(), document.querySelectorAll(".ev.open").forEach(e => e.classList.remove("open"))`))
					}
				}
				switch {
				case r.URL != srv.URL+p.path:
					navigated++
					bad = append(bad, fmt.Sprintf("%q at %.0f %%: navigated to %s", pt.Text, 100*pt.At, r.URL))
					do(t, "back", chromedp.Navigate(srv.URL+p.path), loaded)
				case !r.Open:
					closed++
					bad = append(bad, fmt.Sprintf("%q at %.0f %% (on top there: %v): no popover (%s) tapped %v,%v", r.Text, 100*pt.At, pt.Hit, r.Debug, pt.X, pt.Y))
				case !r.Visible || r.Overlap:
					covered++
					bad = append(bad, fmt.Sprintf("%q at %.0f %%: claim %v, popover %v, on top %s", r.Text, 100*r.At, r.Claim, r.Pop, r.Obstructor))
				case r.Expanded != "true":
					bad = append(bad, fmt.Sprintf("%q: popover open, aria-expanded %q", r.Text, r.Expanded))
				}
			}
			t.Logf("%s: %d taps at 80 %% of the height: %d covered the claim, %d navigated, %d opened nothing", name, tapped, covered, navigated, closed)
			if tapped < sample/2 {
				t.Errorf("only %d of %d claims could be tapped at 80 %% of the height", tapped, sample)
			}
			if len(bad) > 0 {
				t.Errorf("%d of %d taps:\n%s", len(bad), tapped, strings.Join(bad, "\n"))
			}
			if buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot()); err == nil {
				_ = os.WriteFile(filepath.Join(artifactDir(t), name+".png"), buf, 0o644)
			}
		})

		// Tables, claims and quotations on a phone.
		phone := "phone-" + p.lang + "-390"
		t.Run(phone, func(t *testing.T) {
			name := phone
			ctx, do := tab(t)
			do(t, name, chromedp.EmulateViewport(390, 800), chromedp.Navigate(srv.URL+p.path), loaded)
			r, err := chromedp.Run(ctx, chromedp.Evaluate[phoneReport](phoneScript))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d cells one letter wide, %d claims broken across lines, narrowest blockquote %v", name, len(r.Narrow), r.SplitCount, r.Quote)
			if len(r.Narrow) > 0 {
				t.Errorf("table cells one letter wide: %v", r.Narrow)
			}
			if r.SplitCount > 0 {
				t.Errorf("%d claims broken across lines (a number split from its unit): %q", r.SplitCount, r.Split)
			}
			if len(r.Quote) != 2 {
				t.Error("no blockquote on the page")
			} else if r.Quote[0] < 0.9*r.Quote[1] {
				t.Errorf("a blockquote is %.0f px wide in a %.0f px column", r.Quote[0], r.Quote[1])
			}
		})

		// The keyboard at 1280 px: descriptions, aria-expanded, numbers,
		// origin notes, tab stops.
		keyboard := "keyboard-" + p.lang + "-1280"
		t.Run(keyboard, func(t *testing.T) {
			name := keyboard
			ctx, do := tab(t)
			do(t, name, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+p.path), loaded)
			r, err := chromedp.Run(ctx, chromedp.Evaluate[keyboardReport](keyboardScript))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d claims; longest description %d characters; most significant digits %d; most origin notes in a popover %d", name, r.Claims, r.LongestDesc, r.MaxDigits, r.MaxOrigins)
			if len(r.LongDesc) > 0 {
				t.Errorf("accessible descriptions empty or longer than 300 characters: %v", r.LongDesc)
			}
			if r.DetailsMissing > 0 {
				t.Errorf("%d claims do not name their popover (aria-details or aria-controls)", r.DetailsMissing)
			}
			if len(r.ExpandedWrong) > 0 {
				t.Errorf("aria-expanded wrong: %v", r.ExpandedWrong)
			}
			if len(r.ManyDigits) > 0 {
				t.Errorf("popover numbers with more than 12 significant digits: %v", r.ManyDigits)
			}
			if len(r.RepeatedOrigin) > 0 {
				t.Errorf("origin note repeated in a popover: %v", r.RepeatedOrigin)
			}
			// Tab from the top of the page to the end.
			do(t, name, chromedp.Navigate(srv.URL+p.path), loaded)
			stops, claims, anchors := 0, 0, 0
			first := ""
			for stops < 3000 {
				do(t, "Tab", chromedp.KeyEvent(kb.Tab))
				type stop struct {
					Key           string
					Claim, Anchor bool
				}
				// Anchor: a heading's anchor link that the table of
				// contents leads to as well (a second stop, one place).
				s, err := chromedp.Run(ctx, chromedp.Evaluate[stop](`(() => { const a = document.activeElement; if (!a || a === document.body) return {Key: "body"};
					if (!a.dataset.evdocStop) a.dataset.evdocStop = String(Math.random());
					const h = a.closest("h2[id], h3[id], h4[id]");
					const toc = !!h && Array.from(document.querySelectorAll("#TableOfContents a")).some(l => decodeURIComponent(l.hash.slice(1)) === h.id);
					return {Key: a.dataset.evdocStop, Claim: a.matches("a.ev-claim"), Anchor: a.matches("a.evdoc-anchor") && toc}; })()`))
				if err != nil {
					t.Fatal(err)
				}
				if s.Key == "body" || s.Key == first {
					break
				}
				if first == "" {
					first = s.Key
				}
				stops++
				if s.Claim {
					claims++
				}
				if s.Anchor {
					anchors++
				}
			}
			t.Logf("%s: %d tab stops, %d of them claims (of %d): %d spare of claims + 100", name, stops, claims, r.Claims, r.Claims+100-stops)
			if anchors > 0 {
				t.Errorf("%d heading anchors are tab stops, though the table of contents leads to their sections", anchors)
			}
			if claims != r.Claims {
				t.Errorf("%d claims are tab stops, want every one of %d", claims, r.Claims)
			}
			if stops > r.Claims+100 {
				t.Errorf("%d tab stops for %d claims, want at most claims + 100", stops, r.Claims)
			}
			// The popover is reachable on demand: ArrowDown on a focused
			// claim moves focus to its popover's first link.
			got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => { const a = document.querySelector(".ev > a.ev-claim"); a.scrollIntoView({block: "center"}); a.focus(); return a.parentNode.querySelector(".ev-pop a").href; })()`))
			if err != nil {
				t.Fatal(err)
			}
			do(t, "ArrowDown", chromedp.KeyEvent(kb.ArrowDown))
			in, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.closest(".ev-pop") ? document.activeElement.href : "focus on " + document.activeElement.tagName + "." + document.activeElement.className`))
			if err != nil {
				t.Fatal(err)
			}
			if in != got {
				t.Errorf("ArrowDown on a focused claim: %s, want its popover's first link %s", in, got)
			}
		})

		// Landings on the evidence viewer: the cited token marked, in
		// view, and the language switcher keeping the line.
		for _, width := range []int64{390, 1280} {
			name := fmt.Sprintf("landing-%s-%d", p.lang, width)
			t.Run(name, func(t *testing.T) {
				ctx, do := tab(t)
				do(t, name, chromedp.EmulateViewport(width, 800), chromedp.Navigate(srv.URL+p.path), loaded)
				type claimLink struct {
					Href, Token, Text string
					Cell              bool // an evtable cell, whose token is its fragment's mark
				}
				links, err := chromedp.Run(ctx, chromedp.Evaluate[[]claimLink](`Array.from(document.querySelectorAll(".ev > a.ev-claim")).map(a => { const m = a.parentNode.querySelector(".ev-pop .ev-rawline mark.ev-token"); return {Href: a.href, Token: m ? m.textContent : "", Text: a.textContent}; }).filter(l => l.Token)`))
				if err != nil || len(links) < sample {
					t.Fatalf("%d claims with a raw token: %v", len(links), err)
				}
				// The evidence table's cells land as claims do: a few of
				// them, in different rows and columns (a row's cells
				// share its raw line).
				cells, err := chromedp.Run(ctx, chromedp.Evaluate[[]claimLink](`Array.from(document.querySelectorAll("table.evtable td a")).map(a => ({Href: a.href, Text: a.textContent, Cell: true}))`))
				if err != nil || len(cells) < cellSample {
					t.Fatalf("%d evtable cells: %v", len(cells), err)
				}
				tested := make([]claimLink, 0, sample+cellSample)
				for k := range sample {
					tested = append(tested, links[k*len(links)/sample])
				}
				for k := range cellSample {
					tested = append(tested, cells[k*len(cells)/cellSample])
				}
				var many, wrong, away, first, switchLost int
				var bad []string
				for _, l := range tested {
					do(t, name, chromedp.Navigate(l.Href), chromedp.Evaluate[chromedp.Void](fmt.Sprintf(landedScript, l.Href), chromedp.EvalAwaitPromise))
					r, err := chromedp.Run(ctx, chromedp.Evaluate[landingReport](landingScript))
					if err != nil {
						t.Fatal(err)
					}
					hash := l.Href[strings.Index(l.Href, "#"):]
					for _, s := range r.Switch {
						if !strings.HasSuffix(s, hash) {
							switchLost++
							bad = append(bad, fmt.Sprintf("%s: language switch to %s drops %s", l.Href, s, hash))
						}
					}
					if r.FirstIsCite {
						first++
					}
					cols := map[string]bool{}
					for _, c := range r.LandedCols {
						cols[c] = true
					}
					switch {
					case len(r.Landed) == 0 || len(cols) != 1:
						many++
						bad = append(bad, fmt.Sprintf("%q → %s (%s): %d of %d marks drawn as the landing: %q", l.Text, l.Href, r.Line, len(r.Landed), r.Marks, r.Landed))
					case l.Cell && (r.LandedCols[0] != hash[1:] || digits(strings.Join(r.Landed, "")) != digits(l.Text)):
						wrong++
						bad = append(bad, fmt.Sprintf("table cell %q → %s: landed on %q (%s)", l.Text, l.Href, strings.Join(r.Landed, ""), r.LandedCols[0]))
					case !l.Cell && strings.Join(r.Landed, "") != l.Token:
						wrong++
						bad = append(bad, fmt.Sprintf("%q → %s: landed on %q, the claim cites %q", l.Text, l.Href, strings.Join(r.Landed, ""), l.Token))
					case !r.InView:
						away++
						bad = append(bad, fmt.Sprintf("%q → %s: the cited token is not in view", l.Text, l.Href))
					}
				}
				t.Logf("%s: %d landings (%d from table cells): %d with no single token marked, %d on another token, %d out of view, %d language switches dropping the line", name, len(tested), cellSample, many, wrong, away, switchLost)
				if len(bad) > 0 {
					t.Errorf("%d problems:\n%s", len(bad), strings.Join(bad[:min(len(bad), 10)], "\n"))
				}
				// The cited-lines table links to the lines.
				bl, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("table.citations tr[id]")).filter(tr => { const a = tr.querySelector("td:first-child a"); return !a || a.hash !== "#" + tr.id.replace(/^cite-/, ""); }).map(tr => tr.id)`))
				if err != nil {
					t.Fatal(err)
				}
				if len(bl) > 0 {
					t.Errorf("cited-lines rows not linking to their line: %v", bl)
				}
			})
		}
	}

	// A screen reader's view: Chromium's accessibility tree for one claim
	// in prose and one in a table, focused.
	t.Run("screen-reader", func(t *testing.T) {
		_, do := tab(t)
		do(t, "sr", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+pages[0].path), loaded)
		for _, sel := range []string{`article > p .ev > a.ev-claim`, `.table-wrap .ev > a.ev-claim`} {
			var node ax
			do(t, sel, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const a = document.querySelector(%q); a.scrollIntoView({block: "center"}); a.focus(); })()`, sel)),
				chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					var err error
					node, err = axOf(ctx, tg)
					return err
				}))
			t.Logf("%s: role %s, name %q, description %q (%d characters), expanded %v, details %v", sel, node.Role, node.Name, node.Description, len([]rune(node.Description)), node.Expanded, node.Details)
			if node.Role != "link" || node.Name == "" {
				t.Errorf("%s: role %q, name %q; want a named link", sel, node.Role, node.Name)
			}
			if n := len([]rune(node.Description)); n == 0 || n > 300 {
				t.Errorf("%s: description of %d characters, want 1 to 300: %q", sel, n, node.Description)
			}
			if !strings.Contains(node.Description, "evidence/") {
				t.Errorf("%s: description %q names no source file", sel, node.Description)
			}
			if node.Expanded != "true" {
				t.Errorf("%s: focused with its popover showing, expanded %q", sel, node.Expanded)
			}
			if !node.Details {
				t.Errorf("%s: no details relation to the popover", sel)
			}
		}
	})

	// The 404 page, and print.
	t.Run("404-and-print", func(t *testing.T) {
		ctx, do := tab(t)
		for _, f := range []string{"404.html"} {
			b, err := os.ReadFile(filepath.Join(public, f))
			if err != nil {
				t.Errorf("no %s: %v", f, err)
				continue
			}
			if !strings.Contains(string(b), `href="/"`) {
				t.Errorf("%s links nowhere home", f)
			}
		}
		setPrint := func(on bool) chromedp.Action[chromedp.Void] {
			return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
				m := ""
				if on {
					m = "print"
				}
				_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
				return err
			})
		}
		defer chromedp.Do(ctx, setPrint(false))
		do(t, "print", chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+pages[0].path), loaded, setPrint(true),
			chromedp.Evaluate[chromedp.Void](`(() => { const a = document.querySelector(".ev > a.ev-claim"); a.focus(); a.parentNode.classList.add("open"); })()`))
		type printReport struct {
			Pops, Tables int
			Skip         string
		}
		pr, err := chromedp.Run(ctx, chromedp.Evaluate[printReport](`({Pops: Array.from(document.querySelectorAll(".ev-pop")).filter(p => getComputedStyle(p).display !== "none").length,
			Tables: Array.from(document.querySelectorAll(".table-wrap")).filter(w => getComputedStyle(w).overflowX !== "visible").length,
			Skip: getComputedStyle(document.querySelector(".evdoc-skip")).display})`))
		if err != nil {
			t.Fatal(err)
		}
		if pr.Pops > 0 || pr.Tables > 0 || pr.Skip != "none" {
			t.Errorf("printed: %d popovers shown, %d table boxes clipping, skip link display %s; want 0, 0, none", pr.Pops, pr.Tables, pr.Skip)
		}
		do(t, "print evidence", chromedp.Navigate(srv.URL+"/evidence/dns-passthrough-tcp/report-md/"), loaded)
		w, err := chromedp.Run(ctx, chromedp.Evaluate[[]int](`(() => { const b = document.querySelector(".evidence-raw"); return [b.scrollWidth, b.clientWidth]; })()`))
		if err != nil {
			t.Fatal(err)
		}
		if w[0] > w[1] {
			t.Errorf("printed evidence viewer: raw lines %d px wide in a %d px box (cut off on paper)", w[0], w[1])
		}
	})
}

// ax is what a screen reader reads of one element: Chromium's
// accessibility node of it.
type ax struct {
	Role, Name, Description, Expanded string
	Details                           bool
}

// axOf returns the accessibility node of the focused element.
func axOf(ctx context.Context, tg *chromedp.Target) (ax, error) {
	var out ax
	if _, err := cdp.Call(ctx, tg, accessibility.Enable, cdp.Empty{}); err != nil {
		return out, err
	}
	doc, err := cdp.Call(ctx, tg, dom.GetDocument, dom.GetDocumentParams{Depth: ptr(int64(0))})
	if err != nil {
		return out, err
	}
	// the focused element: the first match of :focus
	q, err := cdp.Call(ctx, tg, dom.QuerySelector, dom.QuerySelectorParams{NodeID: doc.Root.NodeID, Selector: "a.ev-claim:focus"})
	if err != nil {
		return out, err
	}
	if q.NodeID == 0 {
		return out, fmt.Errorf("no focused claim")
	}
	res, err := cdp.Call(ctx, tg, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{NodeID: q.NodeID, FetchRelatives: ptr(false)})
	if err != nil {
		return out, err
	}
	if len(res.Nodes) == 0 {
		return out, fmt.Errorf("no accessibility node")
	}
	n := res.Nodes[0]
	str := func(v *accessibility.Value) string {
		if v == nil {
			return ""
		}
		var s string
		if err := json.Unmarshal(v.Value, &s); err != nil {
			return string(v.Value)
		}
		return s
	}
	out.Role, out.Name, out.Description = str(n.Role), str(n.Name), str(n.Description)
	for _, p := range n.Properties {
		switch p.Name {
		case accessibility.PropertyNameExpanded:
			out.Expanded = str(p.Value)
		case accessibility.PropertyNameDetails:
			out.Details = p.Value != nil && len(p.Value.RelatedNodes) > 0
		}
	}
	return out, nil
}

func ptr[T any](v T) *T { return &v }

// digits returns the decimal digits of s: a table cell's number and its
// raw token written with other separators or units compare equal.
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
