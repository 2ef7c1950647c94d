// evdoc claim popovers. This script fills each popover with its body
// from its evidence set's popover file (loadPopovers; the page's text
// holds only the claims' own text). CSS shows a claim's popover on hover and while focus is inside
// it, as a sheet at the bottom of the viewport (fixed, so no table's
// scroll box clips it), or at the top when the claim is in the lower half
// of the screen, so the sheet never covers the number it explains. This
// script places the popover beside its claim on wide screens, inside the
// viewport; adds touch (a tap on a claim opens its popover and never
// follows the claim's link: the popover's own links lead to the
// evidence), Escape to close, ArrowDown to move into the popover from
// its claim (its links are not tab stops, so Tab goes from claim to
// claim), aria-details and aria-describedby naming the popover and its
// description, data-ev-origin from the claim's class, and aria-expanded
// telling whether the popover shows; takes the tab stop off table boxes
// that do not scroll; and on an evidence page marks the cited token a
// claim's link landed on (#L12-34, the token's anchor; a token the
// lexer split carries data-ev-tok on its other pieces), scrolls it into
// view, and keeps the line in the links to the page's other languages
// (a[hreflang]). A page may load it twice
// (a theme's head hook and the site's own head both calling evdoc's head
// partial, or a copied <script> tag): the second load does nothing, so
// every claim has one set of listeners.
(function () {
  "use strict";
  var root = document.documentElement;
  if (root.hasAttribute("data-evdoc-js")) return;
  root.setAttribute("data-evdoc-js", "");
  var MARGIN = 8;
  // Below this width the popover stays a bottom sheet (see site.css).
  var narrow = window.matchMedia("(max-width: 40rem)");

  function place(ev) {
    var pop = ev.querySelector(":scope > .ev-pop");
    var a = ev.querySelector(":scope > a.ev-claim");
    if (!pop || !a) return;
    if (narrow.matches) {
      pop.classList.remove("ev-placed");
      pop.style.left = pop.style.top = pop.style.maxHeight = "";
      // The sheet takes the half of the screen the claim is not in.
      var r = a.getBoundingClientRect();
      pop.classList.toggle("ev-top", (r.top + r.bottom) / 2 > window.innerHeight / 2);
      return;
    }
    pop.classList.remove("ev-top");
    pop.classList.add("ev-placed");
    pop.style.left = "0px";
    pop.style.top = "0px";
    pop.style.maxHeight = "";
    var vw = document.documentElement.clientWidth, vh = window.innerHeight;
    var rects = a.getClientRects();
    var first = rects.length ? rects[0] : a.getBoundingClientRect();
    var last = rects.length ? rects[rects.length - 1] : first;
    var below = vh - MARGIN - last.bottom, above = first.top - MARGIN;
    var h = pop.getBoundingClientRect().height;
    // Below the claim, else above it; a popover taller than either
    // side gets the larger one and scrolls.
    var under = h <= below || (h > above && below >= above);
    if (h > (under ? below : above)) {
      pop.style.maxHeight = Math.max(Math.floor(under ? below : above), 48) + "px";
      h = pop.getBoundingClientRect().height;
    }
    var p = pop.getBoundingClientRect();
    var anchor = under ? last : first;
    var left = Math.max(MARGIN, Math.min(anchor.left, vw - MARGIN - p.width));
    var top = under ? last.bottom - 1 : first.top - h + 1;
    pop.style.left = Math.round(left) + "px";
    pop.style.top = Math.round(top) + "px";
  }

  function shown() {
    return Array.prototype.filter.call(document.querySelectorAll(".ev"), function (ev) {
      var pop = ev.querySelector(":scope > .ev-pop");
      return pop && getComputedStyle(pop).display !== "none";
    });
  }

  // expanded sets the claim's aria-expanded to whether its popover shows:
  // opened by a tap, hovered, or with focus inside (focused: whether it
  // is, as a focus event knows before the document does), and not
  // dismissed by Escape.
  function expanded(ev, focused) {
    var a = ev.querySelector(":scope > a.ev-claim");
    if (!a) return;
    if (focused === undefined) focused = ev.contains(document.activeElement);
    var on = !ev.classList.contains("dismissed") && (ev.classList.contains("open") || focused || ev.matches(":hover"));
    a.setAttribute("aria-expanded", on ? "true" : "false");
  }

  function close(except) {
    document.querySelectorAll(".ev.open").forEach(function (el) {
      if (el !== except) {
        el.classList.remove("open");
        expanded(el);
      }
    });
  }

  function dismiss() {
    shown().forEach(function (ev) { ev.classList.add("dismissed"); expanded(ev); });
    close(null);
  }

  // The host's colour scheme, as the page shows it: the luminance of the
  // first opaque background from <body> up, marked on the root as
  // data-evdoc-scheme (site.css and chroma.css take their dark or light
  // colours from it), again whenever the theme switches modes (any
  // attribute of <html> or <body>: a class, or an attribute of the
  // theme's own such as Relearn's data-r-theme-variant; the system
  // setting). A page with no opaque background is left to
  // prefers-color-scheme.
  var canvas = document.createElement("canvas");
  canvas.width = canvas.height = 1;
  var paint = canvas.getContext && canvas.getContext("2d", { willReadFrequently: true });
  function rgba(colour) {
    // The canvas reads every CSS colour syntax (rgb, oklch, color()).
    paint.clearRect(0, 0, 1, 1);
    paint.fillStyle = "rgba(0, 0, 0, 0)";
    paint.fillStyle = colour;
    paint.fillRect(0, 0, 1, 1);
    return paint.getImageData(0, 0, 1, 1).data;
  }
  function scheme() {
    if (!paint || !document.body) return;
    var lum = -1;
    for (var el = document.body; el && lum < 0; el = el.parentElement) {
      var c = rgba(getComputedStyle(el).backgroundColor);
      if (c[3] < 128) continue;
      var lin = [c[0], c[1], c[2]].map(function (v) {
        v /= 255;
        return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
      });
      lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
    }
    // At 0.18 a background contrasts as much with black as with white.
    var want = lum < 0 ? null : lum < 0.18 ? "dark" : "light";
    if (want === null) root.removeAttribute("data-evdoc-scheme");
    else if (root.getAttribute("data-evdoc-scheme") !== want) root.setAttribute("data-evdoc-scheme", want);
  }
  scheme();
  if (window.MutationObserver) {
    var watch = new MutationObserver(scheme);
    watch.observe(root, { attributes: true });
    if (document.body) watch.observe(document.body, { attributes: true });
  }
  if (window.matchMedia) {
    var system = window.matchMedia("(prefers-color-scheme: dark)");
    if (system.addEventListener) system.addEventListener("change", scheme);
  }
  document.addEventListener("transitionend", function (e) {
    if (e.target === document.body || e.target === root) scheme();
  });

  // landing marks the cited token the page's fragment names (#L12-34;
  // a fragment naming a line, #L12, marks nothing but the line), scrolls
  // it into view inside the raw panel, and keeps the fragment in the
  // links to the page's other languages, whose viewer has the same lines.
  function landing() {
    document.querySelectorAll(".evidence-raw .ev-here").forEach(function (m) { m.classList.remove("ev-here"); });
    if (!/^#L\d+(-\d+)?$/.test(location.hash)) return;
    var target = document.getElementById(location.hash.slice(1));
    if (!target || !target.closest(".evidence-raw")) return;
    document.querySelectorAll("a[hreflang]").forEach(function (l) {
      if (l.hostname === location.hostname) l.hash = location.hash;
    });
    var line = target.closest(".line");
    var box = target.closest(".evidence-raw");
    if (!line || !box) return;
    var mark = target.matches("mark.ev-token") ? target : null;
    if (mark) {
      mark.classList.add("ev-here");
      line.querySelectorAll('mark[data-ev-tok="' + mark.id + '"]').forEach(function (m) { m.classList.add("ev-here"); });
    } else {
      mark = line.querySelector("mark.ev-token");
    }
    if (!mark) return;
    var b = box.getBoundingClientRect(), m = mark.getBoundingClientRect();
    if (m.left < b.left || m.right > b.right) {
      box.scrollLeft += m.left - b.left - b.width / 3;
    }
  }


  // The popover bodies are not in the page: each evidence set's are in
  // its popover file (a script calling evdocPopovers(SET, {KEY: BODY})),
  // whose URL in the page's language the page's <meta
  // name="evdoc-popovers"> gives. A claim's popover names its set
  // (data-ev-s); its data key is its link's data-ev, with data-ev-k
  // after it where the claim writes the value at its own precision.
  // Each file the page's claims need is loaded once with a script
  // element (which works over HTTP and from file://, where fetch does
  // not); when it has run, each popover of the set gets its key's body,
  // its description (the first .ev-desc) the popover's id with "-d",
  // and its links tabindex -1 (reached from the claim by ArrowDown, not
  // by Tab). A popover whose file fails to load, or which names a key
  // its file lacks, says that its explanation could not be loaded
  // (the meta's data-ev-fail, in the page's language); the claim still
  // links to its raw line. The meta and the script elements are removed
  // once read and run.
  var bodies = {};
  window.evdocPopovers = function (set, m) {
    var b = bodies[set] || (bodies[set] = {});
    for (var k in m) if (Object.prototype.hasOwnProperty.call(m, k)) b[k] = m[k];
  };
  function fillPopover(pop, body, fail) {
    pop.removeAttribute("data-ev-s");
    pop.removeAttribute("data-ev-k");
    if (typeof body === "string") {
      pop.innerHTML = body;
    } else {
      var d = document.createElement("span");
      d.className = "ev-desc";
      d.textContent = fail;
      pop.textContent = "";
      pop.appendChild(d);
      pop.classList.add("ev-pop-failed");
    }
    var desc = pop.querySelector(":scope > .ev-desc");
    if (desc && pop.id) desc.id = pop.id + "-d";
    pop.querySelectorAll("a[href]").forEach(function (l) { l.setAttribute("tabindex", "-1"); });
  }
  function loadPopovers() {
    var files = {}, fail = "The explanation of this value could not be loaded; the link leads to its raw line.";
    document.querySelectorAll('meta[name="evdoc-popovers"]').forEach(function (m) {
      try {
        var o = JSON.parse(m.getAttribute("content"));
        for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) files[k] = o[k];
      } catch (e) { /* a broken map loads nothing: the popovers say so */ }
      if (m.getAttribute("data-ev-fail")) fail = m.getAttribute("data-ev-fail");
      m.parentNode.removeChild(m);
    });
    // Under evdoc serve a popover's body is in its data-ev-pop attribute
    // (Hugo's server renders the popover files again only on a full
    // build).
    document.querySelectorAll(".ev-pop[data-ev-pop]").forEach(function (pop) {
      var b = pop.getAttribute("data-ev-pop");
      pop.removeAttribute("data-ev-pop");
      fillPopover(pop, b, fail);
    });
    var bySet = {};
    document.querySelectorAll(".ev-pop[data-ev-s]").forEach(function (pop) {
      var set = pop.getAttribute("data-ev-s");
      (bySet[set] || (bySet[set] = [])).push(pop);
    });
    Object.keys(bySet).forEach(function (set) {
      var pops = bySet[set];
      var fill = function (ok) {
        var b = ok ? bodies[set] || {} : {};
        pops.forEach(function (pop) {
          var a = pop.parentNode && pop.parentNode.querySelector(":scope > a.ev-claim");
          var key = (a ? a.getAttribute("data-ev") || "" : "") + (pop.getAttribute("data-ev-k") || "");
          fillPopover(pop, Object.prototype.hasOwnProperty.call(b, key) ? b[key] : null, fail);
        });
      };
      if (!Object.prototype.hasOwnProperty.call(files, set)) { fill(false); return; }
      var s = document.createElement("script");
      s.src = files[set];
      s.async = true;
      s.onload = function () { s.parentNode && s.parentNode.removeChild(s); fill(true); };
      s.onerror = function () { s.parentNode && s.parentNode.removeChild(s); fill(false); };
      document.head.appendChild(s);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    loadPopovers();
    document.querySelectorAll(".ev").forEach(function (ev) {
      var a = ev.querySelector(":scope > a.ev-claim");
      if (!a) return;
      // The claim's link names its popover as its details and the
      // popover's description as its own (the page's HTML leaves these
      // to this script: a page holds thousands of claims).
      var pop = ev.querySelector(":scope > .ev-pop");
      if (pop && pop.id) {
        a.setAttribute("aria-details", pop.id);
        a.setAttribute("aria-describedby", pop.id + "-d");
      }
      a.setAttribute("aria-expanded", "false");
      // The value's origin, written as the link's class ev-ORIGIN (ev-raw,
      // ev-transcribed), as an attribute too.
      for (var i = 0; i < a.classList.length && !a.hasAttribute("data-ev-origin"); i++) {
        var c = a.classList[i];
        if (c !== "ev-claim" && c.indexOf("ev-") === 0) a.setAttribute("data-ev-origin", c.slice(3));
      }
      var touched = false;
      ev.addEventListener("mouseenter", function () { place(ev); expanded(ev); });
      ev.addEventListener("focusin", function () { place(ev); expanded(ev, true); });
      ev.addEventListener("mouseleave", function () { ev.classList.remove("dismissed"); expanded(ev); });
      ev.addEventListener("focusout", function (e) {
        var inside = ev.contains(e.relatedTarget);
        if (!inside) ev.classList.remove("dismissed");
        expanded(ev, inside);
      });
      a.addEventListener("pointerdown", function (e) { touched = e.pointerType === "touch" || e.pointerType === "pen"; });
      a.addEventListener("click", function (e) {
        // A tap opens the popover and never follows the link: the
        // popover's links lead to the evidence.
        if (touched || e.pointerType === "touch" || e.pointerType === "pen") {
          touched = false;
          e.preventDefault();
          close(ev);
          ev.classList.remove("dismissed");
          ev.classList.add("open");
          place(ev);
          expanded(ev);
        }
      });
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" || e.key === "Esc") {
        var ev = document.activeElement && document.activeElement.closest && document.activeElement.closest(".ev");
        dismiss();
        // from inside a popover, focus goes back to its claim
        if (ev && document.activeElement !== ev.querySelector(":scope > a.ev-claim")) {
          var c = ev.querySelector(":scope > a.ev-claim");
          if (c) c.focus();
          ev.classList.add("dismissed");
          expanded(ev);
        }
        return;
      }
      // ArrowDown on a claim moves into its popover; ArrowDown and
      // ArrowUp move between the popover's links.
      if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
      var el = document.activeElement;
      var host = el && el.closest ? el.closest(".ev") : null;
      if (!host) return;
      var pop = host.querySelector(":scope > .ev-pop");
      var links = pop ? Array.prototype.slice.call(pop.querySelectorAll("a[href]")) : [];
      if (!links.length) return;
      var i = links.indexOf(el);
      if (i < 0 && e.key === "ArrowUp") return;
      e.preventDefault();
      var next = i < 0 ? 0 : (i + (e.key === "ArrowDown" ? 1 : links.length - 1)) % links.length;
      links[next].focus();
    });
    document.addEventListener("click", function (e) {
      if (!e.target.closest || !e.target.closest(".ev")) close(null);
    });
    var replace = function () { shown().forEach(place); };
    window.addEventListener("scroll", replace, { passive: true, capture: true });
    window.addEventListener("resize", replace);
    // A table box that does not scroll needs no tab stop of its own.
    document.querySelectorAll(".table-wrap[tabindex]").forEach(function (w) {
      if (w.scrollWidth <= w.clientWidth) w.removeAttribute("tabindex");
    });
    // A heading's anchor link whose section another link of the page
    // (the table of contents) already leads to is not a second tab stop
    // to the same place: the keyboard reaches the section from that
    // link; a mouse and a screen reader's list of links still find it.
    // (Hugo writes an anchor's fragment percent-encoded, the table of
    // contents' as text: the two compare by the element they name.)
    var section = function (l) {
      try { return document.getElementById(decodeURIComponent(l.hash.slice(1))); } catch (e) { return null; }
    };
    var reached = [];
    document.querySelectorAll("a[href^='#']:not(.evdoc-anchor)").forEach(function (l) {
      var s = l.getAttribute("tabindex") !== "-1" && section(l);
      if (s) reached.push(s);
    });
    document.querySelectorAll("a.evdoc-anchor").forEach(function (a) {
      var s = section(a);
      if (s && reached.indexOf(s) >= 0) a.setAttribute("tabindex", "-1");
    });
    landing();
    window.addEventListener("hashchange", landing);
  });
})();
