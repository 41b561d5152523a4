"""What a reader who reruns a notebook sees: JupyterLab (with jupyterlab-myst, pinned in
requirements-lab.txt, which ``make test`` installs) opened on a copy of one section of each
article, Run All, and every number of the prose rendered, in the edition's notation, where the
source has ``{eval}`g.name``` (the same values the site shows from the saved outputs), and every
citation as the label the site gives it ([Amdahl, 1967]), not its key."""
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import time

import nbformat
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
from build_book import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from notebooks import citation_label  # noqa: E402

from prose import glued, markdown_cells, used_keys

ROOT = pathlib.Path(__file__).resolve().parents[1]
JUPYTER = pathlib.Path(sys.executable).parent / "jupyter"
#: One section of each article, each in another edition.
NOTEBOOKS = [ROOT / "notebooks" / "es" / "split-04-break-even.ipynb",
             ROOT / "notebooks" / "zh" / "tp-04-volume.ipynb",
             ROOT / "notebooks" / "it" / "theory-03-amdahl.ipynb"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab server on a copy of NOTEBOOKS (trusted, as ``make lab`` trusts them), with
    its own Jupyter folders; yields its address."""
    if not JUPYTER.exists() or shutil.which("jupyter-lab", path=str(JUPYTER.parent)) is None:
        pytest.fail("JupyterLab is not installed: `make test` installs requirements-lab.txt")
    home = tmp_path_factory.mktemp("lab")
    folder = home / "notebooks"
    folder.mkdir()
    for path in NOTEBOOKS:
        shutil.copy(path, folder / f"{path.parent.name}-{path.name}")
    # Every cell in the page (JupyterLab 4 otherwise renders only the cells in view).
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    (settings / "tracker.jupyterlab-settings").write_text('{"windowingMode": "none"}')
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
               JUPYTER_DATA_DIR=str(home / "data"),
               JUPYTER_CONFIG_DIR=str(home / "config"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
               IPYTHONDIR=str(home / "ipython"))
    subprocess.run([str(JUPYTER), "trust", *map(str, folder.glob("*.ipynb"))], env=env,
                   check=True, capture_output=True)
    port = free_port()
    log = (home / "lab.log").open("w")
    server = subprocess.Popen(
        [str(JUPYTER), "lab", "--no-browser", "--allow-root", f"--port={port}",
         "--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password=",
         "--LabApp.news_url=", "--ServerApp.root_dir=" + str(folder)],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        for _ in range(240):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.25)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def lab_tab():
    """One Chromium tab for the notebooks in turn (JupyterLab's scripts, some megabytes,
    compiled once: each notebook opens in a fresh workspace of the same tab)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            browser.close()


#: Whether every one of the notebook's ``n`` markdown cells is drawn by jupyterlab-myst (its
#: ``.myst`` widget; before the run, a role shows its expression, g.eta, and no "{eval}").
BY_MYST = """n => { const cells = [...document.querySelectorAll('.jp-Notebook .jp-MarkdownCell')];
                   return cells.length === n && cells.every(c => c.querySelector('.myst')
                                                             && !c.innerText.includes('{eval}')); }"""


def opened_by_myst(page, url: str, markdown_count: int) -> None:
    """Open the notebook at ``url`` in a fresh workspace (?reset), its markdown cells drawn by
    jupyterlab-myst. One load in several on a fresh installation drew them with JupyterLab's
    plain Markdown renderer instead ("{eval}" left in the text, the numbers never shown; why,
    it did not say, and 24 loads on a busy machine did not do it again). That load is made
    again, once; a second such load fails, naming it."""
    for attempt in (1, 2):
        page.goto(f"{url}?reset")
        page.wait_for_selector(".jp-Notebook .jp-MarkdownCell", state="attached", timeout=120_000)
        try:
            page.wait_for_function(BY_MYST, arg=markdown_count, timeout=30_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                pytest.fail(f"{url}: the markdown cells are not drawn by jupyterlab-myst "
                            "(twice, in two loads)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_run_all_in_jupyterlab_shows_every_number_of_the_prose(lab, lab_tab, path):
    values = glued(nbformat.read(path, as_version=4))
    markdown = markdown_cells(path)
    shown = set().union(*map(used_keys, markdown))
    assert shown, "this notebook's prose shows no glued number"
    page = lab_tab
    opened_by_myst(page, f"{lab}/lab/tree/{path.parent.name}-{path.name}", len(markdown))
    # The kernel first (on a loaded machine it can take a while to start).
    page.wait_for_selector("#jp-main-statusbar >> text=Idle", timeout=300_000)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_text("Run All Cells", exact=True).click()
    # Done when the last code cell has its execution count (not "[*]" nor "[ ]").
    page.wait_for_function(
        """() => { const p = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
                   return p.length && p.every(e => /\\[\\d+\\]/.test(e.textContent)); }""",
        timeout=300_000)
    # The markdown cells evaluate their roles after that: wait until every glued number the
    # prose uses is shown (at most a minute; what is still missing then is named below).
    try:
        page.wait_for_function(
            """expected => { const text = [...document.querySelectorAll('.jp-Notebook .jp-MarkdownCell')]
                               .map(c => c.innerText).join('\\n');
                             return expected.every(v => text.includes(v)); }""",
            arg=sorted({values[key] for key in shown}), timeout=60_000)
    except PlaywrightTimeout:
        pass
    cells = page.locator(".jp-Notebook .jp-MarkdownCell").all_inner_texts()
    text = "\n".join(cells)
    assert len(cells) == len(markdown)
    assert "{eval}" not in text and "g." not in text.replace("e.g.", ""), "a role left unrendered"
    missing = {key: values[key] for key in shown if values[key] not in text}
    assert missing == {}, "glued numbers not shown in JupyterLab"
    cited = set(re.findall(r"\{eval\}`cite\.(\w+)`", "\n".join(markdown)))
    unlabelled = {key for key in cited if f"[{citation_label(key)}]" not in text or key in text}
    assert unlabelled == set(), "citations shown as keys, not as the site's labels"


def test_a_notebook_of_the_test_cites_something():
    assert any("{eval}`cite." in cell for path in NOTEBOOKS for cell in markdown_cells(path))
