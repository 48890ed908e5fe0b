# Included by _core.pyx: cooperative loops (owned by its issue; see the README).
