"""The director's desk's actions: what each form on ``/desk`` does, one entry each.

An action (:class:`DeskAction`) is its name (``POST /desk/NAME``), its title and button (words
of :mod:`firmware.hub.hub_words`), its fields, and its run: the hub, the posted :class:`Form`,
who is logged in and the time -> what it did (:class:`Done`), always through
:class:`~firmware.hub.hub.Hub` and :mod:`firmware.hub.desk`, the command line's own calls. A run
may ask first (:class:`Confirm`): the page shows its lines and the same form again, sent with
``confirm=yes``. The page (:mod:`firmware.hub.desk_page`) draws each action's form from its
fields, in the order of :data:`ACTIONS`; a new action is one entry there and its words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from firmware.hub.desk import (
    DeskError,
    TableCard,
    correct,
    leave,
    paper,
    player_named,
    redraw,
    reopen,
)
from firmware.hub.hub import Hub
from firmware.hub.hub_words import HubWords

__all__ = ["ACTIONS", "BY_NAME", "Confirm", "DeskAction", "Done", "Field", "Form",
           "unreported_lines"]  # fmt: skip

#: The longest text a field takes (a reason, a list of names).
MAX_FIELD = 300


@dataclass(frozen=True, slots=True)
class Field:
    """A form's field: its name, its label (a word's key), whether it must be given, and
    ``number`` for a number from 1 to 9999."""

    name: str
    label: str
    required: bool = True
    number: bool = False


@dataclass(frozen=True, slots=True)
class Done:
    """What an action did: a word's key and its values (shown once on the desk)."""

    key: str
    values: Mapping[str, object]


class Confirm(Exception):
    """The action asks first: these lines, then the same form again with ``confirm=yes``."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("; ".join(lines))
        self.lines = lines


class Form:
    """A posted form's fields, read by its action's :class:`Field` list (a field's problem is a
    :class:`DeskError` naming its label in the page's language)."""

    def __init__(self, fields: Mapping[str, str], declared: tuple[Field, ...], text: HubWords):
        self._fields = fields
        self._declared = {f.name: f for f in declared}
        self.text = text

    def get(self, name: str) -> str:
        declared = self._declared[name]
        value = self._fields.get(name, "").strip()
        label = self.text.t(declared.label)
        if declared.required and not value:
            raise DeskError("desk_missing", field=label)
        if len(value) > MAX_FIELD or not value.isprintable():
            raise DeskError("desk_too_long", field=label, n=MAX_FIELD)
        return value

    def number(self, name: str) -> int:
        value = self.get(name)
        if not value.isascii() or not value.isdigit() or not 0 < int(value) < 10000:
            raise DeskError("desk_bad_number", field=self.text.t(self._declared[name].label))
        return int(value)

    def optional_number(self, name: str) -> int | None:
        """A number field left empty: None."""
        return self.number(name) if self.get(name) else None

    def minutes(self, name: str) -> float | None:
        """A time box's minutes, 0 to 1440 (0: none); empty: None."""
        value = self.get(name)
        if not value:
            return None
        if not value.isascii() or not value.isdigit() or int(value) > 24 * 60:
            raise DeskError("desk_bad_minutes", field=self.text.t(self._declared[name].label))
        return float(value)

    def card(self) -> TableCard:
        """The table card's fields (``halves``, ``final``, ``out1``, ``out2``, ``schock_aus``)."""
        schock_aus = tuple(item for item in self.get("schock_aus").split(",") if item.strip())
        return TableCard(self.get("halves"), self.get("final"), self.get("out1"),
                         self.get("out2"), schock_aus)  # fmt: skip

    @property
    def confirmed(self) -> bool:
        return self._fields.get("confirm") == "yes"


#: An action's run: the hub, the form, who is logged in, now -> what it did.
Run = Callable[[Hub, Form, str, float], Done]


@dataclass(frozen=True, slots=True)
class DeskAction:
    """One thing the desk does: ``POST /desk/NAME``, its title, button and fields, its run."""

    name: str
    title: str
    button: str
    fields: tuple[Field, ...]
    run: Run


_CARD = (
    Field("halves", "desk_halves"), Field("final", "desk_final", False),
    Field("out1", "desk_out1", False), Field("out2", "desk_out2", False),
    Field("schock_aus", "desk_schock_aus", False),
)  # fmt: skip


def _paper(hub: Hub, form: Form, who: str, now: float) -> Done:
    why = form.get("why") or form.text.t("desk_paper_why")
    report = paper(hub, form.number("round"), form.number("table"), form.number("game"),
                   form.card(), who, why, now, form.get("players"))  # fmt: skip
    return Done("desk_done_paper", {"id": report.id})


def _correct(hub: Hub, form: Form, who: str, now: float) -> Done:
    report = correct(hub, form.get("id"), form.card(), who, form.get("why"), now)
    return Done("desk_done_correct", {"id": report.id})


def _void(hub: Hub, form: Form, who: str, now: float) -> Done:
    hub.void_result(form.get("id"), who, form.get("why"), now)
    return Done("desk_done_void", {"id": form.get("id")})


def _accept(hub: Hub, form: Form, who: str, now: float) -> Done:
    report = hub.accept_refused(form.number("number"), who, form.get("why"), now)
    return Done("desk_done_accept", {"id": report.id})


def _finish(hub: Hub, form: Form, _who: str, _now: float) -> Done:
    waiting = hub.unreported()
    if waiting and not form.confirmed:
        raise Confirm(unreported_lines(hub, form.text))
    state = hub.finish_round(confirmed=True)
    return Done("hub_finished", {"n": state.round})


def _leave(how: str) -> Run:
    """Withdraw, disqualify or replace (``how``) the player named, as ``schocken hub`` does."""

    def run(hub: Hub, form: Form, who: str, now: float) -> Done:
        name = player_named(hub, form.get("player"))
        given = form.get("substitute") if how == "replaced" else ""
        substitute = player_named(hub, given, must=False) if given else ""
        leaving = leave(hub, name, how, who=who, why=form.get("why"), now=now,
                        substitute=substitute)  # fmt: skip
        return Done(_LEFT[how], {"name": name, "substitute": leaving.substitute,
                                 "n": leaving.round})  # fmt: skip

    return run


_LEFT = {"withdrawn": "hub_desk_withdrawn", "disqualified": "hub_desk_disqualified",
         "replaced": "hub_desk_replaced"}  # fmt: skip


def _redraw(hub: Hub, form: Form, who: str, now: float) -> Done:
    tables = redraw(hub, form.optional_number("seed"), who=who, why=form.get("why"), now=now)
    return Done("hub_desk_redrawn", {"n": tables[0].round, "tables": len(tables)})


def _reopen(hub: Hub, form: Form, who: str, now: float) -> Done:
    state = reopen(hub, who=who, why=form.get("why"), now=now, minutes=form.minutes("minutes"))
    return Done("hub_desk_reopened", {"n": state.round})


_WHO = (Field("player", "desk_player"), Field("why", "desk_why"))

#: The desk's actions, in the page's order: a new one is one entry here (and its words).
ACTIONS: tuple[DeskAction, ...] = (
    DeskAction("finish", "desk_finish", "desk_do_finish", (), _finish),
    DeskAction("paper", "desk_paper", "desk_do_paper", (
        Field("round", "desk_round", number=True), Field("table", "desk_table", number=True),
        Field("game", "desk_game", number=True), *_CARD,
        Field("players", "desk_players", False), Field("why", "desk_why", False),
    ), _paper),
    DeskAction("correct", "desk_correct", "desk_do_correct",
               (Field("id", "desk_id"), *_CARD, Field("why", "desk_why")), _correct),
    DeskAction("void", "desk_void", "desk_do_void",
               (Field("id", "desk_id"), Field("why", "desk_why")), _void),
    DeskAction("accept", "desk_accept", "desk_do_accept",
               (Field("number", "desk_number", number=True), Field("why", "desk_why")), _accept),
    DeskAction("withdraw", "desk_withdraw", "desk_do_withdraw", _WHO, _leave("withdrawn")),
    DeskAction("disqualify", "desk_disqualify", "desk_do_disqualify", _WHO,
               _leave("disqualified")),
    DeskAction("replace", "desk_replace", "desk_do_replace",
               (_WHO[0], Field("substitute", "desk_substitute"), _WHO[1]), _leave("replaced")),
    DeskAction("redraw", "desk_redraw", "desk_do_redraw",
               (Field("seed", "desk_seed", False, number=True), Field("why", "desk_why")), _redraw),
    DeskAction("reopen", "desk_reopen", "desk_do_reopen",
               (Field("minutes", "desk_minutes", False, number=True), Field("why", "desk_why")),
               _reopen),
)  # fmt: skip
BY_NAME = {action.name: action for action in ACTIONS}


def unreported_lines(hub: Hub, text: HubWords) -> list[str]:
    """The tables of the round that hold unreported results, as ``schocken hub finish`` says."""
    lines = [text.t("hub_unreported", n=hub.current_round())]
    for table in hub.unreported():
        link = text.t("hub_online" if table.online else "hub_offline")
        lines.append(f"{text.t('hub_table', n=table.table)}: "
                     f"{text.t('hub_outbox', n=table.count)} ({link})")  # fmt: skip
    return lines
