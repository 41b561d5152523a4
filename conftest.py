"""pytest settings for the whole repository (the unit tests' own are in tests/conftest.py).

``make test`` runs the unit tests and nbval in one session on three xdist workers, each taking
whatever comes next (NotebookScheduling below). nbval starts one kernel per notebook, several at
once: the kernels use private Unix sockets (kernel_sockets.py, named by the kernel specification
that JUPYTER_PATH finds first from here on), so they cannot race for a TCP port.
"""
import os
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tools"))

import pytest  # noqa: E402
from xdist.scheduler import LoadScopeScheduling  # noqa: E402

from kernel_sockets import with_private_kernels  # noqa: E402

os.environ.update(with_private_kernels(os.environ))


def pytest_terminal_summary(terminalreporter):
    """After nbval, name the notebooks whose saved outputs no longer match, and what to do."""
    failed = terminalreporter.stats.get("failed", [])
    notebooks = sorted({report.nodeid.split("::")[0] for report in failed
                        if ".ipynb::" in report.nodeid})
    if notebooks:
        terminalreporter.section("notebooks out of date")
        terminalreporter.write_line(
            "these notebooks' saved outputs differ from what the code gives now: run "
            "`make notebooks` (after `make data` if experiment.py changed), review, commit:")
        for notebook in notebooks:
            terminalreporter.write_line(f"  {notebook}")


#: Test files whose module fixture costs seconds to make (a JupyterLab server with its
#: notebooks; a wheel of the book installed into a new venv): their tests go to one worker, so
#: it is made once per run, not once on each worker that draws one of them.
ONE_WORKER_FILES = ("tests/test_jupyterlab.py", "tests/test_downloaded.py")


class NotebookScheduling(LoadScopeScheduling):
    """xdist's ``load``, one test at a time, except that a notebook's cells (nbval's items) go
    together to one worker, in order: they run in one kernel, each on the state the cells before
    it left; so do the tests of each of ONE_WORKER_FILES. The largest units (the notebooks, by
    their number of cells) are handed out first."""

    # Overrides a private method: xdist's public grouping (--dist loadgroup) has stopped
    # grouping with pytest 9.2 (https://github.com/pytest-dev/pytest-xdist/issues/1386).
    def _split_scope(self, nodeid: str) -> str:
        path = nodeid.split("::", 1)[0]
        return path if path.endswith(".ipynb") or path in ONE_WORKER_FILES else nodeid


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """``--dist load`` schedules by NotebookScheduling. (xdist's own ``loadgroup`` cannot keep
    the cells together here: xdist 3.8 tags an item's group by rewriting ``item._nodeid``, which
    pytest 9.2 no longer reads.)"""
    if config.getoption("dist") == "load":
        return NotebookScheduling(config, log)
    return None
