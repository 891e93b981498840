"""The installed tool: a wheel built from the sources, installed into a fresh virtual environment
outside the repository, starts a bank of its own and validates, builds and reports on it there."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import polib

from conftest import REPO


def _run(args: list, cwd: Path, env: dict) -> str:
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(map(str, args))} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result.stdout + result.stderr


def make_venv(venv: Path, env: dict) -> tuple[Path, Path, Path]:
    """A fresh virtual environment that sees the dependencies installed for the running
    interpreter, whether that runs in a virtual environment or not: (folder, python, bank).

    ``--system-site-packages`` would give the *base* interpreter's packages, which lack them when
    the tests run in a virtual environment; a ``.pth`` file lists this interpreter's own
    site-packages folders instead. Those come after the venv's own, and their ``.pth`` files
    (an editable install of this checkout) are not run, so the wheel's package is the one imported."""
    import site
    import sysconfig

    _run([sys.executable, "-m", "venv", "--without-pip", venv], venv.parent, env)
    python = venv / "bin" / "python"
    purelib = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], venv.parent, env).strip())
    folders = dict.fromkeys([*site.getsitepackages(), site.getusersitepackages(), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"],
                             *(p for p in sys.path if p.endswith(("site-packages", "dist-packages")))])
    (purelib / "outer-site-packages.pth").write_text("".join(f"{f}\n" for f in folders if Path(f).is_dir() and Path(f) != purelib), encoding="utf-8")
    return venv, python, venv / "bin" / "bank"


def test_the_wheel_installs_and_starts_a_bank_anywhere(tmp_path):
    from aistack_bank import __version__

    # Build from a copy of what the wheel is made of, so the repository's tree stays untouched
    # (no build/ or egg-info) and nothing else of the repository can leak into the package.
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    shutil.copytree(REPO / "aistack_bank", source / "aistack_bank", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    _run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", tmp_path / "dist", source], tmp_path, env)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    assert wheel.name == f"aistack_bank-{__version__}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    for data in ("aistack_bank/exporters/site/practice.js", "aistack_bank/project/starter/README.md", "aistack_bank/i18n/data/site/fr.po", "aistack_bank/py.typed"):
        assert data in names
    # one licence, as an SPDX expression (PEP 639), with its text in the wheel
    dist_info = f"aistack_bank-{__version__}.dist-info"
    metadata = zipfile.ZipFile(wheel).read(f"{dist_info}/METADATA").decode()
    headers = metadata.split("\n\n", 1)[0].splitlines()
    assert "License-Expression: MIT" in headers and "License-File: LICENSE" in headers
    assert not [h for h in headers if h.startswith("License:")]
    assert zipfile.ZipFile(wheel).read(f"{dist_info}/licenses/LICENSE") == (REPO / "LICENSE").read_bytes()

    # A fresh environment that reuses the installed dependencies (pydantic, lxml, …) but not
    # this checkout: the wheel's own package must be the one imported.
    venv, python, bank = make_venv(tmp_path / "venv", env)
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index", "--disable-pip-version-check", wheel], tmp_path, env)
    env |= {"VIRTUAL_ENV": str(venv), "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"}
    work = tmp_path / "elsewhere"
    work.mkdir()
    # where the package is imported from, and the metadata the environment has installed (what
    # `pip show` prints: read by the standard library in the same interpreter, not by a second
    # interpreter running pip)
    where, metadata_where, *licences = _run([python, "-c", "import aistack_bank, importlib.metadata as m; print(aistack_bank.__file__); "
                                             "d = m.distribution('aistack-bank'); print(d.locate_file('')); "
                                             "print(*d.metadata.get_all('License-Expression') or [], sep='\\n')"], work, env).splitlines()
    assert Path(where).is_relative_to(venv), where
    assert Path(metadata_where).is_relative_to(venv) and licences == ["MIT"], (metadata_where, licences)
    assert _run([bank, "--version"], work, env).strip() == f"bank (aistack-bank) {__version__}"

    out = _run([bank, "init", "course", "--languages", "fr,ar,pl,de", "--title", "Intro to statistics"], work, env)
    assert "created a bank in course" in out
    project = work / "course"
    path = project / "translations" / "pl.po"
    po = polib.pofile(str(path))
    for entry in po:  # a translator fills the Polish catalog
        entry.msgstr = f"[pl] {entry.msgid}"
    po.save(str(path))

    out = _run([bank, "validate"], project, env)
    assert " 0 error(s)" in out
    out = _run([bank, "build"], project, env)
    assert "translations/site/pl.po: warning W551:" in out and "translations/ar.po: warning W552:" in out
    assert "[pl] Intro to statistics" in (project / "exports" / "site" / "pl" / "index.html").read_text(encoding="utf-8")
    assert (project / "exports" / "moodle" / "intro-to-statistics-pl.xml").exists()  # named after the topic id
    out = _run([bank, "i18n", "status"], project, env)
    lines = out.splitlines()
    assert any(line.startswith("pl ") and line.endswith(" 100.0%") for line in lines), out
    assert any(line.startswith("ar ") and line.endswith(" 0.0%") for line in lines), out
    assert any(line.startswith("practice-site interface, fr:") and line.endswith("(100.0%)") for line in lines), out
    _run([bank, "build", "--compare"], project, env)

    # A collaborator clones a project whose tool comes from the wheel (no index serves it) into
    # an empty folder and follows its README in a fresh environment of their own.
    _run([bank, "init", "team", "--languages", "de,es", "--title", "Statistics", "--requirement", wheel], work, env)
    team = work / "team"
    git = ["git", "-c", "user.name=A", "-c", "user.email=a@example.org", "-c", "init.defaultBranch=main"]
    _run([*git, "init", "-q"], team, env)
    _run([*git, "add", "-A"], team, env)
    _run([*git, "commit", "-q", "-m", "A new bank"], team, env)
    clone = tmp_path / "second" / "team"
    _run(["git", "clone", "-q", team, clone], tmp_path, env)
    readme = (clone / "README.md").read_text(encoding="utf-8")
    assert "python -m pip install -r requirements.txt" in readme
    _, python2, bank2 = make_venv(tmp_path / "second" / "venv", env)
    env2 = env | {"VIRTUAL_ENV": str(tmp_path / "second" / "venv"), "PATH": f"{bank2.parent}{os.pathsep}{env.get('PATH', '')}"}
    _run([python2, "-m", "pip", "install", "--quiet", "--no-index", "--disable-pip-version-check", "-r", "requirements.txt"], clone, env2)
    assert Path(_run([python2, "-c", "import aistack_bank; print(aistack_bank.__file__)"], clone, env2).strip()).is_relative_to(tmp_path / "second" / "venv")
    assert " 0 error(s)" in _run([bank2, "validate"], clone, env2)
    _run([bank2, "build", "--compare"], clone, env2)
    out = _run([bank2, "build"], clone, env2)
    assert "translations/de.po: warning W552:" in out and "0 file(s) written" in out
