"""`python -m aistack_bank` runs the `bank` command."""

from .cli import main

main()
