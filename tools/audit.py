"""Lighthouse (tools/lighthouse) on the built site served as GitHub Pages serves it (gzip), in its
mobile setting, on every edition's front page and one section of each article, beside a
reference measured in the same run: the theme's own near-empty page (genindex.html), so that a
slow machine shows as a slow reference. The table goes into docs/performance.md between the AUDIT
markers, with the date and the machine (never a test: performance depends on the machine).

    python tools/audit.py        (make audit; run make book first)
"""
from __future__ import annotations

import datetime
import gzip
import io
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile

from bench import REPORT, write_into
from build_book import CHROMIUM, CHROMIUM_ARGS
from local_server import Quiet, serve

ROOT = pathlib.Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
LIGHTHOUSE = ROOT / "tools" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
#: The pages audited in each edition, and the reference (the theme's page with no content).
PAGES = ["book/{lang}/index", "notebooks/{lang}/split-04-break-even",
         "notebooks/{lang}/tp-05-scaling", "notebooks/{lang}/theory-03-amdahl"]
REFERENCE = "en/genindex"
START, END = "<!-- AUDIT:START -->", "<!-- AUDIT:END -->"


class Compressed(Quiet):
    """A static file server that sends files gzip-compressed to a client that accepts it, as
    GitHub Pages does."""

    def send_head(self):
        path = self.translate_path(self.path)
        if not os.path.isfile(path) or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().send_head()
        with open(path, "rb") as handle:
            body = gzip.compress(handle.read(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve_compressed(directory: pathlib.Path) -> tuple:
    """Serve ``directory`` compressed on an ephemeral 127.0.0.1 port; (base URL, server)."""
    return serve(directory, Compressed)


def lighthouse(url: str, report: pathlib.Path, categories=CATEGORIES, audits=()) -> dict:
    """Lighthouse's JSON report of ``url`` in its mobile setting (written to ``report``): the
    audits of ``categories``, and ``audits`` besides. Its Chromium gets a temporary folder of
    its own (TMPDIR), removed afterwards: Lighthouse ends it with a kill, which leaves behind
    the folder of its single-instance socket (an org.chromium.Chromium.* in /tmp per run)."""
    extra = [f"--only-audits={','.join(audits)}"] if audits else []
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as scratch:
        subprocess.run([str(LIGHTHOUSE), url, f"--only-categories={','.join(categories)}", *extra,
                        "--form-factor=mobile", "--quiet", "--output=json",
                        f"--output-path={report}",
                        "--chrome-flags=" + " ".join(["--headless", *CHROMIUM_ARGS])],
                       check=True, timeout=300,
                       env={**os.environ, "CHROME_PATH": CHROMIUM, "TMPDIR": scratch})
    return json.loads(report.read_text(encoding="utf-8"))


def summary(result: dict) -> dict:
    """Scores (0–100) by category, the largest contentful paint in s and the bytes sent."""
    audits = result["audits"]
    return {**{name: round(100 * result["categories"][name]["score"])
               for name in CATEGORIES if name in result["categories"]},
            "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
            "transfer_kib": audits["total-byte-weight"]["numericValue"] / 1024}


def table(rows: dict, today: str) -> str:
    """The README's table: one row per page, the reference first."""
    lines = [f"Measured {today} on {platform.machine()}, {os.cpu_count()} cores, "
             f"Lighthouse mobile, served gzip-compressed.", "",
             "| page | performance | accessibility | best practices | SEO | LCP | transfer |",
             "|---|---|---|---|---|---|---|"]
    for page, s in rows.items():
        lines.append(f"| {page} | {s['performance']} | {s['accessibility']} | "
                     f"{s['best-practices']} | {s['seo']} | {s['lcp_s']:.1f} s | "
                     f"{s['transfer_kib']:.0f} KiB |")
    return "\n".join(lines)


def main() -> int:
    if not LIGHTHOUSE.exists():
        raise SystemExit(f"{LIGHTHOUSE} is missing: run `make audit` (it installs it with npm ci)")
    pages = [REFERENCE + " (reference)"] + [f"{lang}/" + p.format(lang=lang)
                                            for lang in ("zh", "es", "it", "en") for p in PAGES]
    base, server = serve_compressed(HTML)
    rows = {}
    try:
        with tempfile.TemporaryDirectory() as folder:
            for page in pages:
                path = page.split(" ")[0]
                rows[page] = summary(lighthouse(f"{base}/{path}.html", pathlib.Path(folder) / "r.json"))
                print(page, rows[page], flush=True)
    finally:
        server.shutdown()
    text = table(rows, datetime.date.today().isoformat())
    print(text)
    write_into(REPORT, text, START, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
