#!/usr/bin/env bash
# What the book needs outside Python, installed with apt-get where it is missing (as root, or
# through sudo): Debian's Chromium prints the PDF editions and reads the site in the tests;
# fonts-noto-cjk draws Chinese on screen and fonts-wqy-microhei in the PDFs (a TrueType font,
# which Chromium embeds by name); Poppler's pdftotext and pdffonts read the PDFs in the tests;
# npm installs the pinned Pyodide of the "your numbers" panel (tools/pyodide) and, for the tests,
# Lighthouse (tools/lighthouse); with --tests (make test), also Firefox ESR, the suite's second
# engine (tests/test_firefox.py).
# Where apt-get cannot run, it says what is missing and exits 0: `make book` then builds the
# site without the PDFs and says so (BOOK_CHROMIUM names another Chromium, e.g. on macOS).
set -euo pipefail
missing=()
[ -x "${BOOK_CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
command -v pdftotext >/dev/null && command -v pdffonts >/dev/null || missing+=(poppler-utils)
fonts=$(fc-list 2>/dev/null || true)
grep -q "Noto Sans CJK" <<<"$fonts" || missing+=(fonts-noto-cjk)
grep -q "WenQuanYi Micro Hei" <<<"$fonts" || missing+=(fonts-wqy-microhei)
command -v npm >/dev/null || missing+=(npm)
if [ "${1-}" = --tests ]; then
  command -v firefox-esr >/dev/null || command -v firefox >/dev/null || missing+=(firefox-esr)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then SUDO=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo); else SUDO=(none); fi
if ! command -v apt-get >/dev/null || [ "${SUDO[*]-}" = none ]; then
  echo "system-packages: missing ${missing[*]} (Debian: apt-get install ${missing[*]});" \
       "the site builds without them, the PDFs, the panel and the browser tests need them" >&2
  exit 0
fi
echo "system-packages: installing ${missing[*]} with apt-get"
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
