"""pytest settings for the whole repository (the unit tests' own are in tests/conftest.py).

``make test`` runs the unit tests and nbval in one session on three xdist workers, each taking
whatever comes next (NotebookScheduling below). nbval starts one kernel per notebook, several at
once: the kernels use private Unix sockets (tools/kernels.py), so they cannot race for a TCP port,
and each is forked from a warm process of the worker's (its zygote, tools/kernels.py).
"""
import pathlib
import pprint
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tools"))

import nbval.kernel  # noqa: E402
import pytest  # noqa: E402
from kernels import ForkedKernelManager  # noqa: E402
from xdist.scheduler import LoadScopeScheduling  # noqa: E402

nbval.kernel.KernelManager = ForkedKernelManager


class _Pretty:
    """``pprint.pformat(value)`` written only if it is written at all: nbval logs every kernel
    message at debug level as ``logger.debug("...", pformat(msg))``, which formats each message
    before logging decides to drop it (about 0.7 ms each, some four CPU-seconds over the
    notebooks)."""

    def __init__(self, value):
        self.value = value

    def __str__(self) -> str:
        return pprint.pformat(self.value)


nbval.kernel.pformat = _Pretty


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
