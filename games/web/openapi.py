"""The OpenAPI document states what the views enforce (drf-spectacular's post-processing hook).

- Request bodies are JSON (the documented way to call the API).
- ``POST /api/matches/{id}/actions/`` takes exactly one of ``bid`` (1–13) or ``card`` (such as ``"QH"``)
  beside ``seq``: a ``oneOf`` of the two shapes.
- ``seed`` in ``POST /api/matches/`` is for staff only: others get ``400 seed_forbidden``.
- Every operation may answer ``429`` (a rate limit, with ``Retry-After``) and every one with a body ``413``
  (a body over ``MAX_REQUEST_BYTES``), with the ``{code, detail}`` error shape.
"""

from __future__ import annotations

from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/Error"}
ACTIONS_PATH = "/api/matches/{match_id}/actions/"
NEW_MATCH_PATH = "/api/matches/"
SEED_RULE = "Staff only (reproduces a match's deals); anyone else gets 400 `seed_forbidden`."
SEQ = {"type": "integer", "minimum": 0, "description": "The match's current seq, as last seen by the client."}
BID = {"type": "integer", "minimum": 1, "maximum": 13, "description": "A bid, while bidding."}
CARD = {"type": "string", "pattern": "^[2-9TJQKA][SHDC]$", "maxLength": 8,
        "description": 'A card such as "QH" or "TS", while playing.'}
ACTION = {
    "description": 'Exactly one of `bid` or `card`, beside `seq`: {"seq": 3, "bid": 4} or {"seq": 9, "card": "QH"}.',
    "oneOf": [
        {"type": "object", "title": "Bid", "properties": {"seq": SEQ, "bid": BID}, "required": ["seq", "bid"],
         "not": {"required": ["card"]}},
        {"type": "object", "title": "Card", "properties": {"seq": SEQ, "card": CARD}, "required": ["seq", "card"],
         "not": {"required": ["bid"]}},
    ],
}


def _error(description: str, retry_after: bool = False) -> dict[str, Any]:
    answer: dict[str, Any] = {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}
    if retry_after:
        answer["headers"] = {"Retry-After": {"schema": {"type": "integer"},
                                             "description": "Seconds to wait before trying again."}}
    return answer


def _component(result: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref", "")
    if ref.startswith("#/components/schemas/"):
        found: dict[str, Any] = result.get("components", {}).get("schemas", {}).get(ref.rsplit("/", 1)[1], {})
        return found
    return schema


def document_enforced_rules(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    has_error_schema = "Error" in result.get("components", {}).get("schemas", {})
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            body = operation.get("requestBody")
            if body is not None:
                json_only = {k: v for k, v in body.get("content", {}).items() if k == "application/json"}
                body["content"] = json_only or body.get("content", {})
            if has_error_schema:
                responses = operation["responses"]
                responses["429"] = _error("Too many requests: a rate limit (or a log-in lockout).", retry_after=True)
                if body is not None:
                    responses["413"] = _error("The request body is larger than the limit.")
            if path == ACTIONS_PATH and method == "post" and body is not None:
                body["content"] = {"application/json": {"schema": ACTION}}
                body["required"] = True
            if path == NEW_MATCH_PATH and method == "post" and body is not None:
                schema = _component(result, body["content"].get("application/json", {}).get("schema", {}))
                if "seed" in schema.get("properties", {}):
                    schema["properties"]["seed"]["description"] = SEED_RULE
                operation["description"] = (operation.get("description", "") + " " + SEED_RULE).strip()
    return result
