"""The server's log: level, format (text or JSON lines) and file with rotation.

``tichu-lobby`` takes ``--log-level``, ``--log-format``, ``--log-file`` and the rotation options
below (``add_log_options``); ``start_logging`` begins twisted.logger's global logging with them.
``twist tichu-lobby`` has Twisted's own ``--log-level``, ``--log-format`` and ``--log-file``
before the plugin name; the same options of ours after it override them (``apply_to_twist``),
so rotation works there too. docs/operations.md, "Logs", describes every option.

- text: twisted.logger's text observer, one line per event (``2026-12-01T11:00:00+0000
  [protocol.server#info] listening on ...``), the default.
- json: one JSON object per line (no RFC 7464 record separator, so that ``jq`` and log shippers
  read it as JSON lines; ``twisted.logger.eventsFromJSONLogFile`` reads them too): ``time`` (ISO
  8601, UTC: ``2026-12-01T11:00:00.123Z``), ``level`` (``info``...), ``namespace``, ``message``
  (the rendered text), ``exception`` (the whole traceback, when the event carries a failure), the
  event's own fields (``endpoint``, ``address``, ...; a value JSON cannot hold as its text) and
  twisted.logger's own keys (``log_level``, ``log_namespace``, ``log_format``, ``log_time``, ...).
- ``--log-file PATH``: appended to; rotated when it reaches ``--log-rotate-bytes`` (PATH becomes
  PATH.1, PATH.1 becomes PATH.2, ..., at most ``--log-rotate-keep`` old files are kept) or, with
  ``--log-rotate-daily``, at the first write after midnight (PATH.YYYY-MM-DD, names that sort by
  date; the newest ``--log-rotate-keep`` are kept, ``0`` keeps every one).
  SIGHUP reopens it (``reopen_on_sighup``): an external logrotate that renamed it gets a new file.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

from twisted.logger import (
    FileLogObserver,
    FilteringLogObserver,
    ILogObserver,
    Logger,
    LogLevel,
    LogLevelFilterPredicate,
    eventAsJSON,
    formatEvent,
    globalLogBeginner,
    textFileLogObserver,
)
from twisted.python.logfile import DailyLogFile, LogFile

from protocol.option_fields import add_options, option
from protocol.process import hold

__all__ = ["DEFAULT_LEVEL", "DEFAULT_FORMAT", "DEFAULT_ROTATE_BYTES", "DEFAULT_ROTATE_KEEP",
           "LEVELS", "FORMATS", "add_log_options", "open_log_file", "observer_factory",
           "make_observer", "start_logging", "apply_to_twist", "given_log_options"]

LEVELS = tuple(level.name for level in LogLevel.iterconstants())   # debug info warn error critical
FORMATS = ("text", "json")
DEFAULT_LEVEL = "info"
DEFAULT_FORMAT = "text"
DEFAULT_ROTATE_BYTES = 10_000_000
DEFAULT_ROTATE_KEEP = 10
#: the mode of a log file the server creates (it may name addresses: not for everybody)
LOG_FILE_MODE = 0o640

_log = Logger(namespace="protocol.logs")

#: the log files this process opened (SIGHUP reopens them)
_opened: list[Any] = []

#: the options of ours and their attribute names (None: not given, the default applies)
_OPTIONS = ("log_level", "log_format", "log_file", "log_rotate_bytes", "log_rotate_keep",
            "log_rotate_daily")


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `minimum` (the server's options use it)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, not {value}")
        return value
    return parse


@dataclass(frozen=True)
class LogOptions:
    """The log options; each is None when not given, so that ``twist`` keeps its own then
    (``apply_to_twist``) and ``start_logging`` applies the default."""

    log_level: str | None = option(
        None, choices=LEVELS, metavar="LEVEL",
        help=f"the least important events logged: {', '.join(LEVELS)} (default {DEFAULT_LEVEL})")
    log_format: str | None = option(
        None, choices=FORMATS,
        help=f"text: one line per event; json: one JSON object per line, the event's fields as "
             f"keys (default {DEFAULT_FORMAT})")
    log_file: str | None = option(
        None, metavar="PATH",
        help="append the log to this file, rotated by size (or daily), instead of writing it to "
             "the standard output")
    log_rotate_bytes: int | None = option(
        None, parse=whole_number(0), metavar="BYTES",
        help=f"rotate --log-file when it reaches this size: PATH becomes PATH.1, PATH.1 becomes "
             f"PATH.2, ... (default {DEFAULT_ROTATE_BYTES:,}; 0: never by size)")
    log_rotate_keep: int | None = option(
        None, parse=whole_number(0), metavar="N",
        help=f"old log files kept, PATH.1 .. PATH.N (or the newest N PATH.YYYY-MM-DD with "
             f"--log-rotate-daily); older ones are removed (default {DEFAULT_ROTATE_KEEP}; 0: "
             f"keep every one)")
    log_rotate_daily: bool | None = option(
        None,
        help="rotate --log-file at the first write after midnight (local time) instead of by "
             "size: PATH becomes PATH.YYYY-MM-DD; --log-rotate-keep of them are kept")


def add_log_options(parser: argparse.ArgumentParser) -> None:
    """``--log-level``, ``--log-format``, ``--log-file`` and the rotation options (``LogOptions``)."""
    add_options(parser.add_argument_group("logging (docs/operations.md, Logs)"), LogOptions)



def given_log_options(opts: argparse.Namespace) -> list[str]:
    """The logging options given on the command line (as ``--log-...`` names)."""
    return ["--" + name.replace("_", "-") for name in _OPTIONS
            if getattr(opts, name, None) is not None]


def check_log_options(opts: argparse.Namespace) -> str | None:
    """An error message for options that do not go together, or None."""
    if opts.log_file is None:
        rotation = [o for o in given_log_options(opts) if o.startswith("--log-rotate")]
        if rotation:
            return f"{', '.join(rotation)} rotate a --log-file: give --log-file PATH too"
    elif opts.log_rotate_daily and opts.log_rotate_bytes:
        return "--log-rotate-daily rotates by date: leave out --log-rotate-bytes"
    return None


def open_log_file(opts: argparse.Namespace) -> IO[Any]:
    """The file the log goes to: the standard output, or ``--log-file`` (rotating)."""
    if opts.log_file is None:
        return sys.stdout
    path = os.path.abspath(opts.log_file)
    directory, name = os.path.split(path)
    out: Any
    keep = DEFAULT_ROTATE_KEEP if opts.log_rotate_keep is None else opts.log_rotate_keep
    if opts.log_rotate_daily:
        out = DatedLogFile(name, directory, defaultMode=LOG_FILE_MODE, keep=keep)
    else:
        size = DEFAULT_ROTATE_BYTES if opts.log_rotate_bytes is None else opts.log_rotate_bytes
        out = LogFile(name, directory, rotateLength=size or None,
                      defaultMode=LOG_FILE_MODE, maxRotatedFiles=keep or None)
    _opened.append(out)
    # Twisted's log files are file-like (write, flush, close) without being typed as IO
    return out  # type: ignore[no-any-return]


class DatedLogFile(DailyLogFile):
    """Twisted's daily log file with names that sort (PATH.YYYY-MM-DD, not PATH.YYYY_M_D) and
    only the newest `keep` old files kept (0: every one)."""

    def __init__(self, name: str, directory: str, defaultMode: int | None = None,
                 keep: int = DEFAULT_ROTATE_KEEP) -> None:
        self.keep = keep
        super().__init__(name, directory, defaultMode=defaultMode)

    def suffix(self, tupledate: Any) -> str:
        try:
            year, month, day = tupledate
        except (TypeError, ValueError):
            year, month, day = DailyLogFile.toDate(self, tupledate)
        return f"{year:04d}-{month:02d}-{day:02d}"

    def old_files(self) -> list[str]:
        """The rotated files, oldest first (their names sort by date)."""
        prefix = os.path.basename(self.path) + "."
        dated = re.compile(r"\d{4}-\d{2}-\d{2}")
        return sorted(os.path.join(self.directory, n) for n in os.listdir(self.directory)
                      if n.startswith(prefix) and dated.fullmatch(n[len(prefix):]))

    def rotate(self) -> None:
        DailyLogFile.rotate(self)
        if self.keep:
            for old in self.old_files()[:-self.keep]:
                try:
                    os.remove(old)
                except OSError:
                    pass


def reopen_log_files() -> None:
    """Close and reopen every log file this process opened (at the same path: a file renamed
    away by an external rotation is left alone and a new one begins)."""
    for out in _opened:
        if not getattr(out, "closed", False):
            out.reopen()


class _Failed(str):
    failed = True


def hold_sighup() -> None:
    """From here on a SIGHUP is kept instead of ending the process (the default);
    ``reopen_on_sighup`` handles one kept SIGHUP once it is installed. The entry points do this
    before any other import (protocol/process/entry.py); this is the same, for a caller that
    starts the server otherwise."""
    hold.hold_sighup()


def reopen_on_sighup(reactor: Any, reload: Callable[[], list[str]] | None = None) -> bool:
    """Let SIGHUP reopen the log files and run `reload` (the server's: the message of the day),
    on the reactor thread between two events, and log one line saying what was reloaded; True
    when the platform has SIGHUP."""
    if not hasattr(signal, "SIGHUP"):
        return False

    def hangup() -> None:
        done: list[str] = []
        if _opened:
            reopen_log_files()
            done.append(f"{len(_opened)} log file{'s' if len(_opened) != 1 else ''} reopened")
        if reload is not None:
            try:
                done += reload()
            except Exception as e:       # one line, the old state kept
                done.append(_Failed(f"reload failed: {e}"))
        # a warning when something could not be reloaded (the old one kept), else information
        failed = any(getattr(part, "failed", False) for part in done)
        (_log.warn if failed else _log.info)("SIGHUP: {done}",
                                             done="; ".join(done) or "nothing to reload")
    signal.signal(signal.SIGHUP, lambda signum, frame: reactor.callFromThread(hangup))
    if hold.take_held():                 # one arrived during the start-up: handle it now
        reactor.callFromThread(hangup)
    return True


def json_line(event: dict[str, Any]) -> str:
    """One event as one JSON line (see the module's docstring), without the line end."""
    safe = dict(event)
    safe.pop("log_logger", None)         # the Logger object: nothing a reader could use
    for key, value in event.items():
        if key in ("log_level", "log_failure", "log_logger", "format"):
            continue                     # (twisted.logger writes the level and failure itself)
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            safe[key] = str(value)       # never {"unpersistable": true}: its text
    record: dict[str, Any] = json.loads(eventAsJSON(safe))
    when = event.get("log_time")
    if isinstance(when, (int, float)):
        record["time"] = datetime.fromtimestamp(when, UTC).isoformat(
            timespec="milliseconds").replace("+00:00", "Z")
    level = event.get("log_level")
    record["level"] = getattr(level, "name", str(level)) if level is not None else "info"
    record["namespace"] = event.get("log_namespace")
    try:
        record["message"] = formatEvent(event)
    except Exception:                    # a broken format string: its fields stay readable
        record["message"] = str(event.get("log_format"))
    failure = event.get("log_failure")
    if failure is not None:
        try:
            record["exception"] = failure.getTraceback()
        except Exception:
            record["exception"] = repr(failure)
        flat = record.get("log_failure")
        if isinstance(flat, dict):       # the exception's text, not {"unpersistable": true}
            flat["value"] = str(getattr(failure, "value", ""))
    return json.dumps(record, ensure_ascii=False)


def observer_factory(log_format: str | None) -> Callable[[IO[Any]], ILogObserver]:
    """The text or JSON-lines file observer for a file."""
    if (log_format or DEFAULT_FORMAT) == "json":
        return lambda out: FileLogObserver(out, lambda event: json_line(event) + "\n")
    return textFileLogObserver


def level_of(opts: argparse.Namespace) -> LogLevel:
    level: LogLevel = LogLevel.levelWithName(opts.log_level or DEFAULT_LEVEL)
    return level


def make_observer(opts: argparse.Namespace, out: IO[Any] | None = None) -> ILogObserver:
    """The observer of ``opts``: its format, to its file (or ``out``), events below its level
    left out."""
    observer = observer_factory(opts.log_format)(out if out is not None else open_log_file(opts))
    return FilteringLogObserver(observer, [LogLevelFilterPredicate(defaultLogLevel=level_of(opts))])


def start_logging(opts: argparse.Namespace) -> None:
    """Begin the global log (``tichu-lobby``); events logged before are delivered now."""
    globalLogBeginner.beginLoggingTo([make_observer(opts)], redirectStandardIO=False)


def apply_to_twist(opts: argparse.Namespace, twist_options: Any) -> None:
    """``twist [twist's options] tichu-lobby [ours]``: the logging options of ours that were
    given replace twist's ``--log-level``/``--log-format``/``--log-file`` (twist starts the log)."""
    if twist_options is None:
        return
    if opts.log_level is not None:
        twist_options["logLevel"] = level_of(opts)
    if opts.log_file is not None:
        twist_options["logFile"] = open_log_file(opts)
    if opts.log_format is not None:
        twist_options["fileLogObserverFactory"] = observer_factory(opts.log_format)
        twist_options["logFormat"] = opts.log_format
