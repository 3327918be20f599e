"""What the API and the sockets send is what the OpenAPI document says: the presenters' JSON for matches at
every stage (bidding, playing, a deal's end, finished and rated, aborted) is checked against the document's
schemas, both ways: no key sent that the document lacks, none the document requires that is not sent, and
every value of the documented type."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator

import engine
import engine.bots
from games.matches import commands, presenters, store
from games.matches.commands import SeatSpec
from games.models import Match
from games.ratings.commands import rate_match

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)["components"]["schemas"]  # type: ignore[no-any-return]


def _json_schema(node: Any, components: dict[str, Any]) -> Any:
    """OpenAPI 3.0 to JSON Schema: references resolved, ``nullable`` as a null type, objects closed."""
    if isinstance(node, list):
        return [_json_schema(n, components) for n in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        return _json_schema(components[node["$ref"].rsplit("/", 1)[1]], components)
    out = {k: _json_schema(v, components) for k, v in node.items() if k not in ("nullable", "readOnly")}
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if "allOf" in out:
            out = {"anyOf": [out, {"type": "null"}]}
    if out.get("type") == "object" and "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False  # a key sent that the document does not name is drift
    return out


def _check(data: dict[str, Any], name: str, components: dict[str, Any]) -> None:
    schema = _json_schema(components[name], components)
    jsonschema.validate(data, schema, format_checker=jsonschema.FormatChecker())
    assert set(schema["properties"]) == set(data), f"{name}: documented but never sent or sent undocumented"


def _play_until(match: Match, users: list[Any], stop: Any) -> Match:
    while True:
        match = store.load(match.pk)  # type: ignore[assignment]
        state = store.state_of(match)
        if stop(state) or state.is_finished:
            return match
        action = engine.bots.decide("random", engine.player_view(state, state.turn), "schema")
        commands.submit_action(user=users[state.turn], match_id=match.pk,
                               payload={"seq": state.version, **{k: v for k, v in action.to_json().items()
                                                                 if k != "seat"}})


def test_views_and_summaries_match_the_document(make_user: Any, components: dict[str, Any]) -> None:
    users = [make_user() for _ in range(4)]
    match = commands.create_match(seats=[SeatSpec(user=u) for u in users], move_seconds=3600, rated=True)
    stages = [lambda s: True, lambda s: s.phase == "playing", lambda s: len(s.tricks) == 5,
              lambda s: s.deal_number == 2, lambda s: False]
    for stop in stages:
        match = _play_until(match, users, stop)
        for seat in range(4):
            _check(presenters.match_view(match, seat), "MatchView", components)
            _check(presenters.match_summary(match, seat), "MatchSummary", components)
    assert match.status == Match.Status.FINISHED
    assert rate_match(match.pk)
    match = store.load(match.pk)  # type: ignore[assignment]
    view = presenters.match_view(match, 0)
    assert view["rating"] is not None and view["seed"]
    _check(view, "MatchView", components)
    bots = commands.create_bot_match(users[0])
    assert commands.abort_match(bots)
    _check(presenters.match_view(store.load(bots.pk), 0), "MatchView", components)  # type: ignore[arg-type]


@pytest.mark.parametrize("change", ["extra key", "missing key", "wrong type"])
def test_the_check_catches_drift(make_user: Any, components: dict[str, Any], change: str) -> None:
    match = commands.create_bot_match(make_user())
    view = presenters.match_view(store.load(match.pk), 0)  # type: ignore[arg-type]
    _check(view, "MatchView", components)
    if change == "extra key":
        view["extra"] = 1
    elif change == "missing key":
        del view["deal_number"]
    else:
        view["seq"] = "three"
    with pytest.raises(jsonschema.ValidationError):
        _check(view, "MatchView", components)
