"""make bench writes the README's table whole: a run that measures some rows (a quick run
skips the fresh-clone make test) keeps every other row with the date it was measured. Nothing
here times anything."""
import sys

from site_build import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import bench  # noqa: E402

README = """# Book
<!-- BENCH:START -->
Measured by `make bench` on 2026-11-30, 2 cores.

| measurement | value |
|---|---|
| import floor (s) | 1.08 |
| make test on a fresh clone (s) | 780.37 |
<!-- BENCH:END -->
after
"""


def test_a_quick_run_keeps_the_rows_it_did_not_measure_with_their_date():
    earlier = bench.earlier_rows(README)
    assert earlier == {"import floor (s)": ("1.08", "2026-11-30"),
                       "make test on a fresh clone (s)": ("780.37", "2026-11-30")}
    table = bench.report({"regeneration": {"import floor (s)": 0.9}}, earlier, "2026-12-02")
    assert "| import floor (s) | 0.90 | 2026-12-02 |" in table
    assert "| make test on a fresh clone (s) | 780.37 | 2026-11-30 |" in table
    again = bench.earlier_rows(f"{bench.START}\n{table}\n{bench.END}")
    assert again["make test on a fresh clone (s)"] == ("780.37", "2026-11-30")


def test_each_goal_row_says_whether_its_value_meets_the_goal():
    """Issue 21's goals, by hand: regeneration at most 2 times the floor, the book at least 8
    times faster than executing it, an incremental build at most 0.2 of a full one, make test
    at most 240 s; a row without a goal says nothing."""
    assert bench.goal("drawn / import floor", "3.44") == "≤ 2: not met"
    assert bench.goal("drawn / import floor", "1.99") == "≤ 2: met"
    assert bench.goal("executing / book build", "8.00") == "≥ 8: met"
    assert bench.goal("executing / book build", "2.32") == "≥ 8: not met"
    assert bench.goal("incremental / from scratch", "0.28") == "≤ 0.2: not met"
    assert bench.goal("make test on a fresh clone (s)", "239.00") == "≤ 240: met"
    assert bench.goal("import floor (s)", "0.59") == ""
    table = bench.report({"regeneration": {"drawn / import floor": 1.5}}, {}, "2026-12-04")
    assert "| drawn / import floor | 1.500 | 2026-12-04 | ≤ 2: met |" in table
    assert bench.earlier_rows(f"{bench.START}\n{table}\n{bench.END}") == \
        {"drawn / import floor": ("1.500", "2026-12-04")}


def test_a_ratio_just_over_its_goal_is_not_rounded_into_it():
    """An incremental build 2.64 s against a full one of 12.91 s is 0.2045 of it: over 0.2,
    though it reads 0.20 at two decimals."""
    table = bench.report({"book": {"incremental / from scratch": 2.64 / 12.91}}, {}, "2026-12-05")
    assert "| incremental / from scratch | 0.204 | 2026-12-05 | ≤ 0.2: not met |" in table


def test_the_packages_installed_before_the_fresh_clone_test_are_targets_of_the_makefile():
    """The fresh-clone row installs bench.PACKAGES before it times make test: each names a rule
    of the Makefile (make -n knows how to make it), so that a renamed one fails here, not
    after ten minutes of make bench."""
    import subprocess
    for target in bench.PACKAGES:
        result = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0 and "No rule" not in result.stderr, (target, result.stderr)
