# Included by _core.pyx: window loops (owned by its issue; see the README).
