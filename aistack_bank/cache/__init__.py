"""What is kept between commands, in the user's cache folder, so unchanged work is not done again.

``store`` is the per-file store every other layer keeps its results in, keyed by the bytes
they were computed from; ``questionfiles`` reads and checks question files through it,
``entries`` keeps each catalog entry's findings, ``catalogs`` makes each catalog's verdict key,
``validation`` keeps the verdict of `bank validate` on a whole bank, and ``outputs`` the files
a build wrote for given inputs. A result is served only for exactly the inputs that produced it.
"""
