# Included by _core.pyx: forest loops (owned by its issue; see the README).
