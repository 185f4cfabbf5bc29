"""What a search result or a shared link shows of a page: its title and its description (one each, in plain words)."""

from __future__ import annotations

from conftest import Api

from web.conftest import Phone


def _title_and_description(phone: Phone, url: str) -> tuple[str, str]:
    assert phone.open(url).status_code == 200, url
    (title,) = phone.page.find_all("title")
    (description,) = phone.page.find_all("meta", name="description")
    return title.text(), description["content"]


def test_every_page_a_link_can_lead_to_says_what_it_is(api: Api, phone: Phone) -> None:
    api.create(["Ann", "Bob", "Cy"])
    for url in ("/", "/rules", f"/t/{api.code}", f"/t/{api.code}/log"):
        title, description = _title_and_description(phone, url)
        assert "5 Alive" in title, url
        # Long enough to say what the app does, short enough for a search result to show whole.
        assert 50 <= len(description) <= 320 and "5 Alive" in description, (url, description)


def test_a_rules_page_is_described_by_its_own_ruling(phone: Phone) -> None:
    title, description = _title_and_description(phone, "/rules/bomb")
    assert title.startswith("Bomb")
    assert description.startswith("Bomb: ") and "0" in description
    assert description != _title_and_description(phone, "/rules")[1]
