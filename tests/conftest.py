"""Shared fixtures: the repository, a scratch copy of the bank, and an in-process CLI runner."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# The topic's public pages in English, French and Dutch: the reference for the seed texts.
SOURCES = REPO / "docs" / "sources"
# The official QTI 2.1/3.0 and content-packaging XSDs with an offline catalog (see its README).
QTI_SCHEMAS = REPO / "tests" / "data" / "schemas" / "qti"

# lxml reads the XML catalog when it is first used; set it before any test imports lxml.
os.environ.setdefault("XML_CATALOG_FILES", str(QTI_SCHEMAS / "catalog.xml"))


@pytest.fixture(autouse=True)
def _user_cache(tmp_path_factory, monkeypatch):
    """The validation cache of tests goes to a scratch folder, not the user's ~/.cache."""
    if "XDG_CACHE_HOME" not in os.environ or not os.environ["XDG_CACHE_HOME"].startswith(str(tmp_path_factory.getbasetemp())):
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("user-cache")))


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A scratch copy of bank/ and translations/, with the working directory set to it."""
    root = tmp_path / "project"
    root.mkdir()
    shutil.copytree(REPO / "bank", root / "bank")
    shutil.copytree(REPO / "translations", root / "translations")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def run_cli():
    """Run `bank ARGS` in-process; return (exit code, stdout+stderr)."""
    from typer.testing import CliRunner

    from aistack_bank.cli import app

    runner = CliRunner()

    def run(*args: str) -> tuple[int, str]:
        result = runner.invoke(app, [str(a) for a in args], catch_exceptions=False)
        return result.exit_code, result.output

    return run


def source_page(lang: str) -> list[str]:
    """The lines of the topic's public page in ``lang`` (docs/sources/topic-page.<lang>.txt)."""
    return (SOURCES / f"topic-page.{lang}.txt").read_text(encoding="utf-8").split("\n")


def question_file(root: Path, qid: str) -> Path:
    return next((root / "bank" / "questions").glob(f"{qid}-*.yaml"))


# Property-based tests: a fixed, bounded and derandomized profile in CI; `HYPOTHESIS_PROFILE=long`
# for a deeper local run.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
