"""TLS as docs/tournament.md tells a venue to set it up: a second listener with the venue's CA, the
hub's certificate and key, under the installer's conf.d file, in Debian's real mosquitto; a table
on ``mqtts://`` with its ``ca_file`` gets in, and nothing gets in without the right CA."""

from __future__ import annotations

import queue
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as paho
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.reasoncodes import ReasonCode

from firmware.wire.broker import HUB_USER, acl_text, mosquitto_conf
from firmware.wire.messages import table_user
from hal.mqtt import MqttError, MqttLink, MqttSettings
from sim.tournament import processes
from sim.tournament.demo import hand_to_mosquitto
from tests.broker import MOSQUITTO, MOSQUITTO_PASSWD, free_port, mosquitto_missing
from tests.tournament.test_acl import connack_of

OPENSSL = shutil.which("openssl")

pytestmark = [
    pytest.mark.skipif(mosquitto_missing() is not None, reason=str(mosquitto_missing())),
    pytest.mark.skipif(OPENSSL is None, reason="openssl is missing (apt-get install openssl)"),
]


def openssl(*args: str, cwd: Path) -> None:
    assert OPENSSL is not None
    subprocess.run([OPENSSL, *args], cwd=cwd, check=True, capture_output=True)


def make_ca(folder: Path, name: str) -> None:
    """``name``.crt and .key: a CA of the venue's own, as the docs' openssl line makes it."""
    openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "2", "-keyout",
            f"{name}.key", "-out", f"{name}.crt", "-subj", f"/CN={name}", cwd=folder)  # fmt: skip


def make_hub_certificate(folder: Path, ca: str) -> None:
    """hub.crt and hub.key for 127.0.0.1 (its subjectAltName), signed by ``ca``."""
    openssl("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", "hub.key", "-out", "hub.csr",
            "-subj", "/CN=hub", cwd=folder)  # fmt: skip
    (folder / "san.ext").write_text("subjectAltName = IP:127.0.0.1, DNS:localhost\n")
    openssl("x509", "-req", "-in", "hub.csr", "-CA", f"{ca}.crt", "-CAkey", f"{ca}.key",
            "-CAcreateserial", "-days", "2", "-extfile", "san.ext", "-out", "hub.crt",
            cwd=folder)  # fmt: skip


@pytest.fixture(scope="module")
def tls_broker() -> Iterator[tuple[int, int, Path, dict[str, str]]]:
    """The installer's conf.d file and the docs' schocken-tls.conf under Debian's layout: one
    broker and its certificates for the module (no test changes either)."""
    folder = Path(tempfile.mkdtemp(prefix="schock-tls-"))
    try:
        certs, conf_d = folder / "certs", folder / "conf.d"
        certs.mkdir()
        conf_d.mkdir()
        (folder / "data").mkdir()
        make_ca(certs, "venue-ca")
        make_ca(certs, "other-ca")
        make_hub_certificate(certs, "venue-ca")
        passwords = {HUB_USER: "hub-secret", table_user(7): "table-secret"}
        (folder / "plain").write_text("".join(f"{u}:{p}\n" for u, p in passwords.items()))
        subprocess.run([MOSQUITTO_PASSWD, "-U", str(folder / "plain")], check=True)
        (folder / "acl").write_text(acl_text())
        plain_port, tls_port = free_port(), free_port()
        (conf_d / "schocken.conf").write_text(
            mosquitto_conf(
                port=plain_port, persistence_dir=None,
                password_file=folder / "plain", acl_file=folder / "acl",
            )
        )  # fmt: skip
        (conf_d / "schocken-tls.conf").write_text(
            f"listener {tls_port} 127.0.0.1\nuse_username_as_clientid true\n"
            f"cafile {certs}/venue-ca.crt\n"
            f"certfile {certs}/hub.crt\nkeyfile {certs}/hub.key\n"
        )
        (folder / "mosquitto.conf").write_text(
            f"persistence true\npersistence_location {folder}/data/\n"
            f"log_dest file {folder}/mosquitto.log\ninclude_dir {conf_d}\n"
        )
        hand_to_mosquitto(folder)
        process = subprocess.Popen([MOSQUITTO, "-c", str(folder / "mosquitto.conf")])
        try:
            started = processes.await_port(process, tls_port, 10)
            assert started is not processes.Started.EXITED, (folder / "mosquitto.log").read_text()
            assert started is processes.Started.LISTENING, "the TLS listener does not listen"
            yield plain_port, tls_port, certs, passwords
        finally:
            processes.stop(process)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def table_link(url: str, password: str, ca_file: str | None) -> MqttLink:
    """Table 7's link, posing as the hub by its client id: the TLS listener takes the login as
    the client id too (``use_username_as_clientid``), so it is table-7 and leaves the hub be."""
    return MqttLink(
        MqttSettings(url=url, client_id="hub", username=table_user(7),
                     password=password, ca_file=ca_file),
        on_message=lambda topic, payload: None,
    )  # fmt: skip


def test_a_table_gets_in_over_tls_with_the_venues_ca(
    tls_broker: tuple[int, int, Path, dict[str, str]],
) -> None:
    _plain, port, certs, passwords = tls_broker
    inbox: queue.Queue[tuple[str, bytes]] = queue.Queue()
    hub = MqttLink(
        MqttSettings(url=f"mqtts://127.0.0.1:{port}", client_id="hub", username=HUB_USER,
                     password=passwords[HUB_USER], ca_file=str(certs / "venue-ca.crt")),
        on_message=lambda topic, payload: inbox.put((topic, payload)),
    )  # fmt: skip
    hub.subscribe("schock/+/table/+/result")
    table = table_link(
        f"mqtts://127.0.0.1:{port}", passwords[table_user(7)], str(certs / "venue-ca.crt")
    )
    try:
        hub.start()
        table.start()
        assert hub.wait_connected(10) and table.wait_connected(10)
        # The same ACL over TLS: the table's result reaches the hub.
        for _ in range(40):
            table.publish("schock/dm2026/table/table-7/result", b"{}")
            try:
                assert inbox.get(timeout=0.25)[0] == "schock/dm2026/table/table-7/result"
                break
            except queue.Empty:
                continue
        else:
            pytest.fail("no result over TLS")
    finally:
        table.stop()
        hub.stop()


def handshake(port: int, ca_file: Path | None) -> None:
    """A TLS handshake with the broker as a table's link makes it: the certificate checked
    against ``ca_file`` (else the system's CAs), host name included."""
    context = ssl.create_default_context(cafile=None if ca_file is None else str(ca_file))
    with (
        socket.create_connection(("127.0.0.1", port), timeout=5) as raw,
        context.wrap_socket(raw, server_hostname="127.0.0.1"),
    ):
        pass


def test_only_the_venues_ca_vouches_for_the_hub(
    tls_broker: tuple[int, int, Path, dict[str, str]],
) -> None:
    _plain, port, certs, _passwords = tls_broker

    handshake(port, certs / "venue-ca.crt")
    for ca_file in (certs / "other-ca.crt", None):  # None: the system's CAs
        with pytest.raises(ssl.SSLCertVerificationError):
            handshake(port, ca_file)


def test_a_table_link_with_another_ca_stays_out(
    tls_broker: tuple[int, int, Path, dict[str, str]],
) -> None:
    _plain, port, certs, passwords = tls_broker
    link = table_link(
        f"mqtts://127.0.0.1:{port}", passwords[table_user(7)], str(certs / "other-ca.crt")
    )
    failed = threading.Event()  # paho's attempt, refused in the handshake
    # paho waits out its reconnect delay (1 s) in the stop below: a short one, as the check is
    # that the link stays out, not when it tries again.
    link._client.reconnect_delay_set(min_delay=0.05, max_delay=0.1)  # type: ignore[arg-type]
    link._client.on_connect_fail = lambda _client, _userdata: failed.set()
    try:
        link.start()
        assert failed.wait(10), "no attempt to connect"
        assert not link.connected
    finally:
        link.stop()


def test_the_tls_listener_takes_the_same_passwords(
    tls_broker: tuple[int, int, Path, dict[str, str]],
) -> None:
    _plain, port, certs, passwords = tls_broker

    def connack(password: str) -> ReasonCode:
        answer: queue.Queue[ReasonCode] = queue.Queue()
        client = paho.Client(CallbackAPIVersion.VERSION2, client_id="t7", protocol=paho.MQTTv5)
        client.tls_set(ca_certs=str(certs / "venue-ca.crt"))
        client.username_pw_set(table_user(7), password)
        client.on_connect = lambda _c, _u, _f, reason, _p: answer.put(reason)
        client.connect("127.0.0.1", port)
        try:
            return connack_of(client, answer)
        finally:
            client.disconnect()

    assert connack("wrong").is_failure
    assert not connack(passwords[table_user(7)]).is_failure


def test_an_unreadable_ca_file_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(MqttError, match="CA file"):
        table_link("mqtts://127.0.0.1:8883", "x", str(tmp_path / "missing.crt"))
