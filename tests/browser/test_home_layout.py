"""The home page's choices read as one line each on a small phone: each radio sits beside its own words."""

from __future__ import annotations

import pytest

from .conftest import Phones, Server


@pytest.mark.browser
@pytest.mark.parametrize("width", [320, 390])
def test_each_game_choice_has_its_radio_beside_the_first_line_of_its_words(
    server: Server, phones: Phones, width: int
) -> None:
    page = phones.new()
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(server.url + "/")
    choices = page.locator("label.choice")
    assert choices.count() == 3
    for index in range(choices.count()):
        label = choices.nth(index)
        radio = label.locator("input[type=radio]").bounding_box()
        words = label.bounding_box()
        assert radio is not None and words is not None
        # Beside, not above: the words start to the right of the radio, and the label is not a radio-high
        # line followed by the words underneath (which made each choice look like two items).
        line = float(page.evaluate("el => parseFloat(getComputedStyle(el).lineHeight) || 24", label.element_handle()))
        assert radio["x"] + radio["width"] <= words["x"] + 40, label.inner_text()
        assert words["height"] <= 3 * line + 20, f"{label.inner_text()!r} is {words['height']} px high"
        first_line_middle = words["y"] + min(words["height"], 2 * line) / 2
        assert abs((radio["y"] + radio["height"] / 2) - first_line_middle) <= line, label.inner_text()
