import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "notebooks"), str(ROOT / "tools")]


import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

# Property tests run the same examples on every machine (derandomised, no example database),
# so the gate never flakes; nothing is timed.
settings.register_profile("book", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("book")


#: The test files that read the built book (tests/site_build.py builds it once per run): run
#: last, so that none waits for the build while other work could run (Firefox's check, run
#: early, spent 39 s of a worker waiting for it).
BOOK_TESTS = ("test_book.py", "test_site.py", "test_firefox.py", "test_lighthouse.py",
              "test_licence.py", "test_prefix.py", "test_landing.py")


def _runs_book_tests(config) -> bool:
    """Whether the command line selects the tests that read the built book."""
    for arg in config.args:
        path = (pathlib.Path(config.invocation_params.dir) / arg.split("::")[0]).resolve()
        if path == ROOT / "tests" or path == ROOT or path.name in BOOK_TESTS:
            return True
    return False


def pytest_configure(config):
    """Under xdist, the controller starts building the book before the workers start, so that
    the build runs beside the other tests rather than ahead of the book's tests."""
    config.addinivalue_line("markers", "long: a test of the built book that takes 10-20 s (a "
                                       "browser reading many pages, Pyodide, Lighthouse); run "
                                       "before the others that read the book")
    if hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None):
        return
    if _runs_book_tests(config):
        from site_build import start_build
        config.book_build = start_build()


def pytest_unconfigure(config):
    if hasattr(config, "book_build"):
        from site_build import stop_build
        stop_build()


def pytest_collection_modifyitems(items):
    """The tests that read the built book run last, when its build is most likely done, and the
    long ones among them (marked ``long``) first: a run that ended on a long one left the other
    workers idle for its last seconds."""
    items.sort(key=lambda item: (item.path.name in BOOK_TESTS, item.get_closest_marker("long") is None))


@pytest.fixture(scope="module")
def site():
    """The built book (tests/site_build.py), served locally; the base URL. A test file that
    serves it otherwise (compressed, under a prefix) has a fixture of its own."""
    from site_build import built_site
    with built_site() as base:
        yield base


@pytest.fixture(scope="module")
def browser():
    """Headless Chromium (site_build.chromium_launched)."""
    from site_build import chromium_launched
    with chromium_launched() as chromium:
        yield chromium
