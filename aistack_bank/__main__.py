"""`python -m aistack_bank` and the installed `bank` script run the `bank` command.

:func:`run` imports the command-line module itself, so that a Ctrl-C while it loads (a tenth of a
second of imports before any command starts) ends as one at any later point does: the line
``bank: interrupted`` and exit code 130, never a traceback.

When the command has ended, every object the process holds is frozen (:func:`gc.freeze`) before
the interpreter shuts down: shutting down collects the garbage again (twice), and a cold
`bank validate` of a 10 000-question bank then walked the whole bank it had read, a tenth of a
second of CPU and 0.3 to 0.5 s of wall time on a loaded machine, after its output was written.
Frozen objects are still freed by their reference counts as the modules are cleared; only the
cycles the collector would have looked for are left to the process's end (Python does not
promise to finalize what is left at exit, and no write of the project relies on it: each file is
closed by the code that writes it).
"""

import gc
import sys


def run() -> None:
    try:
        from .cli import main
    except KeyboardInterrupt:
        sys.stderr.write("bank: interrupted\n")
        raise SystemExit(130) from None
    try:
        main()
    finally:
        gc.freeze()


if __name__ == "__main__":
    run()
