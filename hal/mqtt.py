"""A link to an MQTT broker (paho-mqtt 2.x, MQTT 5): the tournament's wire between tables and hub.

This module alone imports paho. An :class:`MqttLink` is one client: it connects in the
background (paho's own network thread, :meth:`MqttLink.start`), reconnects by itself after the
broker or the network went away, subscribes again on every connect, and hands each message it
receives to the ``on_message`` callable given at construction, on paho's thread; the caller hands
it to its own loop or queue.

The session is persistent (``clean_start`` false, a session expiry of a day by default), so the
broker keeps a table's subscriptions and its QoS 1 messages while the table is away. paho keeps
messages not yet acknowledged in memory only: whoever must not lose a message keeps it on disk
until the other side answers, and publishes it again after a restart (the table's outbox does).
"""

from __future__ import annotations

import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import paho.mqtt.client as paho
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

__all__ = ["Delivery", "MqttError", "MqttLink", "MqttSettings", "Will"]

#: A day: how long the broker keeps a table's session (subscriptions, queued messages) after
#: it went away.
DEFAULT_SESSION_EXPIRY_S = 86_400
#: Default ports of the two URL schemes.
_PORTS = {"mqtt": 1883, "mqtts": 8883}


class MqttError(ValueError):
    """A setting that cannot make a connection (bad URL, unreadable CA file): one line."""


@dataclass(frozen=True, slots=True)
class Will:
    """The Last Will: what the broker publishes for a client that vanished without a goodbye."""

    topic: str
    payload: bytes
    retain: bool = True
    qos: int = 1


@dataclass(frozen=True, slots=True)
class MqttSettings:
    """Where the broker is and who we are to it."""

    #: ``mqtt://host[:port]`` or ``mqtts://host[:port]`` (TLS).
    url: str
    client_id: str
    username: str | None = None
    password: str | None = None
    #: A CA certificate file for ``mqtts://`` when the broker's certificate is not in the
    #: system's store (a venue's own CA).
    ca_file: str | None = None
    session_expiry_s: int = DEFAULT_SESSION_EXPIRY_S
    keepalive_s: int = 15
    will: Will | None = None

    def __post_init__(self) -> None:
        host, port, _tls = self.address()
        if not host:
            raise MqttError(f"broker URL {self.url!r} has no host: use mqtt://HOST[:PORT]")
        if not 0 < port < 65536:
            raise MqttError(f"broker URL {self.url!r}: port {port} is not 1-65535")
        if not self.client_id:
            raise MqttError("an MQTT client needs a client id")

    def address(self) -> tuple[str, int, bool]:
        """The broker's host, port and whether the link uses TLS."""
        parts = urlsplit(self.url)
        if parts.scheme not in _PORTS:
            raise MqttError(f"broker URL {self.url!r}: the scheme must be mqtt:// or mqtts://")
        try:
            port = parts.port or _PORTS[parts.scheme]
        except ValueError:
            raise MqttError(f"broker URL {self.url!r}: the port is not a number") from None
        return parts.hostname or "", port, parts.scheme == "mqtts"


class Delivery:
    """One publish on its way: :meth:`done` once the broker acknowledged it (QoS 1)."""

    def __init__(self, info: paho.MQTTMessageInfo) -> None:
        self._info = info

    def done(self) -> bool:
        """Whether the broker has the message (for QoS 0: whether it was written out)."""
        return bool(self._info.is_published())


class MqttLink:
    """One MQTT 5 client with a persistent session, run on paho's network thread."""

    def __init__(
        self,
        settings: MqttSettings,
        on_message: Callable[[str, bytes], None],
        on_connect_change: Callable[[bool], None] | None = None,
    ) -> None:
        self.settings = settings
        self._on_message = on_message
        self._on_connect_change = on_connect_change
        self._topics: dict[str, int] = {}
        self._lock = threading.Lock()
        self._connected = threading.Event()
        self._started = False
        client = paho.Client(
            CallbackAPIVersion.VERSION2,
            client_id=settings.client_id,
            protocol=paho.MQTTv5,
        )
        if settings.username is not None:
            client.username_pw_set(settings.username, settings.password)
        _host, _port, tls = settings.address()
        if tls:
            try:
                client.tls_set(ca_certs=settings.ca_file, cert_reqs=ssl.CERT_REQUIRED)
            except (OSError, ssl.SSLError) as error:
                raise MqttError(f"CA file {settings.ca_file!r}: {error}") from None
        if settings.will is not None:
            will = settings.will
            client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)
        # Reconnect quickly after a broker restart, but never hammer a broker that stays down.
        client.reconnect_delay_set(min_delay=1, max_delay=8)
        client.max_queued_messages_set(0)
        client.on_connect = self._connected_to_broker
        client.on_disconnect = self._disconnected
        client.on_message = self._received
        self._client = client

    @property
    def connected(self) -> bool:
        """Whether the link is connected to the broker now."""
        return self._connected.is_set()

    def wait_connected(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for a connection; whether there is one."""
        return self._connected.wait(timeout_s)

    def start(self) -> None:
        """Connect in the background; paho's thread keeps reconnecting until :meth:`stop`."""
        if self._started:
            return
        host, port, _tls = self.settings.address()
        properties = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        properties.SessionExpiryInterval = self.settings.session_expiry_s
        self._client.connect_async(
            host,
            port,
            keepalive=self.settings.keepalive_s,
            clean_start=False,
            properties=properties,
        )
        self._client.loop_start()
        self._started = True

    def stop(self) -> None:
        """Say goodbye to the broker (no Last Will) and end the network thread."""
        if not self._started:
            return
        self._client.disconnect()
        self._client.loop_stop()
        self._started = False
        self._set_connected(False)

    def publish(
        self, topic: str, payload: bytes, *, qos: int = 1, retain: bool = False
    ) -> Delivery:
        """Queue a message; paho sends it now or after the next connect."""
        return Delivery(self._client.publish(topic, payload, qos=qos, retain=retain))

    def subscribe(self, topic: str, qos: int = 1) -> None:
        """Receive ``topic`` (wildcards allowed), now and after every reconnect."""
        with self._lock:
            self._topics[topic] = qos
        if self.connected:
            self._client.subscribe(topic, qos=qos)

    # paho's callbacks, on its network thread.

    def _connected_to_broker(
        self,
        client: paho.Client,
        _userdata: object,
        _flags: paho.ConnectFlags,
        reason: ReasonCode,
        _properties: Properties | None,
    ) -> None:
        if reason.is_failure:
            return
        with self._lock:
            topics = list(self._topics.items())
        if topics:
            client.subscribe(topics)
        self._set_connected(True)

    def _disconnected(
        self,
        _client: paho.Client,
        _userdata: object,
        _flags: paho.DisconnectFlags,
        _reason: ReasonCode,
        _properties: Properties | None,
    ) -> None:
        self._set_connected(False)

    def _received(self, _client: paho.Client, _userdata: object, message: paho.MQTTMessage) -> None:
        self._on_message(message.topic, bytes(message.payload))

    def _set_connected(self, now: bool) -> None:
        if now == self._connected.is_set():
            return
        if now:
            self._connected.set()
        else:
            self._connected.clear()
        if self._on_connect_change is not None:
            self._on_connect_change(now)
