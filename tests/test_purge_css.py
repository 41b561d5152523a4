"""tools/purge_css.py on stylesheets written here: what it keeps and what it drops. Whether the
cut changes anything a reader sees is checked in a browser, on the built site
(tests/test_site.py::test_the_cut_stylesheets_change_nothing_a_reader_sees)."""
import pathlib

from purge_css import MARK, cut, purge_site, rules, site_words


def kept(css: str, words: set) -> list:
    """The preludes of what ``cut`` keeps, nested blocks as (prelude, inner preludes)."""
    out = []
    for prelude, block in rules(cut(css, words)):
        out.append((prelude, [p for p, _ in rules(block)]) if prelude.startswith("@") else prelude)
    return out


def test_a_rule_stays_when_one_of_its_selectors_names_only_words_of_the_site():
    css = ".a{color:red}.b{color:blue}.a .b{x:1}.a,.c{y:2}#main .a{z:3}#other{z:4}.c,.d>.a{w:5}"
    assert kept(css, {"a", "main", "d"}) == [".a", ".a,.c", "#main .a", ".c,.d>.a"]


def test_elements_attributes_pseudo_classes_and_negations_never_remove_a_rule():
    css = ("p{m:0}:root{--x:1}[data-theme=dark] p{c:1}a:hover{c:2}"
           ".a:not(.absent){c:3}.a:is(.gone, .also-gone){c:4}[href$='.pdf']{c:5}")
    assert kept(css, {"a"}) == ["p", ":root", "[data-theme=dark] p", "a:hover", ".a:not(.absent)",
                                ".a:is(.gone, .also-gone)", "[href$='.pdf']"]


def test_blocks_of_rules_are_cut_inside_and_dropped_when_empty_other_at_rules_stay():
    css = ("@media (max-width:10px){.a{c:1}.b{c:2}}@media print{.b{c:3}}"
           "@font-face{font-family:x}@keyframes spin{from{t:0}to{t:1}}")
    assert kept(css, {"a"}) == [("@media (max-width:10px)", [".a"]), ("@font-face", []),
                                ("@keyframes spin", ["from", "to"])]


def test_braces_and_semicolons_in_strings_comments_and_escapes_do_not_split_a_rule():
    css = '.a{content:"}{;"}/* .b{} } */.c\\{{x:1}.a::after{content:\'\\\'}\'}'
    assert kept(css, {"a"}) == [".a", ".c\\{", ".a::after"]


def test_the_charset_comes_first_and_the_licence_comment_stays(tmp_path):
    site = tmp_path / "site"
    (site / "_static").mkdir(parents=True)
    (site / "page.html").write_text('<p class="kept">x</p><script>el.classList.add("shown")</script>')
    whole = '@charset "UTF-8";\n/*!\n * Licensed under MIT\n */.kept{a:1}.shown{b:2}.gone{c:3}'
    (site / "_static" / "basic.css").write_text(whole)
    (site / "_static" / "basic.css.map").write_text("{}")
    originals = tmp_path / "whole"
    assert purge_site(site, originals) == [site / "_static" / "basic.css"]
    text = (site / "_static" / "basic.css").read_text()
    assert text.startswith('@charset "UTF-8";\n') and text.startswith(MARK)
    assert "Licensed under MIT" in text and ".kept{" in text and ".shown{" in text
    assert ".gone" not in text and text.count("@charset") == 1
    assert not (site / "_static" / "basic.css.map").exists()
    assert (originals / "_static" / "basic.css").read_text() == whole
    # a rebuild cuts from the whole file: a class that appears later brings its rule back
    (site / "other.html").write_text('<div class="gone"></div>')
    assert purge_site(site, originals) == [site / "_static" / "basic.css"]
    assert ".gone{" in (site / "_static" / "basic.css").read_text()
    # and nothing changed means nothing written
    assert purge_site(site, originals) == []


def test_prose_words_and_the_search_index_are_not_names_the_scripts_words_are(tmp_path):
    (tmp_path / "page.html").write_text('<p class="note" id="top">a card, a modal</p>'
                                        '<script>x.className = "dark"</script>')
    (tmp_path / "searchindex.js").write_text('Search.setIndex({"terms": {"popover": 1}})')
    (tmp_path / "theme.js").write_text('el.classList.toggle("collapsing")')
    words = site_words(pathlib.Path(tmp_path))
    assert {"note", "top", "dark", "collapsing"} <= words
    assert not {"card", "modal", "popover"} & words


def test_a_rebuild_cuts_again_only_what_changed_words_or_a_whole_file_ask_for(tmp_path, monkeypatch):
    """purge_site keeps what it read and cut (purge_css.MEMO, beside the whole files): with the
    same pages, scripts and whole files it cuts nothing again; a page whose bytes changed is
    read again, and a class it gains brings its rule back; a site copy replaced by the theme's
    whole file (as Sphinx copies it in every build) gets the cut kept beside the whole file
    (purge_css.CUT) without cutting again, and is cut again where that kept cut is not the
    one the memo names, or where purge_css.py changed (purge_css.CUTTER)."""
    import purge_css

    site, originals = tmp_path / "site", tmp_path / "whole"
    (site / "_static").mkdir(parents=True)
    (site / "page.html").write_text('<p class="kept">x</p>')
    whole = ".kept{a:1}.later{b:2}"
    (site / "_static" / "basic.css").write_text(whole)
    assert purge_site(site, originals) == [site / "_static" / "basic.css"]
    cuts = []
    monkeypatch.setattr(purge_css, "cut", lambda css, words: cuts.append(words) or ".kept{a:1}\n")
    assert purge_site(site, originals) == [] and cuts == []          # nothing read or cut again
    monkeypatch.undo()
    (site / "page.html").write_text('<p class="kept later">x</p>')  # same file, new bytes
    assert purge_site(site, originals) == [site / "_static" / "basic.css"]
    assert ".later{" in (site / "_static" / "basic.css").read_text()
    cut_before = (site / "_static" / "basic.css").read_text()
    real_cut = purge_css.cut
    monkeypatch.setattr(purge_css, "cut", lambda css, words: cuts.append(words) or real_cut(css, words))
    (site / "_static" / "basic.css").write_text(whole)              # Sphinx copied it afresh
    assert purge_site(site, originals) == [site / "_static" / "basic.css"]
    assert (site / "_static" / "basic.css").read_text() == cut_before and cuts == []
    (originals / "_static" / ("basic.css" + purge_css.CUT)).write_text(MARK + ".kept{a:1}")
    (site / "_static" / "basic.css").write_text(whole)              # and the kept cut is not it
    assert purge_site(site, originals) == [site / "_static" / "basic.css"]
    assert (site / "_static" / "basic.css").read_text() == cut_before and len(cuts) == 1
    monkeypatch.setattr(purge_css, "CUTTER", "another purge_css.py")
    (site / "_static" / "basic.css").write_text(whole)              # and the cutter changed
    assert purge_site(site, originals) == [site / "_static" / "basic.css"] and len(cuts) == 2
