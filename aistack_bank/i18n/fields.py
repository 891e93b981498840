"""The translatable fields of a bank, each with its stable key (the gettext ``msgctxt``)."""

from __future__ import annotations

from collections import _tuplegetter
from dataclasses import FrozenInstanceError
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..load import BankSource, CategoryEntry, LibrarySource
    from ..model import AnyQuestion, Category, Topic
    from ..yamlsource import YamlDocument

KEEP_NUMBERS = "Keep every number, unit and formula exactly as in the English: a numeric check reads them."


_NAMES = ("key", "text", "path", "line", "notes", "question_id", "key_bearing", "loc")


class TextField(tuple):
    """One translatable text of the bank.

    A tuple of its eight values (in the order of :data:`_NAMES`) read by name through
    ``collections.namedtuple``'s own descriptors (the item taken in C), so that a record's pickle
    makes it again by one C call, ``tuple.__new__(TextField, values)``, without a Python frame
    (:func:`aistack_bank.cache.questionfiles._fields_reduction`: every catalog worker unpickles
    every field of the bank). It behaves as the frozen dataclass it was: made by position or by
    name, equal only to a field of its class with equal values, hashed as the tuple of its values,
    not ordered, its ``repr`` the dataclass's, pickled as its class and values, frozen."""

    __slots__ = ()
    __match_args__ = _NAMES
    _fields = _NAMES

    key: str
    """Stable msgctxt, e.g. ``q003.option.c``, ``topic.<topic-id>.key_point.k2`` or
    ``category.<category-id>.title``: never where the text's file lives."""
    text: str
    """The English text (the msgid)."""
    path: Path
    """The YAML file it comes from."""
    line: int
    """Its line in that file (1-based)."""
    notes: tuple[str, ...]
    """Notes for translators (``#.`` comments)."""
    question_id: str | None
    key_bearing: bool
    """True for stems, options and answers: a stale translation there can change the answer."""
    loc: tuple
    """Where the text sits in its model (``("options", 2, "text")``); empty for topic fields."""

    def __new__(cls, key: str, text: str, path: Path, line: int, notes: tuple[str, ...] = (), question_id: str | None = None,
                key_bearing: bool = False, loc: tuple = ()) -> "TextField":
        return _tuple_new(cls, (key, text, path, line, notes, question_id, key_bearing, loc))

    def __reduce__(self):
        # Pickled as its class and values, as the dataclass was (a store written before is read
        # as it was, and read by the code before); a record's pickle makes it in C instead.
        return (TextField, _tuple(self))

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(key={self[0]!r}, text={self[1]!r}, path={self[2]!r}, line={self[3]!r}, notes={self[4]!r}, "
                f"question_id={self[5]!r}, key_bearing={self[6]!r}, loc={self[7]!r})")

    # equal only to a field of the same class, as the dataclass's comparison (a tuple of the same
    # values is not one: a tuple's own comparison, tried after NotImplemented, would compare the
    # values); hashed as the tuple of its values, as the dataclass's hash; not ordered
    def __eq__(self, other):
        if type(other) is type(self):
            return _tuple_eq(self, other)
        return False if type(other).__eq__ is _tuple_eq else NotImplemented

    def __ne__(self, other):
        if type(other) is type(self):
            return _tuple_ne(self, other)
        return True if type(other).__ne__ is _tuple_ne else NotImplemented

    __hash__ = tuple.__hash__

    def __lt__(self, other):
        return _unordered(self, other, "<")

    def __le__(self, other):
        return _unordered(self, other, "<=")

    def __gt__(self, other):
        return _unordered(self, other, ">")

    def __ge__(self, other):
        return _unordered(self, other, ">=")

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}")


def _unordered(field: TextField, other, op: str):
    """Fields are not ordered (nor were they as a dataclass): NotImplemented, or, against a tuple
    whose own comparison would order them by their values, the TypeError Python gives."""
    if type(other) is type(field) or not isinstance(other, tuple) or getattr(type(other), _REFLECTED[op]) is not getattr(tuple, _REFLECTED[op]):
        return NotImplemented
    raise TypeError(f"'{op}' not supported between instances of {type(field).__name__!r} and {type(other).__name__!r}")


_REFLECTED = {"<": "__gt__", "<=": "__ge__", ">": "__lt__", ">=": "__le__"}
_tuple = tuple
_tuple_new = tuple.__new__
_tuple_eq = tuple.__eq__
_tuple_ne = tuple.__ne__
for _index, _name in enumerate(_NAMES):
    setattr(TextField, _name, _tuplegetter(_index, f"The field's {_name} (item {_index})."))
del _index, _name


def topic_key(topic_id: str, field: str) -> str:
    """The msgctxt of a topic text: ``topic.<topic-id>.title``, ``….summary``, ``….key_point.<key-point-id>``."""
    return f"topic.{topic_id}.{field}"


def category_key(category_id: str) -> str:
    """The msgctxt of a category title: ``category.<category-id>.title``."""
    return f"category.{category_id}.title"


def category_fields(categories: list[CategoryEntry | Category], doc: YamlDocument | None, path: Path) -> list[TextField]:
    def line(yaml_path):
        return doc.locate(yaml_path).line if doc is not None else 0

    return [TextField(category_key(category.id), category.title, path, line(("categories", index, "title")), ("Title of a category of topics.",))
            for index, category in enumerate(categories)]


def topic_fields(topic: Topic, doc: YamlDocument, path: Path) -> list[TextField]:
    def line(yaml_path):
        return doc.locate(yaml_path).line if doc is not None else 0

    fields = [
        TextField(topic_key(topic.id, "title"), topic.title, path, line(("title",)), ("Topic title.",)),
        TextField(topic_key(topic.id, "summary"), topic.summary, path, line(("summary",)), ("Topic summary shown under the title.",)),
    ]
    for index, point in enumerate(topic.key_points):
        fields.append(TextField(topic_key(topic.id, f"key_point.{point.id}"), point.text, path, line(("key_points", index, "text")), ("A key point of the topic, one paragraph.",)))
    return fields


def question_fields(question: AnyQuestion, doc: YamlDocument, path: Path) -> list[TextField]:
    """The translatable fields of one question of any kind, in file order: the stem, the fields
    of its kind (:attr:`~aistack_bank.kinds.Kind.fields`), the explanation.

    Each field is made by one call of ``add`` (the kind's callback itself), its line the
    position of its value when the document has one (as :meth:`~aistack_bank.yamlsource.YamlDocument.position`
    gives it, which is asked only for a place the document does not hold)."""
    qid = question.id
    fields: list[TextField] = []
    append = fields.append
    values = doc.values if doc is not None else None
    new = _tuple_new

    def add(key: str, text: str, loc: tuple, notes: tuple[str, ...], key_bearing: bool = False) -> None:
        if values is None:
            line = 0
        else:
            found = values.get(loc)
            line = found[0] if found is not None else doc.position(loc)[0]
        # TextField(...) without the call of the class and its __new__: the tuple made in C
        append(new(TextField, (f"{qid}.{key}", text, path, line, notes, qid, key_bearing, loc)))

    kind = _kind_of()(question)
    base_notes = (question.translator_note,) if question.translator_note else ()
    checked = base_notes + ((KEEP_NUMBERS,) if question.check is not None else ())
    add("stem", question.stem, ("stem",), (kind.stem_note,) + checked, True)
    kind.fields(question, add, checked, base_notes)
    if question.explanation is not None:
        add("explanation", question.explanation, ("explanation",), ("Explanation shown after answering.",) + checked)
    return fields


@lru_cache(maxsize=None)
def _kind_of():
    """:func:`~aistack_bank.kinds.kind_of`, imported once (a ``from`` import of the kinds' package
    inside :func:`question_fields` went through importlib's Python code on every question)."""
    from ..kinds import kind_of

    return kind_of


def bank_fields(source: BankSource | LibrarySource) -> list[TextField]:
    """Every translatable field of a read bank, in bank order: the categories, then each topic
    (in the order of :func:`~aistack_bank.load.ordered_topics`) with its questions.

    ``source`` is a whole bank (:class:`~aistack_bank.load.LibrarySource`) or one topic
    (:class:`~aistack_bank.load.BankSource`)."""
    from ..load import LibrarySource, ordered_topics

    if isinstance(source, LibrarySource):
        fields = category_fields(source.categories, source.categories_doc, source.categories_path)
        for topic in ordered_topics(source):
            fields += _topic_source_fields(topic)
        return fields
    return _topic_source_fields(source)


def read_bank_fields(root: Path):
    """(:func:`bank_fields`, errors) of the bank at ``root`` read as :func:`~aistack_bank.load.read_library`
    reads it (the same diagnostics; the fields only when it has no error), each question
    file's document dropped once its fields are made: a caller that needs only the fields
    (`bank i18n status`, `bank i18n todo`) does not hold every file's located YAML at once
    (of the 10 000-question bank, about 150 MB of the 250 MB the whole read holds)."""
    from ..errors import Severity
    from ..load import read_library, read_question

    def read_files(paths, topic_root, topic, project):
        for path in paths:
            qs, diags = read_question(path, root=topic_root, project=project)
            if qs.question is not None:
                qs.derived = {"fields": question_fields(qs.question, qs.doc, path)}
                qs.doc = None
            yield qs, diags

    source = read_library(root, read_files=read_files)
    errors = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    return ([] if errors else bank_fields(source)), errors


def english_library_and_fields(source: LibrarySource):
    """``(english_library(source), bank_fields(source))`` (:func:`~aistack_bank.load.english_library`,
    :func:`bank_fields`) of a source without errors, with one read of each question file's record."""
    from ..load import category_models, ordered_topics
    from ..model import Bank, Library

    models = category_models(source.categories)
    categories = {category.id: category for category in models}
    fields = category_fields(source.categories, source.categories_doc, source.categories_path)
    banks = []
    for topic in ordered_topics(source):
        by_id: dict = {}
        fields += _topic_source_fields(topic, by_id)
        banks.append(Bank(topic=topic.topic, category=categories[topic.topic.category], questions=tuple(by_id[qid] for qid in topic.topic.questions), lang="en"))
    return Library(categories=tuple(models), topics=tuple(banks), lang="en"), fields


def _topic_source_fields(source: BankSource, by_id: dict | None = None) -> list[TextField]:
    """The fields of one topic; each valid question also put in ``by_id`` by its id, if given."""
    fields: list[TextField] = []
    if source.topic is not None:
        fields += topic_fields(source.topic, source.topic_doc, source.root / "topic.yaml")
    order = {qid: i for i, qid in enumerate(source.topic.questions)} if source.topic is not None else {}
    # Each record read once, its question and its kept fields together (a large bank's records
    # are unpickled again whenever they are read after others: see cache/questionfiles.py)
    # (a stored record, whose document is not read here, gives its question and derived values
    # without unpickling the document: StoredQuestion.model_and_derived)
    keyed = []
    for qs in source.questions:
        both = getattr(qs, "model_and_derived", None)
        question, derived = both() if both is not None else (qs.question, qs.derived)
        if question is not None:
            if by_id is not None:
                by_id[question.id] = question
            keyed.append(((order.get(question.id, len(order)), question.id), derived.get("fields"), qs))
    keyed.sort(key=_first)  # (stable: questions of the same key stay in the order read)
    for _, known, qs in keyed:
        fields += known if known is not None else question_fields(qs.question, qs.doc, qs.path)
    return fields


def _first(item: tuple):
    return item[0]
