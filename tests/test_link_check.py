"""The symbolic-link rule (E115) decides the same with the folders' real paths worked out once
(`safety.folders_settled`, around the reading of a bank's question files) as without."""

from __future__ import annotations

import os
from pathlib import Path

from aistack_bank.safety import UnsafeFile, check_link, folders_settled


def _verdict(path: Path, root: Path) -> str:
    try:
        check_link(path, root)
    except UnsafeFile as exc:
        return exc.message
    return "ok"


def test_links_are_judged_alike_with_settled_folders(tmp_path):
    project, outside = tmp_path / "project", tmp_path / "outside"
    questions = project / "bank" / "t" / "questions"
    questions.mkdir(parents=True)
    outside.mkdir()
    (outside / "q.yaml").write_text("id: q\n")
    (questions / "plain.yaml").write_text("id: q\n")
    os.symlink(outside / "q.yaml", questions / "out.yaml")  # a file leading outside
    os.symlink(questions / "plain.yaml", questions / "in.yaml")  # a file leading inside
    os.symlink(outside, project / "bank" / "linked")  # a folder leading outside
    os.symlink(project / "bank" / "t", project / "bank" / "alias")  # a folder leading inside
    paths = [questions / "plain.yaml", questions / "out.yaml", questions / "in.yaml", questions / "missing.yaml",
             project / "bank" / "linked" / "q.yaml", project / "bank" / "alias" / "questions" / "out.yaml",
             project / "bank" / "alias" / "questions" / "plain.yaml", questions / ".." / "questions" / "out.yaml",
             tmp_path / "elsewhere.yaml"]
    for root in (project, project / "bank", project / "bank" / "alias"):
        plain = [_verdict(path, root) for path in paths]
        with folders_settled():
            settled = [_verdict(path, root) for path in paths + paths]
        assert settled == plain + plain
        assert "ok" in plain and any("outside the project" in v for v in plain)
