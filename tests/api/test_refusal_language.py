"""The API's errors keep their code in every language; the message follows the request's Accept-Language."""

from __future__ import annotations

from pathlib import Path

from conftest import Api
from flask.testing import FlaskClient

from referee import create_app
from referee.web.extensions import shutdown


def test_a_refused_action_keeps_its_code_and_is_said_in_the_requests_language(api: Api, client: FlaskClient) -> None:
    api.create(["Ann", "Bob", "Cy"])
    before = api.state()
    said = {}
    for language in ("fr-FR,fr;q=0.9", "es", "en-US"):
        response = client.post(
            f"/api/v1/tables/{api.code}/actions",
            json={"type": "play", "player": "Bob", "card": "7"},
            headers={"Authorization": f"Bearer {api.token}", "Accept-Language": language},
        )
        assert response.status_code == 422
        said[language] = response.get_json()["error"]
    assert said["fr-FR,fr;q=0.9"] == {"code": "not_your_turn", "message": "C'est à Ann de jouer, pas à Bob."}
    # A language the referee does not speak gets English, word for word as a request without the header.
    assert said["es"] == said["en-US"] == {"code": "not_your_turn", "message": "It's Ann's turn, not Bob's."}
    assert api.state() == before


def test_a_refused_setup_is_said_with_the_numbers_in_french(client: FlaskClient) -> None:
    response = client.post("/api/v1/tables", json={"players": ["Ann"]}, headers={"Accept-Language": "fr"})
    assert response.status_code == 400
    assert response.get_json()["error"] == {
        "code": "bad_player_count",
        "message": "5 Alive se joue de 2 à 6 joueurs\u202f; vous en avez nommé 1.",  # French typography
    }


def test_a_wait_is_said_with_the_languages_plural(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "TOKEN_ACTIONS_PER_MINUTE": 2,
        }
    )
    api = Api(app.test_client())
    api.create(["Ann", "Bob"])
    api.play("Ann", "1")
    api.play("Bob", "1")
    refused = api.client.post(
        f"/api/v1/tables/{api.code}/actions",
        json={"type": "play", "player": "Ann", "card": "1"},
        headers={"Authorization": f"Bearer {api.token}", "Accept-Language": "de"},
    )
    assert refused.status_code == 429
    wait = refused.headers["Retry-After"]
    assert int(wait) > 1
    assert refused.get_json()["error"] == {
        "code": "too_many",
        "message": f"Zu viele Aktionen für diesen Tisch: Sende es in {wait} Sekunden noch einmal (Retry-After).",
    }
    shutdown(app)
