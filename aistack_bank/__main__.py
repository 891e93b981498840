"""`python -m aistack_bank` and the installed `bank` script run the `bank` command.

:func:`run` imports the command-line module itself, so that a Ctrl-C while it loads (a tenth of a
second of imports before any command starts) ends as one at any later point does: the line
``bank: interrupted`` and exit code 130, never a traceback.
"""

import sys


def run() -> None:
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("bank: interrupted\n")
        raise SystemExit(130) from None
    main()


if __name__ == "__main__":
    run()
