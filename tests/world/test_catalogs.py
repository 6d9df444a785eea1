"""The catalogs of the five languages (issue 14): every catalog has exactly the English keys with
the same placeholders; plurals and rank words come from the catalog; `/set lang` chooses the
language of a connection, a registered name keeps it, `--lang` is the server's default; the
greeting says how to switch; `/hilfe` is BSW's word for `/help`."""
from __future__ import annotations

import string
from pathlib import Path

import pytest

import lobby as lobby_package
from conftest import FakeLobby, fired, unwrap
from lobby.text.messages import CATALOGS, LANGUAGES, coverage, quote_marks, text

#: the languages the server ships: each stays translated completely
SHIPPED: tuple[str, ...] = ("de", "fr", "es", "da")


def fields(template: str) -> set[tuple[str, str | None]]:
    """The placeholders of a template: field name and conversion (`!t`, `!w`, `!r`); the
    format spec (a plural's word forms, a width) may differ between languages, and a language
    may choose a word form by a count the English shows without one (`!p`)."""
    return {(name, None if conversion == "p" else conversion)
            for _, name, _, conversion in string.Formatter().parse(template) if name is not None}


def catalog(lang: str) -> dict[str, str]:
    """The messages of ``lang``'s PO file (lobby/text/locales/LANG/LC_MESSAGES/messages.po) that are
    translated and not fuzzy, by key."""
    from babel.messages.pofile import read_po
    with po_file(lang).open("rb") as f:
        po = read_po(f, locale=lang)
    return {m.context: m.string for m in po if m.id and m.string and not m.fuzzy}


def po_file(lang: str) -> Path:
    return Path(lobby_package.__file__).parent / "text" / "locales" / lang / "LC_MESSAGES" / "messages.po"


def test_the_shipped_languages_are_there() -> None:
    assert set(SHIPPED) <= set(LANGUAGES) and LANGUAGES[0] == "en"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_a_catalog_has_exactly_the_english_keys(lang: str) -> None:
    """Every language's coverage is reported; the languages we ship stay at 100 %."""
    messages = catalog(lang)
    english = CATALOGS["en"]
    share = coverage(lang)
    print(f"{lang}: {share:.1%} of {len(english)} messages translated")
    assert sorted(set(messages) - set(english)) == [], f"not in the English catalog ({lang})"
    if lang in SHIPPED:
        assert sorted(set(english) - set(messages)) == [], f"missing in {lang}"
        assert share == 1.0
        # and lobby.text.messages loaded it from the .mo, each quotation in the language's
        # own marks (quote_marks: one rule for every template)
        assert CATALOGS[lang] == {key: quote_marks(v, lang) for key, v in messages.items()}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_template_has_the_english_placeholders(lang: str) -> None:
    messages = catalog(lang)
    wrong = {key: (sorted(fields(template), key=str), sorted(fields(messages[key]), key=str))
             for key, template in CATALOGS["en"].items()
             if key in messages and fields(template) != fields(messages[key])}
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_a_template_renders_in_its_language(lang: str) -> None:
    """Every template of the catalog formats with its own placeholders (text() gives a broken
    template back as it is)."""
    messages = catalog(lang)
    broken = [key for key, template in messages.items()
              if fields(template) and text(key, lang, **{n: 2 for n, _ in fields(template)})
              == template]
    assert broken == []


def test_the_placeholder_check_sees_a_missing_or_extra_field() -> None:
    assert fields("{name} plays {cards}.") != fields("{name} spielt.")
    assert fields("{rounds} {rounds!p:round|rounds}") == fields("{rounds} {rounds!p:Runde|Runden}")
    assert fields("{seconds!t}") != fields("{seconds}")
    assert fields("{rank!w:a-rank}") == fields("{rank!w:rank}")


# ---- plurals and words of the catalog ------------------------------------------------------------
def test_one_round_two_rounds() -> None:
    assert text("game-match-over", rounds=1, outcome="x") == "Game over after 1 round: x"
    assert text("game-match-over", rounds=2, outcome="x") == "Game over after 2 rounds: x"
    assert text("no-such-round", game=3, round=5, rounds=1).endswith("it had 1 round.")
    assert text("missing-rank", count=1, rank="7") == "You do not hold 1 card of rank 7."
    assert text("missing-rank", count=2, rank="7") == "You do not hold 2 cards of rank 7."
    for key, template in CATALOGS["en"].items():
        assert "(s)" not in template, key


@pytest.mark.parametrize("rank, shown", [("A", "an Ace"), ("8", "an 8"), ("B", "a Jack"),
                                         ("10", "a 10"), ("2", "a 2")])
def test_a_wish_names_its_rank_as_a_word(rank: str, shown: str) -> None:
    assert text("game-wish", name="Bob", rank=rank) == f"Bob wishes for {shown}."
    assert text("must-fulfil-wish", rank=rank) == f"The wish binds you: play {shown}."


def test_the_rank_words_of_every_catalog_are_complete() -> None:
    for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K", "A"):
        for prefix in ("rank", "a-rank", "ranks"):
            assert f"{prefix}-{rank}" in CATALOGS["en"]


# ---- /set lang, the account, --lang, the greeting, /hilfe -----------------------------------------
def test_set_lang_chooses_the_language_of_the_connection(lobby: FakeLobby) -> None:
    a = lobby.connect()
    a.login("Ann")
    a.send("/set lang fr")
    assert a.session.lang == "fr" and a.session.render_context.lang == "fr"
    a.text()
    a.send("/set lang xx")
    out = a.text()
    assert "! [unknown-language]" in out and "«\u00a0xx\u00a0»" in out   # (no-break spaces)
    assert a.session.lang == "fr"
    a.send("/set language EN")
    assert a.session.lang == "en" and "Language: English." in a.text()


def test_a_registered_name_keeps_its_language(lobby: FakeLobby) -> None:
    lobby.register("Bert", "secret1")
    a = lobby.connect()
    a.login("Bert", "secret1")
    a.send("/set lang da")
    assert fired(lobby.store.get_account("bert")).language == "da"
    a.send("/quit")
    b = lobby.connect()
    b.login("Bert", "secret1")
    assert b.session.lang == "da"
    # a guest's choice is the connection's only
    c = lobby.connect()
    c.login("Gina")
    c.send("/set lang es")
    assert fired(lobby.store.get_account("gina")) is None


def test_the_server_default_is_lang(clock: object) -> None:
    from protocol.process.options import DEFAULT_LANG, parse_args
    assert DEFAULT_LANG == "en" and parse_args([]).lang == "en"
    assert parse_args(["--lang", "de"]).lang == "de"
    with pytest.raises(SystemExit):
        parse_args(["--lang", "xx"])
    lobby = FakeLobby(clock)  # type: ignore[arg-type]
    lobby.factory.services.lang = "es"
    a = lobby.connect()
    assert a.session.lang == "es"
    out = a.text()
    assert text("greeting", "es") in out and text("login-prompt", "es") in out
    a.send("Pia")
    assert text("guest-confirm", "es", name="Pia") in unwrap(a.text())   # (wrapped at 80)
    a.send("")
    assert a.session.user is not None
    a.send("/set lang de")
    assert a.session.lang == "de"


def test_the_greeting_says_how_to_choose_a_language(lobby: FakeLobby) -> None:
    out = lobby.connect().text()
    for lang in LANGUAGES:
        assert f"/set lang {lang}" in out       # whole: no line of it needs wrapping at 80
    assert all(len(line) <= 80 for line in out.splitlines())
    assert all(len(line) <= 60 for line in out.splitlines() if "/set lang" in line)   # at 60 too
    assert "Auf Deutsch" in out and "En français" in out and "På dansk" in out
    # each language's line in its own words, from its own catalog: the greeting is for people
    # who cannot read the others
    for lang in LANGUAGES:
        assert text("greeting-language", lang, code=lang) in out


def test_hilfe_is_help(lobby: FakeLobby) -> None:
    a = lobby.connect()
    a.login("Ann")
    a.send("/hilfe")
    help_ = a.text()
    a.send("/help")
    assert help_ == a.text() and "/help COMMAND" in help_
    a.send("/hilfe set")
    assert "also: /hilfe" not in a.text()
    a.send("/help hilfe")
    assert "also: /hilfe" in a.text()


def test_machine_mode_keeps_types_and_codes_in_every_language(lobby: FakeLobby) -> None:
    import json
    a = lobby.connect()
    a.send("%json")
    a.send("Ann")
    a.send("/set lang de")
    a.text()
    a.send("#x /room 99")
    (line,) = [json.loads(raw) for raw in a.text().split("\r\n") if raw.startswith("{")]
    assert line["type"] == "error" and line["code"] == "no-such-room" and line["id"] == "x"
    assert line["message"] == text("no-such-room", "de", number="99")
