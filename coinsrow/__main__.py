"""``python -m coinsrow`` and the ``coinsrow`` console script (see ``coinsrow._cli``)."""

import sys

from ._cli import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
