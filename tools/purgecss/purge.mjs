// The themes' whole stylesheets cut by purgecss to the rules one built edition can use, each
// written over its copy in the site (tools/purge_css.py runs this and says why).
//
//   node tools/purgecss/purge.mjs SITE WHOLE MARK SHEET...
//
// SITE is the edition's folder (_build/html/en), WHOLE the folder holding the themes' whole
// files at the same relative paths (_build/whole-css/en), SHEET a stylesheet's path relative to
// both, MARK what each cut file starts with (an @charset, then a comment: how
// tools/purge_css.py tells a cut copy from a whole one). Only purgecss's public API.
import { rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { PurgeCSS } from "purgecss";

const [site, whole, mark, ...sheets] = process.argv.slice(2);

const results = await new PurgeCSS().purge({
  // Every page, and every script that can put a class on a page: purgecss's default extractor
  // takes each run of letters, digits, "_" and "-" as a name, so a class that a script adds
  // (Bootstrap's "show" and "collapsing") keeps its rules, as do the theme's dark-mode rules
  // (html[data-theme=dark]: "data-theme" and "dark" are words of its pages and scripts). The
  // search index (110 kB) names no class: its words would only keep rules for words of the prose.
  content: [`${site}/**/*.html`, `${site}/**/*.js`],
  skippedContentGlobs: [`${site}/searchindex.js`],
  css: sheets.map((sheet) => path.join(whole, sheet)),
});

for (const result of results) {
  // The file's own @charset gives way to MARK's; its source map maps the whole file
  // (tools/purge_css.py removes it), so the comment that points a browser's tools at it goes.
  const css = result.css.replace(/^@charset "UTF-8";\s*/i, "")
    .replace(/\/\*# sourceMappingURL=[^*]*\*\/\s*$/, "");
  const target = path.join(site, path.relative(whole, result.file));
  // Renamed into place: a build stopped mid-write leaves the old file, never half a stylesheet.
  await writeFile(`${target}.purging`, mark + css.trimEnd() + "\n");
  await rename(`${target}.purging`, target);
}
