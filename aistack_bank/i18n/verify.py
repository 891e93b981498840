"""Translation checks run by `bank validate`: nothing a translator did may change an answer.

For every catalog: PO syntax, header, duplicates; entries that are missing, fuzzy or made for
another English text; numbers, units, formulas and markup equal to the English (locale-aware:
``3,5`` equals ``3.5``, ``Go`` may stand for ``GB``); and the numeric assertion checks run
again on the translated options.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from ..cache.entries import located, strip
from ..rules.cues import AnswerCueStats, cue_stats, length_warnings, options_cue
from ..errors import Diagnostic, Location, UsageError, error, warning
from ..parallel import Workers, run_all
from ..rules.quantities import english_parity, has_token_hint, quantities, translation_parity
from . import template_path
from .catalog import Catalog, Catalogs, Changes, read_catalog
from .catalogview import CatalogQuestion, viewed
from .fields import TextField, bank_fields, question_fields
from .localize import field_rule_error
from .locations import msgstr_location
from .pofile import ColumnCatalog, loose_entries
from .status import entry_state
from .update import catalog_paths, misnamed_catalogs
from ..kinds import blank  # (plain Python: the text rule of a translation that is not blank, without pydantic)

if TYPE_CHECKING:
    from polib import POEntry

    from ..load import BankSource


def is_one_line_key(key: str) -> bool:
    """Whether a catalog entry's text goes into line-based contexts (topic and category titles;
    see validate.ONE_LINE_FIELDS)."""
    return key.startswith(("topic.", "category.")) and key.endswith(".title")


def _fmt_numbers(values: list[float]) -> str:
    return ", ".join(f"{v:g}" for v in values) or "none"


class _LazyLocation:
    """The msgstr line of an entry, found only if a diagnostic actually needs it."""

    def __init__(self, catalog: Catalog, entry: POEntry):
        self.catalog, self.entry = catalog, entry

    def get(self) -> Location:
        return msgstr_location(self.catalog, self.entry)


def _where(where) -> Location:
    return where.get() if isinstance(where, _LazyLocation) else where


def text_rule_problem(text: str) -> tuple[str, str] | None:
    """(pydantic error type, message) when ``text`` breaks the model's rules for a text field.
    A string that is not blank (:func:`~aistack_bank.kinds.blank`), which the model's text type
    accepts, is answered without pydantic; pydantic words the refusals."""
    if type(text) is str and not blank(text):
        return None
    global _TEXT_RULE
    if _TEXT_RULE is None:
        _TEXT_RULE = _text_rule()
    return _TEXT_RULE(text)


def _text_rule():
    """:func:`text_rule_problem` as one function. The model's ``Text`` is a ``str`` with one
    after-validator: a ``str`` it accepts is one its validator returns for, so that validator
    is called directly, and pydantic only for a text it refuses (to give its error as pydantic
    words it). Any other shape of ``Text``: pydantic for every text."""
    from typing import get_args

    from pydantic import AfterValidator, TypeAdapter, ValidationError

    from ..model import Text

    adapter = TypeAdapter(Text)

    def validated(text: str) -> tuple[str, str] | None:
        try:
            adapter.validate_python(text)
        except ValidationError as exc:
            first = exc.errors()[0]
            return first["type"], first["msg"]
        return None

    args = get_args(Text)
    if not (len(args) == 2 and args[0] is str and type(args[1]) is AfterValidator):
        return validated
    check = args[1].func

    def rule(text: str) -> tuple[str, str] | None:
        if type(text) is str:
            try:
                check(text)
                return None
            except Exception:  # noqa: BLE001 - pydantic words the error (or finds none)
                pass
        return validated(text)

    return rule


_TEXT_RULE = None


def parity_diagnostics(field: TextField, translation: str, language: str, where: Location, sides: dict | None = None,
                       read: dict | None = None) -> list[Diagnostic]:
    """Numbers, units, formulas and markup of ``translation`` against the English (whose side
    of the comparison is taken from ``sides``, :func:`~aistack_bank.rules.quantities.parity_sides`
    of the question file's fields, when it holds the English text). ``read``: the translations'
    sides (:func:`~aistack_bank.rules.quantities.translation_parity`) already read in this
    language, by text; each one read here is added to it."""
    english = field.text
    side = sides.get(english) if sides else None
    if side is None:
        if not has_token_hint(translation) and not has_token_hint(english):
            return []  # neither text holds a number, a formula or markup
        side = english_parity(english)
    en_numbers, en_q, en_f, en_m = side  # (tuples, sorted)
    if read is None:
        tr_numbers, tr_q, tr_f, tr_m = translation_parity(translation, language)
    else:
        found = read.get(translation)
        if found is None:
            found = read[translation] = translation_parity(translation, language)
        tr_numbers, tr_q, tr_f, tr_m = found
    diags = []
    if en_numbers != tr_numbers:
        diags.append(error("E502", f"{field.key}: numbers differ: English has {_fmt_numbers(en_numbers)}, {language} has {_fmt_numbers(tr_numbers)}", _where(where)))
    elif en_q != tr_q:
        # (the same quantities as a multiset: (dimension, base) pairs sorted)
        en_text = ", ".join(q.text for q in quantities(english, "en")) or "none"
        tr_text = ", ".join(q.text for q in quantities(translation, language)) or "none"
        diags.append(error("E502", f"{field.key}: quantities differ: English has {en_text}, {language} has {tr_text}", _where(where)))
    if en_f != tr_f:
        diags.append(error("E507", f"{field.key}: formulas differ: English has {', '.join(en_f) or 'none'}, {language} has {', '.join(tr_f) or 'none'}", _where(where)))
    if en_m != tr_m:
        diags.append(error("E503", f"{field.key}: markup/placeholders differ: English has {list(en_m) or 'none'}, {language} has {list(tr_m) or 'none'}", _where(where)))
    return diags


def entry_diagnostics(field: TextField, entry: POEntry, language: str, where, sides: dict | None = None, read: dict | None = None) -> list[Diagnostic]:
    """The checks of one catalog entry against its field (all located at ``where``, which may
    be None): they read the field's key, English and key-bearing flag, the entry's msgid,
    msgstr and fuzzy flag, and the language (see :mod:`aistack_bank.cache.entries`)."""
    if not entry.msgstr:
        return [warning("W501", f"{field.key} is not translated", where)]
    if entry.msgid != field.text and "fuzzy" not in entry.flags:
        return [error("E508", f"{field.key}: the translation was made for another English text; run `bank i18n update` (it marks it fuzzy for review)", where)]
    if "fuzzy" in entry.flags:
        kind = "a key-bearing field (stem or option): it is not exported until reviewed" if field.key_bearing else "not exported until reviewed"
        return [warning("W502", f"{field.key} is fuzzy, {kind}", where)]
    rule = text_rule_problem(entry.msgstr)
    if rule is not None:
        return [field_rule_error(field.key, *rule, where)]
    diags = parity_diagnostics(field, entry.msgstr, language, where, sides, read)
    if "\n" in entry.msgstr and is_one_line_key(field.key):
        diags.append(error("E116", f"{field.key} must be one line: it becomes a GIFT `$CATEGORY` line and a comment line", where))
    return diags


def _parity_sides(questions) -> dict:
    """The English side of the parity checks of the questions' fields, by English text, as
    their files' rules made it (:func:`~aistack_bank.rules.quantities.parity_sides`; a record
    without it: the checks read the English)."""
    sides: dict = {}
    for qs in questions:
        found = qs.derived.get("parity")
        if found:
            sides.update(found)
    return sides


def _no_entry(key: str, path: Path) -> Diagnostic:
    """W501 for field key ``key``, which has no entry in the catalog ``path``."""
    return warning("W501", f"{key} has no entry in {path.name}; run `bank i18n update`", Location.of(path))


def field_owner(field: TextField) -> str:
    """What a field belongs to: its question id, else ``topic.<id>`` or ``category.<id>``."""
    return field.question_id or ".".join(field.key.split(".")[:2])


def _entry_findings(entries, field, entry, lang: str, catalog, sides: dict | None = None, hint: bool | None = None, read: dict | None = None) -> list[Diagnostic]:
    """One entry's findings against its field, located at its msgstr (from the entry memo
    ``entries`` when it holds the same parts; ``sides``: the English side of the parity checks
    by English text, see :func:`parity_diagnostics`).

    An entry whose translation and English hold no character of
    :data:`~aistack_bank.rules.quantities.TOKEN_HINT` (most of them) is checked again rather than
    looked up: without numbers, formulas or markup its checks cost less than the memo's digest;
    one of them translated for its English, not fuzzy, one line and not blank (most of those)
    has no finding, which is answered here without the checks' calls (``hint``: whether the
    caller found a character of ``TOKEN_HINT`` in the msgstr, when it looked; ``read``: the
    translations' sides of the parity checks read so far, see :func:`parity_diagnostics`)."""
    msgstr = entry.msgstr
    if not msgstr:
        plain = False
    else:
        plain = not (has_token_hint(msgstr) if hint is None else hint) and not has_token_hint(field.text)
        if plain and entry.msgid == field.text and type(msgstr) is str and "\n" not in msgstr and "fuzzy" not in entry.flags and msgstr.strip():
            # (what entry_diagnostics finds in it: nothing; translated, for this English, not
            # fuzzy, a text the model takes, no number, formula or markup on either side, one line)
            return []
    if not entries.enabled or not msgstr or plain:
        found = strip(entry_diagnostics(field, entry, lang, None, sides, read))
        if not found:
            return []
        return located(found, msgstr_location(catalog, entry))
    english, msgid = field.text, entry.msgid
    values = (field.key, english, field.key_bearing, None if msgid == english else msgid, msgstr, "fuzzy" in entry.flags)  # (entry_values, in place)
    digest, found = entries.recall(values)  # (EntryMemo.findings without its two closures for each entry)
    if found is None:
        found = entries.keep(digest, values, strip(entry_diagnostics(field, entry, lang, None, sides, read)))
    if not found:
        return []
    return located(found, msgstr_location(catalog, entry))


def verify_catalog(source: BankSource, fields: list[TextField], catalog: Catalog, *, run_checks: bool = True, bank_checks: bool = True,
                   memo: bool = False, inputs: str | None = None, owners: _Owners | None = None) -> list[Diagnostic] | None:
    """Every translation diagnostic for one read catalog.

    With ``memo``, each entry's own findings come from the catalog's entry memo when the entry
    and its field are those of the latest run (:mod:`aistack_bank.cache.entries`), located in the catalog as read now.
    With ``memo`` and ``inputs`` (the digest of what verification reads of the bank), a catalog
    read again after an edit (:attr:`.catalog.Catalog.changes`) is verified again only for the
    questions (topics, categories) whose entries the edit touched: the findings of the others
    are those of the latest run of the same bank, each at its line moved as the edit moved it
    (see :class:`_Owners`). Missing entries and the glossary's own errors are looked for every
    time; the length cue (W302) counts the questions verified again with the kept figures of
    the others.

    With ``owners`` (whose :meth:`_Owners.affected` found what to verify again: see
    :func:`_verify_kept`), ``fields`` are only the fields of those owners, the bank's other
    keys are those ``owners`` kept, and None means that the whole catalog must be verified."""
    from ..cache.entries import EntryMemo

    if catalog.po is None or catalog.diagnostics:
        return list(catalog.diagnostics)
    lang = catalog.language
    active = catalog.active()
    partial = owners is not None
    if owners is None:
        owners = _Owners(catalog, fields, inputs, run_checks) if memo and inputs is not None and bank_checks and catalog.changes is not None else None
        affected = owners.affected() if owners is not None else None
    else:
        affected = owners.verified
    # (the bank's keys, and a map or set of them: an owners' own, made from the same fields when it has any)
    own = partial or (owners is not None and bool(owners.keys))
    keys = owners.keys if own else [field.key for field in fields]  # (partial: made only if needed below)
    known = owners.owner_of if own else set(keys)
    diags: list[Diagnostic] = []  # the rules over the whole catalog
    owned: dict[str, list[Diagnostic]] = {}
    every = affected is None and not partial  # (every field verified: each one's missing entry found as it is looked up)
    mine = fields if affected is None else [field for field in fields if field_owner(field) in affected]
    # (the questions' models only for the bank's checks, and only those verified again: a
    # record is unpickled when its model is first read)
    questions = [qs for qs in source.questions if (affected is None or _question_id(qs) in affected) and qs.question is not None] if bank_checks else []
    present = active.keys()
    missing = False
    if not every and not (partial and owners.none_missing(present)):  # (else: none was missing, and none of the touched contexts is)
        if partial:
            keys = owners.all_keys()
        for key in keys if not all(map(present.__contains__, keys)) else ():  # (the loop only when one is missing)
            if key not in present:
                missing = True
                diags.append(_no_entry(key, catalog.path))
    # In a worker, the checks up to the numeric ones run with the cyclic collector paused, and
    # what they leave is then frozen (``gc.freeze``, as the bank is: see _manifest_bank): they
    # make many small objects that stay to the end of the call (the current translations with
    # their fields and entries, the sides read by text, the memo's digests), which each collection
    # of the young objects walked (following each reference into the bank and the catalog), and
    # next to no cycle; the numeric checks make cycles (a formula's program) and run with it.
    import gc

    from ..parallel import in_worker

    worker = in_worker()
    paused = worker and gc.isenabled()
    if paused:
        gc.disable()
    try:
        entries = EntryMemo(catalog.path, lang, enabled=memo and affected is None)
        sides = _parity_sides(questions)
        read: dict = {}  # (the translations' sides of the parity checks, by text: each text read once)
        current = []  # (the translated, not fuzzy entries with their fields, for the lints: see locations.current_translations)
        hints = []  # (for each of current: whether its msgstr holds a character of TOKEN_HINT, asked once for its checks and French typography's)
        # (the memo asks nothing of an entry, disabled or cold: a current entry of one line, for
        # its English, with a hint on either side, is compared here, its sides read as
        # parity_diagnostics reads them; equal, it has no finding: its values kept as keep keeps them)
        cold = entries.cold_pending()
        here = cold is not None or not entries.enabled
        for field in mine:
            entry = active.get(field.key)
            if entry is None:
                if every:  # (W501 in the order of the fields, before every other finding in diags)
                    missing = True
                    diags.append(_no_entry(field.key, catalog.path))
                continue
            hint = None
            msgstr = entry.msgstr
            if msgstr and "fuzzy" not in entry.flags:
                current.append((field, entry))
                hint = has_token_hint(msgstr)
                hints.append(hint)
                english = field.text
                if "\n" not in msgstr and entry.msgid == english and type(msgstr) is str and msgstr.strip():
                    if not hint and not has_token_hint(english):
                        continue  # (most entries: what _entry_findings answers for one without a hint on either side, nothing, without its call)
                    if here:  # (what _entry_findings finds in it: the parity checks' findings alone)
                        side = sides.get(english)
                        if side is None:
                            side = english_parity(english)
                        found = read.get(msgstr)
                        if found is None:
                            found = read[msgstr] = translation_parity(msgstr, lang)
                        if found == side:
                            if cold is not None:
                                cold.append(((field.key, english, field.key_bearing, None, msgstr, False), ()))  # (entry_values, in place)
                            continue
            found = _entry_findings(entries, field, entry, lang, catalog, sides, hint, read)
            if found:
                owned.setdefault(field_owner(field), []).extend(found)
        entries.save()
        if bank_checks:
            from ..rules.lints import translation_lints

            diags += length_cue_diagnostics(source, catalog) if owners is None else owners.length_cues(source, questions, active)
            for owner, found in _duplicate_texts(questions, catalog, active):
                owned.setdefault(owner, []).extend(found)
            lints = translation_lints(catalog, active, mine, memo=memo and affected is None, current=current, hints=hints)
            if owners is None:
                diags += lints
            else:
                for d in lints:
                    owner = owners.owner_at(d)
                    if owner is None:
                        diags.append(d)
                    else:
                        owned.setdefault(owner, []).append(d)
        # (verified again: only the contexts of the entries the edit touched can be theirs)
        # (every key of the bank has an entry, and there are as many entries as keys: none is unknown)
        unknown = () if every and not missing and len(active) == len(known) else active.items() if affected is None else sorted(((key, active[key]) for key in affected if key in present and key not in known),
                                                                 key=lambda pair: pair[1].linenum or 0)
        uncarried = _uncarried_warnings(catalog.path, loose_entries(catalog.po, active))
        refused = _refused_lines(uncarried)
        for key, entry in unknown:
            if key not in known and entry.linenum not in refused:
                owned.setdefault(key, []).append(warning("W503", f"{key} is no longer in the bank; run `bank i18n update` to make it obsolete", Location.of(catalog.path, entry.linenum or 0, 1 if entry.linenum else 0)))
        diags += uncarried
        if paused:
            gc.freeze()
    finally:
        if paused:
            gc.enable()
    if run_checks and bank_checks:
        for owner, _, found in _translated_checks(questions, catalog, active):
            owned.setdefault(owner, []).extend(found)
    if owners is not None:
        if affected is not None and not owners.keep_others(owned):
            # a kept finding on a line the edit changed: verify the whole catalog
            if partial:
                return None  # (with every field of the bank)
            whole = replace(catalog, changes=Changes(catalog.changes.token))
            return verify_catalog(source, fields, whole, run_checks=run_checks, bank_checks=bank_checks, memo=memo, inputs=inputs)
        owners.save(owned, missing)
    for found in owned.values():
        diags += found
    return diags


def _uncarried_warnings(path: Path, loose: list) -> list[Diagnostic]:
    """W505 for each translated entry of ``loose`` (a catalog's entries without a context or
    with plural forms, :func:`.pofile.loose_entries`): no text of the bank reads it, and
    `bank i18n update` refuses it (E542) rather than drop it, so it is told now, not at the next
    update. Called once per catalog with the few such entries its passes found (usually none)."""
    from .update import uncarried

    return uncarried(path, loose, found_by_validate=True) if loose else []


def _refused_lines(uncarried: list[Diagnostic]) -> frozenset[int]:
    """The lines of the entries :func:`_uncarried_warnings` told of (W505): an entry no text of
    the bank reads is told of once, so such an entry gets no W503 as well, whose advice (run
    `bank i18n update` to make it obsolete) that update would refuse (E542)."""
    return frozenset(d.location.line for d in uncarried) if uncarried else frozenset()


def _cues(questions: list, texts_of) -> Iterator[tuple[str, bool]]:
    """(question id, whether its keys are the strictly longest options) of each question that
    :func:`~aistack_bank.rules.cues.answer_cue_stats` measures, its options' texts from
    ``texts_of``: what that function counts of the question alone, without its figures' object."""
    for qs in questions:
        question = viewed(qs)
        cue = _cue(question, texts_of)
        if cue is not None:
            yield question.id, bool(cue[1])


def _cues_in(questions: list, active: dict) -> Iterator[tuple[str, bool]]:
    """:func:`_cues` with each question's options' texts in the catalog's language
    (:func:`_translated_options`), told from their lengths in one loop: the key is the longest
    when every right option's text is strictly longer than every other option's
    (:func:`~aistack_bank.rules.cues.keys_are_longest`), and the right options' positions, which
    no caller of this reads, are not looked up. A question whose right options are not all among
    its options (where :func:`~aistack_bank.rules.cues.options_cue` raises) goes through
    :func:`_cue` as before."""
    get = active.get
    for qs in questions:
        question = viewed(qs)
        options, right = question.options, question.right
        if options is None or not right:
            continue
        qid = question.id
        lengths = {}  # (by option id, as _translated_options' texts: a repeated id's last text)
        for option_id, english in options:
            entry = get(f"{qid}.option.{option_id}")
            lengths[option_id] = len(entry.msgstr if entry is not None and entry.msgstr else english)
        shortest = None
        for option_id in right:
            if option_id not in lengths:
                shortest = False
                break
            size = lengths[option_id]
            if shortest is None or size < shortest:
                shortest = size
        if shortest is False:
            cue = _cue(question, lambda question: _translated_options(question, active))
            yield question.id, bool(cue[1])
            continue
        longest = None
        for option_id, size in lengths.items():
            if option_id not in right and (longest is None or size > longest):
                longest = size
        yield qid, longest is not None and shortest > longest


def _cue(question: CatalogQuestion, texts_of) -> tuple[tuple[int, ...], bool] | None:
    """:func:`~aistack_bank.rules.cues.question_cue` of a question read as plain data, its options'
    texts from ``texts_of(question)``."""
    if question.options is None or not question.right:
        return None
    return options_cue([option_id for option_id, _ in question.options], question.right, texts_of(question))


class _Owners:
    """The findings of the latest verification of one catalog by what they belong to (a
    question, a topic or category, or for an entry the bank no longer has, its context): kept
    per catalog file for the bank's inputs (``inputs``), the options and the read of the catalog
    they were made from (:attr:`.catalog.Changes.token`).

    A catalog read again after an edit of that read is verified again only for the owners of
    the entries the edit touched (:meth:`affected`); every other owner's findings are kept, each
    catalog line moved as the edit moved it (:meth:`keep_others`). A finding in the catalog
    belongs to the owner of the entry whose lines hold it; one elsewhere (a numeric check's
    script) to the question whose check found it. Findings of the whole catalog are not kept."""

    def __init__(self, catalog: Catalog, fields: list[TextField] | None, inputs: str, run_checks: bool, store=None) -> None:
        from ..cache.store import Store, key_of

        self.catalog = catalog
        self.changes = catalog.changes
        self.store = store if store is not None else Store("catalog-owners", catalog.path, keep=1)
        self.key = key_of("catalog-owners", str(catalog.path), catalog.language, inputs, run_checks)
        # Every field key of the bank in order and the owner of each: from ``fields``, or
        # without them (None) as kept with the findings, for the same bank's inputs.
        self.keys: list[str] = [field.key for field in fields] if fields is not None else []
        self.owners: list[str] = [field.question_id or field_owner(field) for field in fields] if fields is not None else []
        self.owner_of = dict(zip(self.keys, self.owners))
        self.where = Location.of(catalog.path).path
        self.lines: list[int] | None = None
        self.previous: dict = {}
        self.verified: set[str] = set()
        self.delta = False
        self.cues: tuple[int, frozenset] = (0, frozenset())
        """Of the length cue (W302): the questions measured, and those whose key is the longest option in this language."""
        self.missing = True
        """Whether the kept verification found a field key without an entry (W501)."""
        self.joined = ""
        """Without ``fields``: the bank's field keys as kept, one string (see :meth:`all_keys`)."""

    def affected(self) -> set[str] | None:
        """The owners to verify again (None: all of them, nothing kept applies)."""
        if self.changes.before is None:
            return None
        found = self.store.get(self.key)
        if not (isinstance(found, tuple) and len(found) == 4 and found[0] == self.changes.before and isinstance(found[1], dict)
                and all(isinstance(k, str) and isinstance(v, list) and all(isinstance(d, Diagnostic) for d in v) for k, v in found[1].items())
                and isinstance(found[2], tuple) and len(found[2]) == 2 and isinstance(found[2][0], int) and isinstance(found[2][1], frozenset)
                and type(found[3]) is bool):
            return None
        if not self.keys:  # made without the fields: the kept ones (the same bank's)
            kept = self._fields_store().get(self._fields_key())
            if not (isinstance(kept, tuple) and len(kept) == 2 and type(kept[0]) is str and type(kept[1]) is str and kept[1][:1] == kept[1][-1:] == "\0"):
                return None
            # (the owners looked up in the kept pairs, not made into a map of every key)
            self.joined, self.owner_of = kept[0], _KeptOwners(kept[1])
        self.previous, self.cues, self.missing, self.delta = found[1], found[2], found[3], True
        self.verified = {self.owner_of.get(key, key) for key in self.changes.keys if key is not None}
        return self.verified

    def all_keys(self) -> list[str]:
        """Every field key of the bank, in bank order."""
        if not self.keys and self.joined:
            self.keys = self.joined.split("\0")
        return self.keys

    def none_missing(self, present) -> bool:
        """Whether no field key of the bank lacks an entry in ``present`` (the active entries'
        contexts), as found from the kept verification: it found none missing, and each
        touched context that is a key of the bank has an entry (the others' entries are those
        of the kept read, moved)."""
        return not self.missing and all(key in present for key in self.changes.keys if key is not None and key in self.owner_of)

    def owner_at(self, d: Diagnostic) -> str | None:
        """The owner of the entry whose lines hold ``d`` (None: not on a line of the catalog)."""
        from bisect import bisect_right

        if d.location is None or d.location.path != self.where or d.location.line <= 0:
            return None
        if self.lines is None:
            po = self.catalog.po
            self.lines, self.contexts = po.positions() if isinstance(po, ColumnCatalog) else ([e.linenum or 0 for e in po], [e.msgctxt for e in po])
        index = bisect_right(self.lines, d.location.line) - 1
        key = self.contexts[index] if index >= 0 else None
        return None if key is None else self.owner_of.get(key, key)

    def keep_others(self, owned: dict[str, list[Diagnostic]]) -> bool:
        """Add the kept findings of every owner not verified again (False: one of them is on a
        changed line, so they cannot be kept)."""
        for owner, found in self.previous.items():
            if owner in self.verified:
                continue
            moved = []
            for d in found:
                loc = d.location
                if loc is not None and loc.path == self.where and loc.line > 0:
                    line = self.changes.where(loc.line)
                    if line is None:
                        return False
                    if line != loc.line:
                        d = replace(d, location=replace(loc, line=line))
                moved.append(d)
            owned[owner] = moved
        return True

    def length_cues(self, source: BankSource, questions: list, active: dict) -> list[Diagnostic]:
        """:func:`length_cue_diagnostics`, from the kept figures of the questions not verified again."""
        measured, longest = self.cues if self.delta else (0, frozenset())
        if not self.delta:
            questions = [qs for qs in source.questions if qs.question is not None]
        longest = set(longest) - {qs.question.id for qs in questions} if longest else set()  # (none kept: nothing to take out)
        for question_id, keys_longest in _cues_in(questions, active):
            if not self.delta:
                measured += 1
            if keys_longest:
                longest.add(question_id)
        self.cues = (measured, frozenset(longest))
        return length_warnings(AnswerCueStats(measured=measured, key_longest=len(longest)), Location.of(self.catalog.path), self.catalog.language)

    def _fields_store(self):
        from ..cache.store import Store

        return Store("catalog-fields", self.catalog.path, keep=1)

    def _fields_key(self) -> str:
        return self.key + "\0fields"

    def save(self, owned: dict[str, list[Diagnostic]], missing: bool = True) -> None:
        """Keep the findings by owner, and whether a field key had no entry (``missing``); and,
        once for the bank's inputs, its field keys and their owners (in a store of their own,
        as two strings: the keys, and each key with its owner, :class:`_KeptOwners`; an edit
        neither writes nor unpickles 100 000 strings again). Not kept when a key or owner holds
        a separator, or a key is there twice."""
        self.store.put(self.key, (self.changes.token, {owner: found for owner, found in owned.items() if found}, self.cues, missing))
        self.store.save()
        fields = self._fields_store()
        if not fields.has(self._fields_key()):
            # (the map of the keys made from them and their owners, one each: it has as many as there are distinct keys)
            made = type(self.owner_of) is dict and len(self.owners) == len(self.keys)
            kept = _kept_fields(self.keys, self.owners, len(self.owner_of) == len(self.keys) if made else None)
            if kept is not None:
                fields.put(self._fields_key(), kept)
                fields.save()


def _kept_fields(keys: list[str], owners: list[str], distinct: bool | None = None) -> tuple[str, str] | None:
    """What :meth:`_Owners.save` keeps of the bank's field keys and their owners: the keys
    joined by ``\\0``, and ``\\0key\\1owner`` of each then ``\\0`` (:class:`_KeptOwners`); None
    when a key or an owner holds a separator, or a key is there twice. Whether one holds a
    separator is told from the strings joined (in which only the joins are ``\\0``), not
    asked of each string; whether a key is there twice from ``distinct`` when the caller knows
    (whether every key is there once), else from a set of them."""
    joined = "\0".join(keys)
    if not (_unseparated(joined, len(keys)) and _unseparated("\0".join(owners), len(owners))
            and (distinct if distinct is not None else len(set(keys)) == len(keys))):
        return None
    return joined, "\0" + "\0".join(map("\1".join, zip(keys, owners))) + "\0"


def _unseparated(joined: str, count: int) -> bool:
    """Whether none of the ``count`` strings joined by ``\\0`` into ``joined`` holds a
    ``\\0`` or a ``\\1``."""
    return "\1" not in joined and joined.count("\0") == max(count - 1, 0)


class _KeptOwners:
    """The owner of each field key of the bank, from the kept string of ``\\0key\\1owner`` pairs
    (every key once, no separator in a key or owner: :meth:`_Owners.save`): a few keys are
    looked up in the string, without making the map of every key; after
    :attr:`LOOKUPS` lookups, the map is made."""

    LOOKUPS = 16

    def __init__(self, pairs: str) -> None:
        self.pairs = pairs
        self.map: dict[str, str] | None = None
        self.lookups = 0

    def get(self, key, default=None):
        if self.map is None:
            if self.lookups < self.LOOKUPS and type(key) is str and "\0" not in key and "\1" not in key:
                self.lookups += 1
                at = self.pairs.find(f"\0{key}\1")
                if at < 0:
                    return default
                start = at + len(key) + 2
                return self.pairs[start:self.pairs.index("\0", start)]
            inner = self.pairs[1:-1]
            self.map = dict(pair.split("\1", 1) for pair in inner.split("\0")) if inner else {}
        return self.map.get(key, default)

    def __contains__(self, key) -> bool:
        return self.get(key) is not None


def _question_id(qs) -> str | None:
    """The id of a read question file's model, from its summary when it has one (no record unpickled)."""
    if qs.summary is not None:
        return qs.summary.question_id
    return qs.question.id if qs.question is not None else None


def _owners_fields(source: BankSource, affected: set[str]) -> list[TextField]:
    """The fields of the owners ``affected`` (questions, topics, categories), in bank order
    (:func:`~.fields.bank_fields`): only the records of those questions are unpickled."""
    from .fields import category_fields, topic_fields
    from ..load import LibrarySource, ordered_topics

    fields: list[TextField] = []
    if isinstance(source, LibrarySource):
        fields += [f for f in category_fields(source.categories, source.categories_doc, source.categories_path) if field_owner(f) in affected]
        topics = ordered_topics(source)
    else:
        topics = [source]
    for topic in topics:
        if topic.topic is not None:
            fields += [f for f in topic_fields(topic.topic, topic.topic_doc, topic.root / "topic.yaml") if field_owner(f) in affected]
        order = {qid: i for i, qid in enumerate(topic.topic.questions)} if topic.topic is not None else {}
        mine = [(qid, qs) for qs in topic.questions if (qid := _question_id(qs)) in affected and qs.question is not None]
        mine.sort(key=lambda pair: (order.get(pair[0], len(order)), pair[0]))
        for _, qs in mine:
            known = qs.derived.get("fields")
            fields += known if known is not None else question_fields(qs.question, qs.doc, qs.path)
    return fields


class KeptBank:
    """What verifying one edited catalog again needs of a bank whose files did not change
    since a verdict of it was kept (see :func:`verify_catalogs_kept`): its share of the
    catalogs' keys, the fields of its categories and topics in bank order, the ids of its
    questions, and ``read()``, which reads the bank (called only when the edit touched an
    entry of one of its questions)."""

    def __init__(self, share: str, fields: list[TextField], questions: frozenset[str], read) -> None:
        self.share, self.fields, self.questions, self.read = share, fields, questions, read

    def owners(self, affected: set[str]):
        """(the bank or what stands for it, the fields of the owners ``affected`` in bank
        order), as :func:`_owners_fields` lists them from the bank read."""
        if not self.questions.isdisjoint(affected):
            source = self.read()
            return source, _owners_fields(source, affected)
        # no question is verified again: none of their records, nor their fields, is needed
        return _NoQuestions, [field for field in self.fields if field_owner(field) in affected]


class _NoQuestions:
    """A bank seen by :func:`verify_catalog` for owners that are none of its questions."""

    questions: list = []


def _verify_kept(source: BankSource | KeptBank, path: Path, run_checks: bool, inputs: str) -> list[Diagnostic] | None:
    """:func:`verify_catalog` of the catalog at ``path`` in this process when its latest
    verification for the same bank's ``inputs`` is kept and the catalog changed only since the
    read it was made from: only the owners of the entries the edit touched are verified again,
    and only their fields are listed (the records of the other questions stay unread). None
    when that does not apply: the caller verifies the catalog with every field."""
    from ..cache.store import Store, key_of

    probe = Store("catalog-owners", path, keep=1)
    if not probe.has(key_of("catalog-owners", str(path), path.stem, inputs, run_checks)):
        return None  # nothing kept for this bank: do not read the catalog here for nothing
    # the entries made only for the owners verified again (see ColumnCatalog)
    catalog = read_catalog(path, use_cache=True, light=True, columns=True)
    if catalog.po is None or catalog.diagnostics:
        return list(catalog.diagnostics)
    if catalog.changes is None:
        return None
    owners = _Owners(catalog, None, inputs, run_checks, store=probe)
    affected = owners.affected()
    if affected is None:
        return None
    if isinstance(source, KeptBank):
        source, fields = source.owners(affected)
    else:
        fields = _owners_fields(source, affected)
    return verify_catalog(source, fields, catalog, run_checks=run_checks, memo=True, inputs=inputs, owners=owners)


def length_cue_diagnostics(source: BankSource, catalog: Catalog) -> list[Diagnostic]:
    """W302 when, in this language, the key is too often the strictly longest option."""
    active = catalog.active()
    stats = _cue_stats([qs for qs in source.questions if qs.question is not None], active)
    return length_warnings(stats, Location.of(catalog.path), catalog.language)


def _cue_stats(questions: list, active: dict) -> AnswerCueStats:
    """:func:`~aistack_bank.rules.cues.answer_cue_stats` of the questions (read question files
    with a model), their options' texts in the catalog's language."""
    return cue_stats(_cue(viewed(qs), lambda question: _translated_options(question, active)) for qs in questions)


def _translated_options(question: CatalogQuestion, active: dict) -> dict[str, str]:
    """The option texts of ``question`` in the catalog's language (English where not translated)."""
    texts = {}
    qid = question.id
    for option_id, english in question.options:
        entry = active.get(f"{qid}.option.{option_id}")
        texts[option_id] = entry.msgstr if entry is not None and entry.msgstr else english
    return texts


def translated_check_diagnostics(source: BankSource, catalog: Catalog) -> tuple[int, list[Diagnostic]]:
    """Run the numeric checks on the catalog's translated texts: (checked count, diagnostics).

    A choice question's check runs on its translated options, a short answer's on its
    translated accepted answers (each spelling of a line counts); a numerical question's key is
    a number the catalog cannot change, so what is checked in each language is that every
    translated unit is the same unit as the English one (``Go`` for ``GB``, never ``Mo``)."""
    checked, diags = 0, []
    for _, counted, found in _translated_checks(source.questions, catalog, catalog.active()):
        checked += counted
        diags += found
    return checked, diags


def _translated_checks(questions: list, catalog: Catalog, active: dict):
    """(question id, 1 if checked else 0, findings) of :func:`translated_check_diagnostics`
    for each question with a check."""
    from ..rules.checks import answer_texts, check_question  # (imported when a question is verified)

    for qs in questions:
        if qs.question is None:
            continue
        question = viewed(qs)
        if question.check is None:
            continue
        if question.NUMERIC_KEY:
            found = _translated_unit_diagnostics(question, catalog, active)
            yield question.id, int(found is not None), found or []
            continue
        target = answer_texts(question)
        if target is None:
            continue
        prefix, several = question.ANSWER_FIELD, question.multiline
        options, entries = [], {}
        for option_id, english in target[0]:
            entry = active.get(f"{question.id}.{prefix}.{option_id}")
            if entry is None or entry_state(entry, english) != "translated":
                break
            lines = [line.strip() for line in entry.msgstr.split("\n") if line.strip()] if several else [entry.msgstr]
            options += [(option_id, line) for line in lines]
            entries[option_id] = entry
        else:
            diags = []
            for finding in check_question(question, options, catalog.language):
                entry = entries.get(finding.option_id) if finding.option_id else None
                where = msgstr_location(catalog, entry) if entry is not None else qs.doc.locate_in_scalar(("check", "script"), finding.script_line or 1, finding.script_column or 1)
                diags.append(error(finding.code, f"{question.id} ({catalog.language}): {finding.message}", where))
            yield question.id, 1, diags


def _translated_unit_diagnostics(question: CatalogQuestion, catalog: Catalog, active: dict) -> list[Diagnostic] | None:
    """E409 for each translated unit that denotes another unit than the English; None when a
    unit is not translated yet (nothing to check in this language)."""
    diags = []
    for unit_id, name, multiplier in question.units:
        entry = active.get(f"{question.id}.unit.{unit_id}")
        if entry is None or entry_state(entry, name) != "translated":
            return None
        english = quantities(f"1 {name}", "en")
        translated = quantities(f"1 {entry.msgstr.strip()}", catalog.language)
        if english and (not translated or (translated[0].dimension, round(translated[0].base, 9)) != (english[0].dimension, round(english[0].base, 9))):
            shown = translated[0].unit if translated else entry.msgstr.strip()
            diags.append(error("E409", f"{question.id}.unit.{unit_id} ({catalog.language}): {shown!r} is not the unit {name!r}; a learner typing it would be scored with {name}'s multiplier {multiplier:g}", msgstr_location(catalog, entry)))
    return diags


def duplicate_text_diagnostics(source: BankSource, catalog: Catalog) -> list[Diagnostic]:
    """E512 where this language's texts of a question are equal although they must differ
    (two options, two match answers or prompts, two accepted spellings, two units); E750 where
    they differ although they are one in English (an answer two matching prompts share); W326 where a
    translated stem contains an accepted answer of the language."""
    return [d for _, found in _duplicate_texts([qs for qs in source.questions if qs.question is not None], catalog, catalog.active()) for d in found]


def _duplicate_texts(questions: list, catalog: Catalog, active: dict):
    """(question id, its findings of :func:`duplicate_text_diagnostics`) for each question
    (its English from the fields its file's rules listed, when they are kept with it)."""
    from ..kinds import translation_duplicates, translation_splits  # (imported when a question is verified)

    for qs in questions:
        question = viewed(qs)
        diags: list[Diagnostic] = []
        listed = qs.derived.get("fields")
        english = {field.key: field.text for field in (listed if listed is not None else question_fields(qs.question, None, None))}

        def text_of(key: str) -> str | None:
            entry = active.get(key)
            return entry.msgstr if entry is not None and key in english and entry_state(entry, english[key]) == "translated" else None

        for key, message in translation_duplicates(question, text_of, question.duplicates, question.multiline):
            diags.append(error("E512", f"{message} ({catalog.language})", msgstr_location(catalog, active[key])))
        for key, message in translation_splits(question, text_of, question.same):
            diags.append(error("E750", f"{message} ({catalog.language})", msgstr_location(catalog, active[key])))
        stem = text_of(f"{question.id}.stem")
        giveaway = question.giveaway
        if giveaway is not None and stem is not None:
            shown = giveaway[0](giveaway[1], stem, text_of)
            if shown is not None:
                diags.append(warning("W326", f"{question.id}.stem ({catalog.language}): the stem contains the accepted answer {shown!r}; a learner can copy it", msgstr_location(catalog, active[f"{question.id}.stem"])))
        yield question.id, diags


def verify_catalogs(source: BankSource, translations: Path, *, run_checks: bool = True, catalogs: Catalogs | None = None, use_cache: bool = False,
                    workers: Workers | None = None, share: str | None = None, meanwhile: Callable[[], None] | None = None,
                    last: bool = False) -> list[Diagnostic]:
    """Translation diagnostics for every catalog in ``translations`` (and the template's freshness).

    The catalogs are read through ``catalogs`` when given, so that a command that goes on to
    localize them reads each file once; otherwise each is read where it is verified and
    dropped after. With ``use_cache``, a catalog's verdict (and the template's freshness) comes
    from the per-language store when the catalog's bytes and what the verification reads of the
    bank are exactly those of a stored one (see :mod:`.verdicts`).

    With ``workers`` started (:class:`~aistack_bank.parallel.Workers`, forked before the bank
    was read) and a large bank, the catalogs (read by the workers) and the template are
    verified there, each worker sent only the fields and the questions' models (with the
    documents of those with a numeric check), not the parent's pages.

    ``meanwhile()``, when given, is called once, while the workers verify when they do (the
    caller's own work on the bank, on the core the parent would leave idle). ``last``: the
    caller sends ``workers`` nothing after this, so each ends as soon as it has no call left
    (see :meth:`~aistack_bank.parallel.Workers.submit`)."""
    from ..cache.store import Store
    from .extract import reference
    from ..cache.catalogs import catalog_key, inputs_digest, inputs_of
    from ..cache.store import drop_bytes, note_read

    diags: list[Diagnostic] = []
    store = Store("catalogs", translations, enabled=use_cache)
    # the bank's share of the keys from each question file's summary: the fields (and the
    # models they come from) are listed only if some verdict must be computed
    # (``share``: the bank's part of it, when the caller took it: see cache.catalogs.bank_share)
    inputs = (inputs_digest(source, translations, run_checks=run_checks) if share is None else inputs_of(share, translations, run_checks=run_checks)) if use_cache else None
    pot = template_path(translations)
    root = translations.resolve().parent
    template_key = catalog_key("template", pot, inputs, lookup=True)
    current = store.get(template_key) if template_key is not None else None
    # The template's freshness is one more task beside the catalogs' (in a worker when they run
    # in parallel, so that the parent does not hold the template's parse when it forks them).
    fresh = [] if isinstance(current, bool) else [lambda: template_is_current(pot, fields, lambda f: reference(f.path, root))]
    misnamed = misnamed_catalogs(translations)
    # Each catalog is verified on its own, from its stored verdict when it has one; with a large
    # bank the others run in parallel (see aistack_bank.parallel).
    paths = catalog_paths(translations)
    keys, verdicts = _stored_verdicts(store, paths, inputs)
    todo = [i for i, found in enumerate(verdicts) if found is None]
    if len(todo) == 1 and not fresh and catalogs is None and inputs is not None:
        # One catalog edited since its latest verification for this bank: verified again here,
        # where it changed (no worker is sent the whole bank, no other record is unpickled).
        found = _verify_kept(source, paths[todo[0]], run_checks, inputs)
        if found is not None:
            verdicts[todo[0]] = found
            if catalog_key("catalog", paths[todo[0]], inputs, read=True) == keys[todo[0]]:
                store.put(keys[todo[0]], found)
            todo = []
    for i in todo:  # verified below, perhaps from another read (a worker's): nothing is known of the bytes used
        note_read(paths[i], None)
    # with the bank's records in a spill file, the workers read them from it a part at a time
    manifest = _manifest(source) if (todo or fresh) and workers is not None and workers.started and catalogs is None else None
    fields = bank_fields(source) if (todo or fresh) and manifest is None else []
    if catalogs is not None:
        read = {i: catalogs.read(paths[i]) for i in todo}
        tasks = [lambda c=read[i]: verify_catalog(source, fields, c, run_checks=run_checks, memo=use_cache, inputs=inputs) for i in todo]
    else:
        # a Catalogs of its own per task: the catalog is dropped once verified; its entries are
        # read as light entries (nothing here localizes or writes them)
        tasks = [lambda p=paths[i]: verify_catalog(source, fields, Catalogs(use_cache=use_cache, light=True).read(p), run_checks=run_checks,
                                                   memo=use_cache, inputs=inputs) for i in todo]
    from ..parallel import POOL_MIN_WORK  # read now: tests lower it

    work = len(fields) * len(todo)
    if manifest is not None:
        token = os.urandom(8).hex()
        # the template last: the worker that is done first with its catalog compares it with
        # the bank's fields it already holds, and the two workers finish at about the same time
        expected = _keyed_digests(paths, todo, keys, inputs)
        calls = [(_verify_sent, (manifest, token, paths[i], run_checks, use_cache, inputs, digest)) for i, digest in zip(todo, expected)]
        calls += [(_template_sent, (manifest, token, pot, root))] if fresh else []
        results = _collected(workers.submit(calls, last=last, to=_holders(workers, paths, todo, fresh)), meanwhile, busy=len(todo) >= workers.size)
        meanwhile = None
        if fresh:
            results.insert(0, results.pop())
    elif workers is not None and workers.started and catalogs is None and (fresh or todo) and work >= POOL_MIN_WORK:
        payload, token = _payload(source, fields), os.urandom(8).hex()
        # each call's payload in a list of its own, which the worker empties (see _received)
        expected = _keyed_digests(paths, todo, keys, inputs)
        calls = [(_verify_sent, ([payload], token, paths[i], run_checks, use_cache, inputs, digest)) for i, digest in zip(todo, expected)]
        calls += [(_template_sent, ([payload], token, pot, root))] if fresh else []  # (last, as above)
        del payload
        results = _collected(workers.submit(calls, last=last, to=_holders(workers, paths, todo, fresh)), meanwhile, busy=len(todo) >= workers.size)
        meanwhile = None
        if fresh:
            results.insert(0, results.pop())
    else:
        results = run_all(fresh + tasks, work=work)
    if meanwhile is not None:
        meanwhile()
    if fresh:
        current = results.pop(0)
        if template_key is not None and catalog_key("template", pot, inputs) == template_key:
            store.put(template_key, current)
    if not current:
        diags.append(warning("W504", "the template is missing or out of date with the bank; run `bank i18n update`", Location.of(pot)))
    diags += misnamed
    for i, found in zip(todo, results):
        verdicts[i] = found
        if keys[i] is not None and catalog_key("catalog", paths[i], inputs) == keys[i]:
            store.put(keys[i], found)
    store.save()
    drop_bytes()  # (a catalog's bytes the input digest kept and no read here took: not held longer)
    for found in verdicts:
        diags += found
    diags += verify_site_catalogs(source, translations, catalogs if catalogs is not None else Catalogs(use_cache=use_cache))
    return diags


def verify_catalogs_kept(bank: KeptBank, translations: Path, *, run_checks: bool = True) -> list[Diagnostic] | None:
    """:func:`verify_catalogs` (with the stores, no ``catalogs``) of a bank whose files did not
    change since a verdict of it was kept (``bank``), when the template's freshness and every
    catalog's verdict but one's are stored for its inputs, and that one catalog changed only
    since the read its kept findings were made from: it is verified again for the owners of
    the entries the edit touched, without reading the bank unless one of them is a question.
    None when that does not apply (the caller validates the bank as without a kept verdict):
    the same diagnostics as :func:`verify_catalogs` otherwise."""
    from ..cache.catalogs import catalog_key, inputs_of
    from ..cache.store import Store, drop_bytes

    inputs = inputs_of(bank.share, translations, run_checks=run_checks)
    if inputs is None:
        return None
    store = Store("catalogs", translations)
    pot = template_path(translations)
    template_key = catalog_key("template", pot, inputs, lookup=True)
    current = store.get(template_key) if template_key is not None else None
    if not isinstance(current, bool):
        return None
    paths = catalog_paths(translations)
    keys, verdicts = _stored_verdicts(store, paths, inputs)
    todo = [i for i, found in enumerate(verdicts) if found is None]
    if len(todo) > 1:
        return None
    for i in todo:
        found = _verify_kept(bank, paths[i], run_checks, inputs)
        if found is None:
            return None
        verdicts[i] = found
        if catalog_key("catalog", paths[i], inputs, read=True) == keys[i]:
            store.put(keys[i], found)
    store.save()
    drop_bytes()
    diags: list[Diagnostic] = []
    if not current:
        diags.append(warning("W504", "the template is missing or out of date with the bank; run `bank i18n update`", Location.of(pot)))
    diags += misnamed_catalogs(translations)
    for found in verdicts:
        diags += found
    # (the interface catalogs are verified without the bank: see verify_catalog's bank_checks)
    diags += verify_site_catalogs(_NoQuestions, translations, Catalogs(use_cache=True))
    return diags


def _stored_verdicts(store, paths: list[Path], inputs) -> tuple[list[str | None], list[list[Diagnostic] | None]]:
    """Each catalog's key for ``inputs`` and its verdict stored under it (None where none is)."""
    from ..cache.catalogs import catalog_key

    keys = [catalog_key("catalog", path, inputs, lookup=True) for path in paths]
    verdicts: list[list[Diagnostic] | None] = []
    for key in keys:
        found = store.get(key) if key is not None else None
        verdicts.append(found if isinstance(found, list) and all(isinstance(d, Diagnostic) for d in found) else None)
    return keys, verdicts


def read_early(workers: Workers, translations: Path, use_cache: bool, wanted: frozenset[str] | None = None) -> None:
    """Have each of ``workers`` (the catalogs' workers, just forked) read a catalog of
    ``translations`` now, as its verification would read it (:func:`_catalog_read`: its bytes,
    entries and the checks of the catalog alone, none of which depends on the bank), while the
    parent reads the bank and the question files' workers check it; the catalog's
    verification is later sent to the worker that holds it (:func:`_holders`).

    Only the catalogs read whole there (under :data:`STREAM_MIN_BYTES`: a larger one is read a
    piece at a time beside the bank's parts), of those in ``wanted`` (absolute paths; None:
    all), at most one a worker: ``wanted`` is the caller's guess of the catalogs whose verdict
    is not stored (those written since the latest run's input digest, or all on a cold run);
    a catalog read early and not verified after costs CPU, never a finding."""
    paths = early_paths(translations, wanted)
    pids = workers.pids
    calls, to = [], []
    for path, pid in zip(paths, pids):
        calls.append((_read_early, (path, use_cache)))
        to.append(pid)
        workers.holding[os.path.abspath(path)] = pid
    if calls:
        workers.submit(calls, to=to)  # (its results, None, are not waited for)


def early_paths(translations: Path, wanted: frozenset[str] | None = None) -> list[Path]:
    """The catalogs of ``translations`` that :func:`read_early` has the workers read: those
    read whole (under :data:`STREAM_MIN_BYTES`), of those in ``wanted`` (absolute paths; None: all)."""
    return [path for path in catalog_paths(translations)
            if (wanted is None or os.path.abspath(path) in wanted) and 0 < _file_size(path) < STREAM_MIN_BYTES]


def _holders(workers: Workers, paths: list[Path], todo: list[int], fresh: list) -> list[int | None]:
    """For each call of :func:`verify_catalogs` (the catalogs of ``todo``, then the template's
    when ``fresh``): the worker that read that catalog early (:func:`read_early`), or None (any)."""
    return [workers.holding.get(os.path.abspath(paths[i])) for i in todo] + [None] * len(fresh)


_EARLY: list = [None, None, None]
"""In a catalog worker: the absolute path, the read and the content digest of the bytes read
(None: not known) of the catalog it read as it started (:func:`_read_early`), until its
verification takes it (:func:`_catalog_read`)."""


def _read_early(path: Path, use_cache: bool) -> None:
    """In a catalog worker: the catalog at ``path`` read now and kept for its verification.

    What the read dropped is collected before the call returns: the worker's next call reads
    the bank's records and puts all it holds out of the collector's reach
    (:func:`_manifest_bank`: ``gc.freeze``), which would keep any cycle left from the read for
    the worker's life (a read without the stores, of the copy of the 10 000-question bank
    with 100 005 findings: the largest process 10 MB higher without it)."""
    import gc

    from ..cache.store import read_digest

    _EARLY[:] = [None, None, None]
    catalog = Catalogs(use_cache=use_cache, light=True).read(path)
    _EARLY[:] = [os.path.abspath(path), catalog, read_digest(path)]
    del catalog
    gc.collect()


def _keyed_digests(paths: list[Path], todo: list[int], keys: list[str | None], inputs: str | None) -> list[str | None]:
    """For each catalog of ``todo``: the content digest of the bytes whose verdict its key
    (``keys``, :func:`_stored_verdicts`) keeps, the one bytes a worker's early read of it may
    be verified in place of (:func:`_catalog_read`); None where nothing is cached (``inputs``
    None: nothing of the bytes verified outlives the run). The file's digest taken again, a
    ``stat`` since the look-up took it; a file written in between has another digest, and its
    key is then not the one the look-up took: its worker reads it again. A catalog with no key
    of its own while the bank's verdict is kept (a link, or no regular file: the input digest
    took what it leads to) gets "": its worker reads it again, after that digest (an early read
    may be of bytes from before it, as the reads before the digest of a cold run are)."""
    from ..cache.store import file_digest, key_of

    found: list[str | None] = []
    for i in todo:
        if keys[i] is None:
            found.append(None if inputs is None else "")
            continue
        digest = file_digest(paths[i], lookup=True)
        # ("" where the file's digest now is not the one of its key: no early read is of the key's bytes)
        found.append(digest if digest is not None and key_of("catalog", str(paths[i]), digest, inputs) == keys[i] else "")
    return found


def _catalog_read(path: Path, use_cache: bool, digest: str | None = None) -> Catalog:
    """In a catalog worker: the catalog at ``path`` as :func:`_read_early` read it in this
    worker, else read now; an early read of another catalog is dropped either way.

    With ``digest`` (the content digest of the bytes whose verdict the caller keeps:
    :func:`_keyed_digests`), the early read is taken only when it read those bytes: a catalog
    written after its early read and before the caller took its key is read again here, so
    that the verdict kept under the key of the bytes after is theirs, not that of the bytes
    before."""
    name, catalog, read = _EARLY
    _EARLY[:] = [None, None, None]
    if catalog is not None and name == os.path.abspath(path) and (digest is None or read == digest):
        return catalog
    del catalog
    return Catalogs(use_cache=use_cache, light=True).read(path)


def _collected(pending, meanwhile: Callable[[], None] | None, *, busy: bool) -> list:
    """The results of calls sent to the workers (``pending``, an iterator of them), once
    ``meanwhile()`` has been called here as they work: with ``busy`` (a catalog for every
    worker), without forking processes of its own (:class:`~aistack_bank.parallel.cores_busy`)."""
    if meanwhile is not None:
        if busy:
            from ..parallel import cores_busy

            with cores_busy():
                meanwhile()
        else:
            meanwhile()
    return list(pending)


class _SentBank:
    """What a catalog worker is sent of the bank beside its fields: the questions with a model,
    each as the catalog checks read it (:class:`.catalogview.CatalogQuestion`, not the model)
    with, when it has a numeric check, what of its document locates a place in the script
    (:func:`_script_doc`)."""

    def __init__(self, source: BankSource) -> None:
        from ..load import QuestionSource

        self.questions = [QuestionSource(path=qs.path, doc=_script_doc(qs.doc) if qs.question.check is not None else None, question=viewed(qs),
                                         derived=_sent_derived(qs))
                          for qs in source.questions if qs.question is not None]


def _sent_derived(qs) -> dict:
    """:func:`_listed` of a question sent to a catalog worker, with its fields made here from its
    model when its file's rules did not list them (a bank read without them): the worker holds
    its :class:`.catalogview.CatalogQuestion`, from which no field can be made."""
    derived = _listed(qs.derived)
    if "fields" not in derived:
        derived["fields"] = question_fields(qs.question, None, None)
    return derived


def _listed(derived: dict) -> dict:
    """Of what a question file's rules derived, its fields (sent with the fields, pickled once)
    and the English side of their parity checks."""
    return {name: derived[name] for name in ("fields", "parity") if name in derived}


def _script_doc(doc):
    """A copy of ``doc`` that answers ``locate_in_scalar(("check", "script"), ...)`` as it
    does: its path, text and the positions of the check, its script and the document (not its data, nor the
    positions of its other values and keys)."""
    from ..yamlsource import YamlDocument

    if doc is None:
        return None
    values = {path: doc.values[path] for path in (("check", "script"), ("check",), ()) if path in doc.values}
    return YamlDocument(path=doc.path, data=None, text=doc.text, values=values, keys={})


def _payload(source: BankSource, fields: list[TextField]) -> bytes:
    import pickle

    return pickle.dumps((_SentBank(source), fields), protocol=pickle.HIGHEST_PROTOCOL)


_RECEIVED: list = [None, None]
"""In a worker: the token and the unpickled payload of the latest call (each call of one run
carries the same payload; it is unpickled once per worker)."""


def _received(payload: list[bytes], token: str):
    """The payload of this call, unpickled once per worker; the bytes are taken out of their
    list and dropped, so that the worker does not hold them while it verifies a catalog."""
    import pickle

    blob = payload.pop()
    if _RECEIVED[0] != token:
        _RECEIVED[:] = [None, None]
        _RECEIVED[:] = [token, pickle.loads(blob)]
    del blob
    return _RECEIVED[1]


def _verify_sent(payload, token: str, path: Path, run_checks: bool, use_cache: bool, inputs: str | None, digest: str | None = None) -> list[Diagnostic]:
    """In a worker: :func:`verify_catalog` of the catalog at ``path``, read here (``payload``
    the bank pickled, or a :class:`_Manifest` of its records: see :func:`_verify_manifest`)."""
    if isinstance(payload, _Manifest):
        return _verify_manifest(payload, token, path, run_checks, use_cache, inputs, digest)
    bank, fields = _received(payload, token)
    return verify_catalog(bank, fields, _catalog_read(path, use_cache, digest), run_checks=run_checks, memo=use_cache, inputs=inputs)


def _template_sent(payload, token: str, pot: Path, root: Path) -> bool:
    """In a worker: :func:`template_is_current` of the bank's fields (with a :class:`_Manifest`,
    the template read a piece at a time and compared with the fields a part at a time)."""
    from .extract import reference

    _EARLY[:] = [None, None, None]  # (a catalog read early whose verification this worker was not sent: not held)

    def ref(f):
        return reference(f.path, root)

    if isinstance(payload, _Manifest):
        # whatever its size: nothing of a template's read is kept for a later run; compared
        # with the bank's fields this worker already holds for this run (it verified a catalog
        # before), else with the fields read from the spill file a part at a time
        held = _RECEIVED[1][1] if _RECEIVED[0] == token else None
        if held is None and _PARTS[0] == token:
            # or with what this worker kept of each part's fields when it verified a catalog
            # a piece at a time (the records are not read a third time)
            found = _template_by_parts(pot, _PARTS[1], lambda p: reference(p, root))
            if found is not None:
                return found
        found = _template_streamed(payload, pot, ref, held)
        if found is not None:
            return found
        _, fields = _manifest_bank(payload, token)
    else:
        _, fields = _received(payload, token)
    return template_is_current(pot, fields, ref)


_PARTS: list = [None, None]
"""In a worker: the token of the latest run in which it verified a catalog a piece at a time,
and each part's :func:`_part_key` (what the template's freshness compares of the part's fields)."""


def _part_key(fields: list[TextField]) -> tuple[int, bytes, list[tuple[str, int]]] | None:
    """What the template's freshness compares of a part's fields, without holding them: their
    number, a digest of their keys, English texts, notes and lines (:func:`_fields_digest`),
    and their files, in order (each file's path and its number of consecutive fields); None
    when a field's strings are not strings (the template is then compared with the fields).

    Read a column at a time (each of the fields' attributes taken by ``map``), the fields of a
    file told by :func:`itertools.groupby` of their paths: equal paths (the same object, most
    often) are paths of the same text, and consecutive groups of the same text are one run."""
    from itertools import groupby
    from operator import attrgetter

    runs: list[list] = []
    last_name = None
    for path, group in groupby(map(attrgetter("path"), fields)):
        name = str(path)
        many = len(list(group))
        if name == last_name:
            runs[-1][1] += many
        else:
            runs.append([name, many])
            last_name = name
    try:
        digest = _fields_digest(list(map(attrgetter("key"), fields)), list(map(attrgetter("text"), fields)),
                                list(map("\n".join, map(attrgetter("notes"), fields))), list(map(str, map(attrgetter("line"), fields))))
    except TypeError:
        return None
    return len(fields), digest, [(name, count) for name, count in runs]


def _fields_digest(keys, texts, notes, lines) -> bytes:
    """A digest of rows of four strings (key, English, notes, line) given as four columns of
    equal length: the columns pickled without the pickler's memo (``fast``: each string written
    whole wherever it occurs, so that the bytes depend on the values alone, not on which strings
    are the same object), each string with its length. Raises ``TypeError`` when a value is not
    a string."""
    import hashlib
    import io
    import pickle

    columns = [column if type(column) is list else list(column) for column in (keys, texts, notes, lines)]  # (lists, whatever the caller gave)
    for i, column in enumerate(columns):
        if not set(map(type, column)) <= {str}:  # (a subclass's value as a plain string; anything else is no row of strings)
            if not all(isinstance(value, str) for value in column):
                raise TypeError("a field's strings are not strings")
            columns[i] = list(map(str.__str__, column))
    out = io.BytesIO()
    pickler = pickle.Pickler(out, 5)
    pickler.fast = True
    pickler.dump(columns)
    return hashlib.blake2b(out.getbuffer(), digest_size=32).digest()


def _template_by_parts(pot: Path, parts: list, ref) -> bool | None:
    """:func:`template_is_current` of a bank whose parts' fields are known by their
    :func:`_part_key` (in order), the template read a piece at a time as
    :func:`_template_streamed` reads it (first by :func:`.pofile.read_template_rows`, then,
    should that reader give up on a block or on a second header, as entries); None when a part
    is not known or the template is not of the common shape (the caller compares the fields
    themselves). ``ref(path)``, the reference of a file, is asked once per file."""
    from .pofile import read_template_rows

    if any(part is None for part in parts):
        return None
    found = _template_pieces(pot, lambda stream: _template_parts_compared(stream.pieces(read_template_rows), parts, ref))
    if found is None:  # (the lean reader gave up on a block: read again as entries, no header among them)
        found = _template_pieces(pot, lambda stream: _template_parts_compared(
            ([_entry_item(entry) for entry in piece] for piece in stream.pieces()), parts, ref, headers=False))
    return found


def _template_pieces(pot: Path, compared) -> bool | None:
    """``compared(stream)`` of the template at ``pot`` opened as a :class:`.stream.BlockStream`;
    None when it cannot be streamed or its reader gives up on a block (``NotStreamable``)."""
    from .catalog import MAX_CATALOG_BYTES
    from .stream import BlockStream, NotStreamable

    try:
        stream = BlockStream(pot, MAX_CATALOG_BYTES)
    except NotStreamable:
        return None
    with stream:
        try:
            return compared(stream)
        except NotStreamable:
            return None


def _entry_item(entry) -> tuple:
    """A template entry as an item of :func:`.pofile.read_template_rows` (key, English, notes,
    reference, line), or ``()`` when it has not exactly one reference (it matches no field)."""
    occurrences = entry.occurrences
    if len(occurrences) != 1 or len(occurrences[0]) != 2:
        return ()
    return (entry.msgctxt, entry.msgid, entry.comment, *occurrences[0])


def _template_parts_compared(pieces, parts: list, ref, *, headers: bool = True) -> bool | None:
    """Whether the items of :func:`.pofile.read_template_rows` in ``pieces`` (the first header
    left out) are the fields of ``parts`` (each a :func:`_part_key`), as
    :func:`_template_compared` compares items with fields; None on a second header (with
    ``headers``; without, no item is a header)."""
    refs: dict = {}
    header = not headers

    def items():
        nonlocal header
        for found in pieces:
            for item in found:
                if item is None:
                    if header:
                        raise _SecondHeader
                    header = True
                    continue
                yield item

    rest = items()
    try:
        for count, digest, runs in parts:
            rows = []
            for name, many in runs:
                if name not in refs:
                    refs[name] = ref(name)
                reference = refs[name]
                for _ in range(many):
                    item = next(rest, None)
                    # (an item of other than five strings matches no field)
                    if item is None or len(item) != 5 or item[3] != reference:
                        return False
                    key, text, note, where, line = item
                    if not (isinstance(key, str) and isinstance(text, str) and isinstance(note, str) and isinstance(where, str) and isinstance(line, str)):
                        return False
                    rows.append(item)
            if len(rows) != count:
                return False
            columns = list(zip(*rows)) if rows else [()] * 5
            if _fields_digest(columns[0], columns[1], columns[2], columns[4]) != digest:
                return False
        return next(rest, None) is None
    except _SecondHeader:
        return None


class _SecondHeader(Exception):
    """A template piece held a second header (see :func:`_template_parts_compared`)."""


STREAM_MIN_BYTES = 64 << 20
"""Size from which a catalog verified in a worker from a :class:`_Manifest` is read a piece at
a time (:mod:`.stream`) instead of whole: about a bank of 15 000 questions (the template always is).
What is kept for a later run then is each entry's findings (:mod:`aistack_bank.cache.entries`)
and the verdict, not the parsed catalog (a catalog edit is verified again whole, each entry
from its kept findings)."""

CHUNK_QUESTIONS = 200
"""Most questions in one part of a :class:`_Manifest`."""


class _Manifest:
    """What a catalog worker is sent of a bank whose question records are in a spill file
    (:class:`aistack_bank.cache.questionfiles.Spill`): the file's path and, in the order of
    :func:`.fields.bank_fields`, parts of the bank: (the categories' or a topic's fields, the id
    and the place of the record of up to :data:`CHUNK_QUESTIONS` of its questions with a model,
    in its fields' order). The worker reads the records a part at a time."""

    def __init__(self, spill: str, chunks: list[tuple[list[TextField], list[tuple[str, int, int]]]]) -> None:
        self.spill = spill
        self.chunks = chunks


def _manifest(source) -> _Manifest | None:
    """The :class:`_Manifest` of a whole bank whose records are all in one spill file (else None)."""
    from ..load import LibrarySource, ordered_topics
    from .fields import category_fields, topic_fields

    if not isinstance(source, LibrarySource):
        return None
    spill = None
    chunks = [(category_fields(source.categories, source.categories_doc, source.categories_path), [])]
    for topic in ordered_topics(source):
        head = topic_fields(topic.topic, topic.topic_doc, topic.root / "topic.yaml") if topic.topic is not None else []
        order = {qid: i for i, qid in enumerate(topic.topic.questions)} if topic.topic is not None else {}
        refs = []
        for qs in topic.questions:
            where = getattr(qs, "spilled", None)
            if where is None or qs.summary is None or (spill is not None and where.spill is not spill):
                return None
            spill = where.spill
            if qs.summary.question_id is not None:
                refs.append((qs.summary.question_id, where.at, where.length))
        refs.sort(key=lambda ref: (order.get(ref[0], len(order)), ref[0]))
        chunks.append((head, refs[:CHUNK_QUESTIONS]))
        chunks += [([], refs[i:i + CHUNK_QUESTIONS]) for i in range(CHUNK_QUESTIONS, len(refs), CHUNK_QUESTIONS)]
    return None if spill is None else _Manifest(spill.path, chunks)


def _bank_parts(manifest: _Manifest):
    """(fields, questions) of each part of ``manifest``, in order (see :func:`_read_part`; the
    spill file stays open while a question read from it may read its document there)."""
    spill = _SpillFile(manifest.spill)
    for chunk in manifest.chunks:
        yield _read_part(spill, chunk)


class _SpillFile:
    """The spill file of a :class:`_Manifest` open for reading: closed by :meth:`close`, or once
    nothing read from it holds it (a question's document, :class:`_PickledDoc`)."""

    def __init__(self, path: str) -> None:
        import weakref

        self.fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        self._closer = weakref.finalize(self, os.close, self.fd)

    def read(self, at: int, length: int) -> bytes:
        from ..cache.store import read_at

        if not self._closer.alive:
            raise ValueError("the spill file was closed")
        return read_at(self.fd, at, length)

    def close(self) -> None:
        self._closer()


def _read_part(spill: _SpillFile, chunk) -> tuple[list[TextField], list]:
    """(fields, questions) of one part of a :class:`_Manifest`, its records read from
    ``spill``: each question as the catalog checks read it (:class:`.catalogview.CatalogQuestion`,
    from the head of its record: no model restored) with, when it has a numeric check, what of
    its document locates in the script (read from the spill file when a finding there is
    located). A record without that head (its rules derived no view) is unpickled whole.

    The records are unpickled with the cyclic garbage collector paused: a part is a few
    thousand new objects that stay while the part is verified (nothing to collect), and a
    worker reads every part of the bank once per catalog, during which the collector would
    otherwise walk its ever larger per-entry memos again and again."""
    import gc
    import pickle

    from ..cache.questionfiles import RECORD_HEAD, loads_record
    from ..cache.store import read_at
    from ..load import QuestionSource

    head, refs = chunk
    fields, questions = list(head), []
    blobs = _records_read(spill.fd, refs, read_at)
    paused = gc.isenabled()
    gc.disable()
    try:
        for (_, at, length), blob in zip(refs, blobs):
            found = pickle.loads(blob)  # (the record's head: see cache.questionfiles._dumped)
            view = found[2].get("catalog") if type(found) is tuple and len(found) == 3 and found[0] == RECORD_HEAD else None
            if view is not None and "fields" in found[2]:
                path, derived = found[1], found[2]
                question = CatalogQuestion(view)
                fields += derived["fields"]
                doc = None if question.check is None else _PickledDoc(spill, at, length)
                questions.append(QuestionSource(path=path, doc=doc, question=question, derived=_listed(derived)))
                del blob, found
                continue
            record = loads_record(blob)
            doc = record.doc
            known = record.derived.get("fields")
            fields += known if known is not None else question_fields(record.question, doc, record.path)
            doc = None if record.question.check is None else _script_doc(doc)
            del blob
            questions.append(QuestionSource(path=record.path, doc=doc, question=record.question, derived=_listed(record.derived)))
            del record
    finally:
        if paused:
            gc.enable()
    return fields, questions


RUN_BYTES = 4 << 20
"""Most bytes of records read from a spill file together (:func:`_records_read`)."""


def _records_read(fd: int, refs: list, read_at) -> list:
    """The bytes of each record of ``refs`` ((id, where, length) in the spill file ``fd``), in
    order: those that lie one after the other in the file (the records of a question files'
    task are written together, :meth:`aistack_bank.cache.questionfiles.Spill.append_verdicts`)
    read by one call, up to :data:`RUN_BYTES` at a time, each a view of that read, instead of
    one read a record."""
    out: list = [None] * len(refs)
    order = sorted(range(len(refs)), key=lambda i: refs[i][1])
    start = 0
    while start < len(order):
        first = refs[order[start]][1]
        end, stop = first + refs[order[start]][2], start + 1
        while stop < len(order):
            _, at, length = refs[order[stop]]
            if at != end or end + length - first > RUN_BYTES:
                break
            end, stop = end + length, stop + 1
        if stop == start + 1:
            out[order[start]] = read_at(fd, first, end - first)
        else:
            data = memoryview(read_at(fd, first, end - first))
            for i in order[start:stop]:
                _, at, length = refs[i]
                out[i] = data[at - first:at - first + length]
        start = stop
    return out


class _PickledDoc:
    """The document of a question with a numeric check, in its record at ``at`` in ``spill``,
    which answers ``locate_in_scalar`` as :func:`_script_doc` of it does: read and unpickled only
    when a finding in its script is located (most questions have none)."""

    __slots__ = ("spill", "at", "length", "doc")

    def __init__(self, spill: _SpillFile, at: int, length: int) -> None:
        self.spill, self.at, self.length, self.doc = spill, at, length, None

    def locate_in_scalar(self, path, line: int, column: int) -> Location:
        if self.doc is None:
            from ..cache.questionfiles import loads_record

            self.doc = _script_doc(loads_record(self.spill.read(self.at, self.length)).doc)
            self.spill = None
        return self.doc.locate_in_scalar(path, line, column)


class _Bank:
    def __init__(self, questions: list) -> None:
        self.questions = questions


def _manifest_bank(manifest: _Manifest, token: str):
    """The whole bank of ``manifest`` (a :class:`_Bank` and its fields), read once per worker and run.

    In a worker, the bank's objects are put out of the cyclic garbage collector's reach once
    read (``gc.freeze``; the collector is paused while they are read): they stay for the
    worker's run, and each collection of the young objects would otherwise walk those of the
    parts read since the previous one, twice in all for every object (a third of the time to
    read the bank). They are still freed as they are dropped; only a cycle among them would
    wait for the worker's end (they hold none)."""
    import gc

    if _RECEIVED[0] != token:
        _RECEIVED[:] = [None, None]
        from ..parallel import in_worker

        worker = in_worker()
        paused = worker and gc.isenabled()
        if paused:
            gc.disable()
        try:
            fields, questions = [], []
            for part_fields, part_questions in _bank_parts(manifest):
                fields += part_fields
                questions += part_questions
            _RECEIVED[:] = [token, (_Bank(questions), fields)]
            if worker:
                gc.freeze()
        finally:
            if paused:
                gc.enable()
    return _RECEIVED[1]


def _file_size(path: Path) -> int:
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def _verify_manifest(manifest: _Manifest, token: str, path: Path, run_checks: bool, use_cache: bool, inputs: str | None, digest: str | None = None) -> list[Diagnostic]:
    """:func:`verify_catalog` of the catalog at ``path`` against the bank of ``manifest``: a
    large catalog of the common shape a piece at a time (:func:`verify_streamed`), any other
    read whole."""
    _SPENT[:] = [None]  # (the catalog of this worker's previous call: freed before another is read)
    if _file_size(path) >= STREAM_MIN_BYTES:
        _EARLY[:] = [None, None, None]  # (a catalog read early, grown since: not held while this one is streamed)
        parts: list = [None] * len(manifest.chunks)
        found = verify_streamed(manifest, path, run_checks=run_checks, memo=use_cache, parts=parts)
        if found is not None:
            if _PARTS[0] != token:  # (kept for the template: what this worker read of the bank's fields)
                _PARTS[:] = [token, parts]
            return found
    bank, fields = _manifest_bank(manifest, token)
    catalog = _catalog_read(path, use_cache, digest)
    found = verify_catalog(bank, fields, catalog, run_checks=run_checks, memo=use_cache, inputs=inputs)
    from ..parallel import in_worker

    if in_worker():
        _SPENT[:] = [catalog]
    return found


_SPENT: list = [None]
"""In a catalog worker: the catalog it verified last whole (:func:`_verify_manifest`), held
until its next call rather than freed before the findings are handed back: its objects (some
ten per entry) are freed by the next call's start, or never, as the worker ends with
``os._exit`` (without them walked one by one)."""


class _OutOfOrder(Exception):
    """An entry came after the part of the bank its field is in had been verified."""


def _owner_of_key(key: str) -> str:
    """The owner (:func:`field_owner`) a catalog key would have: a question id (they have no
    dot), ``topic.<id>`` or ``category.<id>``."""
    head, _, rest = key.partition(".")
    if head in ("topic", "category"):
        return head + "." + rest.partition(".")[0]
    return head


def verify_streamed(manifest: _Manifest, path: Path, *, run_checks: bool = True, memo: bool = False,
                    parts: list | None = None) -> list[Diagnostic] | None:
    """What :func:`verify_catalog` finds in the catalog at ``path`` for the bank of ``manifest``,
    reading the catalog a piece at a time (:class:`.stream.BlockStream`); None when it cannot
    be (a catalog not of the common shape, or whose entries of one part of the bank are not
    together: it is read whole).

    Each part of the bank (the categories, a topic's first questions with its own texts, its
    next questions) is verified once the catalog's entries have moved on from it to another
    part's, in the catalog's order (parts without any entry at the end); an entry of a part
    already verified means the catalog is not in parts, and None is returned. What is held is
    one part's questions, fields and entries, the entries of keys the bank does not have
    (W503), the catalog checks' digest per entry and the per-entry memos
    (:mod:`aistack_bank.cache.entries`), saved at the end.

    With ``parts`` (a list), each part's :func:`_part_key` is put at its index, so that the
    template's freshness can then be told without reading the records again (:func:`_template_by_parts`)."""
    from ..cache.entries import EntryMemo
    from ..rules.lints import catalog_reference_diagnostics
    from .catalog import MAX_CATALOG_BYTES
    from .glossary import catalog_glossary_diagnostics, read_glossary
    from .stream import BlockStream, FileLines, NotStreamable, StreamChecks, StreamedCatalog
    from .typography import catalog_typography_diagnostics

    lang = path.stem
    part_of: dict[str, int] = {}
    for index, (head, refs) in enumerate(manifest.chunks):
        for field in head:
            part_of.setdefault(_owner_of_key(field.key), index)
        for qid, _, _ in refs:
            part_of.setdefault(qid, index)
    try:
        stream = BlockStream(path, MAX_CATALOG_BYTES)
    except NotStreamable:
        return None
    spill = _SpillFile(manifest.spill)
    try:
        with stream:
            catalog = StreamedCatalog(path, lang, FileLines(path, stream))
            checks = StreamChecks()
            entries = EntryMemo(path, lang, enabled=memo)
            references = EntryMemo(path, lang, enabled=memo, kind="references")
            glossary, diags = read_glossary(path.parent)
            diags = list(diags)
            owned: list[Diagnostic] = []
            cues = [0, 0]
            unknown: dict = {}  # entries of keys no part has, by context (the latest of a context)
            loose: list = []  # entries without a context (a streamed catalog has none with plural forms)
            done: set[int] = set()

            def verify_part(index: int, buffer: dict) -> None:
                """Verify one part of the bank with its entries (by context); what its fields do not use is unknown."""
                done.add(index)
                fields, questions = _read_part(spill, manifest.chunks[index])
                if parts is not None:
                    parts[index] = _part_key(fields)
                sides = _parity_sides(questions)
                read: dict = {}  # (the translations' sides of the parity checks, by text, within this part)
                current = []  # (the part's translated, not fuzzy entries with their fields, for the lints)
                hints = []  # (for each of current: whether its msgstr holds a character of TOKEN_HINT)
                # (as verify_catalog goes through its fields: the W501 in the fields' order, each
                # entry's own findings in the same order, the plain entries answered here)
                for field in fields:
                    entry = buffer.get(field.key)
                    if entry is None:
                        diags.append(_no_entry(field.key, path))
                        continue
                    hint = None
                    msgstr = entry.msgstr
                    if msgstr and "fuzzy" not in entry.flags:
                        current.append((field, entry))
                        hint = has_token_hint(msgstr)
                        hints.append(hint)
                        if not hint and "\n" not in msgstr and entry.msgid == field.text and type(msgstr) is str and msgstr.strip() and not has_token_hint(field.text):
                            continue  # (what _entry_findings answers for it: nothing)
                    found = _entry_findings(entries, field, entry, lang, catalog, sides, hint, read)
                    if found:
                        owned.extend(found)
                stats = _cue_stats(questions, buffer)
                cues[0] += stats.measured
                cues[1] += stats.key_longest
                for _, found in _duplicate_texts(questions, catalog, buffer):
                    owned.extend(found)
                diags.extend(catalog_reference_diagnostics(catalog, buffer, fields, memo=memo, kept=references, current=current))
                diags.extend(catalog_typography_diagnostics(catalog, buffer, fields, current, hints))
                diags.extend(catalog_glossary_diagnostics(glossary, catalog, buffer, fields, current))
                del current, hints, read
                if run_checks:
                    for _, _, found in _translated_checks(questions, catalog, buffer):
                        owned.extend(found)
                for field in fields:
                    buffer.pop(field.key, None)
                unknown.update(buffer)  # a key of this part's owner that no field has

            try:
                current, buffer = None, {}
                for piece in stream.pieces():
                    checks.add(piece)
                    for e in piece:
                        key = e.msgctxt
                        if key is None:
                            if e.msgid:  # (the header aside: see _uncarried_warnings)
                                loose.append(e)
                            continue
                        index = part_of.get(_owner_of_key(key))
                        if index is None:
                            unknown[key] = e
                            continue
                        if index != current:
                            if index in done:
                                raise _OutOfOrder
                            if current is not None:
                                verify_part(current, buffer)
                            current, buffer = index, {}
                        buffer[key] = e
                    del piece
                if current is not None:
                    verify_part(current, buffer)
                for index in range(len(manifest.chunks)):
                    if index not in done:
                        verify_part(index, {})
            except (NotStreamable, _OutOfOrder):
                return None
            uncarried = _uncarried_warnings(path, loose)
            refused = _refused_lines(uncarried)
            for key, entry in unknown.items():
                if entry.linenum not in refused:
                    owned.append(warning("W503", f"{key} is no longer in the bank; run `bank i18n update` to make it obsolete", Location.of(path, entry.linenum or 0, 1 if entry.linenum else 0)))
            unknown.clear()  # (the entries it held are not kept while the findings are sorted)
            owned += uncarried

            def again():
                with BlockStream(path, MAX_CATALOG_BYTES) as second:
                    yield from second.pieces()

            try:
                found = checks.diagnostics(path, lang, stream, again)
            except NotStreamable:
                return None
            if found:
                return found
            entries.save()
            references.save()
            diags += length_warnings(AnswerCueStats(measured=cues[0], key_longest=cues[1]), Location.of(path), lang)
            return diags + owned
    finally:
        spill.close()


def _template_streamed(manifest: _Manifest, pot: Path, ref, held: list[TextField] | None = None) -> bool | None:
    """:func:`template_is_current` of the bank of ``manifest``, the template read a piece at a
    time and compared with the fields a part at a time, or with ``held``, the bank's fields
    already read (None: it is not of the common shape). ``ref`` is asked once per file.

    Compared first with what :func:`.pofile.read_template_rows` reads of each block (no row
    made); with the rows of :func:`.pofile.read_rows` when that reader gives up."""
    from .catalog import MAX_CATALOG_BYTES
    from .stream import BlockStream, NotStreamable

    found = _template_read_lean(pot, iter(held) if held is not None else (field for part, _ in _bank_parts(manifest) for field in part), ref)
    if found is not None:
        return found
    try:
        stream = BlockStream(pot, MAX_CATALOG_BYTES)
    except NotStreamable:
        return None
    refs: dict = {}
    with stream:
        fields = iter(held) if held is not None else (field for part, _ in _bank_parts(manifest) for field in part)
        try:
            for piece in stream.pieces():
                for entry in piece:
                    field = next(fields, None)
                    if field is None or (entry.msgctxt, entry.msgid, entry.comment) != (field.key, field.text, "\n".join(field.notes)):
                        return False
                    path = field.path
                    if path not in refs:
                        refs[path] = ref(field)
                    if entry.occurrences != [(refs[path], str(field.line))]:
                        return False
        except NotStreamable:
            return None
        return next(fields, None) is None


def _template_read_lean(pot: Path, fields, ref) -> bool | None:
    """Whether the template at ``pot``, read a piece at a time by
    :func:`.pofile.read_template_rows`, holds exactly ``fields`` (an iterator), as
    :func:`template_is_current` compares them; None when that reader gives up on a block, or
    on a second header (the caller compares the rows of :func:`.pofile.read_rows`). The pieces'
    lines are not counted (``lines=False``): the stream is this function's own, and nothing
    here reads a line of it."""
    from .pofile import read_template_rows

    def reader(text: str, lineno: int, path: Path):
        return read_template_rows(text, lineno, path, lines=False)

    return _template_pieces(pot, lambda stream: _template_compared(stream.pieces(reader), fields, ref))


def _template_compared(pieces, fields, ref) -> bool | None:
    """Whether the items of :func:`.pofile.read_template_rows` in ``pieces`` (the first header
    left out) are exactly ``fields`` (an iterator), as :func:`template_is_current` compares
    them; None on a second header. ``ref`` is asked once per file."""
    refs: dict = {}
    last, last_ref = object(), None  # (no path is this object)
    header = False
    for items in pieces:
        for item in items:
            if item is None:
                if header:
                    return None
                header = True
                continue
            field = next(fields, None)
            if field is None:
                return False
            key, msgid, comment, reference, number = item
            if key != field.key or msgid != field.text or comment != "\n".join(field.notes):
                return False
            path = field.path
            if path is not last:  # (a file's fields are one after the other, most often with one path object)
                if path not in refs:
                    refs[path] = ref(field)
                last, last_ref = path, refs[path]
            if reference != last_ref or number != str(field.line):
                return False
    return next(fields, None) is None


def template_is_current(pot: Path, fields: list[TextField], ref) -> bool:
    """Whether the template holds exactly these fields (keys, English, notes, references).

    Compared on the reader's rows (:func:`.pofile.read_light_rows`), without making a catalog
    of them: the template's active entries but its header, in order. ``ref(field)`` is the
    reference of a field's file: it is asked once per file (``field.path``)."""
    from ..safety import UnsafeFile, read_regular
    from .catalog import MAX_CATALOG_BYTES
    from .pofile import read_light_rows, read_template_rows

    try:
        text = read_regular(pot, MAX_CATALOG_BYTES).decode("utf-8")
    except (UnsafeFile, UnicodeError):
        return False
    # first without making its rows (as read_light_rows reads the text: a final newline added,
    # the blank lines before the first block left out)
    full = text if text.endswith("\n") else text + "\n"
    pos = len(full) - len(full.lstrip("\n"))
    found = read_template_rows(full[pos:] if pos else full, pos + 1, pot)
    del full
    if found is not None:
        lean = _template_compared([found[0]], iter(fields), ref)
        if lean is not None:
            return lean
    del found
    rows, errors = read_light_rows(text, pot)
    del text
    if rows is None:
        return False
    # a row: (msgctxt, msgid, …, occurrences (5), comment (6), …, obsolete (12), …)
    rows = [r for r in rows if not r[12]]
    header = next((i for i, r in enumerate(rows) if r[1] == "" and r[0] is None), None)
    if header is not None:
        del rows[header]
    if len(rows) != len(fields):
        return False
    refs: dict = {}
    for row, field in zip(rows, fields):
        if row[0] != field.key or row[1] != field.text or row[6] != "\n".join(field.notes):
            return False
        occurrences = row[5]
        if len(occurrences) != 1:
            return False
        path = field.path
        if path not in refs:
            refs[path] = ref(field)
        if occurrences[0] != (refs[path], str(field.line)):
            return False
    return True


def verify_site_catalogs(source: BankSource, translations: Path, catalogs: Catalogs | None = None) -> list[Diagnostic]:
    """The practice site's interface catalogs: syntax, completeness, placeholders, freshness."""
    from .site import SITE_DIR, SITE_TEMPLATE, site_fields, site_reference_root

    folder = translations / SITE_DIR
    if not folder.is_dir():
        return []
    from .extract import reference

    fields = site_fields()
    catalogs = catalogs if catalogs is not None else Catalogs()
    diags: list[Diagnostic] = []
    pot = folder / SITE_TEMPLATE
    site_root = site_reference_root()
    if not template_is_current(pot, fields, lambda f: reference(f.path, site_root)):
        diags.append(warning("W504", "the interface template is missing or out of date; run `bank i18n update`", Location.of(pot)))
    diags += misnamed_catalogs(folder)
    for path in catalog_paths(folder):
        diags += verify_catalog(source, fields, catalogs.read(path), run_checks=False, bank_checks=False)
    return diags


def check_translated_answers(source: BankSource, translations: Path, languages: list[str] | None):
    """For `bank check`: (language, checked, failing questions, diagnostics) per catalog."""
    results = []
    paths = {p.stem: p for p in catalog_paths(translations)}
    for lang in languages or sorted(paths):
        if lang not in paths:
            raise UsageError(f"no catalog for language {lang!r} in {translations} (have: {', '.join(sorted(paths)) or 'none'})")
        results.append((lang, *_checked_language(source, paths[lang])))
    return results


def _checked_language(source: BankSource, path: Path) -> tuple[int, int, list[Diagnostic]]:
    """(checked, failing questions, diagnostics) of one catalog. Its read is light (what the
    checks read, as validation reads it) and its own: nothing of it outlives the call, so a
    command checking several languages holds one catalog at a time."""
    catalog = Catalogs(use_cache=False, light=True).read(path)
    if catalog.diagnostics:
        return 0, 0, catalog.diagnostics
    checked, diags = translated_check_diagnostics(source, catalog)
    return checked, len({d.message.split(" ", 1)[0] for d in diags}), diags
