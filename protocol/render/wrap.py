"""Text lines -> lines that fit a terminal width: the one wrap rule of every text-mode line.

The session (protocol/connection/session.py) wraps every line it writes in text mode to the connection's
width (``RenderContext.width``: the client's NAWS width, ``/set width N``, or 80), speech and
whispers of users included; machine mode (JSON lines) is never wrapped. The rule
(docs/protocol.md, "Line width"):

- The width of a line is what the terminal shows: ANSI escape sequences (``/set color on``) take
  no column, characters (not bytes) are counted, East Asian wide and fullwidth characters take
  two columns, combining marks none, and a grapheme cluster (an emoji ZWJ sequence, a flag)
  as many as it shows (protocol/render/graphemes.py).
- No line fills the terminal's last column (``columns``: a terminal that wraps eagerly would
  show a blank line after it): "the width" below is the connection's width less one.
- A line wider than the width is broken at spaces (the spaces at a break are dropped); each
  continuation line starts with the line's own leading spaces plus two more (the hanging indent,
  ``HANGING_INDENT``). A word is never split, so a card (``R10``, ``Ph=7``) always stays whole;
  only a single word wider than the whole line (a long URL) is cut to the width, between two
  grapheme clusters (never inside a letter with its combining marks or an emoji sequence).
  The space before French punctuation (``Exemple :``, ``vraiment ?``, ``»``) and after ``«``
  is no break, nor the space after a French spaced colon (``Souhait : As``), nor the spaces of
  a score (``70 : 30``) and the one before a one-word aside in parentheses
  (``/dragon right (Bot1)``), nor the spaces between a command and its arguments (``/dragon
  gauche``, ``/room 1``, ``/set lang da``: up to three words after a ``/command``, in at most
  32 columns, each a number, a placeholder or a lower-case word, after the first one of at most
  three letters). A label of several words at a line's start (``Points des
  cartes :``) stays one unit where it fits, and the line breaks after it (``_label_end``).
  ``/option help`` continues a description under its description
  column (``wrap_column``).
- ``/listroom``'s line of a table's seats is not wrapped but packed (``pack_seats``): the
  table's head, then the seats (``2 Bot1``), broken between two seats only, so that a seat's
  number never parts from its name; each continuation line starts with the details' indent.
  The names are cut only where a seat does not fit a line of its own (``seats_packed``, the
  one rule of a seats listing, /spielinfo's too): a bot's name may lose its strategy
  (``Bot1~heuristic`` -> ``Bot1``) where that takes fewer lines; only then the longest names
  are shortened to ``Bot1~he…`` (a cut name always ends in ``…``); the full names are in
  ``/who``, ``/spielinfo`` and the game's start line.
- The table view names each player in one form on a screen (``name_forms`` gives the forms,
  longest first; protocol/render/table.py ``screen_names`` chooses one per table, language and
  width). Its seats and players lines are never shortened further but broken between two
  seats only (``break_seats``), so a seat's number never parts from its name.
- A line that holds ``LINE_BREAK`` (``"\\n"``) is one logical line of several physical lines
  (``break_seats``: a seats line broken between two seats): ``wrap_lines`` writes each piece
  on a line of its own, and whoever shows only the lines that changed (the table view's
  update, protocol/render/table.py ``TableFeed``) shows or leaves out all its pieces at once.
- A person's words (speech, tells: ``wrap_speech``) are wrapped the same way, but each
  continuation line starts with the hanging indent and ``SPEECH_MARK`` (``  | ``), which no
  line of the server starts with: whatever somebody types (``! [kicked] ...``, ``*** ...``,
  ``NAME tells you: ...``), a piece of it that lands at the start of a line can never look
  like a line of the server's own (issue 23, item 8).
- ``wrap_prompt`` wraps a prompt the same way and keeps its end (``login: ``, the trailing space
  included) whole on the last line, where the answer is typed.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from lobby.tichu import memo as _memo
from protocol.render import graphemes as _graphemes

__all__ = ["HANGING_INDENT", "ELLIPSIS", "LINE_BREAK", "MIN_NAME", "SPEECH_INDENT", "SPEECH_MARK",
           "abbreviate", "columns", "break_seats", "fit_names", "name_forms", "pack_seats", "seats_packed",
           "visible_width",
           "wrap_column", "wrap_line", "wrap_lines", "wrap_prompt", "wrap_speech"]

#: a seat's number and the space after it (``>2 Bot1``): kept with the name by a no-break space
#: where a seat's piece is wider than a whole line (``break_seats``)
_SEAT_NUMBER = re.compile(r"((?:^|[ >|])[1-4]) (?=\S)")
#: the extra indent of a continuation line
HANGING_INDENT = "  "
#: what parts the physical lines of one logical line (``break_seats``): shown as one unit
LINE_BREAK = "\n"

#: the mark after the hanging indent of a continuation line of a person's words: no line of the
#: server starts with it, nor with the hanging indent and it (tests/e2e/test_width.py checks the
#: catalog), so a reader always knows such a line for a piece of somebody's words
SPEECH_MARK = "| "
#: how every continuation line of a person's words starts, at every width (20 columns at least)
SPEECH_INDENT = HANGING_INDENT + SPEECH_MARK

#: an ANSI escape sequence (CSI ... final byte; the server writes only SGR colours)
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]")
_ANSI_SPLIT = re.compile(r"(\x1b\[[0-?]*[ -/]*[@-~])")
#: the characters that make a grapheme cluster's width differ from the sum of its characters'
#: (ZWJ, VS16, emoji modifiers, regional indicators, Hangul medial and final jamo)
_JOINING = re.compile("[\u200d\ufe0f\U0001F3FB-\U0001F3FF\U0001F1E6-\U0001F1FF"
                      "\u1160-\u11ff\ud7b0-\ud7ff]")
#: text whose every character takes one column and is a cluster of its own: printable ASCII,
#: Latin-1 but the soft hyphen, Latin Extended-A and -B, the dashes, quotes and the ellipsis of
#: General Punctuation (what the catalogs' languages write; tests/e2e/test_width.py checks
#: each against graphemes.char_width)
_ONE_COLUMN = re.compile("[ -~\u00a0-\u00ac\u00ae-\u024f\u2010-\u2027]*")
_SPACES = re.compile(r"( +)")
#: words that stay on the line of the word before them (French spacing: ``mot :``, ``« mot »``)
_GLUED_AFTER = frozenset(":;!?»")
_GLUED_BEFORE = "«"
#: a score stays whole (``70 : 30``): a number after a number and its lone colon
_NUMBER = re.compile(r"-?\d+")
_SCORE_HEAD = re.compile(r"(?:^|\s)-?\d+ :$")
#: what joins the two names of a team (``Ann+Cat``): a team's score stays whole
TEAM_MARK = "+"
#: the most words of a line's label (``Score après la manche 1 :``), kept as one unit
_LABEL_WORDS = 6
#: a one-word aside stays with the word it is about (``/dragon right (Bot1~heuristic)``)
_ONE_WORD_ASIDE = re.compile(r"\([^()\s]+\)[.,;:!?]?")
#: a command as a message writes it (``/dragon``, ``(/tichu``): its arguments stay with it
_COMMAND = re.compile(r"[(«\"'`]?/[^\W\d_][\w-]*")
#: at most so many words after a command are its arguments, in at most so many columns
_COMMAND_ARGS = 3
_COMMAND_UNIT = 32


def _is_argument(word: str, first: bool) -> bool:
    """A word that reads as a command's argument (``1``, ``gauche``, ``da``, ``CARDS``,
    ``[SEAT]``): a number, a lower-case word (after the first argument one of at most three
    letters), or an upper-case placeholder; not a capitalised word of the sentence (``Tichu``,
    ``Tape``)."""
    core = word.rstrip(".,;:!?)]»")
    core = core[1:] if core.startswith("[") else core
    if not core:
        return False
    if core.isdigit() or (core[0].islower() and (first or len(core) <= 3)):
        return True
    letters = core.replace("_", "").replace(".", "")
    return len(letters) >= 2 and letters.isupper()



#: a character -> the columns it takes (bounded; one of lobby.tichu.memo's)
_CHAR_WIDTH: _memo.BoundedMemo[int] = _memo.BoundedMemo(4096)


def _char_width(char: str) -> int:
    width = _CHAR_WIDTH.find(char) if _memo.ON else None
    if width is None:
        width = _graphemes.char_width(char)
        _CHAR_WIDTH.put(char, width)
    return width


def visible_width(text: str) -> int:
    """The columns ``text`` takes on a terminal (ANSI escapes take none, wide characters two,
    a grapheme cluster such as an emoji ZWJ sequence or a flag as many as it shows)."""
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if text.isascii() or _ONE_COLUMN.fullmatch(text):
        return len(text)
    if _JOINING.search(text) is not None:   # a cluster wider or narrower than its characters
        return sum(_graphemes.cluster_width(c) for c in _graphemes.clusters(text))
    return sum(_char_width(c) for c in text)


def _cut(word: str, room: int) -> tuple[str, str]:
    """``word`` (wider than ``room``) -> the head that fits ``room`` columns and the rest; an
    ANSI escape is never cut, nor a grapheme cluster (a letter and its combining marks, an
    emoji sequence). Words glued by French spacing part at a space first."""
    space = word.rfind(" ")
    while space > 0:
        if visible_width(word[:space]) <= room:
            return word[:space], word[space:].lstrip(" ")
        space = word.rfind(" ", 0, space)
    used = 0
    i = 0
    for piece in _ANSI_SPLIT.split(word):
        if not piece:
            continue
        if piece[0] == "\x1b" and _ANSI.fullmatch(piece):
            i += len(piece)
            continue
        for cluster in _graphemes.clusters(piece):
            w = _graphemes.cluster_width(cluster)
            if used + w > room and used > 0:
                return word[:i], word[i:]
            used += w
            i += len(cluster)
    return word[:i], word[i:]


def columns(width: int) -> int:
    """The columns a line may take on a terminal ``width`` columns wide: all but the last, so
    that no line fills the last column (a terminal that wraps eagerly would show a blank line
    after it)."""
    return max(1, width - 1)


def wrap_line(line: str, width: int) -> list[str]:
    """``line`` as one or more lines no wider than ``columns(width)`` (see the module's rule)."""
    if LINE_BREAK in line:
        return wrap_lines([line], width)
    return _wrap(line, columns(width))


def wrap_column(line: str, width: int, column: int) -> list[str]:
    """``line`` wrapped like ``wrap_line``, its continuation lines indented to ``column`` (a
    table's description column: ``/option help``) where that leaves half the width, else by
    the usual hanging indent."""
    return _wrap(line, columns(width), column)


def wrap_speech(lines: list[str], width: int) -> list[str]:
    """The lines of a person's words (``says``, ``tells``, ``told``) wrapped like ``wrap_lines``,
    each continuation line starting with ``SPEECH_INDENT`` (the hanging indent and
    ``SPEECH_MARK``), so that no piece of what somebody typed can start a line as if the
    server wrote it."""
    width = columns(width)
    out: list[str] = []
    for line in lines:
        out.extend(_wrap(line, width, indent=SPEECH_INDENT))
    return out


def _wrap(line: str, width: int, column: int | None = None,
          indent: str | None = None) -> list[str]:
    if len(line) <= width and (line.isascii() or visible_width(line) <= width):
        return [line]
    if visible_width(line) <= width:
        return [line]
    stripped = line.lstrip(" ")
    lead = line[:len(line) - len(stripped)]
    if indent is None:
        indent = lead + HANGING_INDENT if column is None else " " * column
        if len(indent) > width // 2:            # a deeply indented line on a narrow screen
            indent = HANGING_INDENT
    # words at even, space runs at odd indexes
    pieces = _glue(_SPACES.split(stripped), width - len(lead))
    out: list[str] = []
    current, used, fresh = lead, len(lead), True
    for k in range(0, len(pieces), 2):
        word = pieces[k]
        if not word:
            continue
        gap = pieces[k - 1] if k > 0 and not fresh else ""
        w = visible_width(word)
        if used + len(gap) + w <= width:
            current += gap + word
            used += len(gap) + w
            fresh = False
            continue
        if not fresh:                        # break here: the gap is dropped
            out.append(current)
            current, used, fresh = indent, len(indent), True
        while used + w > width:              # one word wider than a whole line: cut it
            head, word = _cut(word, width - used)
            out.append(current + head)
            current, used = indent, len(indent)
            w = visible_width(word)
        if word:
            current += word
            used += w
            fresh = False
    if not fresh or not out:
        out.append(current)
    return out


def _label_end(pieces: list[str]) -> int | None:
    """The index of the word that ends the line's label (``Card points:``, ``Points des
    cartes :``: at most ``_LABEL_WORDS`` words from the line's start, no sentence, the last
    ending in a colon, and more than one word after it), or None."""
    for k in range(0, min(len(pieces), 2 * _LABEL_WORDS), 2):
        word = pieces[k]
        if word == ":" and k > 1 and _NUMBER.fullmatch(pieces[k - 2]) and (
                k + 2 < len(pieces) and _NUMBER.fullmatch(pieces[k + 2])):
            return None                        # a score (``0 : 0``), not a label
        if word.endswith(":") and not word.startswith(("/", "<", "http")):
            # a label of several words, with a value of several words after it
            return k if k > 0 and len(pieces) >= k + 5 else None
        if word[-1:] in ".,;!?()" or word == "|":
            return None                        # a sentence, not a label
    return None


def _glue(pieces: list[str], width: int | None = None) -> list[str]:
    """Words and space runs (``_SPACES.split``) with French punctuation joined to its word, a
    score's two numbers (``70 : 30``) kept together and a one-word aside in parentheses joined
    to the word before it. A label of several words at the line's start (``Points des
    cartes :``) is one unit when it fits in ``width``, and the line may break after it."""
    out: list[str] = []
    k = 0
    team_next = False
    after_label = False
    end = _label_end(pieces) if width is not None else None
    if end is not None and width is not None and visible_width("".join(pieces[:end + 1])) <= width:
        out.append("".join(pieces[:end + 1]))
        k = end + 2
        after_label = True
    args = 0                                   # arguments a command may still take
    while k < len(pieces):
        word = pieces[k]
        score = bool(out and word and _NUMBER.fullmatch(word) and _SCORE_HEAD.search(out[-1]))
        colon = out and out[-1].endswith(" :") and not after_label   # French "Souhait : As"
        after_label = False
        # a command and its arguments (``/dragon gauche``, ``/room 1``, ``/set lang da``)
        # (a second or third only where it is short, a number or a placeholder: ``/set lang
        # da``, ``/option round 1``, not ``/option help lists``)
        argument = bool(args and word and _is_argument(word, args == _COMMAND_ARGS)
                        and visible_width(out[-1] + pieces[k - 1] + word) <= _COMMAND_UNIT)
        if out and word and (score or (word[0] in _GLUED_AFTER and len(word) <= 2)
                             or out[-1] == _GLUED_BEFORE
                             or (team_next and TEAM_MARK in word)
                             or _ONE_WORD_ASIDE.fullmatch(word)
                             or colon or argument):
            out[-1] += pieces[k - 1] + word    # the space before it stays, as no break
            args = args - 1 if argument and word[-1].isalnum() else 0
            team_next = False
            if score and len(out) >= 3 and TEAM_MARK in out[-3]:
                # a team's score (``A+C 70 : 30 B+D``): both teams stay with their figures;
                # where that is wider than a continuation line (long names on a narrow
                # screen), the second team may go to the next line (``A+C 70 : 30`` / ``B+D``)
                merged = out[-3] + out[-2] + out[-1]
                nxt = pieces[k + 2] if k + 2 < len(pieces) and TEAM_MARK in pieces[k + 2] else ""
                whole = merged + (pieces[k + 1] + nxt if nxt else "")
                out[-3:] = [merged]
                team_next = width is None or visible_width(HANGING_INDENT + whole) <= width
        else:
            team_next = False
            if out:
                out.append(pieces[k - 1])
            out.append(word)
            args = _COMMAND_ARGS if _COMMAND.fullmatch(word) else 0
        k += 2
    return out


def wrap_lines(lines: list[str], width: int) -> list[str]:
    """Every line of ``lines`` wrapped to ``width`` (a line of its own for each piece)."""
    width = columns(width)
    out: list[str] = []
    for line in lines:
        if LINE_BREAK in line:                 # one logical line of several (break_seats)
            for piece in line.split(LINE_BREAK):
                out.extend(_wrap(piece, width))
        elif len(line) <= width and (line.isascii() or _ONE_COLUMN.fullmatch(line)):
            out.append(line)
        else:
            out.extend(_wrap(line, width))
    return out


def wrap_prompt(prompt: str, width: int) -> list[str]:
    """A prompt (no line end) wrapped like a line: the lines before the last get line ends, the
    last one is the prompt itself, written without one. The prompt's last clause (after its
    last ``, `` or ``. ``: ``or type another name: ``) is kept whole on that last line when it
    fits, with the prompt's trailing spaces (the cursor waits after them)."""
    width = columns(width)
    if visible_width(prompt) <= width:
        return [prompt]
    body = prompt.rstrip(" ")
    tail = prompt[len(body):]
    cut = max(body.rfind(", "), body.rfind(". "), body.rfind("? "))
    clause = HANGING_INDENT + body[cut + 2:] + tail
    if cut > 0 and visible_width(clause) <= width:
        return [*_wrap(body[:cut + 1], width), clause]
    lines = _wrap(body, max(1, width - len(tail)))
    lines[-1] += tail
    return lines


#: what joins a bot's name and its strategy (lobby/bots/player.py BOT_MARK: ``Bot1~heuristic``)
BOT_MARK = "~"
#: the mark of an abbreviated name (one column)
ELLIPSIS = "\u2026"
#: the shortest an abbreviated name gets, its ELLIPSIS included
MIN_NAME = 4


def abbreviate(name: str, length: int) -> str:
    """``name`` cut to ``length`` characters, the last one ELLIPSIS (``Bot1~heuristic``, 7 ->
    ``Bot1~h…``); a name of at most ``length`` characters as it is. A character here is a
    grapheme cluster (a letter with its combining marks): never cut inside one."""
    if len(name) <= length:
        return name
    if not name.isascii():
        parts = list(_graphemes.clusters(name))
        if len(parts) <= length:
            return name
        return "".join(parts[:max(1, length - 1)]) + ELLIPSIS
    return name[:max(1, length - 1)] + ELLIPSIS


def fit_names(names: list[Any], build: Callable[[list[Any]], str], width: int) -> str:
    """``build(names)`` (a line naming the seats; None for an empty seat), with the longest
    names abbreviated just enough for the line to fit ``width`` columns, none below MIN_NAME
    characters and no two names alike; as close as it gets when it cannot fit. Like every line,
    it leaves the terminal's last column free (``columns``)."""
    width = columns(width)
    line = build(names)
    if visible_width(line) <= width:
        return line
    # a bot's name without its strategy first (``Bot1~heuristic`` -> ``Bot1``): shorter than
    # any abbreviation of it, and still the name /finger and /tell take
    bare = [n.split(BOT_MARK, 1)[0] if isinstance(n, str) and BOT_MARK in n[1:] else n
            for n in names]
    if bare != names and len(set(n for n in bare if isinstance(n, str))) == len(
            set(n for n in names if isinstance(n, str))):
        names = bare
        line = build(names)
        if visible_width(line) <= width:
            return line
    longest = max((len(n) for n in names if isinstance(n, str)), default=0)
    for length in range(longest - 1, MIN_NAME - 1, -1):
        short = [abbreviate(n, length) if isinstance(n, str) else n for n in names]
        given = [n for n in short if isinstance(n, str)]
        if len(set(given)) < len(set(n for n in names if isinstance(n, str))):
            break                           # two names would read alike: keep the last line
        line = build(short)
        if visible_width(line) <= width:
            break
    return line


def name_forms(names: list[Any]) -> list[list[Any]]:
    """The forms the names of a table may take on a narrow screen, longest first: the names
    as they are, a bot's name without its strategy (``Bot1``), then the longest names cut to
    ``MIN_NAME`` characters at least (``abbreviate``); no form where two names read alike.
    None (an empty seat) stays None."""
    forms = [names]
    given = len(set(n for n in names if isinstance(n, str)))
    bare = [n.split(BOT_MARK, 1)[0] if isinstance(n, str) and BOT_MARK in n[1:] else n
            for n in names]
    if bare != names and len(set(n for n in bare if isinstance(n, str))) == given:
        forms.append(bare)
        names = bare
    longest = max((len(n) for n in names if isinstance(n, str)), default=0)
    for length in range(longest - 1, MIN_NAME - 1, -1):
        short = [abbreviate(n, length) if isinstance(n, str) else n for n in names]
        if len(set(n for n in short if isinstance(n, str))) < given:
            break                           # two names would read alike
        if short != forms[-1]:
            forms.append(short)
    return forms


def break_seats(names: list[Any], build: Callable[[list[Any]], str], width: int,
                sep: str) -> str:
    """``build(names)`` with the names as given (one form per screen: no name is shortened
    here), broken between two seats only where it does not fit ``width``: one logical line,
    its pieces joined by ``LINE_BREAK``, each continuation starting with ``HANGING_INDENT``,
    the separator's ``|`` ending the line it breaks. A piece still too wide for a line of its
    own keeps its seat's number with the name (a no-break space between them)."""
    room = columns(width)
    line = build(names)
    if visible_width(line) <= room:
        return line
    parts = line.split(sep)
    mark = sep.rstrip()
    out: list[str] = []
    current = parts[0]
    last = len(parts) - 1
    for k, part in enumerate(parts[1:], 1):
        # the line with this seat fits, and so does its ``|`` where another seat follows
        if visible_width(current + sep + part + (mark if k < last else "")) <= room:
            current += sep + part
        else:
            out.append(current + mark)
            current = HANGING_INDENT + part.lstrip(" ")
    out.append(current)
    return LINE_BREAK.join(_SEAT_NUMBER.sub("\\1\u00a0", piece)
                           if visible_width(piece) > room else piece for piece in out)


def seats_packed(head: str, names: list[Any], width: int, indent: str, sep: str = " | ",
                 tail: str = "", cut: bool = True) -> str:
    """The one rule of a listing of a table's seats after ``head`` (``/listroom``, ``/spielinfo``):
    the seats (``1 Ann``) packed by ``pack_seats`` (broken between two seats only, a seat's
    number never parted from its name), ``tail`` after the last. The names are never cut while
    each seat fits a line of its own: of the forms without a cut name (the names, a bot's
    name without its strategy, ``Bot1``) the one that takes the fewest lines, the longest of
    those; only when no such form fits (a seat wider than a line of its own) the longest form
    with cut names that fits (``name_forms``; with ``cut`` False none: ``/spielinfo`` shows the
    full names). When nothing fits, the seats joined with a no-break space between each
    number and its name, for the wrap to take over."""
    forms = name_forms(list(names)) if cut else [list(names)]

    def packed(shown: list[Any]) -> str | None:
        seats = [f"{i + 1} {n or '-'}" for i, n in enumerate(shown)]
        if seats:
            seats[-1] += tail
        return pack_seats(head, seats, width, indent, sep)

    whole = [f for f in forms
             if not any(isinstance(n, str) and n.endswith(ELLIPSIS) and n not in names for n in f)]
    fitting = [line for line in map(packed, whole) if line is not None]
    if fitting:
        return min(fitting, key=lambda line: line.count(LINE_BREAK))
    for shown in forms[len(whole):]:
        line = packed(shown)
        if line is not None:
            return line
    return head + sep.join(f"{i + 1}\u00a0{n or '-'}" for i, n in enumerate(forms[-1])) + tail


def pack_seats(head: str, seats: list[str], width: int, indent: str,
               sep: str = " | ") -> str | None:
    """``head`` and the ``seats`` (``1 Ann``, each one unit) joined by ``sep``, broken between two
    seats only where the line does not fit ``width``: one logical line, its pieces joined by
    ``LINE_BREAK``, each continuation starting with ``indent``, the separator's ``|`` ending the
    line it breaks (a line that ends with the head alone ends without it). None when a seat
    does not fit a line of its own (the caller takes shorter names)."""
    room = columns(width)
    mark = sep.rstrip()
    if not seats:
        return head.rstrip()
    last = len(seats) - 1
    out: list[str] = []
    current = head + seats[0]
    if visible_width(current + (mark if last else "")) > room:
        out.append(head.rstrip())
        current = indent + seats[0]
    for k, seat in enumerate(seats[1:], 1):
        if visible_width(current + sep + seat + (mark if k < last else "")) <= room:
            current += sep + seat
        else:
            out.append(current + mark)
            current = indent + seat
    out.append(current)
    if any(visible_width(piece) > room for piece in out):
        return None
    return LINE_BREAK.join(out)
