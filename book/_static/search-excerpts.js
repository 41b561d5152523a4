// The search page's excerpts from the book's words only: Sphinx 7.4 cuts each result's excerpt
// from the page's whole main block, which here also holds the print-only table of contents
// and every code cell (its "Show code" words and its parameters). Those parts are removed
// before Sphinx's own htmlToText reads the page.
"use strict";
(() => {
  const NOT_PROSE = "#jb-print-docs-body, div.cell_input, details.hide";
  const readPage = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    page.querySelectorAll(NOT_PROSE).forEach((part) => part.remove());
    return readPage(page.documentElement.outerHTML, anchor);
  };
})();
