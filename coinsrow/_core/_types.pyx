"""The status and move-end codes shared by C and Python (declared in _types.pxd)."""

#: The largest ``threads=`` a call accepts (``MAX_THREADS`` in _types.pxd), for the Python layer.
THREADS_AT_MOST = MAX_THREADS
