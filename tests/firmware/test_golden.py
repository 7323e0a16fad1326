"""Every screen against its golden PNG, pixel for pixel (see tests/firmware/README.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from firmware.screen.screens import SCREENS, render
from hal.ports import SCREEN_SIZE

from .golden import GOLDEN_DIR, SCENES, golden_path

REFRESH = "python -m tests.firmware.golden --refresh"


@pytest.mark.parametrize("name", sorted(SCENES))
def test_screen_matches_its_golden_image(name: str, tmp_path: Path) -> None:
    path = golden_path(name)
    assert path.exists(), f"no golden image for {name!r}: run `{REFRESH}` and look at it"
    actual = render(SCENES[name])
    assert actual.mode == "1" and actual.size == SCREEN_SIZE
    expected = Image.open(path)
    assert expected.mode == "1" and expected.size == SCREEN_SIZE
    if actual.tobytes() != expected.tobytes():
        actual.save(tmp_path / f"{name}.png")
        diff = sum(a != b for a, b in zip(actual.tobytes(), expected.tobytes(), strict=True))
        pytest.fail(
            f"{name}: the screen changed ({diff} bytes differ); this render is at "
            f"{tmp_path / name}.png. If the change is intended, run `{REFRESH}` and look at it."
        )


def test_no_golden_image_without_a_scene() -> None:
    stale = {p.stem for p in GOLDEN_DIR.glob("*.png")} - set(SCENES)
    assert not stale, f"golden images of no scene: {sorted(stale)}; run `{REFRESH}`"


def test_every_screen_type_has_a_golden_image() -> None:
    assert {type(view) for view in SCENES.values()} == set(SCREENS)


def test_rendering_is_deterministic() -> None:
    for view in SCENES.values():
        assert render(view).tobytes() == render(view).tobytes()
