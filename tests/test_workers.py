"""Tasks on threads started from C (``_core.run_on_threads``): the answers in order, errors,
and Ctrl-C while they run, which must stop the call and never hang it."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from alarms import Stop, stop_after

from coinsrow import _core

from modes import drawn, machine_only

run_on_threads = _core.run_on_threads


@pytest.mark.parametrize("n_threads", [1, 2, 3, 8])
@pytest.mark.parametrize("n_tasks", [0, 1, 2, 7, 100])
def test_every_task_runs_once_and_the_answers_come_in_order(n_tasks, n_threads):
    calls: list[int] = []
    lock = threading.Lock()
    main = threading.get_ident()
    where: set[int] = set()

    def task(i: int) -> int:
        with lock:
            calls.append(i)
            where.add(threading.get_ident())
        return i * i - 3

    assert run_on_threads(task, n_tasks, n_threads) == [i * i - 3 for i in range(n_tasks)]
    assert sorted(calls) == list(range(n_tasks))
    assert main not in where  # the calling thread only waits
    assert len(where) <= min(n_threads, n_tasks)


def test_the_tasks_run_at_once():
    """Two tasks that each wait for the other can only both finish on two threads."""
    barrier = threading.Barrier(2, timeout=10)
    assert run_on_threads(lambda i: barrier.wait() >= 0, 2, 2) == [True, True]


def test_a_task_error_is_raised_and_no_task_starts_after_it():
    started: list[int] = []
    lock = threading.Lock()

    def task(i: int) -> int:
        with lock:
            started.append(i)
        if i == 3:
            raise ZeroDivisionError("task 3")
        time.sleep(0.001)
        return i

    with pytest.raises(ZeroDivisionError, match="task 3"):
        run_on_threads(task, 1000, 2)
    # Task 3 raised while at most one other task ran: the rest never started.
    assert 3 in started and len(started) <= 6


@pytest.mark.parametrize(("n_tasks", "n_threads"), [(-1, 1), (1, 0), (1, -3)])
def test_bad_counts_are_refused(n_tasks, n_threads):
    with pytest.raises(ValueError, match="run_on_threads"):
        run_on_threads(abs, n_tasks, n_threads)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer (POSIX)")
def test_a_signal_while_waiting_stops_the_tasks_and_waits_for_them():
    """The handler's exception comes out of the call; on_stop tells the running tasks to
    end, they are waited for, and no task starts after it."""
    stop = threading.Event()
    started: list[int] = []
    finished: list[int] = []
    lock = threading.Lock()

    def task(i: int) -> None:
        with lock:
            started.append(i)
        stop.wait(30)  # a long task, until told to stop
        with lock:
            finished.append(i)

    caught = stop_after(0.05, lambda: run_on_threads(task, 100, 2, stop.set))
    assert isinstance(caught, Stop)
    assert stop.is_set()
    assert sorted(finished) == sorted(started) and len(started) == 2  # nothing left running
    assert run_on_threads(lambda i: i + 1, 3, 2) == [1, 2, 3]  # usable afterwards


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer (POSIX)")
def test_the_tasks_are_waited_for_even_when_on_stop_fails():
    stop = threading.Event()
    finished: list[int] = []

    def task(i: int) -> None:
        stop.wait(30)
        finished.append(i)

    def on_stop() -> None:
        stop.set()
        raise OSError("on_stop")

    with pytest.raises(OSError, match="on_stop"):
        stop_after(0.05, lambda: run_on_threads(task, 10, 2, on_stop))
    assert sorted(finished) == [0, 1]


@pytest.mark.slow
@machine_only  # the exact twins run on the calling thread
def test_ctrl_c_at_any_moment_of_threaded_calls_never_hangs():
    """Ctrl-C pressed at random moments of calls on two threads (a long row's parts, a
    batch's chunks), in a process of its own bounded in time: every press either stops a
    call or lands between calls, and the answers afterwards are right."""
    script = textwrap.dedent("""
        import random, sys
        sys.path.insert(0, sys.argv[1])  # tests/, for alarms.CtrlC
        import numpy as np
        import coinsrow
        from alarms import CtrlC
        row = np.arange(4_000_000, dtype=np.int64) % 1000
        games = [row[k:k + 5000] for k in range(0, 2_000_000, 5000)]
        value = coinsrow.value(row, threads=1)
        values = coinsrow.values_many(games, threads=1)
        rng = random.Random(5)

        def until_pressed(k):
            try:
                while True:
                    if k % 2:
                        coinsrow.values_many(games, threads=2)
                    else:
                        coinsrow.play(row, threads=2)
            except KeyboardInterrupt:
                return

        stopped = 0
        for k in range(int(sys.argv[2])):
            # The first press after the presser's start() has returned.
            presses = CtrlC(0.002 + rng.random() * 0.02, lambda: rng.random() * 0.01)
            try:
                until_pressed(k)
            except KeyboardInterrupt:
                # A second press landed as the first was being caught (seen on a loaded
                # machine): the call was stopped all the same.
                pass
            stopped += 1
            # A press made after the one caught above is raised on entering stop(), before
            # its own handler: call it until it returns (seen on a loaded machine).
            while True:
                try:
                    presses.stop()
                    break
                except KeyboardInterrupt:
                    pass
            assert coinsrow.value(row, threads=2) == value
            assert coinsrow.values_many(games, threads=2) == values
        print("stopped", stopped, flush=True)
    """)
    presses = drawn(50)
    done = subprocess.run([sys.executable, "-c", script, str(Path(__file__).parent),
                           str(presses)], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == f"stopped {presses}"
