#!/usr/bin/env bash
# What the book needs outside Python, installed with apt-get where it is missing (as root, or
# through sudo): Chromium's headless shell (Debian's chromium-headless-shell) prints the PDF
# editions and reads the site in the tests (where only full Chromium, /usr/bin/chromium, is
# there and the shell cannot be installed, full Chromium does, more slowly);
# fonts-noto-cjk draws Chinese on screen and fonts-wqy-microhei in the PDFs (a TrueType font,
# which Chromium embeds by name); Poppler's pdftotext and pdffonts read the PDFs in the tests;
# npm installs the pinned Pyodide of the "your numbers" panel (tools/pyodide) and, for the tests,
# Lighthouse (tools/lighthouse); with --tests (make test), also Firefox ESR, the suite's second
# engine (tests/test_firefox.py).
# Where apt-get cannot run, it says what is missing and exits 0: `make book` then builds the
# site without the PDFs and says so (BOOK_CHROMIUM names another Chromium, e.g. on macOS).
set -euo pipefail
missing=() faster=()
if [ -z "${BOOK_CHROMIUM-}" ] && [ ! -x /usr/bin/chromium-headless-shell ]; then
  if [ -x /usr/bin/chromium ]; then faster+=(chromium-headless-shell); else missing+=(chromium-headless-shell); fi
elif [ -n "${BOOK_CHROMIUM-}" ] && [ ! -x "$BOOK_CHROMIUM" ]; then
  echo "system-packages: BOOK_CHROMIUM=$BOOK_CHROMIUM is not an executable" >&2
fi
command -v pdftotext >/dev/null && command -v pdffonts >/dev/null || missing+=(poppler-utils)
fonts=$(fc-list 2>/dev/null || true)
grep -q "Noto Sans CJK" <<<"$fonts" || missing+=(fonts-noto-cjk)
grep -q "WenQuanYi Micro Hei" <<<"$fonts" || missing+=(fonts-wqy-microhei)
command -v npm >/dev/null || missing+=(npm)
if [ "${1-}" = --tests ]; then
  command -v firefox-esr >/dev/null || command -v firefox >/dev/null || missing+=(firefox-esr)
fi
[ ${#missing[@]} -eq 0 ] && [ ${#faster[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then SUDO=(); elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo); else SUDO=(none); fi
if ! command -v apt-get >/dev/null || [ "${SUDO[*]-}" = none ]; then
  [ ${#missing[@]} -eq 0 ] ||
    echo "system-packages: missing ${missing[*]} (Debian: apt-get install ${missing[*]});" \
         "the site builds without them, the PDFs, the panel and the browser tests need them" >&2
  [ ${#faster[@]} -eq 0 ] ||
    echo "system-packages: /usr/bin/chromium prints and reads the pages; Chromium's headless" \
         "shell would do it at less CPU (Debian: apt-get install chromium-headless-shell)" >&2
  exit 0
fi
wanted=("${missing[@]}" "${faster[@]}")
echo "system-packages: installing ${wanted[*]} with apt-get"
"${SUDO[@]}" apt-get update -qq || [ ${#missing[@]} -eq 0 ]
[ ${#missing[@]} -eq 0 ] || "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
[ ${#faster[@]} -eq 0 ] || "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${faster[@]}" >/dev/null ||
  echo "system-packages: chromium-headless-shell could not be installed; /usr/bin/chromium prints" \
       "and reads the pages instead (the same pages, at more CPU)" >&2
