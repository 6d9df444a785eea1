"""The French, Spanish and Danish catalogs (lobby/text/locales/fr.py, es.py, da.py, issue 14): every
template renders, plurals and durations come out in the language's words, and the game's terms
are the ones of the project's French, Spanish and Danish rule texts, the same in every message."""
from __future__ import annotations

import re
import string

import pytest

from lobby.text.messages import CATALOGS, text

LANGS = ("fr", "es", "da")


def _sample(template: str) -> dict[str, object]:
    """A value for every field of `template`: a count for `!t` and `!p`, a word otherwise."""
    params: dict[str, object] = {}
    for _, field, _, conversion in string.Formatter().parse(template):
        if field:
            params[field] = 2 if conversion in ("t", "p") else "x"
    return params


@pytest.mark.parametrize("lang", LANGS)
def test_every_template_renders_with_its_fields(lang: str) -> None:
    """No stray brace, no unknown conversion: text() never falls back to the raw template."""
    catalog = CATALOGS[lang]
    assert set(catalog) == set(CATALOGS["en"])
    for key, template in catalog.items():
        params = _sample(template)
        if not params:
            continue
        rendered = text(key, lang, **params)
        assert rendered != template, (lang, key)
        assert "{" not in rendered and "!p:" not in rendered, (lang, key, rendered)


@pytest.mark.parametrize("lang, none, one, two", [
    ("fr", "/listroom a 0 page.", "/listroom a 1 page.", "/listroom a 2 pages."),
    ("es", "/listroom tiene 0 páginas.", "/listroom tiene 1 página.", "/listroom tiene 2 páginas."),
    ("da", "/listroom har 0 sider.", "/listroom har 1 side.", "/listroom har 2 sider."),
])
def test_plural_word_forms_follow_the_language(lang: str, none: str, one: str, two: str) -> None:
    """French takes the singular for 0 as well as 1; Spanish and Danish for 1 only."""
    assert text("no-such-page", lang, page=9, pages=0).endswith(none)
    assert text("no-such-page", lang, page=9, pages=1).endswith(one)
    assert text("no-such-page", lang, page=9, pages=2).endswith(two)


@pytest.mark.parametrize("lang, shown, one", [
    ("fr", "1 minute 30 secondes", "1 seconde "), ("es", "1 minuto 30 segundos", "1 segundo "),
    ("da", "1 minut 30 sekunder", "1 sekund,"),
])
def test_durations_are_written_in_the_language(lang: str, shown: str, one: str) -> None:
    assert shown in text("idle-timeout", lang, seconds=90)
    assert one in text("bomb-window", lang, seconds=1)


# The seeds' word for each English game term, as a pattern over the translated template with the
# literal commands, their arguments and the option names taken out (those stay English).
TERMS = {
    "fr": {"trick": r"\bplis?\b", "round": r"\bmanches?\b", "wish": r"\bsouhait",
           "bomb": r"\bbombes?\b", "Dragon": r"\bDragon\b", "Phoenix": r"\bPhénix\b",
           "Dog": r"\bChien\b", "Mah Jong": r"\bMah Jong\b"},
    "es": {"trick": r"\bbazas?\b", "round": r"\brondas?\b", "wish": r"\bdese(o|a|ar)",
           "bomb": r"\bbombas?\b", "Dragon": r"\bDragón\b", "Phoenix": r"\bFénix\b",
           "Dog": r"\bPerro\b", "Mah Jong": r"\bMah Jong\b"},
    "da": {"trick": r"stik", "round": r"runde", "wish": r"ønske",
           "bomb": r"bomb", "Dragon": r"Drage", "Phoenix": r"\bFøniks",
           "Dog": r"\bHund", "Mah Jong": r"\bMah Jong\b"},
}
# English words that are not the game term (the option `round X`, commands, `/wish`, ...)
_LITERALS = re.compile(r"/\w+( (none|left|right|RANK|CARDS|\w+ \w+))?|\bround X\b|\bwish 8\b"
                       r"|\bbombwindow\b|\bdragon fixed\b|\baround\b|\bnon-wish\b")


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_terms_are_the_seeds_words_in_every_message(lang: str) -> None:
    """Wherever an English message names a trick, a round, the wish, a bomb or a special card,
    the translation names it with the seeds' word (pli/baza/stik, manche/ronda/runde, ...)."""
    missing = []
    for key, english in CATALOGS["en"].items():
        plain = _LITERALS.sub(" ", re.sub(r"\{[^}]*\}", " ", english))
        for term, pattern in TERMS[lang].items():
            if re.search(rf"\b{term}", plain, re.IGNORECASE if term.islower() else 0) \
                    and not re.search(pattern, CATALOGS[lang][key], re.IGNORECASE):
                missing.append((key, term))
    assert missing == []
