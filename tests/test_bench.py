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
