import json

import pytest
from django.core.management import CommandError, call_command

from challenges.models import CorpusEntry
from challenges.novelty import DEFAULT_CORPUS_PATH, dump_jsonl, load_corpus, parse_jsonl
from challenges.services.corpus import corpus_entry_update, corpus_export, corpus_import, corpus_import_shipped
from core.errors import ValidationFailed
from core.models import AuditEvent
from tests.integration.novelty.helpers import fp

pytestmark = pytest.mark.django_db


def line(key: str, **changes) -> str:
    entry = {"key": key, "category": "textbook_bug_class", "title": f"Title {key}", "note": "A short note.",
             "fingerprint": fp(), **changes}
    return json.dumps(entry)


def shipped_lines() -> list[str]:
    return DEFAULT_CORPUS_PATH.read_text(encoding="utf-8").splitlines()


def test_shipped_corpus_imports_and_reimport_changes_nothing():
    result = corpus_import(lines=shipped_lines(), by=None, source="contamination_corpus.jsonl")
    assert len(result.created) == 348 and not result.updated
    assert CorpusEntry.objects.filter(active=True).count() == 348
    assert AuditEvent.objects.filter(verb="corpus.entry_created").count() == 348
    again = corpus_import(lines=shipped_lines(), by=None)
    assert (again.created, again.updated, again.unchanged) == ([], [], 348)
    assert AuditEvent.objects.filter(verb__startswith="corpus.").count() == 348


def test_export_round_trips_the_shipped_corpus():
    corpus_import(lines=shipped_lines(), by=None)
    exported = corpus_export()
    assert exported == dump_jsonl(sorted(load_corpus(), key=lambda e: e.key))
    assert parse_jsonl(exported.splitlines()) == sorted(load_corpus(), key=lambda e: e.key)
    result = corpus_import(lines=exported.splitlines(), by=None)
    assert (result.created, result.updated, result.unchanged) == ([], [], 348)


def test_changed_line_updates_with_before_and_after():
    corpus_import(lines=[line("heap-overread")], by=None)
    result = corpus_import(lines=[line("heap-overread", title="Heap over-read")], by=None, source="v2.jsonl")
    assert result.updated == ["heap-overread"]
    assert CorpusEntry.objects.get(key="heap-overread").title == "Heap over-read"
    event = AuditEvent.objects.get(verb="corpus.entry_changed")
    assert event.before == {"title": "Title heap-overread"} and event.after == {"title": "Heap over-read"}
    assert event.reason == "corpus import from v2.jsonl"


def test_one_bad_line_blocks_the_whole_file_and_nothing_changes():
    corpus_import(lines=[line("existing")], by=None)
    events = AuditEvent.objects.count()
    bad = [
        line("existing", title="Would change"),
        line("fresh-one"),
        line("bad-tier", fingerprint=fp(complexity_tier=9)),
        "",
        "{not json",
    ]
    with pytest.raises(ValidationFailed) as caught:
        corpus_import(lines=bad, by=None)
    errors = caught.value.extra["errors"]
    assert [(e["line"], e["field"]) for e in errors] == [(3, "fingerprint.complexity_tier"), (5, "line")]
    assert "line 3" in caught.value.message and "line 5" in caught.value.message
    assert list(CorpusEntry.objects.values_list("key", "title")) == [("existing", "Title existing")]
    assert AuditEvent.objects.count() == events


def test_imports_keep_staff_withdrawals():
    corpus_import(lines=[line("withdrawn")], by=None)
    corpus_entry_update(entry=CorpusEntry.objects.get(), by=None, reason="false positive", active=False)
    corpus_import(lines=[line("withdrawn")], by=None)
    assert CorpusEntry.objects.get().active is False
    assert corpus_export() == ""


def test_staff_edits_are_validated_and_audited():
    corpus_import(lines=[line("edited")], by=None)
    entry = CorpusEntry.objects.get()
    with pytest.raises(ValidationFailed) as caught:
        corpus_entry_update(entry=entry, by=None, reason="typo", fingerprint=fp(tech_stack="python"))
    assert caught.value.extra["field"] == "fingerprint.tech_stack"
    with pytest.raises(ValidationFailed):
        corpus_entry_update(entry=entry, by=None, reason="", note="New note.")
    corpus_entry_update(entry=entry, by=None, reason="clearer wording", note="New note.")
    event = AuditEvent.objects.filter(verb="corpus.entry_changed").get()
    assert event.before == {"note": "A short note."} and event.after == {"note": "New note."}
    assert event.reason == "clearer wording"


def test_commands_import_and_export(tmp_path, capsys):
    source = tmp_path / "corpus.jsonl"
    source.write_text("\n".join([line("alpha"), line("beta")]) + "\n")
    call_command("corpus_import", str(source), "--json")
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["created"] == 2
    target = tmp_path / "out.jsonl"
    call_command("corpus_export", str(target))
    assert [json.loads(x)["key"] for x in target.read_text().splitlines()] == ["alpha", "beta"]


def test_command_with_a_bad_line_exits_non_zero_listing_lines(tmp_path, capsys):
    source = tmp_path / "corpus.jsonl"
    source.write_text("\n".join([line("alpha"), line("beta", category="folklore"), line("gamma", title="")]) + "\n")
    with pytest.raises(CommandError) as caught:
        call_command("corpus_import", str(source))
    assert "2 invalid line(s); nothing imported" in str(caught.value)
    err = capsys.readouterr().err
    assert f"{source}:2: category" in err and f"{source}:3: title" in err
    assert not CorpusEntry.objects.exists()


def test_shipped_corpus_setup_helper_is_repeatable():
    assert len(corpus_import_shipped().created) == 348
    assert corpus_import_shipped().unchanged == 348
    event = AuditEvent.objects.filter(verb="corpus.entry_created").first()
    assert event.actor_label == "setup" and event.reason == "corpus import from contamination_corpus.jsonl"
