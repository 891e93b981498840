"""A kept verdict names the folders of the bank and its catalogs, not only their files.

A folder holds no file to digest, yet it can change the verdict: `bank/<topic>/questions/`
made empty makes `bank/<topic>/` a topic, without its topic.yaml (E311). The verdict kept
before the folder was made is not served after it.
"""

from __future__ import annotations

from conftest import keep_only


def test_an_empty_topic_folder_made_after_a_verdict_is_reported(project, run_cli):
    keep_only(project)
    code, out = run_cli("validate")
    assert code == 0, out
    (project / "bank" / "new-topic" / "questions").mkdir(parents=True)
    code, out = run_cli("validate")
    assert code == 1 and "E311" in out and "bank/new-topic" in out, out
    assert (code, out) == run_cli("validate", "--no-cache")
    (project / "bank" / "new-topic" / "questions").rmdir()
    (project / "bank" / "new-topic").rmdir()
    code, out = run_cli("validate")
    assert code == 0 and "E311" not in out, out


def test_a_folder_made_while_validating_is_not_kept_as_absent(project, monkeypatch):
    """The check after validating, that no input changed meanwhile, sees a folder made since the
    input digest: the verdict is not kept under the digest of the bank without it."""
    from aistack_bank.cache import validation

    keep_only(project)
    bank, translations = project / "bank", project / "translations"
    key = validation.input_digest(bank, translations)
    (bank / "new-topic" / "questions").mkdir(parents=True)
    assert validation.input_digest(bank, translations, again=True) != key
