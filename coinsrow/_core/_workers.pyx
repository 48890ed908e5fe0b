# coinsrow._core._workers: tasks run on threads started for one call, and Ctrl-C.
#
# The waiting thread runs no Python code while the workers run. A pool of Python threads
# (concurrent.futures) is driven by Python code that takes locks in the caller's thread: a
# KeyboardInterrupt raised between a lock's acquire and the start of its `with` block leaves
# that lock held, the workers that need it wait forever, and so does the caller joining
# them (a hang on Ctrl-C, seen on play() of 2 * 10^7 coins on two threads). Here the workers
# are started from C, the caller waits on a C lock and runs the signal handlers between two
# waits, and the workers never run a handler (only the main thread does).

from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (PY_LOCK_ACQUIRED, WAIT_LOCK, PyLockStatus, PyThread_acquire_lock,
                               PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_release_lock, PyThread_type_lock)

cdef extern from "pythread.h":
    # Not in Cython's declarations: a timed wait that a signal cuts short.
    PyLockStatus PyThread_acquire_lock_timed(PyThread_type_lock lock, long long microseconds,
                                             int intr_flag) nogil
    unsigned long PyThread_start_new_thread(void (*function)(void *), void *argument)
    unsigned long PYTHREAD_INVALID_THREAD_ID


# The longest wait between two looks at pending signals. A signal wakes the wait at once when
# it is delivered to the waiting thread; the operating system may deliver a process's signal
# to a worker instead, whose C handler only notes it: the waiting thread then sees it at the
# end of this wait.
cdef enum:
    _LOOK_AT_SIGNALS_US = 20000


cdef class _Tasks:
    """The tasks of one call and the workers' shared state. Every field the workers share is
    read and written under ``guard``: without the GIL (a free-threaded build) two workers
    could otherwise take one task, or miss the last one out."""
    cdef object task
    cdef list results
    cdef object error
    cdef Py_ssize_t n_tasks, next_task, running
    cdef bint stopping
    cdef PyThread_type_lock guard
    cdef PyThread_type_lock all_done  # held until the last worker leaves
    cdef bint held  # all_done is locked

    def __cinit__(self):
        self.guard = PyThread_allocate_lock()
        self.all_done = PyThread_allocate_lock()
        if self.guard == NULL or self.all_done == NULL:
            raise MemoryError()
        PyThread_acquire_lock(self.all_done, WAIT_LOCK)
        self.held = True

    def __dealloc__(self):
        if self.guard != NULL:
            PyThread_free_lock(self.guard)
        if self.all_done != NULL:
            if self.held:  # freed unlocked, as CPython frees its own locks
                PyThread_release_lock(self.all_done)
            PyThread_free_lock(self.all_done)

    # With the GIL, a worker holds it from the guard's acquire to its release (nothing in
    # between lets it go), so the guard is never waited for; it matters only without one.

    cdef void work(self) noexcept:
        """Take tasks until none is left or the call stops: a worker's life."""
        cdef Py_ssize_t i = self.take()
        while i >= 0:
            try:
                result = self.task(i)
            except BaseException as error:
                self.fail(error)
            else:
                PyThread_acquire_lock(self.guard, WAIT_LOCK)
                self.results[i] = result
                PyThread_release_lock(self.guard)
            i = self.take()
        self.leave()

    cdef Py_ssize_t take(self) noexcept:
        """The next task's index, or -1 when none is left or the call stops."""
        cdef Py_ssize_t i = -1
        PyThread_acquire_lock(self.guard, WAIT_LOCK)
        if not self.stopping and self.next_task < self.n_tasks:
            i = self.next_task
            self.next_task += 1
        PyThread_release_lock(self.guard)
        return i

    cdef void fail(self, object error) noexcept:
        """No task starts after this; ``error`` is raised in the caller (the first one)."""
        PyThread_acquire_lock(self.guard, WAIT_LOCK)
        if self.error is None and error is not None:
            self.error = error
        self.stopping = True
        PyThread_release_lock(self.guard)

    cdef void join(self) noexcept:
        """One more worker (or the caller's share) that leave() must count out."""
        PyThread_acquire_lock(self.guard, WAIT_LOCK)
        self.running += 1
        PyThread_release_lock(self.guard)

    cdef void leave(self) noexcept:
        cdef bint last
        PyThread_acquire_lock(self.guard, WAIT_LOCK)
        self.running -= 1
        last = self.running == 0
        PyThread_release_lock(self.guard)
        if last:
            self.held = False
            PyThread_release_lock(self.all_done)


cdef void _worker(void *tasks) noexcept nogil:
    with gil:
        (<_Tasks> tasks).work()


cdef int _wait(_Tasks tasks) except -1:
    """Wait for the workers, running the signal handlers between two waits."""
    cdef PyLockStatus got
    while True:
        with nogil:
            got = PyThread_acquire_lock_timed(tasks.all_done, _LOOK_AT_SIGNALS_US, 1)
        if got == PY_LOCK_ACQUIRED:
            tasks.held = True
            return 0
        PyErr_CheckSignals()


def run_on_threads(task, Py_ssize_t n_tasks, Py_ssize_t n_threads, on_stop=None):
    """``[task(0), ..., task(n_tasks - 1)]``, called on ``n_threads`` threads started for this
    call (at most one a task) while the calling thread waits, running the signal handlers.

    A handler's exception (KeyboardInterrupt) while it waits: no task starts after it,
    ``on_stop()`` is called (it tells the running tasks to stop at their next step), they
    are waited for, and the exception propagates. A task's exception: no task starts after
    it; it is raised here once the running ones end. O(n_tasks) calls of ``task``,
    O(n_threads) thread starts.
    """
    cdef _Tasks tasks
    cdef Py_ssize_t j
    if n_threads < 1 or n_tasks < 0:
        raise ValueError("run_on_threads needs n_threads >= 1 and n_tasks >= 0")
    tasks = _Tasks()
    tasks.task = task
    tasks.n_tasks = n_tasks
    tasks.results = [None] * n_tasks
    tasks.join()  # this thread's share, given up once every worker is started
    for j in range(min(n_threads, n_tasks)):
        tasks.join()
        if PyThread_start_new_thread(_worker, <void *> tasks) == PYTHREAD_INVALID_THREAD_ID:
            tasks.leave()
            if j == 0:
                tasks.leave()
                raise RuntimeError("could not start a thread")
            break
    tasks.leave()
    try:
        _wait(tasks)
    except BaseException:
        tasks.fail(None)
        try:
            if on_stop is not None:
                on_stop()
        finally:
            # The workers use ``tasks`` until they leave: waited for, whatever on_stop did.
            # The running tasks end at their next step.
            with nogil:
                PyThread_acquire_lock(tasks.all_done, WAIT_LOCK)
            tasks.held = True
        raise
    if tasks.error is not None:
        raise tasks.error
    return tasks.results
