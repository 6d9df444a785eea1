"""A table is snapshotted and rebuilt through its own constructor (TableActor.snapshot,
TableActor.restored, resume), and built with its delivery already behind the recorder's gate."""
from __future__ import annotations

import json
import random
from typing import Any

from twisted.internet.task import Clock

from lobby.events import Event
from lobby.tables.recording import Deliver
from lobby.tables.table import PLAYING, TableActor
from lobby.tichu.match import Match, MatchOptions
from lobby.world.world import World
from table_support import Recorder, new_table, step


def test_snapshot_and_restored_rebuild_the_running_table() -> None:
    table, rec, clock = new_table(options={"seed": "11", "target": "500", "dragon fixed": "on"})
    table.submit("ann", "leave")
    table.submit("ann", "addbot", "1 random")
    table.submit("ann", "start")
    assert table.state == PLAYING
    rng = random.Random(3)
    for _ in range(12):
        step(table, rec, rng)
    snapshot = table.snapshot()
    assert json.loads(json.dumps(snapshot)) == snapshot           # it goes into the journal
    bot = next(iter(table.bots))
    assert snapshot["bots"] == {bot: "random"} and snapshot["host"] == "ann"

    again_rec = Recorder()
    match = Match.replay(table.match.record())
    again = TableActor.restored(table.number, clock, again_rec.deliver, snapshot, match,
                                list(table.players), {bot: "random"})
    again_rec.table = again
    again.bot_delay = 0.0
    assert again.options == table.options and again.host == "ann"
    assert again.state == PLAYING and again.players == table.players
    assert again.seated == table.seated and again.seed == 11
    assert again.gone == set(table.players) - {bot}             # every human is away
    assert again.bots == {}                                      # until resume()
    again.resume()
    assert again.bots[bot].strategy_name == "random"
    assert again.snapshot() == snapshot
    assert again_rec.to(bot) == [] and again.match is match      # bots get events directly


def test_a_restored_bot_with_an_unknown_strategy_plays_the_takeover_strategy() -> None:
    clock = Clock()
    match = Match.replay(Match(MatchOptions(), seed=4).record())
    names = ["ann", "Bot1~clever", "cat", "dan"]
    table = TableActor.restored(3, clock, Recorder().deliver, {"host": "ann"}, match, names,
                                {"Bot1~clever": "clever"})
    table.resume()
    assert table.bots["Bot1~clever"].strategy_name == "heuristic"


class GateRecorder:
    """A recorder that holds every event until release() (as the journal does until commit)."""

    def __init__(self) -> None:
        self.held: list[tuple[Deliver, list[str], Event]] = []
        self.gated: list[int] = []
        self.archive: Any = None

    def gate(self, table_no: int, deliver: Deliver) -> Deliver:
        self.gated.append(table_no)
        return lambda names, event: self.held.append((deliver, names, event))

    def when_sent(self, table_no: int) -> None:
        return None

    def release(self) -> None:
        held, self.held = self.held, []
        for deliver, names, event in held:
            deliver(names, event)

    def started(self, table: Any) -> None: ...
    def action(self, table: Any, player: int, action: Any) -> None: ...
    def seats_changed(self, table: Any) -> None: ...
    def finished(self, table: Any) -> None: ...
    def abandoned(self, table: Any) -> None: ...


class Listener:
    def __init__(self) -> None:
        self.events: list[Event] = []

    def deliver(self, event: Event) -> None:
        self.events.append(event)

    def disconnect(self, event: Event) -> None:
        self.events.append(event)


def test_the_world_builds_tables_behind_the_recorders_gate() -> None:
    world = World(Clock())
    recorder = GateRecorder()
    world.recorder = recorder
    ann = Listener()
    user = world.login("ann", ann, registered=True)
    table = world.open_table(user)
    assert recorder.gated == [table.number] and table.recorder is recorder
    views = [e for e in ann.events if e.type == "table-view"]
    assert views == [] and any(ev.type == "table-view" for _, _, ev in recorder.held)
    recorder.release()                                # the commit: now the events leave
    assert [e for e in ann.events if e.type == "table-view"]
