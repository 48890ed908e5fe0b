import os
import signal

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

# Under pytest-xdist (`pytest -n auto`) each worker keeps the failing examples it found in a
# directory of its own: workers writing and replaying one directory at once could read each
# other's half-written entries. (Hypothesis' default, one .hypothesis/examples, otherwise.)
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
_DATABASE = ({"database": DirectoryBasedExampleDatabase(f".hypothesis/examples-{_WORKER}")}
             if _WORKER else {})

# Hypothesis' own number of examples a test by default; CI (.ci/run) draws twice as many.
settings.register_profile(
    "default", max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    **_DATABASE,
)
settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    **_DATABASE,
)
settings.register_profile("quick", max_examples=30, deadline=None, **_DATABASE)
settings.register_profile(
    "thorough", max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow],
    **_DATABASE,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# A process a shell starts in the background (`pytest &`, some CI runners) inherits SIGINT
# ignored, and Python then leaves it ignored: Ctrl-C, and the tests' _thread.interrupt_main(),
# would do nothing. The tests of Ctrl-C need Python's own handler, as in an interactive run
# (child processes then start with SIGINT at its default, and Python installs it there too).
if hasattr(signal, "SIGINT") and signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
