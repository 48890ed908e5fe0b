# Declarations of coinsrow._core._window_exact that other twins cimport.

from coinsrow._core._types cimport *


cdef object _w_order(list h)

cdef class RowWindowsExact:
    cdef list h, val, alt, tl, tr, sz, pri, nxt, prv, left, right, base, flat
    cdef list ys_of, pm_of, sp_of, m_of, tail_of
    cdef object in_tree
    cdef object ranks, ns, ps, par1, par2
    cdef int64_t nil, root, gate, coins_left, first_stack
    cdef object fruitless, zero
    cdef dict notes  # the undo journal of a take rolled back (value_after), else None
    cdef readonly Py_ssize_t rows
    cdef readonly Py_ssize_t n_rows
    cdef readonly int status
    cdef readonly int64_t bad_index

    cdef int _forests_of(self, list h, int64_t lo) except -1
    cdef bint _before(self, int64_t a, int64_t b)
    cdef void _pull(self, int64_t i)
    cdef tuple _split(self, int64_t i, int64_t x)
    cdef int64_t _merge(self, int64_t a, int64_t b)
    cdef int64_t _insert(self, int64_t i, int64_t x)
    cdef int64_t _delete(self, int64_t i, int64_t x)
    cdef void _add_block(self, int64_t t, int64_t u)
    cdef void _tree_add(self, int64_t t)
    cdef void _drop_block(self, int64_t t)
    cdef void _stack_path(self, Py_ssize_t c)
    cdef object _settle(self, Py_ssize_t c, int64_t old_v)
    cdef void _push_right(self, Py_ssize_t c)
    cdef void _pop_left(self, Py_ssize_t c)
    cdef void _pop_right(self, Py_ssize_t c)
    cdef bint _left_is_larger(self, Py_ssize_t c)
    cdef Py_ssize_t _row_of(self, int64_t t)
    cdef tuple _move_in(self, Py_ssize_t c)
    cdef int64_t _largest_block(self)
    cdef object _greedy_with(self, object frozen)
    cdef int64_t _add_cells(self, int64_t extra)
    cdef void _insert_block(self, int64_t node, object value)
    cdef bint _contains(self, int64_t t)
    cdef void _note(self, int64_t t)
    cdef void _undo(self)
    cdef object _value_after(self, Py_ssize_t c, bint from_left, object frozen)
