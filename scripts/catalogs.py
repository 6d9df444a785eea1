#!/usr/bin/env python3
"""Make the translators' files from the English catalog, in one go (docs/translating.md):

    pybabel extract   lobby/text/messages.py -> lobby/text/locales/messages.pot
    pybabel init      a new language's PO (only with --add LANG)
    pybabel update    every lobby/text/locales/LANG/LC_MESSAGES/messages.po from the template
                      (a removed message becomes obsolete); then a message whose English
                      changed gets the old translation of its key back, marked fuzzy
    pybabel compile   every PO -> its messages.mo (fuzzy translations left out: English shows)

Run it after adding or changing an English message, and after translating.

It also takes over the old catalogs: a lobby/text/locales/LANG.py (a dict MESSAGES, the format before
the PO files; a branch older than the PO files may still bring one in a merge) is merged into
LANG's PO, its values winning, and removed (with --keep-dicts: kept). Run again after merging
such a branch, so that no message of it is lost.

    python scripts/catalogs.py              extract, update, take over old dicts, compile
    python scripts/catalogs.py --add pl     the same, and a new language pl first
    python scripts/catalogs.py --check      exit 1 when the template, a PO or a .mo is not fresh
"""
from __future__ import annotations

import argparse
import io
import os
import re
import runpy
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LOCALES = ROOT / "lobby" / "text" / "locales"
TEMPLATE = LOCALES / "messages.pot"
EXTRACT_ARGS = ["-F", "babel.cfg", "--no-location", "--project=tichu-lobby",
                "--copyright-holder=the tichu-lobby authors", "--msgid-bugs-address=",
                "--add-comments=", "--width=76"]


def pybabel(*args: str) -> None:
    script = Path(sys.executable).with_name("pybabel")
    command = [str(script)] if script.exists() else [
        sys.executable, "-c", "import sys; from babel.messages.frontend import main; sys.exit(main())"]
    subprocess.run([*command, "-q", *args], cwd=ROOT, check=True)


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / "messages.po"


def languages() -> list[str]:
    return sorted(p.name for p in LOCALES.iterdir() if (p / "LC_MESSAGES" / "messages.po").is_file())


def old_dicts() -> dict[str, Path]:
    return {p.stem: p for p in LOCALES.glob("*.py") if p.stem != "__init__" and len(p.stem) <= 5}


def derived(lang: str, messages: dict[str, str]) -> dict[str, str]:
    """The messages of today's keys that an old dict wrote under earlier keys."""
    out: dict[str, str] = {}
    for unit in ("second", "minute", "hour"):
        one, more = messages.get(f"duration-{unit}"), messages.get(f"duration-{unit}s")
        if one and more and one.startswith("{n} ") and more.startswith("{n} "):
            out[f"duration-{unit}"] = f"{{n}} {{n!p:{one[4:]}|{more[4:]}}}"
    name = messages.get(f"language-{lang}")
    if name:
        out["language-name"] = name
    greeting = messages.get("greeting-languages", "")
    for part in greeting.replace("\n", " · ").split(" · "):
        if part.strip().endswith(f"/set lang {lang}"):
            out["greeting-language"] = part.strip()[:-len(lang)] + "{code}"
    for key in ("cmd-set", "cmd-set-help"):
        if key in messages:
            value = messages[key].replace("de|en|fr|es|da", "{languages}")
            out[key] = re.sub(r"English,\s+Deutsch,\s+Français,\s+Español,\s+Dansk",
                              "{language_names}", value)
    if messages.get("setting-lang"):
        out["setting-lang"] = messages["setting-lang"].replace("de|en|fr|es|da", "{choices}")
    return out


def fuzzy_by_key(lang: str, po: Path | None = None) -> int:
    """A message whose English changed: its old translation (now obsolete, under the same key)
    comes back marked fuzzy; the number of such."""
    from babel.messages.pofile import read_po, write_po

    po = po or po_path(lang)
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    old = {m.context: (msgid, m) for msgid, m in catalog.obsolete.items() if m.context}
    found = 0
    for message in catalog:
        if not message.id or message.string or message.context not in old:
            continue
        msgid, previous = old.pop(message.context)
        message.string = previous.string
        message.flags.add("fuzzy")
        del catalog.obsolete[msgid]
        found += 1
    if found:
        with po.open("wb") as f:
            write_po(f, catalog, width=76, no_location=True)
    return found


def take_over(lang: str, path: Path) -> int:
    """Merge the old dict of ``lang`` into its PO; the number of messages taken."""
    from babel.messages.pofile import read_po, write_po

    messages = dict(runpy.run_path(str(path))["MESSAGES"])
    messages.update(derived(lang, messages))
    po = po_path(lang)
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    taken = 0
    for message in catalog:
        key = message.context
        if not message.id or key not in messages:
            continue
        if message.string != messages[key] or message.fuzzy:
            message.string = messages[key]
            message.flags.discard("fuzzy")
            taken += 1
    with po.open("wb") as f:
        write_po(f, catalog, width=76, no_location=True)
    return taken


def run(add: list[str], keep_dicts: bool) -> None:
    pybabel("extract", *EXTRACT_ARGS, "-o", str(TEMPLATE.relative_to(ROOT)), ".")
    dicts = old_dicts()
    for lang in sorted({*add, *dicts}):
        if not po_path(lang).exists():
            pybabel("init", "-D", "messages", "-i", str(TEMPLATE), "-d", str(LOCALES), "-l", lang,
                    "--width=76")
    # Babel's own fuzzy matching compares the English alone, across keys (it offered the
    # translation of game-grand to game-grand-no); the key is what says "the same message", so
    # the old translation of the same msgctxt is taken, marked fuzzy (fuzzy_by_key)
    pybabel("update", "-D", "messages", "-i", str(TEMPLATE), "-d", str(LOCALES),
            "--width=76", "--no-fuzzy-matching")
    for lang in languages():
        fuzzy_by_key(lang)
    for lang, path in sorted(dicts.items()):
        taken = take_over(lang, path)
        print(f"{lang}: {taken} messages taken over from {path.relative_to(ROOT)}")
        if not keep_dicts:
            path.unlink()
    pybabel("compile", "-D", "messages", "-d", str(LOCALES), "--statistics")


def check() -> int:
    """1 when running this script would change the template's messages, a PO's messages or a
    .mo (the dates in the headers aside)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    def messages(path: Path) -> list[tuple]:
        with path.open("rb") as f:
            catalog = read_po(f)
        return [(m.context, m.id, m.string, sorted(m.flags), m.auto_comments) for m in catalog if m.id]

    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "messages.pot"
        pybabel("extract", *EXTRACT_ARGS, "-o", str(out), ".")
        if not TEMPLATE.exists() or messages(out) != messages(TEMPLATE):
            stale.append(str(TEMPLATE.relative_to(ROOT)))
    for lang in languages():
        po = po_path(lang)
        with po.open("rb") as f:
            catalog = read_po(f, locale=lang)
        buffer = io.BytesIO()
        write_mo(buffer, catalog)
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != buffer.getvalue():
            stale.append(str(mo.relative_to(ROOT)))
    for path in stale:
        print(f"not fresh: {path} (python scripts/catalogs.py makes it)", file=sys.stderr)
    return 1 if stale else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--add", action="append", default=[], metavar="LANG",
                        help="start the PO of a new language LANG (a CLDR code: pl, cs, pt_BR)")
    parser.add_argument("--keep-dicts", action="store_true",
                        help="keep lobby/text/locales/LANG.py after taking it over")
    parser.add_argument("--check", action="store_true", help="only check that all is fresh")
    args = parser.parse_args()
    os.chdir(ROOT)
    if args.check:
        return check()
    run(args.add, args.keep_dicts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
