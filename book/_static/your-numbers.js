// The "your numbers" panel (book/_ext/your_numbers.py writes its form): imported when the reader
// first opens it. It starts Pyodide from the site's own _pyodide/ folder, unpacks the book's
// modules there (book.zip) and, for the values in the form, calls panel.answer, the book's own
// Python: every number, table cell, verdict and the parameter line come back as the texts the
// page shows, in the edition's notation, and are written where the page shows them. No number is
// computed or formatted here. A value the book refuses shows its one-line message, and nothing
// else changes. The figures, drawn for the article's values, are dimmed while the values differ.
// The values that are not the article's live in the page's address (?c_ms=1), so that a link
// opens the page with them; a link that carries some opens the panel at once.
const panel = document.querySelector("details.your-numbers");
const form = panel.querySelector("form");
const status = panel.querySelector(".your-numbers-status");
const article = document.querySelector("article");
const words = JSON.parse(panel.dataset.words);

// The service worker that keeps Pyodide for every later page, offline too (where the browser
// allows one: not from file://, which the catch leaves as it is).
navigator.serviceWorker?.register(new URL("../your-numbers-sw.js",
  new URL(panel.dataset.pyodide, document.baseURI))).catch(() => {});

// The book's Python, once: a function from {name: text typed} to the page's texts.
const python = (async () => {
  status.textContent = words.loading;
  const base = new URL(panel.dataset.pyodide, document.baseURI);
  const { loadPyodide } = await import(new URL("pyodide.mjs", base).href);
  const pyodide = await loadPyodide({ indexURL: base.href });
  const modules = await fetch(new URL("book.zip", base));
  pyodide.unpackArchive(await modules.arrayBuffer(), "zip", { extractDir: "/book" });
  pyodide.runPython("import sys; sys.path.insert(0, '/book')");
  const module = pyodide.pyimport("panel");
  const { section, lang } = panel.dataset;
  return {
    answer: (typed) => JSON.parse(module.answer(section, lang, JSON.stringify(typed))),
    fromLink: (linked) => JSON.parse(module.from_link(lang, JSON.stringify(linked))),
    toLink: (typed) => JSON.parse(module.to_link(section, lang, JSON.stringify(typed))),
  };
})();

// The form's values, as typed, by name.
const typedValues = () =>
  Object.fromEntries([...form.elements].filter((e) => e.name).map((e) => [e.name, e.value]));

// The page's address with ``values`` ({name: value in the book's notation}) as its query: a link
// that opens this page with them (the language switcher carries it to the other editions).
function link(values) {
  const url = new URL(window.location.href);
  for (const element of form.elements) if (element.name) url.searchParams.delete(element.name);
  for (const [name, value] of Object.entries(values)) url.searchParams.set(name, value);
  window.history.replaceState(null, "", url);
}

// Write a recomputed page: the glued values by key, the tables' cells, what the cells printed,
// the parameter line.
function show(page) {
  for (const [key, text] of Object.entries(page.glued)) {
    for (const element of article.querySelectorAll(`[data-key="${key}"]`)) element.textContent = text;
  }
  const tables = article.querySelectorAll(".cell_output table");
  page.tables.forEach((rows, t) => rows.forEach((cells, r) => cells.forEach((text, c) => {
    const cell = tables[t].tBodies[0].rows[r].cells[c];
    (cell.querySelector("p") || cell).textContent = text;
  })));
  const streams = article.querySelectorAll(".cell_output .output.stream pre");
  page.printed.forEach((text, index) => { streams[index].textContent = text; });
  const label = article.querySelector(".cell_output > p > strong:first-child");
  label.parentElement.lastChild.textContent = " " + page.parameters;
  for (const output of article.querySelectorAll(".cell_output:has(> img)")) {
    output.classList.toggle("your-numbers-stale", !page.article_values);
    const note = output.querySelector(".your-numbers-note");
    if (page.article_values) {
      note?.remove();
    } else if (!note) {
      const added = document.createElement("p");
      added.className = "your-numbers-note";
      added.textContent = words.drawn_for_article;
      output.append(added);
    }
  }
}

async function recompute() {
  let page, book;
  try {
    book = await python;
    page = book.answer(typedValues());
  } catch (error) {   // Pyodide did not start (an old browser, a file missing): say so, briefly
    status.textContent = words.unavailable.replace("{error}", String(error).trim().split("\n").pop());
    return;
  }
  for (const input of form.querySelectorAll("input")) input.removeAttribute("aria-invalid");
  if (page.error) {   // the book's refusal, in the edition's words, names the parameter
    if (page.parameter) form.elements[page.parameter]?.setAttribute("aria-invalid", "true");
    status.textContent = page.error;
    return;
  }
  show(page);
  link(book.toLink(typedValues()));
  status.textContent = page.article_values ? words.article_values : words.recomputed;
}

// Values the page's address carries (a shared link, or another edition's switcher) fill the form
// in this edition's notation first.
async function start() {
  const linked = Object.fromEntries([...new URLSearchParams(window.location.search)]
    .filter(([name]) => form.elements[name]));
  if (Object.keys(linked).length) {
    try {
      for (const [name, text] of Object.entries((await python).fromLink(linked))) {
        form.elements[name].value = text;
      }
    } catch (error) { /* recompute() says that the book's Python could not start */ }
  }
  recompute();
}

form.addEventListener("submit", (event) => { event.preventDefault(); recompute(); });
form.addEventListener("change", recompute);
form.addEventListener("reset", () => setTimeout(recompute));   // after the fields are reset
start();
