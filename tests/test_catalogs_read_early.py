"""The catalogs' workers read their catalog as soon as they are forked, while the parent reads the
bank, and each catalog is then verified by the worker that read it (`Workers.submit`'s ``to``):
one read of each catalog, the serial verdict; a run whose catalogs did not change since the
latest one reads none early."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from aistack_bank import parallel
from aistack_bank.i18n import catalog as catalog_module
from aistack_bank.rules import validate

from conftest import keep_only, process_state


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_a_call_for_a_worker_waits_for_that_worker(monkeypatch):
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    with parallel.Workers(True) as workers:
        assert workers.started
        first, second = workers.pids
        busy = workers.submit([(_pid_after, (0.5,))], to=[first])  # (the first worker busy for a while)
        # a call for the first worker waits for it, while the second takes the others, in order
        results = workers.submit([(_pid_after, (0,)), (_pid_after, (0,)), (_pid_after, (0,))], to=[first, None, second])
        assert list(results) == [first, second, second]
        assert list(busy) == [first]
        # a call for a process that is not one of the pool's goes to any worker
        assert list(workers.submit([(_pid_after, (0,))], to=[2 ** 22 + 7])) in ([first], [second])


def test_after_the_last_calls_a_worker_with_none_for_it_ends_at_once(monkeypatch):
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    with parallel.Workers(True) as workers:
        first, second = workers.pids
        results = workers.submit([(_pid_after, (1.5,))], to=[first], last=True)
        deadline = time.monotonic() + 1.0
        while process_state(second) not in ("Z", "gone") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert process_state(second) in ("Z", "gone")  # (killed, reaped as the pool ends)
        assert process_state(first) not in ("Z", "gone")
        assert list(results) == [first]


def _watched(monkeypatch, tmp_path: Path) -> tuple[list, Path]:
    """The batches of calls sent to the workers (their functions' names), and a log of each
    catalog read (``pid path`` a line, from every process). The French catalog's early read waits
    until the parent has sent the catalogs' verification (so that the other worker is idle
    then and would take it, were it not for the first worker)."""
    sent: list = []
    log = tmp_path / "reads.log"
    flag = tmp_path / "verification-sent"
    real_submit, real_read = parallel.Workers.submit, catalog_module.read_catalog

    def submit(self, calls, last=False, to=None):
        names = [function.__name__ for function, _ in calls]
        sent.append(names)
        found = real_submit(self, calls, last, to)
        if "_verify_sent" in names:
            flag.touch()
        return found

    def read(path, **kwargs):
        if parallel.in_worker() and Path(path).name == "fr.po" and not flag.exists():
            deadline = time.monotonic() + 60
            while not flag.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
        with open(log, "a") as out:
            out.write(f"{os.getpid()} {Path(path).parent.name}/{Path(path).name}\n")
        return real_read(path, **kwargs)

    monkeypatch.setattr(parallel.Workers, "submit", submit)
    monkeypatch.setattr(catalog_module, "read_catalog", read)
    return sent, log


def _reads(log: Path) -> list[tuple[int, str]]:
    found = [(int(pid), name) for pid, name in (line.split() for line in log.read_text().splitlines())] if log.exists() else []
    log.unlink(missing_ok=True)
    return [(pid, name) for pid, name in found if name in ("translations/fr.po", "translations/nl.po")]  # (not the interface's catalogs)


def test_each_catalog_is_read_once_by_the_worker_that_verifies_it(project, monkeypatch, tmp_path):
    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    serial = [d.as_dict() for d in validate.validate_bank(Path("bank"), translations=Path("translations")).diagnostics]
    sent, log = _watched(monkeypatch, tmp_path)
    _reads(log)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    pooled = [d.as_dict() for d in validate.validate_bank(Path("bank"), translations=Path("translations")).diagnostics]
    assert pooled == serial
    assert sent == [["_read_early", "_read_early"], ["_verify_sent", "_verify_sent", "_template_sent"]]
    reads = _reads(log)
    assert sorted(name for _, name in reads) == ["translations/fr.po", "translations/nl.po"]  # (once each: the verification took the early read)
    assert len({pid for pid, _ in reads}) == 2 and os.getpid() not in {pid for pid, _ in reads}


def test_only_the_catalogs_written_since_the_latest_run_are_read_early(project, monkeypatch, tmp_path):
    from aistack_bank.cache.validation import validate_cached

    from aistack_bank.cache import store, validation

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    # (files written just now count as settled: the memo file keeps them, as it keeps files
    # written more than three seconds before a run)
    monkeypatch.setattr(store, "RACY_NS", -10 ** 12)
    monkeypatch.setattr(validation, "RACY_NS", -10 ** 12)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    sent, log = _watched(monkeypatch, tmp_path)
    cold = validate_cached(Path("bank"), Path("translations"))
    assert sent[0] == ["_read_early", "_read_early"]  # (a cold run: every catalog)
    question = sorted((project / "bank").rglob("q001-*.yaml"))[0]

    def edited(path: Path, line: str) -> None:
        path.write_text(path.read_text(encoding="utf-8") + line, encoding="utf-8")
        time.sleep(0.01)

    # a question file changed, no catalog: the workers read none early
    edited(question, "# edited\n")
    sent.clear()
    assert validate_cached(Path("bank"), Path("translations")) == cold
    assert not [names for names in sent if "_read_early" in names]
    # a question file and the French catalog changed: that catalog alone is read early
    edited(question, "# edited again\n")
    edited(project / "translations" / "fr.po", "\n# a translator's note\n")
    sent.clear()
    _reads(log)
    found = validate_cached(Path("bank"), Path("translations"))
    assert sent[0] == ["_read_early"]
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial"))
    assert validate_cached(Path("bank"), Path("translations")) == found


def test_a_catalog_written_after_its_early_read_is_verified_from_its_new_bytes(project, monkeypatch, tmp_path):
    """A catalog written after its worker read it early, before the parent took the key its
    verdict is kept under (the digest of the bytes then): the worker verifies the bytes of that
    key, not its early read, so that no verdict of the bytes before is kept under the key of
    the bytes after (every later run from the cache would report the findings of bytes gone)."""
    from aistack_bank.cache.validation import validate_cached
    from aistack_bank.i18n import verify

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    fr = project / "translations" / "fr.po"
    done = tmp_path / "fr-read"
    real_read, real_verdicts = catalog_module.read_catalog, verify._stored_verdicts

    def read(path, **kwargs):
        found = real_read(path, **kwargs)
        if parallel.in_worker() and Path(path).name == "fr.po":
            done.touch()
        return found

    def stored_verdicts(*args, **kwargs):
        # (in the parent, once the French catalog's early read is done: a translator's entry
        # added to it, before the keys are taken)
        deadline = time.monotonic() + 60
        while not done.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        if not fr.read_text(encoding="utf-8").endswith(GHOST):
            fr.write_text(fr.read_text(encoding="utf-8") + GHOST, encoding="utf-8")
        return real_verdicts(*args, **kwargs)

    monkeypatch.setattr(catalog_module, "read_catalog", read)
    monkeypatch.setattr(verify, "_stored_verdicts", stored_verdicts)
    during = validate_cached(Path("bank"), Path("translations"))
    monkeypatch.setattr(verify, "_stored_verdicts", real_verdicts)
    assert done.exists()  # (the early read was made, before the entry was added)

    def ghosts(found) -> list[str]:
        return [d.code for d in found[0] if "zz-not-there" in d.message]

    assert ghosts(during) == ["W503"]
    cached = validate_cached(Path("bank"), Path("translations"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "fresh"))
    assert cached == validate_cached(Path("bank"), Path("translations"))
    assert ghosts(cached) == ["W503"]


GHOST = '\nmsgctxt "question.zz-not-there.text"\nmsgid "Ghost"\nmsgstr "Fantôme"\n'


@pytest.mark.parametrize("linked", [False, True], ids=["file", "link"])
def test_a_cold_run_forks_the_catalogs_workers_before_its_input_digest(project, monkeypatch, tmp_path, linked):
    """With no verdict stored at all (a fresh cache), the catalogs' workers are forked and read
    their catalogs before the input digest; a catalog written after its early read and before
    the digest is verified from the bytes the digest took (the verdict kept under their key is
    theirs), and the next run, from the cache, reports what a run on a fresh cache reports.
    Also for a catalog that is a link to a file of the project (no verdict of its own kept:
    the bank's verdict, whose input digest took the bytes it leads to, is)."""
    from aistack_bank.cache import validation
    from aistack_bank.cache.validation import validate_cached

    keep_only(project)
    if linked:
        (project / "kept").mkdir()
        (project / "translations" / "fr.po").rename(project / "kept" / "fr.po")
        (project / "translations" / "fr.po").symlink_to(Path("..") / "kept" / "fr.po")
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert validation._never_kept(Path("bank"), Path("translations"))
    fr = project / "translations" / "fr.po"
    done = tmp_path / "fr-read"
    sent, log = _watched(monkeypatch, tmp_path)
    (tmp_path / "verification-sent").touch()  # (no early read held back here)
    real_read, real_digest = catalog_module.read_catalog, validation.input_digest
    order: list = []

    def read(path, **kwargs):
        found = real_read(path, **kwargs)
        if parallel.in_worker() and Path(path).name == "fr.po":
            done.touch()
        return found

    def input_digest(bank, translations, *args, **kwargs):
        if not kwargs.get("again"):
            order.append(list(sent))
            # (once the French catalog's early read is done: a translator's entry added to it)
            deadline = time.monotonic() + 60
            while not done.exists() and time.monotonic() < deadline:
                time.sleep(0.01)
            if not fr.read_text(encoding="utf-8").endswith(GHOST):
                fr.write_text(fr.read_text(encoding="utf-8") + GHOST, encoding="utf-8")
        return real_digest(bank, translations, *args, **kwargs)

    monkeypatch.setattr(catalog_module, "read_catalog", read)
    monkeypatch.setattr(validation, "input_digest", input_digest)
    during = validate_cached(Path("bank"), Path("translations"))
    assert order == [[["_read_early", "_read_early"]]]  # (sent before the digest)
    assert done.exists()
    reads = _reads(log)
    assert sorted(name for _, name in reads) == ["translations/fr.po", "translations/fr.po", "translations/nl.po"]  # (fr.po read again)

    def ghosts(found) -> list[str]:
        return [d.code for d in found[0] if "zz-not-there" in d.message]

    assert ghosts(during) == ["W503"]
    # a run that can find a verdict (the stat memo file written) forks nothing before its digest
    assert not validation._never_kept(Path("bank"), Path("translations"))
    sent.clear()
    order.clear()
    cached = validate_cached(Path("bank"), Path("translations"))
    assert order == [[]] and sent == []
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "fresh"))
    assert cached == validate_cached(Path("bank"), Path("translations")) == during
    assert ghosts(cached) == ["W503"]


def test_a_cache_with_a_verdict_is_never_taken_for_a_cold_one(project, monkeypatch, tmp_path):
    """No stat memo file of the bank and its catalogs, but a verdict stored (of any bank): not a
    cold run (the memo file may have been removed), so nothing is forked before the digest."""
    from aistack_bank.cache import validation
    from aistack_bank.cache.validation import validate_cached

    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert validation._never_kept(Path("bank"), Path("translations"))
    validate_cached(Path("bank"), Path("translations"))
    memo = validation._memo_path([Path("bank"), Path("translations")])
    assert memo.exists() and not validation._never_kept(Path("bank"), Path("translations"))
    memo.unlink()
    assert list((tmp_path / "cache" / "aistack-bank" / "validate").glob("*.json"))
    assert not validation._never_kept(Path("bank"), Path("translations"))
    for verdict in (tmp_path / "cache" / "aistack-bank" / "validate").glob("*.json"):
        verdict.unlink()
    assert validation._never_kept(Path("bank"), Path("translations"))


def test_a_worker_killed_in_its_early_read_before_the_digest(project, monkeypatch, tmp_path):
    """A catalogs' worker killed while it reads its catalog before the input digest: its
    catalog is verified by another process, the findings are a serial run's, and no worker is
    left behind."""
    import signal

    from aistack_bank.cache.validation import validate_cached

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setattr(parallel, "POOL_MIN_WORK", 0)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "serial"))
    serial = validate_cached(Path("bank"), Path("translations"))
    killed = tmp_path / "killed"
    real_read = catalog_module.read_catalog
    pids: list = []
    real_init = parallel.Workers.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        pids.extend(self.pids)

    def read(path, **kwargs):
        if parallel.in_worker() and Path(path).name == "fr.po" and not killed.exists():
            killed.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return real_read(path, **kwargs)

    monkeypatch.setattr(parallel.Workers, "__init__", init)
    monkeypatch.setattr(catalog_module, "read_catalog", read)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert validate_cached(Path("bank"), Path("translations")) == serial
    assert killed.exists() and pids
    assert all(process_state(pid) == "gone" for pid in pids)


def test_an_interrupt_during_the_digest_leaves_no_catalogs_worker(project, monkeypatch, tmp_path):
    """Ctrl-C while the input digest runs beside the catalogs' workers forked before it: the
    interrupt goes through and the workers end with it."""
    import pytest

    from aistack_bank.cache import validation
    from aistack_bank.cache.validation import validate_cached

    keep_only(project)
    monkeypatch.setattr(validate, "POOL_MIN_CATALOG_BYTES", 0)
    monkeypatch.setenv("AISTACK_BANK_JOBS", "2")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    pids: list = []
    real_init = parallel.Workers.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        pids.extend(self.pids)

    def input_digest(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(parallel.Workers, "__init__", init)
    monkeypatch.setattr(validation, "input_digest", input_digest)
    with pytest.raises(KeyboardInterrupt):
        validate_cached(Path("bank"), Path("translations"))
    assert pids and all(process_state(pid) == "gone" for pid in pids)


def test_a_cache_folder_that_cannot_be_looked_at_is_not_taken_for_a_cold_one(project, monkeypatch, tmp_path):
    """A cache folder whose name the system refuses (too long): no guess of a cold run, no
    traceback; the findings are those of a run without cache."""
    from aistack_bank.cache import validation
    from aistack_bank.cache.validation import validate_cached

    keep_only(project)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ("x" * 300)))
    assert validation._never_kept(Path("bank"), Path("translations")) is False
    assert validate_cached(Path("bank"), Path("translations"))[0] == validate_cached(Path("bank"), Path("translations"), use_cache=False)[0]
