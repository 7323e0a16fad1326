"""The device configuration: one TOML file, validated completely before anything starts.

The file has the sections of ``deploy/config.toml`` (which documents every key); every key is
optional and takes the default shown there. Anything wrong (an unknown section or key, a value of
the wrong type, an impossible pin, a value out of range, an unknown rules preset) raises
:class:`ConfigError` with one line naming the file, the key and what is allowed, e.g.::

    config.toml: display.rotate = 5 is not allowed: use 0, 1, 2 or 3 quarter turns

Nothing is half-configured: :func:`load_config` either returns a whole :class:`DeviceConfig` or
raises. The hardware sections reuse the hal's own settings classes (:class:`~hal.gpio.GpioPins`,
:class:`~hal.inputs.InputTiming`, :class:`~hal.oled.OledSettings`), which check their values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from engine.errors import IllegalActionError, RulesError
from engine.game import MAX_PLAYERS, MIN_PLAYERS, GameSetup
from engine.limits import toml_document
from engine.rules import Rules
from engine.strategy_names import strategy_names
from firmware.names import PlayerNameError, check_player_names, name_problem
from firmware.store.roster import MAX_ROSTER
from firmware.store.rulesfile import load_rules
from firmware.userfile import UserFileError, read_user_text
from firmware.words import LANGUAGES
from hal.inputs import InputTiming
from hal.settings import GpioPins, OledSettings

__all__ = [
    "DEVICE_CONFIG_PATH",
    "HUMAN_WORDS",
    "ConfigError",
    "DeviceConfig",
    "GameConfig",
    "LinkConfig",
    "StorageConfig",
    "TournamentConfig",
    "WebConfig",
    "config_from_toml",
    "load_config",
    "parse_listen",
]

#: Where the installer puts the device's configuration. Read only when a caller passes it.
DEVICE_CONFIG_PATH = "/etc/schockbesteck/config.toml"


class ConfigError(ValueError):
    """A configuration that cannot be used; the message is one line naming file and key."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Section ``[game]``: who plays, under which rules, in which language.

    ``rules`` is the preset name or rules file as written; ``rule_set`` is what it loaded to.
    ``bots`` says which seats the device plays itself, one entry per seat in ``players`` order:
    a strategy name (:func:`engine.bots.strategy_names`) or "" for a person. It may be shorter
    than the seats (the rest are people) and longer than ``players`` (for seats the setup adds).
    ``names`` are more names for the setup's list of remembered names (the table's regulars),
    offered after the names played lately (:mod:`firmware.store.roster`). ``real_dice``: the
    table throws real dice and each turn's result is entered (no computer seats then).
    """

    players: tuple[str, ...] = ("Anna", "Ben", "Carla")
    rules: str = "standard"
    language: str = "de"
    bots: tuple[str, ...] = ()
    rule_set: Rules = field(default_factory=Rules, compare=False)
    names: tuple[str, ...] = ()
    real_dice: bool = False


@dataclass(frozen=True, slots=True)
class StorageConfig:
    """Section ``[storage]``: the state directory (last setup, settings, the game journal)."""

    state_dir: str = "/var/lib/schockbesteck"

    def __post_init__(self) -> None:
        if not self.state_dir.strip() or "\0" in self.state_dir:
            raise ValueError(
                f"storage.state_dir = {self.state_dir!r} is not allowed: use the path of a "
                "writable directory, e.g. /var/lib/schockbesteck"
            )


@dataclass(frozen=True, slots=True)
class LinkConfig:
    """Section ``[link]``: the serial link to a host; an empty ``url`` switches it off.

    A host changes the game only once paired (a PIN from the menu); ``trust_serial`` waives that
    on a serial cable (never on a network URL). ``referee`` lets the link show every die, also
    those under the cup; the OLED says so while it is on.
    """

    url: str = ""
    baudrate: int = 115200
    trust_serial: bool = False
    referee: bool = False


@dataclass(frozen=True, slots=True)
class WebConfig:
    """Section ``[web]``: the table's page in a browser (docs/web.md); off by default.

    A ``[web]`` section with any key switches it on, unless it says ``enabled = false``; it
    listens on ``listen``, ``HOST:PORT`` (``0.0.0.0:8080``: every network of the device).
    ``deploy/install.sh`` opens the service's network by the same rule. ``hosts`` are the names
    the page may be opened under besides the device's IP addresses and ``localhost`` (its
    mDNS name, say ``schockbesteck.local``); a request for any other name is refused.
    """

    enabled: bool = False
    listen: str = "0.0.0.0:8080"
    hosts: tuple[str, ...] = ()

    @property
    def address(self) -> tuple[str, int]:
        """``listen`` as (host, port)."""
        return parse_listen(self.listen)


def parse_listen(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[v6]:PORT`` for an IPv6 address) as (host, port).

    Raises ValueError with one line naming what is wrong and what is allowed.
    """
    host, colon, port = text.strip().rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    problem = ""
    if not colon or not host:
        problem = "give HOST:PORT"
    elif any(ch.isspace() or ch in "/[]@" for ch in host):
        problem = "the host must be an address or a name"
    elif not (port.isascii() and port.isdigit()) or not 0 <= int(port) <= 65535:
        problem = "the port must be a number from 0 to 65535"
    if problem:
        raise ValueError(
            f"{text!r}: {problem}, e.g. 0.0.0.0:8080 (every network) or 127.0.0.1:8080 "
            "(this computer only)"
        )
    return host, int(port)


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """Section ``[tournament]``: the device as one table of a tournament (docs/tournament.md).

    Off while the section is missing or says ``enabled = false``. ``broker`` is the hub's MQTT
    broker, ``mqtt://HOST:PORT`` (or ``mqtts://`` with TLS, checked against ``ca_file`` when
    given, else the system's CAs); ``event`` the tournament's short name (its topics'
    ``schock/EVENT/...``); ``table`` this table's number, which makes its broker user
    ``table-N``; ``password`` that user's password. Unacknowledged results are sent again every
    ``resend_s`` seconds and at every reconnect.
    """

    enabled: bool = False
    broker: str = ""
    event: str = ""
    table: int = 0
    password: str = ""
    ca_file: str = ""
    resend_s: float = 30.0


@dataclass(frozen=True, slots=True)
class SpieltagConfig:
    """Section ``[spieltag]``: what the menu's "Spieltag beginnen" offers first.

    ``time_box_minutes``: the time box it starts on (0: none), after which the game in play goes
    on "scharf" (docs/sheet.md); 1 to 600 minutes.
    """

    time_box_minutes: int = 0

    def __post_init__(self) -> None:
        minutes = self.time_box_minutes
        if not 0 <= minutes <= 600:
            raise ValueError(
                f"spieltag.time_box_minutes = {minutes} is not allowed: use 0 (none) or 1 to "
                "600 minutes (a points round is 60-75)"
            )


@dataclass(frozen=True, slots=True)
class DeviceConfig:
    """The whole configuration; ``origin`` names where it came from (a path or "defaults").

    ``given`` holds the keys the file set, as ``section.key`` (``storage.state_dir``): the
    simulator keeps its games in the file's state directory only if the file names one.
    """

    game: GameConfig = field(default_factory=GameConfig)
    pins: GpioPins = field(default_factory=GpioPins)
    input: InputTiming = field(default_factory=InputTiming)
    display: OledSettings = field(default_factory=OledSettings)
    storage: StorageConfig = field(default_factory=StorageConfig)
    link: LinkConfig = field(default_factory=LinkConfig)
    web: WebConfig = field(default_factory=WebConfig)
    tournament: TournamentConfig = field(default_factory=TournamentConfig)
    spieltag: SpieltagConfig = field(default_factory=SpieltagConfig)
    origin: str = field(default="defaults", compare=False)
    given: frozenset[str] = field(default=frozenset(), compare=False)


#: Section name -> the settings class it builds.
_SECTIONS: dict[str, type] = {
    "game": GameConfig,
    "pins": GpioPins,
    "input": InputTiming,
    "display": OledSettings,
    "storage": StorageConfig,
    "link": LinkConfig,
    "web": WebConfig,
    "tournament": TournamentConfig,
    "spieltag": SpieltagConfig,
}

#: Keys whose value has more than one form; :func:`_game` checks them.
_FREE_FORM = {"game.bots"}
#: What a game.bots entry may say for a seat a person plays.
HUMAN_WORDS = ("", "human")

#: The longest configuration file we read (deploy/config.toml is about 3 kB).
MAX_CONFIG_BYTES = 256 * 1024

_BAUDRATES = (9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600)


def load_config(path: str | None = None) -> DeviceConfig:
    """The configuration in the TOML file at ``path``; None gives the built-in defaults.

    The defaults equal ``deploy/config.toml``. This function never looks for a file by itself:
    the caller decides whether ``/etc/schockbesteck/config.toml`` (:data:`DEVICE_CONFIG_PATH`)
    is read.
    """
    if path is None:
        return DeviceConfig()
    file = Path(path)
    advice = "give a config.toml (deploy/config.toml shows every key)"
    try:
        text = read_user_text(file, f"config file {path}", advice, MAX_CONFIG_BYTES)
    except UserFileError as error:
        raise ConfigError(str(error)) from None
    return config_from_toml(text, origin=str(path), base_dir=file.parent)


def config_from_toml(
    text: str, origin: str = "config.toml", *, base_dir: Path | None = None
) -> DeviceConfig:
    """The configuration in TOML ``text``; ``origin`` names it in error messages.

    A rules file given by a relative path is looked up relative to ``base_dir`` (the config
    file's directory) first.
    """
    data = toml_document(text, origin=origin, error=ConfigError, max_bytes=MAX_CONFIG_BYTES)
    try:
        return _build(data, origin, base_dir)
    except ConfigError:
        raise
    except ValueError as error:
        # The hal's settings classes and the engine name the key themselves.
        raise ConfigError(f"{origin}: {error}") from None


def _build(data: Mapping[str, Any], origin: str, base_dir: Path | None) -> DeviceConfig:
    unknown = [name for name in data if name not in _SECTIONS]
    if unknown:
        what = (
            f"section [{unknown[0]}]" if isinstance(data[unknown[0]], dict) else f"key {unknown[0]}"
        )
        raise ConfigError(
            f"{origin}: unknown {what}; sections are "
            + ", ".join(f"[{name}]" for name in _SECTIONS)
        )
    sections: dict[str, Any] = {}
    for name, cls in _SECTIONS.items():
        table = data.get(name, {})
        if not isinstance(table, dict):
            raise ConfigError(f"{origin}: {name} must be a section [{name}], not a value")
        sections[name] = _section_values(origin, name, cls, table)
    game = _game(origin, sections.pop("game"), base_dir)
    link = _link(origin, sections.pop("link"))
    web = _web(origin, sections.pop("web"))
    tournament = _tournament(origin, sections.pop("tournament"), base_dir)
    return DeviceConfig(
        game=game,
        pins=GpioPins(**sections["pins"]),
        input=InputTiming(**sections["input"]),
        display=OledSettings(**sections["display"]),
        storage=StorageConfig(**sections["storage"]),
        link=link,
        web=web,
        tournament=tournament,
        spieltag=SpieltagConfig(**sections["spieltag"]),
        origin=origin,
        given=frozenset(
            f"{section}.{key}"
            for section, table in data.items()
            if isinstance(table, dict)
            for key in table
        ),
    )


def _section_values(
    origin: str, section: str, cls: type, table: Mapping[str, Any]
) -> dict[str, Any]:
    """Check keys and value types of one section against the defaults of ``cls``."""
    types = {f.name: str(f.type) for f in fields(cls) if f.name != "rule_set"}
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key not in types:
            raise ConfigError(
                f"{origin}: unknown key {section}.{key}; keys in [{section}]: {', '.join(types)}"
            )
        if f"{section}.{key}" in _FREE_FORM:
            values[key] = value
            continue
        values[key] = _typed(origin, f"{section}.{key}", value, types[key])
    return values


def _typed(origin: str, key: str, value: Any, expected: str) -> Any:
    """``value`` checked against the field type ``expected`` (its annotation), or ConfigError."""
    shown = _show(value)
    if expected == "bool":
        if not isinstance(value, bool):
            raise ConfigError(f"{origin}: {key} = {shown}: must be true or false")
        return value
    if expected == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{origin}: {key} = {shown}: must be a whole number")
        return value
    if expected == "float":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{origin}: {key} = {shown}: must be a number of seconds")
        return value
    if expected == "str":
        if not isinstance(value, str):
            raise ConfigError(f"{origin}: {key} = {shown}: must be a string in quotes")
        return value
    if expected.startswith("tuple[str"):
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise ConfigError(f"{origin}: {key} = {shown}: must be a list of names in quotes")
        return tuple(value)
    raise AssertionError(f"no type check for {key}: {expected}")  # a new field needs one


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # escaped: an error stays one line
    if isinstance(value, dict):
        return "{...}"
    return repr(value)


def _game(origin: str, values: dict[str, Any], base_dir: Path | None) -> GameConfig:
    players = values.get("players", GameConfig().players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise ConfigError(
            f"{origin}: game.players has {len(players)} "
            f"name{'' if len(players) == 1 else 's'}: allowed are "
            f"{MIN_PLAYERS} to {MAX_PLAYERS}"
        )
    try:
        GameSetup(players)
        check_player_names(players)
    except (IllegalActionError, PlayerNameError) as error:
        raise ConfigError(f"{origin}: game.players: {error}") from None
    language = values.get("language", "de")
    if language not in LANGUAGES:
        raise ConfigError(
            f'{origin}: game.language = "{language}": allowed are "de" (Deutsch), "en" (English)'
        )
    bots = _bots(origin, values.get("bots", []), players)
    rules_name = values.get("rules", "standard")
    try:
        rule_set = load_rules(_rules_path(rules_name, base_dir))
    except RulesError as error:
        raise ConfigError(f"{origin}: game.rules: {error}") from None
    names = _roster_names(origin, values.get("names", ()))
    real_dice = bool(values.get("real_dice", False))
    return GameConfig(
        tuple(players), rules_name, language, tuple(bots), rule_set, names, real_dice
    )


def _roster_names(origin: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """game.names: each one a name the device accepts, at most as many as the roster keeps."""
    if len(names) > MAX_ROSTER:
        raise ConfigError(
            f"{origin}: game.names has {len(names)} names: allowed are at most {MAX_ROSTER}"
        )
    for name in names:
        problem = name_problem(name)
        if problem is not None:
            raise ConfigError(f"{origin}: game.names: {problem}")
    return tuple(names)


def _bots(origin: str, value: Any, players: tuple[str, ...]) -> tuple[str, ...]:
    """game.bots as one strategy per seat ("" for a person), from a list or a table of names.

    ``bots = ["", "odds"]`` goes by seat; ``bots = { Ben = "odds" }`` names the players.
    """
    allowed = '"" or "human" (a person), ' + ", ".join(f'"{n}"' for n in strategy_names())
    if isinstance(value, dict):
        seats = [""] * len(players)
        for name, strategy in value.items():
            if name not in players:
                raise ConfigError(
                    f'{origin}: game.bots.{name}: "{name}" is not one of game.players'
                )
            seats[players.index(name)] = _strategy(origin, f"game.bots.{name}", strategy, allowed)
        entries = seats
    elif isinstance(value, list):
        if len(value) > MAX_PLAYERS:
            raise ConfigError(
                f"{origin}: game.bots has {len(value)} entries: allowed are at most "
                f"{MAX_PLAYERS}, one per seat"
            )
        entries = [
            _strategy(origin, f"game.bots[{index}]", entry, allowed)
            for index, entry in enumerate(value)
        ]
    else:
        raise ConfigError(
            f"{origin}: game.bots = {_show(value)}: must be a list with one strategy per seat, "
            'e.g. ["", "odds"], or a table of names, e.g. { Ben = "odds" }'
        )
    while entries and not entries[-1]:
        entries.pop()
    return tuple(entries)


def _strategy(origin: str, key: str, value: Any, allowed: str) -> str:
    """One seat's entry: a strategy name, or "" for a person."""
    if not isinstance(value, str) or (value not in HUMAN_WORDS and value not in strategy_names()):
        raise ConfigError(f"{origin}: {key} = {_show(value)}: allowed are {allowed}")
    return "" if value in HUMAN_WORDS else value


def _rules_path(name: str, base_dir: Path | None) -> str:
    """A relative rules file path taken from the config file's directory, if it is there."""
    path = Path(name)
    if base_dir is not None and name.endswith(".toml") and not path.is_absolute():
        candidate = base_dir / path
        if candidate.exists():
            return str(candidate)
    return name


def _link(origin: str, values: dict[str, Any]) -> LinkConfig:
    link = LinkConfig(**values)
    if link.baudrate not in _BAUDRATES:
        raise ConfigError(
            f"{origin}: link.baudrate = {link.baudrate}: allowed are "
            + ", ".join(map(str, _BAUDRATES))
        )
    return link


def _web(origin: str, values: dict[str, Any]) -> WebConfig:
    """A ``[web]`` section with any key is on unless ``enabled = false`` (as install.sh reads)."""
    if not values:
        return WebConfig()
    web = WebConfig(**{"enabled": True, **values})
    try:
        web.address  # noqa: B018  (checks listen)
    except ValueError as error:
        raise ConfigError(f"{origin}: web.listen = {error}") from None
    for name in web.hosts:
        if not _HOST_NAME.fullmatch(name):
            raise ConfigError(
                f"{origin}: web.hosts = {_show(name)}: a host name is letters, digits, "
                "hyphens and dots, e.g. schockbesteck.local"
            )
    return web


#: A host name of ``[web] hosts``: labels of letters, digits and hyphens, joined by dots.
_HOST_NAME = re.compile(r"(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))*\.?")


# --- [tournament] -----------------------------------------------------------------------------

#: A tournament's short name in its topics: lower-case letters, digits and hyphens.
_EVENT = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
#: The most tables a tournament has (the broker users table-1 ... table-999).
MAX_TABLE = 999


def _tournament(origin: str, values: dict[str, Any], base_dir: Path | None) -> TournamentConfig:
    """A ``[tournament]`` section with any key is on unless ``enabled = false``; every key it
    needs is then checked, each in one line."""
    if not values:
        return TournamentConfig()
    if isinstance(values.get("resend_s"), int):
        values["resend_s"] = float(values["resend_s"])
    settings = TournamentConfig(**{"enabled": True, **values})
    if not settings.enabled:
        return settings
    where = f"{origin}: tournament"
    problem = broker_url_problem(settings.broker)
    if problem is not None:
        raise ConfigError(f"{where}.broker = {_show(settings.broker)}: {problem}")
    if not _EVENT.fullmatch(settings.event):
        raise ConfigError(
            f"{where}.event = {_show(settings.event)}: the tournament's short name is 1 to 32 "
            'lower-case letters, digits and hyphens, e.g. "dm2026"'
        )
    if not 1 <= settings.table <= MAX_TABLE:
        raise ConfigError(
            f"{where}.table = {settings.table}: the table's number is 1 to {MAX_TABLE}"
        )
    if not settings.password or any(ch.isspace() or not ch.isprintable()
                                    for ch in settings.password):
        raise ConfigError(
            f"{where}.password: give this table's broker password (printed by "
            "install.sh --hub), without spaces"
        )
    if settings.ca_file:
        path = Path(settings.ca_file)
        if base_dir is not None and not path.is_absolute():
            path = base_dir / path
        if not path.is_file():
            raise ConfigError(
                f"{where}.ca_file = {_show(settings.ca_file)}: no such file; give the hub's "
                "CA certificate (PEM) or leave it out"
            )
        settings = replace(settings, ca_file=str(path))
        if not settings.broker.startswith("mqtts://"):
            raise ConfigError(
                f"{where}.ca_file is set but broker {_show(settings.broker)} is not mqtts://"
            )
    if not 1.0 <= settings.resend_s <= 3600.0:
        raise ConfigError(
            f"{where}.resend_s = {settings.resend_s:g}: must be 1 to 3600 seconds"
        )
    return settings


def broker_url_problem(url: str) -> str | None:
    """Why ``url`` is no broker address (``mqtt://HOST:PORT`` or ``mqtts://HOST:PORT``), or
    None."""
    scheme, sep, rest = url.partition("://")
    advice = "use mqtt://HOST:PORT or mqtts://HOST:PORT, e.g. mqtt://hub.local:1883"
    if not sep or scheme not in ("mqtt", "mqtts"):
        return advice
    try:
        parse_listen(rest.rstrip("/"))
    except ValueError:
        return advice
    return None
