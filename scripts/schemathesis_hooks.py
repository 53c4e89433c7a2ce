"""Realistic data for what the OpenAPI document cannot say (loaded by scripts/schemathesis).

One `before_call` hook, so that every phase (examples, coverage, fuzzing, stateful) sends the
same: schemathesis validates each case again after the hook, so whether a case counts as valid
or invalid follows what is actually sent. The hook touches only values the server would refuse
for a fact of the running server or of the clock, and two cross-field rules that the fields'
descriptions state:

- an entry window that closes in the future (the schema's time is any time);
- invitees that have accounts (any name fits the pattern);
- a push key that is a point on P-256 and a 16-byte secret (any base64url fits);
- no resume from an event id a fresh server never sent (`after`);
- a challenge that seats its caller and players who exist (the schema cannot name them);
- a Fischer clock whose maximum is at least its initial days;
- `table_seats` only with the `tables` format, `on_leave: bot` only with three or more seats;
- a webhook's `ntfy_token` only with the `ntfy` format, a move list's `before` or `after` (not
  both), and 2, 3, 4 or 6 seats for Chinese Checkers, as the descriptions say;
- the caller's own token never revoked (a spare of the caller's is revoked in its place), so
  that the run does not sign itself out half-way.
"""

import datetime
import os
import re

import schemathesis

# The operator-made accounts of scripts/schemathesis: the caller, and another.
CALLER = "schema"
EXISTING_PLAYER = "other"
# A browser's P-256 public key (uncompressed point, base64url) and a 16-byte auth secret.
P256DH = "BPFmSNSSjRUBcJbz8qHnyLA-3yORy1E4J6qIY7yXxqyTE9efjStRMOoUUWFLVG2iXx3IqpbFqOg7wzr9TUP1uqY"
AUTH = "1qYODqFmsKpWyHW0h9Dhmg"
RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
CALLER_TOKEN = os.environ.get("SCHEMATHESIS_CALLER_TOKEN", "")
SPARE_TOKEN = os.environ.get("SCHEMATHESIS_SPARE_TOKEN", "")
FISCHER = re.compile(r"^(\d+)d\+(\d+)d/(\d+)d$")


def _clock(body):
    # A Fischer bank's maximum is at least its initial days (the description says so; the
    # pattern bounds each number alone).
    clock = body.get("clock")
    bank = FISCHER.match(clock) if isinstance(clock, str) else None
    if bank and int(bank.group(3)) < int(bank.group(1)):
        body["clock"] = f"{bank.group(1)}d+{bank.group(2)}d/{bank.group(1)}d"


def _whole(value):
    """Whether `value` is a whole number as JSON Schema counts one (`5` or `5.0`)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _tournament(body):
    closes = body.get("entry_closes_at")
    if isinstance(closes, str) and RFC3339.match(closes):
        soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
        body["entry_closes_at"] = soon.strftime("%Y-%m-%dT%H:%M:%SZ")
    invite = body.get("invite")
    if isinstance(invite, list) and all(isinstance(n, str) for n in invite):
        body["invite"] = [EXISTING_PLAYER for _ in invite]
    # The format's own fields, as the descriptions say: rounds for Swiss and tables only,
    # `double` and `all_at_once` for round-robin only, a table's seats for tables only (and
    # tables for Chinese Checkers, whose `players` option each table's seats set).
    form = body.get("format")
    if form != "tables" and _whole(body.get("table_seats")):
        del body["table_seats"]
    if form == "round_robin":
        body.pop("rounds", None)
    if form in ("swiss", "tables"):
        rounds = body.get("rounds")
        if not (_whole(rounds) and 1 <= rounds <= 50):
            body["rounds"] = 3
        body["double"] = False
        body["all_at_once"] = False
    if form == "tables":
        body["kind"] = "chinese-checkers"
        seats = body.get("table_seats")
        if not (_whole(seats) and 3 <= seats <= 6):
            body["table_seats"] = 3
    if isinstance(body.get("options"), dict):
        # Options are the kind's (`crate::games::options`); a drawn name is none of them.
        body["options"] = {}
    if form in ("round_robin", "swiss") and body.get("kind") == "chinese-checkers":
        body["options"] = {"players": 2}
    if body.get("start_when_full") is True and body.get("max_players") is None:
        body["start_when_full"] = None


def _push_subscription(body):
    keys = body.get("keys")
    if isinstance(keys, dict) and isinstance(keys.get("p256dh"), str):
        keys["p256dh"] = P256DH
    if isinstance(keys, dict) and isinstance(keys.get("auth"), str):
        keys["auth"] = AUTH


def _game(body):
    seats = body.get("seats")
    # The caller holds a seat of the challenge it makes; each other seat a distinct player or
    # `open`; two seats but in Chinese Checkers (2, 3, 4 or 6 there).
    if isinstance(seats, list) and len(seats) >= 2 and all(isinstance(n, str) for n in seats):
        if body.get("kind") != "chinese-checkers":
            del seats[2:]
        elif len(seats) not in (2, 3, 4, 6):
            del seats[4:]
        # A name that matches the pattern may still be nobody's: the one other player made
        # for the run takes the first other seat, `open` the rest.
        named = [CALLER]
        for name in seats[1:]:
            named.append(EXISTING_PLAYER if EXISTING_PLAYER not in named else "open")
        seats[:] = named
    if isinstance(body.get("options"), dict):
        body["options"] = {}
    if body.get("on_leave") == "bot" and isinstance(seats, list) and len(seats) < 3:
        body["on_leave"] = "remove"


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    method, path = case.method.upper(), case.operation.path
    body = case.body if isinstance(case.body, dict) else None
    if body is not None and (method, path) in (("POST", "/v1/tournaments"), ("POST", "/v1/games")):
        _clock(body)
    if body is not None and (method, path) == ("POST", "/v1/tournaments"):
        _tournament(body)
    if body is not None and (method, path) == ("POST", "/v1/push/subscriptions"):
        _push_subscription(body)
    if body is not None and (method, path) == ("POST", "/v1/games"):
        _game(body)
    if body is not None and (method, path) == ("POST", "/v1/webhooks"):
        if body.get("format") != "ntfy":
            body.pop("ntfy_token", None)
    ids = case.path_parameters if isinstance(case.path_parameters, dict) else None
    if ids is not None and (method, path) == ("DELETE", "/v1/tokens/{id}") and SPARE_TOKEN:
        if str(ids.get("id")) == CALLER_TOKEN:
            ids["id"] = int(SPARE_TOKEN)
    query = case.query if isinstance(case.query, dict) else None
    if query is not None and method == "GET" and path in ("/v1/stream", "/v1/games/{id}/stream"):
        # A stream resumes after an id it sent; a fresh server has sent none.
        after = query.get("after")
        if (_whole(after) and after > 0) or (isinstance(after, str) and after.isdigit()):
            del query["after"]
    if query is not None and method == "GET" and path == "/v1/games/{id}/moves":
        if "before" in query and "after" in query:
            del query["after"]
    headers = case.headers if hasattr(case.headers, "get") else None
    if headers is not None and method == "GET" and path in ("/v1/stream", "/v1/games/{id}/stream"):
        resumed = headers.get("Last-Event-ID")
        if isinstance(resumed, str) and resumed.strip().isdigit():
            del headers["Last-Event-ID"]
