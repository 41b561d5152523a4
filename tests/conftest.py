import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "notebooks"), str(ROOT / "tools")]


from hypothesis import HealthCheck, settings  # noqa: E402

# Property tests run the same examples on every machine (derandomised, no example database),
# so the gate never flakes; nothing is timed.
settings.register_profile("book", derandomize=True, database=None, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("book")
