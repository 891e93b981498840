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


def test_a_question_edited_in_a_topic_folder_that_is_a_link_is_validated_again(project, run_cli):
    """A topic folder may be a symbolic link to a folder (the bank reads it): the files under it
    are inputs of the verdict as any other."""
    import shutil

    keep_only(project)
    topic = next(p for p in (project / "bank").iterdir() if p.is_dir())
    shutil.move(topic, project / "elsewhere")
    topic.symlink_to(project / "elsewhere", target_is_directory=True)
    code, out = run_cli("validate")
    assert code == 0, out
    question = sorted((project / "elsewhere" / "questions").glob("q*.yaml"))[0]
    question.write_text(question.read_text(encoding="utf-8").replace("id: q", "id: Q", 1), encoding="utf-8")
    code, out = run_cli("validate")
    assert code == 1, out
    assert (code, out) == run_cli("validate", "--no-cache")


def test_a_link_to_a_folder_is_followed_only_where_the_bank_is_read_through_one(tmp_path):
    """A topic folder and a topic's questions/ that are links are walked (and a link to the
    bank in them does not lead the walk round in a circle); a link to any other folder is not."""
    from aistack_bank.cache import validation

    bank = tmp_path / "bank"
    (tmp_path / "real" / "questions").mkdir(parents=True)
    (tmp_path / "real" / "questions" / "q001.yaml").write_text("x\n", encoding="utf-8")
    (tmp_path / "real" / "questions" / "loop").symlink_to(bank, target_is_directory=True)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "big.yaml").write_text("x\n", encoding="utf-8")
    (bank / "t").mkdir(parents=True)
    (bank / "t" / "questions").symlink_to(tmp_path / "real" / "questions", target_is_directory=True)
    (bank / "u").symlink_to(tmp_path / "real", target_is_directory=True)
    (bank / "elsewhere").symlink_to(tmp_path / "other", target_is_directory=True)
    (bank / "loop").symlink_to(bank, target_is_directory=True)
    entries: list = []
    validation._list_files(str(bank), entries, lambda exc: None)
    assert sorted(name for name, _ in entries) == [str(bank / "t" / "questions" / "q001.yaml"), str(bank / "u" / "questions" / "q001.yaml")]
    first = validation.input_digest(bank, None)
    assert validation.input_digest(bank, None, again=True) == first
