"""The Kasse: a Stammtisch's money book, what each player owes the kitty for an evening.

A Stammtisch keeps a Kasse beside its Deckel: every lost half, every lost final, a
Durchmarsch and a Schock aus against you cost a fixed amount, and everyone who comes pays a
stake for the evening. A :class:`Kasse` holds those amounts in cents (an evening's, kept with
its Spieltag), read from the ``[kasse]`` table of the scoring file (:func:`kasse_from_mapping`,
:func:`kasse_from_toml`; each mistake one :class:`KasseError` line). :func:`kasse_lines` counts
an evening's finished games into one :class:`KasseLine` per player; a season adds the lines of
its evenings, each evening at its own prices (:func:`add_lines`).

What costs what, per finished game:

- each half a player lost (halves 1 and 2): ``half_lost``;
- the final's loser: ``final_lost``;
- a Durchmarsch (one player lost both halves, no final is played): its loser pays
  ``durchmarsch`` on top of the two halves;
- each round a player lost to another's Schock aus: ``schock_aus_against``;
- once per evening, each player who finished a game of it: ``stake``.

Every finished game of the evening counts, whether or not its scheme can score it (two players
under Platzpunkte): money lost at the table is owed. A game taken out of the evening
(``schocken spieltag take-out``) does not count, for the Kasse neither: the caller leaves it
out (:func:`engine.saison.evening_kasse`). Pure: no files, no clock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.limits import toml_document
from engine.scoring import MAX_SCORING_BYTES, GameResult, ScoringError

__all__ = [
    "KASSE_KEYS",
    "MAX_CENTS",
    "Kasse",
    "KasseError",
    "KasseLine",
    "add_lines",
    "kasse_from_mapping",
    "kasse_from_toml",
    "kasse_lines",
    "kasse_to_mapping",
]

#: The ``[kasse]`` keys, each an amount in cents.
KASSE_KEYS = ("half_lost", "final_lost", "durchmarsch", "schock_aus_against", "stake")
#: The most one key may cost: 1000 euros.
MAX_CENTS = 100_000


class KasseError(ScoringError):
    """A ``[kasse]`` table that cannot be read; the message is one line."""


@dataclass(frozen=True, slots=True)
class Kasse:
    """What an evening's Kasse charges, in cents (see the module's list)."""

    half_lost: int = 0
    final_lost: int = 0
    durchmarsch: int = 0
    schock_aus_against: int = 0
    stake: int = 0


@dataclass(frozen=True, slots=True)
class KasseLine:
    """What one player owes: the counts charged and the total in cents (an evening's, or a
    season's sum of its evenings' at each evening's prices)."""

    player: str
    halves_lost: int
    finals_lost: int
    durchmarsch: int
    schock_aus_against: int
    #: The evenings whose stake is charged.
    evenings: int
    cents: int


def _cents(key: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_CENTS:
        shown = repr(value) if not isinstance(value, str) else f'"{value[:20]}"'
        raise KasseError(
            f"[kasse] {key} = {shown}: must be a whole number of cents from 0 to {MAX_CENTS} "
            "(50 is 0,50 €)"
        )
    return value


def kasse_from_mapping(data: Mapping[str, Any]) -> Kasse:
    """A Kasse from the ``[kasse]`` table's keys (each optional, 0 if not given); KasseError
    (one line) naming the first bad key."""
    unknown = sorted(str(key) for key in data if key not in KASSE_KEYS)
    if unknown:
        raise KasseError(f"unknown [kasse] key {unknown[0]!r}; keys: {', '.join(KASSE_KEYS)}")
    return Kasse(**{key: _cents(key, data[key]) for key in KASSE_KEYS if key in data})


def kasse_to_mapping(kasse: Kasse) -> dict[str, int]:
    """The Kasse as ``[kasse]`` keys (all of them), read back by :func:`kasse_from_mapping`."""
    return {key: int(getattr(kasse, key)) for key in KASSE_KEYS}


def kasse_from_toml(text: str, *, origin: str = "scoring") -> Kasse | None:
    """The ``[kasse]`` table of a scoring file, or None if it has none; ``origin`` names the
    file in errors."""
    data = toml_document(text, origin=origin, error=KasseError, max_bytes=MAX_SCORING_BYTES)
    table = data.get("kasse")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise KasseError(f"{origin}: kasse must be a table, [kasse], of amounts in cents")
    try:
        return kasse_from_mapping(table)
    except KasseError as error:
        raise KasseError(f"{origin}: {error}") from None


def kasse_lines(kasse: Kasse, results: Iterable[GameResult]) -> tuple[KasseLine, ...]:
    """What each player owes for an evening of ``results`` (its finished games), in the order
    they first played; a player with no finished game owes nothing and is not listed."""
    counts: dict[str, list[int]] = {}
    for result in results:
        against = dict(result.schock_aus_against)
        for player in result.players:
            tally = counts.setdefault(player, [0, 0, 0, 0])
            tally[0] += result.halves_lost(player)
            tally[1] += int(result.final_loser == player)
            tally[2] += int(result.durchmarsch and result.loser == player)
            tally[3] += against.get(player, 0)
    lines = []
    for player, (halves, finals, durchmarsch, against_count) in counts.items():
        cents = (
            halves * kasse.half_lost + finals * kasse.final_lost
            + durchmarsch * kasse.durchmarsch + against_count * kasse.schock_aus_against
            + kasse.stake
        )  # fmt: skip
        lines.append(KasseLine(player, halves, finals, durchmarsch, against_count, 1, cents))
    return tuple(lines)


def add_lines(evenings: Sequence[Sequence[KasseLine]]) -> tuple[KasseLine, ...]:
    """The season's Kasse: each player's lines of ``evenings`` added, in the order they first
    appear."""
    total: dict[str, KasseLine] = {}
    for lines in evenings:
        for line in lines:
            known = total.get(line.player)
            total[line.player] = line if known is None else KasseLine(
                line.player, known.halves_lost + line.halves_lost,
                known.finals_lost + line.finals_lost, known.durchmarsch + line.durchmarsch,
                known.schock_aus_against + line.schock_aus_against,
                known.evenings + line.evenings, known.cents + line.cents,
            )  # fmt: skip
    return tuple(total.values())
