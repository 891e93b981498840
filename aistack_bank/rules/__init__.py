"""The rules of `bank validate`: every check over the English bank, and what the catalog checks share.

``validate`` composes them; ``cues`` (how a key could be guessed), ``lints`` (editorial
defects), ``checks`` and ``checklang`` (the numeric answer checks and their script language)
and ``quantities`` (numbers, units and formulas as written) each hold one family.
"""
