// evdoc claim popovers. CSS shows a claim's popover on hover and while
// focus is inside it, as a sheet at the bottom of the viewport (fixed, so
// no table's scroll box clips it). This script places the popover beside
// its claim on wide screens, inside the viewport; adds touch (a first tap
// opens the popover, a second follows the link), Escape to close, and
// aria-expanded for assistive technology; takes the tab stop off table
// boxes that do not scroll; and on an evidence page scrolls the cited
// value of the line a claim landed on into view.
(function () {
  "use strict";
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
