"""The status and move-end codes shared by C and Python (declared in _types.pxd)."""
