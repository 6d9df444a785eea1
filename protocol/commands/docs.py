"""The generated reference: the commands, the table options and the error codes as Markdown,
and the generated sections of docs/protocol.md.

``python -m protocol.commands --markdown`` prints the reference (``--options`` the table options,
``--errors`` the error codes); ``--write-docs [FILE]`` regenerates the generated sections of
docs/protocol.md (a test fails when they are stale).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from lobby.tables import options as table_options
from lobby.text.messages import ERRORS
from protocol.commands import COMMANDS
from protocol.commands.base import CommandTable

__all__ = ["SECTIONS", "commands_markdown", "errors_markdown", "generated_sections", "main",
           "options_markdown", "regenerate", "update_docs"]


def commands_markdown(table: CommandTable = COMMANDS) -> str:
    """The command reference (Markdown), generated from the table."""
    out = ["| command | summary |", "| --- | --- |"]
    out += [f"| `{c.usage}` | {c.summary} |" for c in table]
    for c in table:
        out += ["", f"### /{c.name}", "", f"Usage: `{c.usage}`"]
        if c.aliases:
            out += ["", "Aliases: " + ", ".join(f"`/{a}`" for a in c.aliases)]
        # (a backslash of the plain help text stays one in Markdown: \\; is shown as \;)
        out += ["", " ".join((c.help or c.summary).split()).replace("\\", "\\\\")]
    return "\n".join(out) + "\n"


def errors_markdown() -> str:
    """Every error code of the catalog with its English text (Markdown), generated."""
    out = ["| code | message |", "| --- | --- |"]
    for code in sorted(ERRORS):
        message = ERRORS[code].replace("|", "\\|")
        out.append(f"| `{code}` | {message} |")
    return "\n".join(out) + "\n"


def options_markdown() -> str:
    """The table options (Markdown), generated from their declaration (lobby/tables/options.py)."""
    return table_options.options_markdown()


SECTIONS: dict[str, Callable[[], str]] = {"options": options_markdown,
                                          "commands": commands_markdown, "errors": errors_markdown}
DOCS = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def _markers(section: str) -> tuple[str, str]:
    return (f"<!-- BEGIN GENERATED {section}: python -m protocol.commands --write-docs -->",
            f"<!-- END GENERATED {section} -->")


def generated_sections(doc: str) -> dict[str, str]:
    """The current contents of the generated sections of a document."""
    found = {}
    for section in SECTIONS:
        begin, end = _markers(section)
        if begin in doc and end in doc:
            found[section] = doc.split(begin, 1)[1].split(end, 1)[0].strip("\n") + "\n"
    return found


def regenerate(doc: str) -> str:
    """``doc`` with every generated section rewritten (appended at the end if missing)."""
    for section, make in SECTIONS.items():
        begin, end = _markers(section)
        block = f"{begin}\n{make()}{end}"
        if begin in doc and end in doc:
            head, tail = doc.split(begin, 1)
            doc = head + block + tail.split(end, 1)[1]
        else:
            doc = doc.rstrip("\n") + "\n\n" + block + "\n"
    return doc


def update_docs(path: Path = DOCS) -> bool:
    """Rewrite the generated sections of ``path``; True if the file changed."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# Protocol\n"
    new = regenerate(old)
    if new != old:
        path.write_text(new, encoding="utf-8")
    return new != old


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m protocol.commands",
                                     description="The command reference, generated from the table.")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--markdown", action="store_true", help="print the command reference")
    group.add_argument("--errors", action="store_true", help="print the error code list")
    group.add_argument("--options", action="store_true", help="print the table options")
    group.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="FILE",
                       help="regenerate the generated sections of docs/protocol.md")
    opts = parser.parse_args(argv)
    if opts.markdown:
        sys.stdout.write(commands_markdown())
    elif opts.errors:
        sys.stdout.write(errors_markdown())
    elif opts.options:
        sys.stdout.write(options_markdown())
    else:
        changed = update_docs(Path(opts.write_docs))
        sys.stdout.write(f"{opts.write_docs}: {'updated' if changed else 'up to date'}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
