"""pytest settings for the whole repository (the unit tests' own are in tests/conftest.py).

nbval starts one kernel per notebook, and ``make test`` runs two nbval workers at once: their
kernels use private Unix sockets (tools/kernels.py), so they cannot race for a TCP port.
"""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "tools"))

import nbval.kernel  # noqa: E402
from kernels import PrivateSocketKernelManager  # noqa: E402

nbval.kernel.KernelManager = PrivateSocketKernelManager


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
