"""Lighthouse (pinned in tools/lighthouse, run with the book's Chromium, build_book.CHROMIUM) on
two pages per run, the site served gzip-compressed as GitHub Pages serves it (tools/audit.py):
its three deterministic categories, accessibility, best practices and SEO, score 100 in its
mobile setting, and the deterministic causes of its performance score stay within byte budgets.
The performance score itself depends on the machine's speed: `make audit` reports it for every
edition, beside a reference page, and nothing here asserts it."""
from __future__ import annotations

import os
import pathlib

import pytest

from audit import LIGHTHOUSE, lighthouse, serve_compressed
from site_build import built_site

#: The front page of one edition and a section with a table, a figure and formulas of another.
PAGES = ["en/book/en/index.html", "zh/notebooks/zh/split-04-break-even.html"]
CATEGORIES = ("accessibility", "best-practices", "seo")
#: Byte budgets, compressed, a little above what the two pages weigh now (2026-12-02, with the
#: themes' stylesheets cut to the rules the site can use, tools/purge_css.py: 87 and 103 KiB in
#: all, 48 and 50 KiB of it render-blocking, 13 KiB of the CSS unused by the page, no unused
#: script; with the whole stylesheets, 145 and 161, 107 and 109, 59 and 59 KiB).
BUDGETS_BYTES = {"transfer": 128 * 1024, "render-blocking": 64 * 1024,
                 "unused CSS": 24 * 1024, "unused JavaScript": 16 * 1024}
#: The performance audits the budgets read (bytes_spent), run without the rest of their
#: category: its timings, screenshots and score, which this test does not read.
BYTE_AUDITS = ("total-byte-weight", "render-blocking-insight", "unused-css-rules",
               "unused-javascript")


@pytest.fixture(scope="module")
def site():
    """The built book, served gzip-compressed; the base URL."""
    with built_site(serve_compressed) as base:
        yield base


def failed_audits(result: dict) -> list:
    """The scored audits of the report's categories that are not passed, with their items."""
    failed = []
    for name, category in result["categories"].items():
        if name not in CATEGORIES:
            continue
        for ref in category["auditRefs"]:
            audit = result["audits"][ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                items = (audit.get("details") or {}).get("items", [])[:3]
                failed.append(f"{name}: {ref['id']} ({audit['title']}) "
                              f"{[(i.get('node') or {}).get('snippet') for i in items]}")
    return failed


def bytes_spent(result: dict) -> dict:
    """What the page costs, compressed: every byte it loads, the bytes of what blocks its first
    paint, and the bytes of CSS and JavaScript it loads but does not use."""
    audits = result["audits"]
    return {"transfer": audits["total-byte-weight"]["numericValue"],
            "render-blocking": sum(item.get("totalBytes", 0) for item in
                                   audits["render-blocking-insight"]["details"]["items"]),
            "unused CSS": audits["unused-css-rules"]["details"].get("overallSavingsBytes", 0),
            "unused JavaScript": audits["unused-javascript"]["details"].get("overallSavingsBytes", 0)}


@pytest.mark.long
@pytest.mark.parametrize("path", PAGES)
def test_lighthouse_gives_100_for_accessibility_best_practices_and_seo_within_byte_budgets(
        site, path, tmp_path):
    if not LIGHTHOUSE.exists():
        if os.environ.get("AUDIT_REQUIRED"):
            pytest.fail(f"{LIGHTHOUSE} is missing (make test installs it with npm ci)")
        pytest.skip("Lighthouse is not installed: make test installs it with npm (tools/lighthouse)")
    result = lighthouse(f"{site}/{path}", tmp_path / "report.json", categories=CATEGORIES,
                        audits=BYTE_AUDITS)
    scores = {name: result["categories"][name]["score"] for name in CATEGORIES}
    assert scores == dict.fromkeys(CATEGORIES, 1), f"{scores}\n" + "\n".join(failed_audits(result))
    spent = bytes_spent(result)
    over = {k: f"{spent[k] / 1024:.0f} KiB > {BUDGETS_BYTES[k] / 1024:.0f} KiB"
            for k in BUDGETS_BYTES if spent[k] > BUDGETS_BYTES[k]}
    assert not over, over


def test_lighthouses_chromium_leaves_no_folder_behind(monkeypatch, tmp_path):
    """Lighthouse ends its Chromium with a kill, which leaves the folder of Chromium's
    single-instance socket where TMPDIR points: each run gets a TMPDIR of its own, removed once
    the run is over (here the run is a stand-in that leaves such a folder)."""
    import tempfile

    import audit

    given = {}

    def run(command, **options):
        given["tmp"] = pathlib.Path(options["env"]["TMPDIR"])
        (given["tmp"] / "org.chromium.Chromium.left").mkdir()
        (tmp_path / "report.json").write_text("{}", encoding="utf-8")

    monkeypatch.setattr(audit.subprocess, "run", run)
    assert audit.lighthouse("http://127.0.0.1:9/", tmp_path / "report.json") == {}
    assert given["tmp"].parent == pathlib.Path(tempfile.gettempdir())
    assert not given["tmp"].exists()
