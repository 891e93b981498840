"""The answer-leak lint now on the banks of the leak equivalence tests, run once per test process.

Six modules (``test_leak_learn_equivalence``, ``test_leak_stems_equivalence``,
``test_leak_topics_equivalence``, ``test_leak_topic_words_learnt_once``,
``test_leak_files_equivalence``, ``test_leak_topic_texts_read_once``) each compare the lint now
with a different version of it before, on the same banks (those of
``test_leak_learn_equivalence._banks``, and twelve more in ``test_leak_topics_equivalence``) at
the same pieces (``PIECES``, and two and three texts in the last), and ``test_leak_anchor_rank``
compares it with itself with the anchors of another rank on the same banks. What the lint now
finds in a bank depends on its keys and texts, on the piece screened at a time and on when it
forks (:data:`lints._SCAN_PIECE`, :data:`lints.LEAK_POOL_MIN`, :data:`lints._WORD_STEMS_MOST`),
not on the stems it keeps from an earlier run (``test_leak_topics_equivalence`` and
``test_leak_topic_texts_read_once`` check that apart, bank after bank in one process, without
this module). So :func:`match` and :func:`match_files` work a bank's findings out the first time a
test asks for them at these settings (with :func:`lints._stem`'s cache emptied first, as the
tests did) and give the same to the next asker, which compares them with its own version before:
the lint now runs once per bank, piece and entry point instead of up to seven times. The keys and
texts a result was found for are kept with it and compared at each ask: other keys or texts under
the same name are matched afresh.
"""

from __future__ import annotations

from aistack_bank.rules import lints
from aistack_bank.rules.lints import KeyInfo, LeakText

_FOUND: dict[tuple, tuple] = {}


def _found(entry: str, name: str, keys: dict[str, KeyInfo], texts: list[LeakText], run) -> list:
    at = (entry, name, lints._SCAN_PIECE, lints.LEAK_POOL_MIN, lints._WORD_STEMS_MOST)
    kept = _FOUND.get(at)
    if kept is None or kept[0] != keys or kept[1] != texts:
        lints._stem.cache_clear()
        kept = _FOUND[at] = (dict(keys), list(texts), run())
    return list(kept[2])


def runs(texts: list[LeakText]) -> list[tuple[str, tuple]]:
    """The texts as runs of one question's texts: (question, its (field, text) pairs)."""
    found: list[tuple[str, list]] = []
    for item in texts:
        if found and found[-1][0] == item.question_id:
            found[-1][1].append((item.field, item.text))
        else:
            found.append((item.question_id, [(item.field, item.text)]))
    return [(qid, tuple(pairs)) for qid, pairs in found]


def files(texts: list[LeakText]) -> list:
    """The texts as runs of one question's texts (:func:`runs`), each a :class:`lints._LeakTextsOf`."""
    return [lints._LeakTextsOf(qid, pairs) for qid, pairs in runs(texts)]


def match(name: str, keys: dict[str, KeyInfo], texts: list[LeakText]) -> list:
    """:func:`lints._match` of the bank ``name`` (``keys``, ``texts``), once per process and setting."""
    return _found("match", name, keys, texts, lambda: lints._match(keys, texts))


def match_files(name: str, keys: dict[str, KeyInfo], texts: list[LeakText]) -> list:
    """:func:`lints._match_files` of the bank ``name``'s texts taken as runs of one question's
    (:func:`files`), once per process and setting."""
    return _found("files", name, keys, texts, lambda: lints._match_files(keys, files(texts)))
