"""The catalogs as gettext files through Babel (issue 26; docs/translating.md): the template and
every PO are fresh and every .mo is its PO compiled; the key is the msgctxt, the English the
msgid; translator comments give examples; Plural-Forms come from CLDR; `pybabel update` marks a
translation fuzzy when the English changes, and a stale or fuzzy translation shows English; a
language is one more PO file, and may be partly translated."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po

from conftest import load_script
from lobby.text import translations
from lobby.text.messages import CATALOGS, LANGUAGES, PLURAL_FORMS, coverage, language_lines, plural_form, text

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "lobby" / "text" / "locales"


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang)


def test_the_template_every_po_and_every_mo_are_fresh() -> None:
    """scripts/catalogs.py --check: `pybabel extract` gives the committed template's messages,
    and each .mo is the compilation of its PO (fuzzy translations left out)."""
    done = subprocess.run([sys.executable, "scripts/catalogs.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_message_is_its_key_as_msgctxt_and_its_english_as_msgid() -> None:
    template = read(LOCALES / "messages.pot")
    by_key = {m.context: m for m in template if m.id}
    assert set(by_key) == set(CATALOGS["en"])
    assert all(by_key[key].id == english for key, english in CATALOGS["en"].items())
    joined = by_key["table-joined"]
    # translator comments: the situation and the placeholders with example values
    comments = " ".join(joined.auto_comments)
    assert "{name} e.g. Anna" in comments and "Example: Anna sits down in seat 2." in comments
    assert any("plural form" in c for c in by_key["too-many-tables"].auto_comments)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_po_has_the_cldr_plural_forms_of_its_language(lang: str) -> None:
    po = read(LOCALES / lang / "LC_MESSAGES" / "messages.po", lang)
    rule = get_plural(lang)
    assert po.num_plurals == rule.num_plurals
    assert po.plural_expr == rule.plural_expr
    assert PLURAL_FORMS[lang].startswith(f"nplurals={rule.num_plurals};")


def test_plural_forms_follow_the_languages_rule() -> None:
    assert [plural_form(n, "round|rounds", "en") for n in (0, 1, 2, 1.5)] == \
        ["rounds", "round", "rounds", "rounds"]
    assert [plural_form(n, "pli|plis", "fr") for n in (0, 1, 2)] == ["pli", "pli", "plis"]
    # Polish has three forms (CLDR through Babel): 1 stół, 2-4 stoły, 5 stołów, 22 stoły
    forms = "stół|stoły|stołów"
    assert [plural_form(n, forms, "pl") for n in (1, 2, 4, 5, 12, 22, 25)] == \
        ["stół", "stoły", "stoły", "stołów", "stołów", "stoły", "stołów"]
    assert [plural_form(n, "okno|okna|oken", "cs") for n in (1, 3, 5)] == ["okno", "okna", "oken"]
    assert text("too-many-tables", "de", limit=1, tables=2).count("Tisch") == 2


def test_pybabel_update_marks_a_changed_english_fuzzy_and_the_server_shows_english(
        tmp_path: Path) -> None:
    """The English of a translated message changes: `pybabel update` keeps the old translation
    marked fuzzy, compile leaves it out, and the server shows the new English."""
    template = read(LOCALES / "messages.pot")
    template.add("Tichu is a card game for four.", context="demo-line")
    locales = tmp_path / "locales"
    shutil.copytree(LOCALES / "de", locales / "de")
    po_path = locales / "de" / "LC_MESSAGES" / "messages.po"
    po = read(po_path, "de")
    po.add("Tichu is a card game for four.", "Tichu ist ein Kartenspiel für vier.",
           context="demo-line")
    with po_path.open("wb") as f:
        write_po(f, po)
    template.delete("Tichu is a card game for four.", context="demo-line")
    template.add("Tichu is a card game for four players.", context="demo-line")
    pot = tmp_path / "messages.pot"
    with pot.open("wb") as f:
        write_po(f, template)
    pybabel = Path(sys.executable).with_name("pybabel")
    # what scripts/catalogs.py runs: pybabel update, the old translation of the same key back
    # as fuzzy, pybabel compile
    subprocess.run([str(pybabel), "-q", "update", "-i", str(pot), "-d", str(locales),
                    "--no-fuzzy-matching"], check=True, timeout=120)
    assert load_script("catalogs").fuzzy_by_key("de", po_path) == 1
    subprocess.run([str(pybabel), "-q", "compile", "-d", str(locales)], check=True, timeout=120)
    updated = {m.context: m for m in read(po_path, "de") if m.id}
    demo = updated["demo-line"]
    assert demo.fuzzy and demo.id == "Tichu is a card game for four players."
    assert demo.string == "Tichu ist ein Kartenspiel für vier."
    english = dict(CATALOGS["en"], **{"demo-line": "Tichu is a card game for four players."})
    loaded, _ = translations.load(english, locales)
    assert "demo-line" not in loaded["de"]                   # English shows
    assert loaded["de"]["table-joined"] == CATALOGS["de"]["table-joined"]


def test_a_language_is_one_more_po_and_may_be_partly_translated(tmp_path: Path) -> None:
    """Polish, with two messages translated: the server lists it in the greeting and in /set
    lang, shows those two in Polish and English for the rest, and reports its coverage."""
    copy = tmp_path / "src"
    shutil.copytree(ROOT / "lobby", copy / "lobby",
                    ignore=shutil.ignore_patterns("__pycache__"))
    po = Catalog(locale="pl")
    po.add("In English: /set lang {code}", "Po polsku: /set lang {code}",
           context="greeting-language")
    po.add("{name} sits down in seat {seat}.", "{name} siada na miejscu {seat}.",
           context="table-joined")
    folder = copy / "lobby" / "text" / "locales" / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / "messages.po").open("wb") as f:
        write_po(f, po)
    with (folder / "messages.mo").open("wb") as f:
        write_mo(f, po)
    script = ("from lobby.text.messages import LANGUAGES, coverage, language_lines, language_name, text\n"
              "print(LANGUAGES); print(language_lines()); print(language_name('pl'))\n"
              "print(text('table-joined', 'pl', name='Ola', seat=2))\n"
              "print(text('table-left', 'pl', name='Ola', seat=2)); print(coverage('pl') < 0.01)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=copy, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert "'pl'" in out[0] and "Po polsku: /set lang pl" in out[1]
    assert out[2] == "Polski"
    assert out[3:] == ["Ola siada na miejscu 2.", "Ola leaves seat 2.", "True"]


def test_the_greeting_lists_every_language_in_its_own_words() -> None:
    lines = language_lines()
    for lang in LANGUAGES:
        assert sum(f"/set lang {lang}" in line for line in lines) == 1
    assert "Auf Deutsch: /set lang de" in " ".join(lines)
    assert all(coverage(lang) == 1.0 for lang in ("de", "fr", "es", "da"))
