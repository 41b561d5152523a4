import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "notebooks")]


#: Messages of a kernel that failed to *start* (not of a notebook that failed to run): two
#: kernels starting at once on one machine can race for the same TCP port (jupyter_client
#: issue 154). Tests that start kernels retry those, and only those, a few times.
KERNEL_START_FAILURES = ("Kernel died before replying to kernel_info",
                         "Kernel didn't respond in", "Address already in use")


def retry_kernel_start(action, attempts=3):
    """Run ``action()``; if it fails because a kernel could not start, run it again."""
    for attempt in range(attempts):
        try:
            return action()
        except RuntimeError as error:
            if attempt == attempts - 1 or not any(m in str(error) for m in KERNEL_START_FAILURES):
                raise
