"""`schocken bench` works and reports every figure. No time is asserted: the figures belong in
docs/performance.md."""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pytest_mock import MockerFixture

from schockbesteck.cli import main
from sim.bench import web
from sim.bench.cli import as_markdown, as_table
from sim.bench.figures import percentile
from sim.bench.measure import GROUPS, Measurement, bus_speed

#: Figures every machine reports, with a value above zero, by group of rows (``--only``).
POSITIVE: dict[str, list[str]] = {
    "engine": ["throw_eval_ns", "settle_round_us"],
    "odds": [
        *("odds_query_ms", "odds_table_build_ms", "odds_bot_tables_ms", "hint_opener_ms"),
        *("hint_opening_prepared_ms", "hint_later_ms", "simulate_rounds_per_s"),
    ],
    "games": [
        "render_ms",
        *(
            f"{player}_{key}"
            for player in ("robot", "human")
            for key in (
                "longest_step_ms",
                "longest_step_cpu_ms",
                "longest_fsync_ms",
                "latency_p99_ms",
                "screen_changes",
                "i2c_wire_bytes_avg",
                "i2c_full_frame_pct",
                "i2c_wire_bytes_max",
                "i2c_transactions_avg",
            )
        ),
    ],
    "start-up": [
        *("first_frame_s", "run_first_frame_s", "run_first_frame_cpu_s", "peak_rss_mb"),
        *("run_peak_rss_mb", "run_bots_peak_rss_mb", "bare_cpu_ms", "rank_cpu_ratio"),
        "odds_cpu_ratio",
    ],
    "entry": ["entry_round_presses_median", "entry_round_s_median", "entry_round_s_p90"],
    "evening": ["sheet_import_ms", "sheet_pdf_ms", "sheet_csv_ms", "evening_standings_ms"],
    "web": [
        *("web_latency_p99_ms", "web_board_p99_ms", "web_peak_rss_mb", "crowd_ping_p99_ms"),
        *("crowd_ping_p50_ms", "crowd_oled_p99_ms", "crowd_peak_rss_mb", "crowd_answer_mb_s"),
        *("crowd_bots_ping_p99_ms", "crowd_bots_peak_rss_mb"),
        *("pairing_first_tap", "pairing_pair_max_ms", "pairing_reload_max_ms"),
        *("flood_ping_p99_ms", "flood_cpu_pct", "flood_closed"),
    ],
}
#: Figures of an idle loop: zero is the ideal.
NOT_NEGATIVE: dict[str, list[str]] = {
    "idle": ["idle_cpu_pct", "idle_wakeups_per_s"],
    "simulator": ["sim_window_idle_cpu_pct", "sim_terminal_idle_cpu_pct"],
    "web": ["web_idle_cpu_pct"],
}
PI = ["pi_full_frames_per_s", "pi_game_frames_per_s", "i2c_bus_hz"]
#: The hub's figures that are positive when measured.
HUB = [
    *("hub_results_per_s", "hub_duplicates_per_s", "hub_tv_p50_ms", "hub_tv_p99_ms"),
    *("hub_tv_results", "hub_load_per_s", "hub_peak_rss_mb", "broker_peak_rss_mb"),
]
#: A DM's hall's figures (150 tables, 600 phones) that are positive when measured.
HALL = [
    *("hall_phone_bytes_per_result", "hall_snapshot_kb", "hall_tv_p99_ms", "hall_tv_results"),
    *("hall_phones_open", "hall_phones_equal", "hall_hub_peak_rss_mb", "hall_hub_kb_per_phone"),
]
#: Every group's figures named above.
NAMED = {
    group: [*POSITIVE.get(group, []), *NOT_NEGATIVE.get(group, [])]
    for group in (*POSITIVE, *NOT_NEGATIVE)
} | {"display": PI, "hub": HUB, "phones": HALL}


#: What the hub's rows say in `make test`'s run: the hub's bench (100 tables on a real broker,
#: a quarter of the run's time) runs in the slow selection's whole run.
HUB_LEFT_OUT = "skipped: the hub's bench runs in make test-long"

#: The groups of rows `make test` measures, a fraction of a second of the run (the others, half a
#: minute and more, in the slow selection's whole run): the engine, the idle loop, the real
#: display (skipped off a Pi) and the hub (skipped, :data:`HUB_LEFT_OUT`). The dice entry's rows
#: are the slow run's too: make test measures the entry they are made of on the device's pins
#: (tests/bench/test_bench_game.py).
FEW_GROUPS = ("engine", "idle", "display", "hub", "phones")


@dataclass(frozen=True)
class BenchRun:
    """One `schocken bench --quick --json` run: the groups of rows it measured, and its JSON."""

    groups: tuple[str, ...]
    json: dict[str, Any]


def bench_json(groups: tuple[str, ...], *, hub: bool) -> BenchRun:
    """`schocken bench --quick --json` through the CLI's entry point, ``--only`` the ``groups``
    (all of them: no ``--only``); without ``hub`` the hub's rows are skipped by the bench's own
    skip (one line), as without mosquitto."""
    out = io.StringIO()
    only = [] if set(groups) == set(GROUPS) else ["--only", ",".join(groups)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdout", out)
        if not hub:
            from sim.bench import hub_load

            patch.setattr(hub_load, "_problem", lambda: HUB_LEFT_OUT)
        status = main(["bench", "--quick", "--json", *only])
    assert status == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return BenchRun(groups, data)


@pytest.fixture(scope="module")
def whole_report() -> BenchRun:
    """`schocken bench --quick --json` with every row (the slow selection)."""
    return bench_json(tuple(GROUPS), hub=True)


@pytest.fixture(
    scope="module",
    params=["few-rows", pytest.param("whole", marks=pytest.mark.slow)],
)
def report(request: pytest.FixtureRequest) -> BenchRun:
    """The bench's quick run: in `make test` ``--only`` :data:`FEW_GROUPS`, the hub's rows
    skipped; in the slow selection the whole run (the one :func:`whole_report` made)."""
    if request.param == "whole":
        whole: BenchRun = request.getfixturevalue("whole_report")
        return whole
    return bench_json(FEW_GROUPS, hub=False)


def test_every_figure_is_reported_with_a_number(report: BenchRun) -> None:
    data = report.json
    for group in report.groups:
        for key in POSITIVE.get(group, []):
            assert isinstance(data[key], int | float) and data[key] > 0, key
        for key in NOT_NEGATIVE.get(group, []):
            assert isinstance(data[key], int | float) and data[key] >= 0, key
    if "games" not in report.groups:
        return
    # The worst screen change costs no more than a whole frame, and at least the average.
    for player in ("robot", "human"):
        average = data[f"{player}_i2c_wire_bytes_avg"]
        worst = data[f"{player}_i2c_wire_bytes_max"]
        assert average <= worst <= 1034
        # A managed-mode transaction carries at least one byte besides its address and control.
        assert data[f"{player}_i2c_transactions_avg"] * 3 <= average


def test_only_the_chosen_groups_rows_are_there(report: BenchRun) -> None:
    """``--only`` measures its groups and leaves every other row out, measured or skipped."""
    data = report.json
    for group, keys in NAMED.items():
        for key in keys:
            there = key in data or key in data["skipped"]
            assert there == (group in report.groups), (group, key)


def test_a_group_that_does_not_exist_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--quick", "--only", "engine,pi"]) == 2
    error = capsys.readouterr().err
    assert len(error.strip().splitlines()) == 1, error
    assert "--only: no such group: pi (the groups: engine, odds, games, idle, " in error


def test_the_real_display_is_measured_or_skipped_with_a_reason(report: BenchRun) -> None:
    data = report.json
    for key in PI:
        if key in data:
            assert data[key] > 0, key
        else:
            assert data["skipped"][key].startswith("skipped"), key
    if not Path("/dev/i2c-1").exists():
        assert all("no /dev/i2c-1" in data["skipped"][key] for key in PI)


def test_the_machine_and_the_targets_are_named(report: BenchRun) -> None:
    data = report.json
    assert set(data["machine"]) == {"platform", "python", "cpu", "cores"}
    assert data["targets"]["throw_eval_ns"] == 1000
    if "entry" in report.groups:
        assert data["targets"]["entry_round_s_median"] == 20
    if "start-up" in report.groups:
        assert data["targets"]["peak_rss_mb"] == 60
    assert set(data["over_target"]) <= set(data["targets"])


def test_the_table_marks_targets_and_sums_up_what_was_skipped() -> None:
    table = as_table(
        [
            Measurement("throw_eval_ns", "throw evaluation", 420.0, "ns", target=1000),
            Measurement("render_ms", "render a screen", 2.5, "ms", target=2),
            Measurement("settle_round_us", "settling a round", 40.0, "µs"),
            Measurement("i2c_bus_hz", "I2C bus speed", None, "Hz", note="skipped: no bus"),
            Measurement("pi_full_frames_per_s", "frames", None, "fps", note="skipped: no bus"),
        ]
    )
    lines = table.splitlines()
    assert lines[0].split() == ["measurement", "value", "unit", "target"]
    assert lines[2].split()[-1] == "OK" and "420" in lines[2]
    assert lines[3].split()[-1] == "over"
    assert lines[4].split()[-1] == "µs"  # no target, no verdict
    assert lines[-1] == "skipped: no bus (I2C bus speed, frames)"


@pytest.mark.parametrize(
    ("values", "share", "expected"),
    [
        ([float(v) for v in range(100, 0, -1)], 0.99, 99.0),  # nearest rank, any order
        ([float(v) for v in range(1, 201)], 0.99, 198.0),
        ([1.0, 2.0, 3.0, 4.0], 0.5, 2.0),
        ([1.0, 2.0, 3.0], 0.5, 2.0),
        ([7.0], 0.99, 7.0),
        ([3.0, 1.0], 0.0, 1.0),
        ([3.0, 1.0], 1.0, 3.0),
    ],
)
def test_a_percentile_is_the_nearest_rank(
    values: list[float], share: float, expected: float
) -> None:
    """The one percentile of the game and the page figures (sim/bench/figures.py)."""
    assert percentile(values, share) == expected


def test_bus_speed_reads_the_device_tree_then_config_txt(tmp_path: Path) -> None:
    node = tmp_path / "clock-frequency"
    node.write_bytes((400_000).to_bytes(4, "big"))
    config = tmp_path / "config.txt"
    config.write_text("# i2c\ndtparam=audio=on\ndtparam=i2c_arm=on,i2c_arm_baudrate=100000\n")
    missing = str(tmp_path / "nothing")
    assert bus_speed(1, (missing, str(node), str(config))) == (400_000, str(node))
    assert bus_speed(1, (missing, str(config))) == (100_000, f"{config} (dtparam)")
    config.write_text("#dtparam=i2c_arm_baudrate=400000\n")
    assert bus_speed(1, (missing, str(config))) is None


def test_the_markdown_has_the_figures_the_bus_times_and_a_pi_estimate() -> None:
    page = as_markdown(
        [
            Measurement("render_ms", "render a screen", 0.025, "ms", target=0.06),
            Measurement("human_i2c_wire_bytes_avg", "human-like: bytes", 263.0, "bytes"),
            Measurement("human_i2c_transactions_avg", "human-like: writes", 8.0, "writes"),
            Measurement("i2c_bus_hz", "I2C bus speed", None, "Hz", note="skipped: no bus"),
        ]
    )
    lines = page.splitlines()
    assert "| render a screen | 0.025 | ms | < 0.06 | OK |" in lines
    assert "Skipped: no bus (I2C bus speed)." in lines
    # 9 clocks a byte and 2 a transaction: 1034 bytes in 2 transactions, 263 in 8.
    assert any(line.endswith("| 1,034 | 2 | 9,310 | 93.1 ms | 23.3 ms |") for line in lines)
    assert "| an average change, human-like game | 263 | 8 | 2,383 | 23.8 ms | 6.0 ms |" in lines
    assert "| render a screen | 0.025 ms | 0.25 ms |" in lines


@pytest.mark.slow
def test_the_table_page_under_load_is_measured(whole_report: BenchRun) -> None:
    """Twenty pages during a game: the latencies, idle CPU and memory (sim/bench/web.py). (`make
    test` has the crowd's measurement in a short form, tests/web/test_crowd_server.py.)"""
    report = whole_report.json
    for key in ("web_latency_p99_ms", "web_board_p99_ms", "web_peak_rss_mb"):
        assert isinstance(report[key], int | float) and report[key] > 0, key
    assert report["web_idle_cpu_pct"] >= 0
    assert report["targets"]["web_latency_p99_delta_ms"] == 5
    assert report["targets"]["web_peak_rss_mb"] == 60
    assert report["targets"]["web_idle_cpu_pct"] == 1


@pytest.mark.slow
def test_a_crowd_of_unpaired_pages_is_measured(whole_report: BenchRun) -> None:
    """A crowd at its limits beside a paired page: its ping and press to OLED, and memory."""
    report = whole_report.json
    for key in ("crowd_ping_p99_ms", "crowd_ping_p50_ms", "crowd_oled_p99_ms",
                "crowd_peak_rss_mb", "crowd_answer_mb_s", "crowd_bots_peak_rss_mb"):
        assert isinstance(report[key], int | float) and report[key] > 0, key
    assert report["targets"]["crowd_ping_p99_ms"] == 100
    assert report["targets"]["crowd_peak_rss_mb"] == web.CROWD_MEMORY_TARGET_MB
    assert report["targets"]["crowd_bots_peak_rss_mb"] == web.CROWD_MEMORY_TARGET_MB


def test_the_bench_measures_the_device_as_schocken_run_builds_it(mocker: MockerFixture) -> None:
    """Its odds worker included, which builds the tables a game needs as the game begins (the
    memory rows would otherwise be those of a build nobody runs): each of the page's children
    asks ``build_device`` for it (stopped there; no server is bound, no child started)."""

    class Built(Exception):
        pass

    build = mocker.patch("firmware.wiring.build_device", side_effect=Built)
    mocker.patch("hal.web_server.WebServer")
    mocker.patch("firmware.link.webtable.page_files", return_value={})
    for child in (web._device_on_a_page, lambda: web._child(0.1, 1),
                  lambda: web._crowd_child(0.1, 2, bots=web.CROWD_BOTS)):
        with pytest.raises(Built):
            child()
    assert [call.kwargs["odds_worker"] for call in build.call_args_list] == [True] * 3
    bots = build.call_args_list[-1].args[0].game.bots
    assert bots == ("odds",) * web.CROWD_BOTS


@pytest.mark.slow
def test_pairing_under_a_crowd_is_measured(whole_report: BenchRun) -> None:
    """A person pairs under a crowd asking what only the main loop answers: on the first tap
    every time (a count: the times are the bench's figures, not asserted)."""
    from sim.bench import measure

    report = whole_report.json
    assert report["pairing_first_tap"] == measure.Settings.quick().pairing_runs
    assert report["pairing_reload_max_ms"] > 0
    assert report["targets"]["pairing_reload_max_ms"] == 1000


def test_quick_waits_little_and_measures_the_two_simulators_side_by_side(
    mocker: MockerFixture,
) -> None:
    """`bench --quick` takes about ten seconds, as docs/cli.md says: its idle windows are short,
    and the window's and the terminal's idle processes run at once (each waits here until the
    other has started: measured one after the other, the barrier would break)."""
    import threading

    from sim.bench import measure

    quick = measure.Settings.quick()
    assert quick.idle_s + quick.sim_warm_up_s + quick.sim_idle_s <= 2.0
    both = threading.Barrier(2, timeout=10)

    def idle_process(*args: object) -> float:
        both.wait()
        return 0.5

    spy = mocker.patch("sim.bench.measure._idle_share", side_effect=idle_process)
    mocker.patch("sim.window.pygame_problem", return_value=None)
    figures = {m.key: m.value for m in measure.idle_simulator(quick)}
    assert spy.call_count == 2
    assert figures == {"sim_window_idle_cpu_pct": 0.5, "sim_terminal_idle_cpu_pct": 0.5}


def test_without_the_web_extra_the_pages_rows_are_skipped_naming_why(
    mocker: MockerFixture,
) -> None:
    """`make sim` leaves aiohttp out: the page's and the crowd's rows are there, skipped, and
    nothing is measured."""
    mocker.patch.dict("sys.modules", {"aiohttp": None})
    sys.modules.pop("hal.web_server", None)  # imported afresh, so that it meets no aiohttp
    pages = mocker.patch.object(web, "measure_pages")
    crowd = mocker.patch.object(web, "measure_crowd")
    rows = web.page_figures(0.1, 1) + web.crowd_figures(0.1, 3)
    assert len(rows) == 13 and all(row.value is None for row in rows)
    assert {row.note for row in rows} == {
        "skipped: the web extra is not installed (pip install -e '.[web]')"
    }
    assert "2 unpaired pages" in rows[6].label
    pages.assert_not_called()
    crowd.assert_not_called()


def test_each_row_of_the_hub_has_a_number_or_its_one_line_reason(report: BenchRun) -> None:
    """The hub's rows are there either way: measured, or skipped naming why (in `make test`'s
    run, that the slow selection measures them)."""
    data = report.json
    for key in HUB:
        if key in data["skipped"]:
            assert data["skipped"][key].startswith("skipped: "), key
            assert key not in data
        else:
            assert isinstance(data[key], int | float), key


@pytest.mark.slow
def test_a_tournaments_hub_with_100_tables_is_measured(whole_report: BenchRun) -> None:
    """100 simulated tables on a real mosquitto, `schocken hub serve` as a subprocess
    (sim/bench/hub_load.py): every row has a number, or all are skipped naming mosquitto. (`make
    test` has the hub's bench in pieces, tests/bench/test_bench_hub.py.)"""
    report = whole_report.json
    if not Path("/usr/sbin/mosquitto").exists():
        assert all("mosquitto is not installed" in report["skipped"][key] for key in HUB)
        return
    for key in HUB:
        assert isinstance(report.get(key), int | float) and report[key] > 0, report["skipped"]
    for key in ("hub_tv_unseen", "hub_cpu_pct", "hub_burst_cpu_pct", "broker_cpu_pct",
                "broker_burst_cpu_pct", "hub_burst_states_per_100"):
        assert report[key] >= 0, key
    assert report["hub_tv_p50_ms"] <= report["hub_tv_p99_ms"]
    assert report["targets"]["hub_tv_p99_ms"] == 1000


@pytest.mark.slow
def test_a_dms_hall_with_600_phones_is_measured(whole_report: BenchRun) -> None:
    """150 tables and 600 loopback phones on the hub's stream (sim/bench/phones.py): every row
    has a number, every phone's stream stayed open, the checked phones hold the TV's state;
    or all are skipped naming mosquitto. No time is asserted."""
    report = whole_report.json
    if not Path("/usr/sbin/mosquitto").exists():
        assert all("mosquitto is not installed" in report["skipped"][key] for key in HALL)
        return
    for key in HALL:
        assert isinstance(report.get(key), int | float) and report[key] > 0, report["skipped"]
    assert report["hall_phones_open"] == 600 and report["hall_phones_equal"] == 10
    assert report["targets"]["hall_phone_bytes_per_result"] == 10_000
    assert report["targets"]["hall_tv_p99_ms"] == 250
