"""present.py's glue writes what MyST-NB's own glue writes (it does so without importing MyST-NB's
glue module, which is slow to import in a kernel)."""
import myst_nb.ext.glue

import present


def test_a_glued_value_is_saved_as_myst_nb_saves_it(monkeypatch):
    theirs, ours = [], []
    monkeypatch.setattr(myst_nb.ext.glue, "ipy_display",
                        lambda bundle, **options: theirs.append((bundle, options)))
    monkeypatch.setattr(present, "display", lambda bundle, **options: ours.append((bundle, options)))
    for key, text in (("two_ms", "12.3"), ("none_word", "无"), ("quoted", "it's \"5\"")):
        myst_nb.glue(key, text, display=False)
        page = present.Page({"parameters": {}}, "en")
        page.glue(key, text)
    assert ours == theirs and len(ours) == 3
    assert ours[0][0] == {"application/papermill.record/text/plain": "'12.3'"}


def test_a_ledger_entry_with_t_star_reads_as_written():
    """The ledger sets each quantity in bold, and t* inside it once opened emphasis: the claims
    and errata pages read "T(2t )/T(t ) > 1**". Rendered as Markdown, every entry of every
    edition keeps its asterisks as text and leaves no stray "**"."""
    import re

    from markdown_it import MarkdownIt

    import experiment
    ledger = experiment.claims()
    starred = [c for c in ledger if "*" in (c["quantity"] or "") + c["source_text"]]
    assert starred, "no claim of the ledger names t*: the check below would check nothing"
    for lang in present.LANGUAGES:
        page = present.Page(experiment.run(), lang)
        for c in starred:
            html = MarkdownIt().render(page.ledger_item(c, ledger))
            text = re.sub(r"<[^>]+>", "", html)
            assert "**" not in text and "t*" in text, (lang, c["id"], text)
