"""The publish workflow is linted as GitHub would read it (actionlint: syntax, expressions,
action inputs, and actions whose runtime GitHub has deprecated), and runs the book's own CI
entry point in Debian, the system tools/system-packages.sh installs for."""
import pathlib
import subprocess
import sys

import yaml

from site_build import ROOT

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = pathlib.Path(sys.executable).parent / "actionlint"


def lint(path: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(ACTIONLINT), "-no-color", str(path)], capture_output=True,
                          text=True, timeout=120)


def test_actionlint_passes_on_every_workflow():
    assert WORKFLOWS
    for path in WORKFLOWS:
        result = lint(path)
        assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_finds_an_action_that_runs_on_a_deprecated_runtime(tmp_path):
    """The lint is able to fail: the old checkout (node20, which GitHub removes) is refused."""
    old = tmp_path / "old.yml"
    old.write_text((ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8")
                   .replace("actions/checkout@v5", "actions/checkout@v4"), encoding="utf-8")
    result = lint(old)
    assert result.returncode != 0 and "node20" in result.stdout


def test_the_book_is_built_and_tested_in_debian():
    """Every job that runs the book's scripts runs in the Debian 12 container, and the test job
    runs .ci/run, the entry point CI here runs."""
    jobs = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text())["jobs"]
    scripted = {name: job for name, job in jobs.items()
                if any("run" in step for step in job.get("steps", []))}
    assert scripted and all(job.get("container") == "python:3.11-bookworm"
                            for job in scripted.values()), scripted
    assert any(step.get("run") == "bash .ci/run" for step in jobs["test"]["steps"])
