"""Small phones: the home page's choices keep each radio beside its words; no card's word breaks in the middle."""

from __future__ import annotations

import pytest

from .conftest import Phones, Server
from .table import start_from_home


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


# The words of every button in the pad that are split across two lines (a word is split when the browser
# needs more than one box to draw it).
SPLIT_WORDS = """
() => [...document.querySelectorAll('#pad button')].flatMap(button => {
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  const split = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
      if (lines.size > 1) split.push(match[0]);
    }
  }
  return split;
})
"""


@pytest.mark.browser
def test_no_card_breaks_a_word_in_the_middle_on_a_320_px_phone(server: Server, phones: Phones) -> None:
    page = phones.new()
    page.set_viewport_size({"width": 320, "height": 800})
    start_from_home(page, server.url, ["Ann", "Bob", "Cy"])
    page.wait_for_selector("#pad button")
    assert page.locator("#pad").get_by_role("button", name="Reverse").is_visible()
    assert page.evaluate(SPLIT_WORDS) == []
