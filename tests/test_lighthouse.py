"""Lighthouse (pinned in tools/lighthouse, run with Debian's Chromium) on two pages per run: its
three deterministic categories, accessibility, best practices and SEO, score 100 in its mobile
setting. Performance depends on the machine's speed, so it is measured by `make audit` (every
page), never asserted here."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

from site_build import CHROMIUM, CHROMIUM_ARGS, HTML, ROOT, build_once, serve

LIGHTHOUSE = ROOT / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
#: The front page of one edition and a section with a table, a figure and formulas of another.
PAGES = ["en/book/en/index.html", "zh/notebooks/zh/split-04-break-even.html"]
CATEGORIES = ("accessibility", "best-practices", "seo")


@pytest.fixture(scope="module")
def site():
    build_once()
    base, server = serve(HTML)
    yield base
    server.shutdown()


def lighthouse(url: str, report, categories=CATEGORIES) -> dict:
    """Lighthouse's JSON report of ``url`` in its mobile setting, written to ``report``."""
    subprocess.run([str(LIGHTHOUSE), url, f"--only-categories={','.join(categories)}",
                    "--form-factor=mobile", "--quiet", "--output=json", f"--output-path={report}",
                    "--chrome-flags=" + " ".join(["--headless", *CHROMIUM_ARGS])],
                   check=True, env={**os.environ, "CHROME_PATH": CHROMIUM}, timeout=300)
    return json.loads(report.read_text(encoding="utf-8"))


def failed_audits(result: dict) -> list:
    """The scored audits of the report's categories that are not passed, with their items."""
    failed = []
    for name, category in result["categories"].items():
        for ref in category["auditRefs"]:
            audit = result["audits"][ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                items = (audit.get("details") or {}).get("items", [])[:3]
                failed.append(f"{name}: {ref['id']} ({audit['title']}) "
                              f"{[(i.get('node') or {}).get('snippet') for i in items]}")
    return failed


@pytest.mark.parametrize("path", PAGES)
def test_lighthouse_gives_100_for_accessibility_best_practices_and_seo(site, path, tmp_path):
    if not LIGHTHOUSE.exists():
        if os.environ.get("AUDIT_REQUIRED"):
            pytest.fail(f"{LIGHTHOUSE} is missing (make test installs it with npm ci)")
        pytest.skip("Lighthouse is not installed: make test installs it with npm (tools/lighthouse)")
    result = lighthouse(f"{site}/{path}", tmp_path / "report.json")
    scores = {name: category["score"] for name, category in result["categories"].items()}
    assert scores == dict.fromkeys(CATEGORIES, 1), f"{scores}\n" + "\n".join(failed_audits(result))
