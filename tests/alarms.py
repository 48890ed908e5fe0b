"""A signal handler's exception out of a long call: the tests of Ctrl-C inside kernels.

``stop_after(seconds, call)`` runs ``call()`` with SIGALRM due after ``seconds`` and a
handler that raises ``Stop``; it returns that exception. ``raised_in(exc, source)`` says
whether its traceback goes through the Cython file ``source`` (or one of several: a kernel
or its exact twin; a kernel that never looked at signals would raise only after returning,
from the caller's frame). ``CtrlC`` presses Ctrl-C again and again from a thread of its own.
"""

from __future__ import annotations

import _thread
import gc
import signal
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

import pytest


# A BaseException, as KeyboardInterrupt is: ``threading.Thread.start()`` catches
# ``Exception`` after its new thread is already running and un-registers that thread, which
# then fails in threading's own bookkeeping (a KeyError reported as unraisable). Ctrl-C
# never takes that path; an Exception from an alarm did, when it landed inside a pool
# starting its workers.
class Stop(BaseException):
    """What the tests' SIGALRM handler raises."""


def _handler(signum: int, frame: Any) -> None:
    raise Stop


def stop_after(seconds: float, call: Callable[[], Any]) -> Stop:
    # The cyclic collector stays off meanwhile: a signal's handler may run inside any
    # Python code, and a collection runs the Python callbacks in ``gc.callbacks`` (Hypothesis
    # installs one to time the collector), where an exception is only reported as
    # unraisable and the call goes on, never stopped.
    was_enabled = gc.isenabled()
    gc.disable()
    previous = signal.signal(signal.SIGALRM, _handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        with pytest.raises(Stop) as caught:
            call()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if was_enabled:
            gc.enable()
    return caught.value


def raised_in(exc: BaseException, source: str | tuple[str, ...]) -> bool:
    return any(frame.filename.endswith(source)
               for frame in traceback.extract_tb(exc.__traceback__))


class CtrlC:
    """Ctrl-C pressed from a thread of its own (``_thread.interrupt_main()``, what Python's
    handler does): first after ``first`` seconds, then every ``every()`` seconds, until
    ``stop()``. The presser waits on no lock the main thread may take: a KeyboardInterrupt
    that lands inside ``Event.set()`` can leave the event's lock held, and a presser waiting
    on that event would then never end (nor the test joining it)."""

    def __init__(self, first: float, every: Callable[[], float]) -> None:
        self.pressing = True
        self.started = False
        self.first, self.every = first, every
        self.thread = threading.Thread(target=self._press, daemon=True)
        self.thread.start()
        # Only now may the presser count down to its first press: on a loaded machine the
        # main thread could stay inside start() (waiting for the new thread to say it runs)
        # longer than ``first``, and a press would land in the constructor, not in the call
        # it is meant for.
        self.started = True

    def _press(self) -> None:
        while not self.started:   # a flag, not an Event: see the class's docstring
            time.sleep(0.0005)
        time.sleep(self.first)
        while self.pressing:
            _thread.interrupt_main()
            time.sleep(self.every())

    def stop(self) -> None:
        """Stop pressing and wait for the presser; a press made meanwhile lands here, but one
        made before the call is raised on entering it: call it until it returns where presses
        keep coming."""
        while True:
            try:
                self.pressing = False
                self.thread.join()
                time.sleep(0.05)
                return
            except KeyboardInterrupt:
                pass
