// What scrolls sideways on a page (a table in pydata-sphinx-theme's scroll container, a code
// cell's lines, a display formula wider than the column): each such box is marked .sideways, and .more-left or .more-right while more of
// it lies beyond that edge, for site.css to fade the edge; again on every scroll, resize and
// opened "show code" box (whose lines had no width while folded).
"use strict";
(() => {
  const BOXES = ".pst-scrollable-table-container, article div.highlight pre, article div.math";
  const mark = (box) => {
    const beyond = box.scrollWidth - box.clientWidth - box.scrollLeft;
    box.classList.toggle("sideways", box.scrollWidth > box.clientWidth + 1);
    box.classList.toggle("more-left", box.scrollLeft > 1);
    box.classList.toggle("more-right", beyond > 1);
  };
  const markAll = () => document.querySelectorAll(BOXES).forEach(mark);
  const start = () => {
    document.querySelectorAll(BOXES).forEach(
      (box) => box.addEventListener("scroll", () => mark(box), { passive: true }));
    markAll();
    window.addEventListener("resize", markAll);
    document.addEventListener("toggle", markAll, true);   // <details> toggles do not bubble
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
