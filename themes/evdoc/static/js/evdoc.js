// evdoc claim popovers. CSS shows a claim's popover on hover and while
// focus is inside it; this script adds touch (a first tap opens the
// popover, a second follows the link), Escape to close, and
// aria-expanded for assistive technology.
(function () {
  "use strict";
  function close(except) {
    document.querySelectorAll(".ev.open").forEach(function (el) {
      if (el !== except) {
        el.classList.remove("open");
        var a = el.querySelector("a.ev-claim");
        if (a) a.setAttribute("aria-expanded", "false");
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll(".ev > a.ev-claim").forEach(function (a) {
      a.setAttribute("aria-expanded", "false");
      var touched = false;
      a.addEventListener("pointerdown", function (e) { touched = e.pointerType === "touch"; });
      a.addEventListener("click", function (e) {
        var ev = a.parentNode;
        if (touched && !ev.classList.contains("open")) {
          e.preventDefault();
          close(ev);
          ev.classList.add("open");
          a.setAttribute("aria-expanded", "true");
        }
      });
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape") close(null);
    });
    document.addEventListener("click", function (e) {
      if (!e.target.closest || !e.target.closest(".ev")) close(null);
    });
  });
})();
