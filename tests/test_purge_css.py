"""tools/purge_css.py (purgecss, pinned in tools/purgecss/) on small sites written here: what a
reader is promised of the cut. Whether the cut changes anything a reader sees on the built book
is checked in a browser (tests/test_site.py::test_the_cut_stylesheets_change_nothing_a_reader_sees);
which selectors can match is purgecss's own business and is not tested here.

Removed with the hand-written purger (its parser, selector matching, word reading, memo and
kept cut), as they tested that machinery and not a reader's page: the rules kept for a
selector's classes and ids, for elements, attributes and pseudo-classes, inside @media, and
across braces in strings; the search index and prose words not read as names (purgecss reads
prose words as names too, which only keeps more); and a rebuild reading and cutting again only
what changed (no memo is kept: purgecss cuts the five files afresh in each build)."""
import os
import pathlib

import pytest

import purge_css
from purge_css import MARK, purge_site

WHOLE = ('@charset "UTF-8";\n/*!\n * Licensed under MIT\n */\n.kept{color:red}.shown{color:blue}'
         '.collapsing{height:0}html[data-theme=dark] .kept{color:white}.gone{color:green}\n'
         '/*# sourceMappingURL=basic.css.map*/')


def needs_purgecss() -> None:
    """Skip where purgecss is not installed (make test installs it), or fail where the run
    requires it (AUDIT_REQUIRED, which .ci/run sets)."""
    if not purge_css.INSTALLED.is_file():
        if os.environ.get("AUDIT_REQUIRED"):
            pytest.fail(f"{purge_css.INSTALLED} is missing (make test installs it with npm ci)")
        pytest.skip("purgecss is not installed: make test installs it with npm (tools/purgecss)")


def a_site(root: pathlib.Path) -> pathlib.Path:
    """An edition as Sphinx leaves it: a page whose inline script adds a class, a script file
    that adds another and turns on the dark mode, and the theme's whole stylesheet with its map."""
    site = root / "site"
    (site / "_static").mkdir(parents=True)
    (site / "page.html").write_text('<html data-theme="light"><p class="kept">x</p>'
                                    '<script>el.classList.add("shown")</script></html>')
    (site / "_static" / "theme.js").write_text('el.classList.toggle("collapsing");'
                                               'document.documentElement.dataset.theme = "dark"')
    (site / "_static" / "basic.css").write_text(WHOLE)
    (site / "_static" / "basic.css.map").write_text("{}")
    return site


def test_classes_that_scripts_add_keep_their_rules_and_the_licence_stays(tmp_path):
    needs_purgecss()
    site, originals = a_site(tmp_path), tmp_path / "whole"
    purge_site(site, originals)
    text = (site / "_static" / "basic.css").read_text()
    assert text.startswith(MARK) and text.count("@charset") == 1   # a @charset must come first
    assert "Licensed under MIT" in text
    for rule in (".kept{", ".shown{", ".collapsing{", "html[data-theme=dark] .kept{"):
        assert rule in text, rule
    assert ".gone" not in text
    # the map, and the comment that points at it, map the whole file
    assert not (site / "_static" / "basic.css.map").exists() and "sourceMappingURL" not in text
    assert (originals / "_static" / "basic.css").read_text() == WHOLE


@pytest.mark.parametrize("sphinx_copied_it_again", [True, False])
def test_a_rebuild_cuts_from_the_theme_s_whole_file_never_from_a_cut_one(tmp_path,
                                                                          sphinx_copied_it_again):
    """A class that appears in a later build brings back the rule an earlier cut dropped,
    whether Sphinx copied the theme's whole file over the cut (as it does in every build) or
    the cut is still there."""
    needs_purgecss()
    site, originals = a_site(tmp_path), tmp_path / "whole"
    purge_site(site, originals)
    assert ".gone" not in (site / "_static" / "basic.css").read_text()
    (site / "other.html").write_text('<div class="gone"></div>')
    if sphinx_copied_it_again:
        (site / "_static" / "basic.css").write_text(WHOLE)
    purge_site(site, originals)
    text = (site / "_static" / "basic.css").read_text()
    assert ".gone{" in text and text.startswith(MARK) and text.count(MARK) == 1
    assert (originals / "_static" / "basic.css").read_text() == WHOLE


@pytest.mark.parametrize("missing", ["node", "purgecss"])
def test_without_purgecss_the_site_ships_the_whole_files_and_says_so_in_one_line(
        tmp_path, monkeypatch, capsys, missing):
    """Without node, or with purgecss not installed, the build goes on: each stylesheet is the
    theme's whole file (a cut left by an earlier build is put back), and one line says why."""
    site, originals = a_site(tmp_path), tmp_path / "whole"
    (originals / "_static").mkdir(parents=True)
    (originals / "_static" / "basic.css").write_text(WHOLE)
    (site / "_static" / "basic.css").write_text(MARK + ".kept{color:red}\n")   # an earlier cut
    if missing == "node":
        monkeypatch.setattr(purge_css.shutil, "which", lambda name: None)
    else:
        monkeypatch.setattr(purge_css, "INSTALLED", tmp_path / "not-installed" / "package.json")
    purge_site(site, originals)
    assert (site / "_static" / "basic.css").read_text() == WHOLE
    said = capsys.readouterr()
    assert said.out == "" and said.err.count("\n") == 1 and "whole stylesheets" in said.err
    assert "npm ci --prefix tools/purgecss" in said.err
