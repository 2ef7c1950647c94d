// evdoc claim popovers. This script fills each popover from its
// data-ev-pop attribute (the page's text holds only the claims' own
// text). CSS shows a claim's popover on hover and while focus is inside
// it, as a sheet at the bottom of the viewport (fixed, so no table's
// scroll box clips it). This script places the popover beside
// its claim on wide screens, inside the viewport; adds touch (a first tap
// opens the popover, a second follows the link), Escape to close, and
// aria-expanded for assistive technology; takes the tab stop off table
// boxes that do not scroll; and on an evidence page scrolls the cited
// value of the line a claim landed on into view. A page may load it twice
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
      return;
    }
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

  function close(except) {
    document.querySelectorAll(".ev.open").forEach(function (el) {
      if (el !== except) {
        el.classList.remove("open");
        var a = el.querySelector(":scope > a.ev-claim");
        if (a) a.setAttribute("aria-expanded", "false");
      }
    });
  }

  function dismiss() {
    shown().forEach(function (ev) { ev.classList.add("dismissed"); });
    close(null);
  }

  // The host's colour scheme, as the page shows it: the luminance of the
  // first opaque background from <body> up, marked on the root as
  // data-evdoc-scheme (site.css and chroma.css take their dark or light
  // colours from it), again whenever the theme switches modes (a class
  // or attribute on <html> or <body>, the system setting). A page with no
  // opaque background is left to prefers-color-scheme.
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
    var attrs = { attributes: true, attributeFilter: ["class", "style", "data-theme", "data-bs-theme", "data-mode", "data-color-mode"] };
    watch.observe(root, attrs);
    if (document.body) watch.observe(document.body, attrs);
  }
  if (window.matchMedia) {
    var system = window.matchMedia("(prefers-color-scheme: dark)");
    if (system.addEventListener) system.addEventListener("change", scheme);
  }
  document.addEventListener("transitionend", function (e) {
    if (e.target === document.body || e.target === root) scheme();
  });

  function landing() {
    var line = document.querySelector(".evidence-raw .line:target");
    if (!line) return;
    var box = line.closest(".evidence-raw");
    var mark = line.querySelector("mark.ev-token");
    if (!box || !mark) return;
    var b = box.getBoundingClientRect(), m = mark.getBoundingClientRect();
    if (m.left < b.left || m.right > b.right) {
      box.scrollLeft += m.left - b.left - b.width / 3;
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    // A popover's HTML comes in its data-ev-pop attribute, so a theme's
    // .Plain, .Summary and search index hold only the claim's own text.
    document.querySelectorAll(".ev-pop[data-ev-pop]").forEach(function (pop) {
      pop.innerHTML = pop.getAttribute("data-ev-pop");
      pop.removeAttribute("data-ev-pop");
    });
    document.querySelectorAll(".ev").forEach(function (ev) {
      var a = ev.querySelector(":scope > a.ev-claim");
      if (!a) return;
      a.setAttribute("aria-expanded", "false");
      var touched = false;
      ev.addEventListener("mouseenter", function () { place(ev); });
      ev.addEventListener("focusin", function () { place(ev); });
      ev.addEventListener("mouseleave", function () { ev.classList.remove("dismissed"); });
      ev.addEventListener("focusout", function (e) {
        if (!ev.contains(e.relatedTarget)) ev.classList.remove("dismissed");
      });
      a.addEventListener("pointerdown", function (e) { touched = e.pointerType === "touch"; });
      a.addEventListener("click", function (e) {
        if (touched && !ev.classList.contains("open")) {
          e.preventDefault();
          close(ev);
          ev.classList.remove("dismissed");
          ev.classList.add("open");
          a.setAttribute("aria-expanded", "true");
          place(ev);
        }
      });
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" || e.key === "Esc") dismiss();
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
    landing();
    window.addEventListener("hashchange", landing);
  });
})();
