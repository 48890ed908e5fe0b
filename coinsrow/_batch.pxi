# Included by _core.pyx: batch loops (owned by its issue; see the README).
