"""`bank i18n update` laying each catalog out and comparing it with the file as it goes, against
the code before it (kept below as it was): a polib read of the catalog, the merged catalog made
whole (:func:`_old_merge_catalog`) and rendered, then compared with the file by
``write_atomic``. The same bytes (None: the file holds them already), the same merge counts,
the same read errors, on random templates and catalogs (long, escaped, multi-line, non-ASCII
strings; fuzzy, format and no-wrap flags; previous msgids; obsolete entries) written as msgcat
writes them or laid out otherwise, cut, lengthened, missing or broken.
"""

from __future__ import annotations

import polib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from aistack_bank.i18n.catalog import new_catalog, read_catalog, render_catalog
from aistack_bank.i18n.pofile import LightEntry, kept_layouts
from aistack_bank.i18n.update import MergeStats, _blocks, _plan_catalog, _settled, catalog_header
from aistack_bank.writing import same_bytes


def _old_merge_catalog(template, catalog, language: str, header_comment: str):
    """`merge_catalog` before the merge was streamed (as it was written)."""
    from aistack_bank.i18n.languages import TWO_FORMS, plural_forms

    stats = MergeStats()
    merged = new_catalog(language, header_comment)
    if catalog is not None:
        merged.header = catalog.header
        merged.metadata = dict(catalog.metadata)
        for key, value in new_catalog(language, header_comment).metadata.items():
            merged.metadata.setdefault(key, value)
        if not merged.metadata.get("Plural-Forms"):
            merged.metadata["Plural-Forms"] = plural_forms(language) or TWO_FORMS
        merged.metadata_is_fuzzy = catalog.metadata_is_fuzzy
        merged.raw_header = getattr(catalog, "raw_header", None)
        merged.raw_metadata = getattr(catalog, "raw_metadata", None)
    active = {e.msgctxt: e for e in catalog if e.msgctxt is not None and not e.obsolete} if catalog is not None else {}
    obsolete = {e.msgctxt: e for e in catalog.obsolete_entries() if e.msgctxt is not None} if catalog is not None else {}
    template_keys = set()
    for template_entry in template:
        template_keys.add(template_entry.msgctxt)
        old = active.get(template_entry.msgctxt)
        revived = old is None and template_entry.msgctxt in obsolete
        if old is None:
            old = obsolete.get(template_entry.msgctxt)
        entry = polib.POEntry(msgctxt=template_entry.msgctxt, msgid=template_entry.msgid, msgstr="", occurrences=list(template_entry.occurrences), comment=template_entry.comment)
        if old is None:
            stats.added += 1
        else:
            entry.tcomment = old.tcomment
            entry.msgstr = old.msgstr
            entry.flags = [f for f in old.flags]
            entry.previous_msgid = old.previous_msgid if "fuzzy" in old.flags else None
            if old.msgid != template_entry.msgid and old.msgstr:
                if "fuzzy" not in entry.flags:
                    entry.flags.append("fuzzy")
                    stats.fuzzied += 1
                    stats.fuzzied_keys.append(template_entry.msgctxt)
                entry.previous_msgid = entry.previous_msgid or old.msgid
            elif old.msgid == template_entry.msgid and not revived:
                stats.kept += 1
            if not entry.msgstr:
                entry.flags = [f for f in entry.flags if f != "fuzzy"]
                entry.previous_msgid = None
            if revived:
                stats.revived += 1
        merged.append(entry)
    gone = [e for k, e in active.items() if k not in template_keys and e.msgstr]
    gone += [e for k, e in obsolete.items() if k not in template_keys and k not in active and e.msgstr]
    for old in sorted(gone, key=lambda e: e.msgctxt):
        if not old.obsolete:
            stats.obsoleted += 1
            stats.obsoleted_keys.append(old.msgctxt)
        merged.append(polib.POEntry(
            msgctxt=old.msgctxt, msgid=old.msgid, msgstr=old.msgstr, tcomment=old.tcomment,
            flags=list(old.flags), previous_msgid=old.previous_msgid, obsolete=True,
        ))
    return merged, stats


def _old_plan(path, template, lang: str, header: str):
    """(bytes or None when the file holds them, stats) or (diagnostics, None), as before."""
    old = None
    if path.exists():
        catalog = read_catalog(path)
        if catalog.diagnostics:
            return catalog.diagnostics, None
        old = catalog.po
    merged, stats = _old_merge_catalog(template, old, lang, header)
    data = render_catalog(merged)
    return (None if same_bytes(path, data) else data), stats


WORDS = ["the", "cache", "attention", "KV", "x", "l'état", "«", "»", "naïve", "100%", "%s", "%(n)d", "{name}",
         "a\\b", 'say "hi"', "tab\there", "line\nbreak", "Überschrift", "数据", "e.g.", "name.attr", "—", "-", "/",
         "supercalifragilisticexpialidociousandevenlongerthanalinecanholdwithoutanyspace" * 2]
text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=40).map(" ".join)
short_text = st.lists(st.sampled_from(WORDS[:12]), min_size=1, max_size=4).map(" ".join)
keys = st.lists(st.sampled_from([f"q{i:03d}.{f}" for i in range(12) for f in ("stem", "options.a.text", "feedback")]),
                min_size=0, max_size=14, unique=True)
flag_sets = st.lists(st.sampled_from(["fuzzy", "python-format", "c-format", "no-wrap", "no-python-format", "range: 1..3"]),
                     max_size=3, unique=True)


@st.composite
def cases(draw):
    template_keys = draw(keys)
    template = [(k, draw(text), draw(st.sampled_from(["Question stem.", "Option.", ""]))) for k in template_keys]
    catalog_keys = draw(st.lists(st.sampled_from(template_keys + [f"gone.{i}" for i in range(4)]), max_size=16, unique=True)) if template_keys else []
    entries = []
    for k in catalog_keys:
        same = dict((t[0], t[1]) for t in template).get(k)
        msgid = same if same is not None and draw(st.booleans()) else draw(text)
        entries.append(dict(
            msgctxt=k, msgid=msgid, msgstr=draw(st.one_of(st.just(""), text, short_text)),
            flags=draw(flag_sets), tcomment=draw(st.sampled_from(["", "checked by Ana", "two\nlines"])),
            previous_msgid=draw(st.one_of(st.none(), short_text)), obsolete=draw(st.booleans()) and draw(st.booleans()),
        ))
    layout = draw(st.sampled_from(["msgcat", "msgcat", "one-line", "missing", "longer", "cut", "broken", "header-fuzzy"]))
    lang = draw(st.sampled_from(["fr", "nl", "de", "pt_BR"]))
    return template, entries, layout, lang


def _templates(rows):
    """The template as polib entries (as before) and as light ones (as `update_catalogs` makes it)."""
    pot = new_catalog("", "Translatable texts.")
    light = []
    for key, msgid, note in rows:
        pot.append(polib.POEntry(msgctxt=key, msgid=msgid, msgstr="", occurrences=[("bank/t/q.yaml", "3")], comment=note))
        light.append(LightEntry((key, msgid, "", "", {}, [("bank/t/q.yaml", "3")], note, "", [], None, None, None, False, (None, None), [], 0)))
    return pot, light


def _catalog_bytes(entries, lang: str, layout: str) -> bytes | None:
    po = new_catalog(lang, catalog_header(lang))
    if layout == "header-fuzzy":
        po.metadata_is_fuzzy = ["fuzzy"]
    for e in entries:
        po.append(polib.POEntry(**e))
    data = render_catalog(po)
    if layout == "missing":
        return None
    if layout == "one-line":  # every string on one line, as `msgcat --no-wrap` writes it
        return data.replace(b'"\n"', b"").replace(b'""\n"', b'"') if b'"\n"' in data else data + b"\n"
    if layout == "longer":
        return data + b"\n"
    if layout == "cut":
        return data[: len(data) // 2].rsplit(b"\n\n", 1)[0] + b"\n"
    if layout == "broken":
        return data.replace(b'msgstr "', b'msgstr "\\q', 1)
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(case=cases())
def test_streamed_update_equals_the_merged_catalog_written_whole(case, tmp_path_factory):
    rows, entries, layout, lang = case
    folder = tmp_path_factory.mktemp("cat")
    path = folder / f"{lang}.po"
    data = _catalog_bytes(entries, lang, layout)
    if data is not None:
        path.write_bytes(data)
    pot, light = _templates(rows)
    header = catalog_header(lang)
    before, old_stats = _old_plan(path, pot, lang, header)
    with kept_layouts():
        pot_path = folder / "t.pot"
        assert _settled(pot_path, _blocks(new_catalog("", pot.header), light)) == render_catalog(pot)
        pot_path.write_bytes(render_catalog(pot))
        assert _settled(pot_path, _blocks(new_catalog("", pot.header), light)) is None
        planned = []
        diags = _plan_catalog(planned, path, light, lang, header)
    if old_stats is None:
        assert diags == before and diags and planned == []
        return
    assert diags == []
    [(where, after, stats)] = planned
    assert where == path
    assert after == before
    assert stats == old_stats
    if before is not None:  # what was written is read back as the same catalog: nothing more to change
        path.write_bytes(before)
        again = []
        _plan_catalog(again, path, light, lang, header)
        assert again[0][1] is None


@pytest.mark.parametrize("content", [b"", b"\n", b'msgid ""\nmsgstr ""\n', b'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n',
                                     b'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nLanguage: fr\\nPlural-Forms: nplurals=2; plural=(n > 1);\\n"\n'])
def test_a_file_that_is_not_the_catalog_is_rewritten_or_refused_as_before(tmp_path, content):
    pot, light = _templates([("q001.stem", "What is the KV cache?", "Question stem.")])
    path = tmp_path / "fr.po"
    path.write_bytes(content)
    before, stats = _old_plan(path, pot, "fr", catalog_header("fr"))
    planned = []
    diags = _plan_catalog(planned, path, light, "fr", catalog_header("fr"))
    if stats is None:
        assert diags == before and planned == []
    else:
        assert diags == [] and planned[0][1] == before is not None


def test_a_link_is_replaced_by_the_catalog_as_before(tmp_path):
    pot, light = _templates([("q001.stem", "What is the KV cache?", "Question stem.")])
    real = tmp_path / "real.po"
    real.write_bytes(render_catalog(_old_merge_catalog(pot, None, "fr", catalog_header("fr"))[0]))
    path = tmp_path / "fr.po"
    path.symlink_to(real.name)
    planned = []
    _plan_catalog(planned, path, light, "fr", catalog_header("fr"))
    assert planned[0][1] == real.read_bytes()  # not a regular file: written (as write_atomic did)


def test_a_msgid_laid_out_once_is_not_reused_where_a_format_flag_lays_it_out_otherwise(tmp_path):
    msgid = "a" * 70 + " %5.2f%%"  # with python-format, the directive %5.2f%% stays whole
    pot, light = _templates([("q001.stem", msgid, "Question stem."), ("q002.stem", msgid, "")])
    path = tmp_path / "fr.po"
    po = new_catalog("fr", catalog_header("fr"))
    po.append(polib.POEntry(msgctxt="q001.stem", msgid=msgid, msgstr="b" * 70 + " %5.2f%%", flags=["python-format"]))
    po.append(polib.POEntry(msgctxt="q002.stem", msgid=msgid, msgstr="c"))
    path.write_bytes(render_catalog(po))
    path.write_bytes(render_catalog(_old_merge_catalog(pot, po, "fr", catalog_header("fr"))[0]))
    before, _ = _old_plan(path, pot, "fr", catalog_header("fr"))
    assert before is None
    with kept_layouts():
        assert _settled(tmp_path / "t.pot", _blocks(new_catalog("", pot.header), light)) == render_catalog(pot)
        planned = []
        _plan_catalog(planned, path, light, "fr", catalog_header("fr"))
    assert planned[0][1] is None
