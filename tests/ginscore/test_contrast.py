"""What axe-core cannot measure, measured here: a text box's edge and the keyboard's focus ring stand out from
the page and the white of a card by 3:1 or more (WCAG 1.4.11), and the grey of secondary text reads at 4.5:1
or more (1.4.3)."""

import pathlib
import re

import pytest

STYLES = pathlib.Path(__file__).resolve().parents[2] / "static" / "css"
CSS = (STYLES / "site.css").read_text()
LIGHT_PAGES = CSS + (STYLES / "events.css").read_text()  # the projector's (display.css) is light on dark


def variable(name: str) -> str:
    return re.search(rf"--{name}:\s*(#[0-9a-fA-F]{{6}})", CSS).group(1)


def luminance(colour: str) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize("ground", ["paper", "#ffffff"])
@pytest.mark.parametrize("part", ["edge", "focus"])
def test_controls_and_the_focus_ring_stand_out_by_three_to_one(part, ground):
    against = variable(ground) if not ground.startswith("#") else ground
    assert contrast(variable(part), against) >= 3.0


def test_every_grey_of_text_reads_at_four_and_a_half_to_one_on_white():
    greys = set(re.findall(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", LIGHT_PAGES))
    weak = {g: round(contrast(g, "#ffffff"), 2) for g in greys if contrast(g, "#ffffff") < 4.5}
    assert weak == {}


def test_the_measure_is_right():
    assert round(contrast("#777777", "#ffffff"), 2) == 4.48
    assert round(contrast("#d9d5c7", "#ffffff"), 2) == 1.47  # the text boxes' edge before: about 1.4:1
