"""Web Push: a stand-in push service on loopback receives the encrypted request; the test decrypts it with the
subscription's private key and checks the payload, the VAPID token and the TTL. Subscriptions: the API, the cap,
https on public addresses only (checked when subscribing and again when sending, on the address connected to).
A 404/410 deletes the subscription, 5xx is tried again, a redelivered task pushes once.

Tasks run inline here (eager) and the stand-in service records a push before it answers it, so what it received
is final once the call that sends returns: no wait is needed to see that nothing more came."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from push_service import BrowserKeys, PushService, b64url, start_push_service, vapid_pair, vapid_token
from site_helpers import browser, cards_in, choose, client_for, two_people

from games.models import Match, Notice, PushDelivery, PushSubscription
from games.notices import reactions as notice_reactions
from games.presence import commands as presence_commands
from games.push import checks, endpoints, webpush
from games.push import commands as push_commands
from games.push import tasks as push_tasks

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC_ADDRESS = "93.184.215.14"


@pytest.fixture
def push_service() -> Iterator[PushService]:
    yield from start_push_service()


@pytest.fixture
def dns(monkeypatch: pytest.MonkeyPatch) -> dict[str, list[str]]:
    """The resolver the push code sees: names map to the addresses given here; an address is itself."""
    table: dict[str, list[str]] = {"push.example.net": [PUBLIC_ADDRESS]}

    def resolve(host: str, port: int) -> list[str]:
        if host in table:
            return list(table[host])
        if host.replace(".", "").isdigit() or ":" in host:
            return [host]
        raise endpoints.EndpointUnreachable(f"{host} does not resolve")

    monkeypatch.setattr(endpoints, "resolve", resolve)
    return table


@pytest.fixture
def vapid(settings: Any, push_service: PushService, dns: dict[str, list[str]]) -> tuple[str, str]:
    public, private = vapid_pair()
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = public, private
    settings.VAPID_SUBJECT = "mailto:ops@callbreak.example"
    settings.PUSH_ALLOW_HTTP_HOSTS = push_service.host
    return public, private


def _subscribe(user: Any, keys: BrowserKeys, endpoint: str, lang: str = "en") -> int:
    r = client_for(user).post("/api/me/push-subscriptions/", keys.subscription(endpoint), format="json",
                              HTTP_ACCEPT_LANGUAGE=lang)
    assert r.status_code == 201, r.content
    return int(r.json()["id"])


def _move_until_turn_of(match_id: int, mover: Any, target_seat: int) -> None:
    rng = random.Random(5)
    client = client_for(mover)
    while Match.objects.get(pk=match_id).turn != target_seat:
        view = client.get(f"/api/matches/{match_id}/").json()
        assert view["your_turn"], view["turn"]
        assert client.post(f"/api/matches/{match_id}/actions/", choose(view, rng), format="json").status_code == 200


def _amy_to_wait(make_user: Any) -> tuple[Match, Any, Any]:
    """A correspondence match where it is bo's turn (amy waits)."""
    match, amy, bo = two_people(make_user, move_seconds=86400)
    if match.turn == 0:
        _move_until_turn_of(match.pk, amy, 2)
    match.refresh_from_db()
    return match, amy, bo


# --- the push itself -----------------------------------------------------------------------------------------

def test_bo_moves_and_amys_browser_gets_one_encrypted_push(make_user: Any, vapid: tuple[str, str],
                                                            push_service: PushService) -> None:
    match, amy, bo = _amy_to_wait(make_user)
    keys = BrowserKeys.new()
    _subscribe(amy, keys, push_service.endpoint("amy"))
    before = time.time()
    _move_until_turn_of(match.pk, bo, 0)
    match.refresh_from_db()
    [request] = push_service.wait_for(1)
    assert len(push_service.received) == 1, "exactly one push"
    assert request.path == "/push/amy"
    # the payload, decrypted with the browser's private key
    payload = keys.decrypt(request.body)
    assert set(payload) == {"type", "match_id", "title", "body", "url"}
    assert payload["type"] == "your_turn" and payload["match_id"] == match.pk
    assert payload["url"] == f"/play/{match.pk}/" and payload["title"] == "Your turn"
    assert f"Match {match.pk}: your move, about 24 hours left." == payload["body"]
    assert not cards_in(payload), "never a card"
    # the headers: encoding, TTL of an hour at most, a topic per match, urgency
    h = request.headers
    assert h["content-encoding"] == "aes128gcm" and h["content-type"] == "application/octet-stream"
    assert h["ttl"] == "3600" and h["urgency"] == "high" and h["topic"] == f"match-{match.pk}"
    # the VAPID token: signed by the site's key, for this push service's origin, for less than a day
    claims, key = vapid_token(h["authorization"])
    assert key == vapid[0]
    assert claims["aud"] == f"http://{push_service.host}"
    assert claims["sub"] == "mailto:ops@callbreak.example"
    assert before < claims["exp"] <= time.time() + 24 * 3600
    notice = Notice.objects.get(user=amy, match=match, seq=match.seq, kind="your_turn")
    delivery = PushDelivery.objects.get(notice=notice)
    assert delivery.status == "sent" and delivery.attempts == 1
    assert PushSubscription.objects.get(user=amy).last_ok_at is not None


def test_pushes_speak_the_subscribers_language_and_every_browser_gets_one(
        make_user: Any, vapid: tuple[str, str], push_service: PushService) -> None:
    match, amy, bo = _amy_to_wait(make_user)
    en, zh = BrowserKeys.new(), BrowserKeys.new()
    _subscribe(amy, en, push_service.endpoint("en"))
    _subscribe(amy, zh, push_service.endpoint("zh"), lang="zh-hans")
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "reminder")
    got = {r.path: r for r in push_service.wait_for(2)}
    assert en.decrypt(got["/push/en"].body)["title"] == "Your move is due soon"
    zh_payload = zh.decrypt(got["/push/zh"].body)
    assert zh_payload["title"] == "你的出牌时间快到了"
    assert str(match.pk) in zh_payload["body"]
    assert int(got["/push/en"].headers["ttl"]) == 1800  # a reminder lives shorter than "your turn"


def test_a_redelivered_task_pushes_once(make_user: Any, vapid: tuple[str, str], push_service: PushService,
                                        settings: Any) -> None:
    match, amy, _bo = _amy_to_wait(make_user)
    sub_id = _subscribe(amy, BrowserKeys.new(), push_service.endpoint())
    settings.VAPID_PUBLIC_KEY, saved = "", settings.VAPID_PUBLIC_KEY  # recorded while push is off: no task
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "autopilot")
    settings.VAPID_PUBLIC_KEY = saved
    notice = Notice.objects.get(user=amy, kind="autopilot")
    assert push_tasks.push_notice.apply(args=(notice.pk, sub_id)).get() == "sent"
    assert push_tasks.push_notice.apply(args=(notice.pk, sub_id)).get() == "skipped"  # the broker's redelivery
    assert len(push_service.received) == 1


def test_410_deletes_the_subscription_and_5xx_is_tried_again(make_user: Any, vapid: tuple[str, str],
                                                            push_service: PushService) -> None:
    match, amy, _bo = _amy_to_wait(make_user)
    keys = BrowserKeys.new()
    _subscribe(amy, keys, push_service.endpoint("flaky"))
    push_service.statuses = [503, 500]  # then 201: the task tries again (at once, in eager mode)
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "autopilot")
    push_service.wait_for(3)
    delivery = PushDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("sent", 3)
    assert keys.decrypt(push_service.received[-1].body)["type"] == "autopilot"
    # the browser unsubscribed: the service answers 410 and the subscription goes
    push_service.statuses = [410]
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "handed_over")
    push_service.wait_for(4)
    assert not PushSubscription.objects.filter(user=amy).exists()
    push_service.statuses = [404]
    _subscribe(amy, keys, push_service.endpoint("again"))
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "reminder")
    push_service.wait_for(5)
    assert not PushSubscription.objects.filter(user=amy).exists()


def test_a_4xx_is_not_tried_again_and_the_subscription_stays(make_user: Any, vapid: tuple[str, str],
                                                             push_service: PushService) -> None:
    match, amy, _bo = _amy_to_wait(make_user)
    _subscribe(amy, BrowserKeys.new(), push_service.endpoint())
    push_service.statuses = [403]
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "autopilot")
    push_service.wait_for(1)
    assert len(push_service.received) == 1
    sub = PushSubscription.objects.get(user=amy)
    assert sub.last_fail_at is not None and sub.last_error.startswith("HTTP 403")
    assert PushDelivery.objects.get().status == "failed"


def test_off_kinds_and_an_open_match_page_get_no_push_and_no_email(make_user: Any, vapid: tuple[str, str],
                                                                  push_service: PushService) -> None:
    match, amy, bo = _amy_to_wait(make_user)
    _subscribe(amy, BrowserKeys.new(), push_service.endpoint())
    api = client_for(amy)
    r = api.patch("/api/me/push-preferences/", {"your_turn": False}, format="json")
    assert r.status_code == 200 and r.json()["your_turn"] is False and r.json()["reminder"] is True
    assert api.patch("/api/me/push-preferences/", {"reminder": "no"}, format="json").status_code == 400
    mail.outbox.clear()
    _move_until_turn_of(match.pk, bo, 0)
    assert push_service.received == [], "your turn is turned off"
    assert [m for m in mail.outbox if "amy@example.com" in m.to], "email is as it was: on"
    # with the match page open: neither a push nor an email
    presence_commands.presence_join(amy.pk, match.pk, "specific.channel!amy")
    mail.outbox.clear()
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "reminder")
    assert push_service.received == [] and not mail.outbox
    presence_commands.presence_leave("specific.channel!amy")
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "autopilot")
    push_service.wait_for(1)
    assert mail.outbox


def test_a_turn_already_over_is_not_pushed(make_user: Any, vapid: tuple[str, str], push_service: PushService) -> None:
    match, amy, _bo = _amy_to_wait(make_user)
    sub_id = _subscribe(amy, BrowserKeys.new(), push_service.endpoint())
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    notice = Notice.objects.create(user=amy, match=match, seq=match.seq, kind="your_turn")
    assert push_commands.push_notice(notice.pk, sub_id).result == "skipped"
    assert push_service.received == []


# --- where a push may go ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("endpoint", [
    "http://push.example.net/x",  # plain http to a host not named in PUSH_ALLOW_HTTP_HOSTS
    "https://10.1.2.3/x", "https://192.168.0.9/x", "https://172.16.5.5/x",  # private
    "https://127.0.0.1/x", "https://[::1]/x", "https://[::ffff:127.0.0.1]/x",  # loopback, also IPv4-mapped
    "https://169.254.169.254/latest/meta-data", "https://[fe80::1]/x",  # link-local (cloud metadata)
    "https://224.0.0.1/x", "https://[ff02::1]/x",  # multicast
    "https://240.0.0.1/x", "https://0.0.0.0/x", "https://100.64.0.1/x", "https://[fc00::1]/x",  # reserved, shared
    "https://mixed.example.net/x",  # one public address and one private
    "https://nowhere.example.net/x",  # does not resolve
    "https://user:pw@push.example.net/x", "ftp://push.example.net/x", "https:///x", "https://push.example.net/x#f",
    "https://push.example.net/" + "a" * 1100,
    # another port than 443: the worker would open TLS to any service of any public host
    "https://8.8.8.8:6379/x", "https://push.example.net:8443/x", "https://push.example.net:0/x",
    "https://[2606:4700::1111]:25/x",
    # IPv6 that carries an IPv4 address, judged by it: 6to4 of loopback, private, link-local, the relays' own
    "https://[2002:7f00:1::1]/x", "https://[2002:a00:1::]/x", "https://[2002:a9fe:a9fe::1]/x",
    "https://[2002:c058:6301::1]/x",
    "https://192.88.99.1/x",  # the 6to4 relays' anycast
    "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/x", "https://[2001:0:808:808::1]/x",  # Teredo
    "https://[64:ff9b::7f00:1]/x", "https://[64:ff9b::a00:1]/x", "https://[64:ff9b::a9fe:a9fe]/x",  # NAT64
    "https://[64:ff9b:1::808:808]/x",  # NAT64 for local use
    "https://nat64.example.net/x",  # a name that resolves to NAT64 of a private address
])
def test_endpoints_that_are_not_https_on_public_addresses_are_refused(dns: dict[str, list[str]], settings: Any,
                                                                      endpoint: str) -> None:
    settings.PUSH_ALLOW_HTTP_HOSTS = ""
    dns["mixed.example.net"] = [PUBLIC_ADDRESS, "10.0.0.7"]
    dns["nat64.example.net"] = ["64:ff9b::c0a8:101"]
    with pytest.raises(endpoints.EndpointRefused) as refused:
        endpoints.check_for_subscription(endpoint)
    assert refused.value.code == "bad_endpoint" and refused.value.detail


@pytest.mark.parametrize("endpoint", [
    "https://push.example.net/x", "https://push.example.net:443/x", "https://8.8.8.8/x",
    "https://[2606:4700::1111]:443/x",
    "https://[2002:808:808::1]/x",  # 6to4 of a public address
    "https://[64:ff9b::808:808]/x",  # NAT64 of a public address (an IPv6-only host behind DNS64 sees these)
])
def test_https_on_443_to_public_addresses_is_accepted(dns: dict[str, list[str]], settings: Any,
                                                      endpoint: str) -> None:
    settings.PUSH_ALLOW_HTTP_HOSTS = ""
    assert endpoints.check_for_subscription(endpoint).port == 443


def test_a_push_to_another_port_is_refused_at_send_too(make_user: Any, vapid: tuple[str, str],
                                                       push_service: PushService) -> None:
    """A subscription stored before the port was checked is not pushed to: checked again when sending."""
    match, amy, _bo = _amy_to_wait(make_user)
    sub = PushSubscription.objects.create(user=amy, endpoint="https://8.8.8.8:6379/x", language="en",
                                          **BrowserKeys.new().subscription("")["keys"])
    notice = Notice.objects.create(user=amy, match=match, seq=match.seq, kind="autopilot")
    outcome = push_commands.push_notice(notice.pk, sub.pk)
    assert outcome.result == "refused" and "port 443" in outcome.detail


@pytest.mark.django_db
def test_the_api_refuses_a_private_endpoint(user: Any, vapid: tuple[str, str], dns: dict[str, list[str]]) -> None:
    dns["intranet.example.net"] = ["192.168.1.20"]
    r = client_for(user).post("/api/me/push-subscriptions/",
                              BrowserKeys.new().subscription("https://intranet.example.net/push"), format="json")
    assert r.status_code == 400 and r.json() == {
        "code": "bad_endpoint",
        "detail": "The endpoint's host intranet.example.net resolves to an address that is not public (192.168.1.20)."}
    assert not PushSubscription.objects.exists()
    assert endpoints.check_for_subscription("https://push.example.net/ok").host == "push.example.net"


def test_a_host_that_turns_private_after_subscribing_is_refused_at_send(
        make_user: Any, vapid: tuple[str, str], push_service: PushService, dns: dict[str, list[str]],
        settings: Any) -> None:
    """DNS rebinding: the name resolved to a public address when subscribing and to loopback when sending."""
    match, amy, _bo = _amy_to_wait(make_user)
    r = client_for(amy).post("/api/me/push-subscriptions/",
                             BrowserKeys.new().subscription("https://push.example.net/push/rebound"), format="json")
    assert r.status_code == 201
    dns["push.example.net"] = ["127.0.0.1"]
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "autopilot")
    assert push_service.received == []
    assert PushDelivery.objects.get().status == "failed"
    sub = PushSubscription.objects.get()
    assert "not public (127.0.0.1)" in sub.last_error


def test_the_sender_connects_to_the_address_it_checked(make_user: Any, vapid: tuple[str, str],
                                                       push_service: PushService, dns: dict[str, list[str]],
                                                       settings: Any) -> None:
    """A trusted stand-in named push.test: the connection goes to the address resolved and checked here (the
    system's resolver knows no push.test), with the endpoint's host in ``Host``."""
    match, amy, _bo = _amy_to_wait(make_user)
    host = f"push.test:{push_service.port}"
    settings.PUSH_ALLOW_HTTP_HOSTS = f"{push_service.host},{host}"
    dns["push.test"] = ["127.0.0.1"]
    keys = BrowserKeys.new()
    _subscribe(amy, keys, f"http://{host}/push/named?x=1")
    notice_reactions.deliver(amy.pk, match.pk, match.seq, "autopilot")
    [request] = push_service.wait_for(1)
    assert request.path == "/push/named?x=1" and request.headers["host"] == host
    assert vapid_token(request.headers["authorization"])[0]["aud"] == f"http://{host}"


def test_https_to_the_checked_address_verifies_the_endpoints_name(make_user: Any, vapid: tuple[str, str],
                                                                  dns: dict[str, list[str]], settings: Any,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  tmp_path: Any) -> None:
    """TLS to the pinned address still checks the certificate against the endpoint's host name (SNI)."""
    from tls_helpers import server_context

    context, ca_file = server_context(tmp_path, "push.test")
    monkeypatch.setattr(webpush, "CA_CERTS", str(ca_file))
    gen = start_push_service(tls=context)
    service = next(gen)
    try:
        match, amy, _bo = _amy_to_wait(make_user)
        dns["push.test"] = ["127.0.0.1"]
        dns["other.test"] = ["127.0.0.1"]
        settings.PUSH_ALLOW_HTTP_HOSTS = "push.test,other.test"
        keys = BrowserKeys.new()
        _subscribe(amy, keys, f"https://push.test:{service.port}/push/tls")
        notice_reactions.deliver(amy.pk, match.pk, match.seq, "autopilot")
        [request] = service.wait_for(1)
        assert keys.decrypt(request.body)["type"] == "autopilot"
        # a certificate for another name is refused (and tried again later, as for any network fault)
        sub = PushSubscription.objects.get()
        sub.endpoint = f"https://other.test:{service.port}/push/tls"
        sub.save()
        notice = Notice.objects.create(user=amy, match=match, seq=match.seq, kind="handed_over")
        outcome = push_commands.push_notice(notice.pk, sub.pk)
        assert outcome.result == "retry" and "doesn't match 'push.test'" in outcome.detail
        assert len(service.received) == 1
    finally:
        gen.close()


# --- the API ------------------------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_the_public_key_and_push_off(client: Client, settings: Any, user: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    r = client.get("/api/push/key/")
    assert r.status_code == 200 and r.json() == {"enabled": False, "public_key": None}  # no 404 logged by pages
    r = client_for(user).post("/api/me/push-subscriptions/",
                              BrowserKeys.new().subscription("https://push.example.net/x"), format="json")
    assert r.status_code == 409 and r.json()["code"] == "push_off"
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_pair()
    r = client.get("/api/push/key/")
    assert r.status_code == 200 and r.json() == {"enabled": True, "public_key": settings.VAPID_PUBLIC_KEY}


@pytest.mark.django_db
def test_subscriptions_api(make_user: Any, vapid: tuple[str, str], settings: Any) -> None:
    amy, bo = make_user("amy"), make_user("bo")
    api = client_for(amy)
    keys = BrowserKeys.new()
    body = keys.subscription("https://push.example.net/wpush/v2/abc")
    first = api.post("/api/me/push-subscriptions/", body, format="json", HTTP_USER_AGENT="Firefox on Android")
    assert first.status_code == 201 and set(first.json()) == {"id"}
    again = api.post("/api/me/push-subscriptions/", body, format="json")
    assert again.status_code == 200 and again.json() == first.json(), "the same endpoint again: the same one"
    renewed = BrowserKeys.new().subscription(body["endpoint"])  # my own endpoint with new keys: updated
    assert api.post("/api/me/push-subscriptions/", renewed, format="json").json() == first.json()
    assert PushSubscription.objects.get().auth == renewed["keys"]["auth"]
    assert api.post("/api/me/push-subscriptions/", body, format="json").status_code == 200
    listed = api.get("/api/me/push-subscriptions/").json()
    assert [s["id"] for s in listed] == [first.json()["id"]]
    assert listed[0]["endpoint"] == body["endpoint"] and listed[0]["language"] == "en"
    assert client_for(bo).get("/api/me/push-subscriptions/").json() == []
    assert client_for(bo).delete(f"/api/me/push-subscriptions/{first.json()['id']}/").status_code == 404
    # bad input: 400 with a code and a message
    for bad, code in [({"endpoint": body["endpoint"]}, "invalid"),
                      ({**body, "keys": {"p256dh": "AAAA", "auth": body["keys"]["auth"]}}, "bad_keys"),
                      ({**body, "keys": {"p256dh": body["keys"]["p256dh"], "auth": "short"}}, "bad_keys"),
                      ({**body, "keys": {"p256dh": b64url(b"\x04" + b"\x01" * 64), "auth": body["keys"]["auth"]}},
                       "bad_keys"),  # not a point on the curve
                      ({**body, "endpoint": 7}, "bad_endpoint"), ([], "invalid")]:
        r = api.post("/api/me/push-subscriptions/", bad, format="json")
        assert r.status_code == 400 and r.json()["code"] == code and r.json()["detail"], (bad, r.content)
    # bo posts amy's endpoint with other keys: refused, and amy's subscription stays as it was
    row = PushSubscription.objects.values().get()
    taken = client_for(bo).post("/api/me/push-subscriptions/", {**body, "keys": BrowserKeys.new().subscription(
        body["endpoint"])["keys"]}, format="json")
    assert taken.status_code == 409 and taken.json()["code"] == "endpoint_taken" and taken.json()["detail"]
    same_secret = {**body, "keys": {**BrowserKeys.new().subscription(body["endpoint"])["keys"],
                                    "auth": body["keys"]["auth"]}}  # one of the two keys is not enough
    assert client_for(bo).post("/api/me/push-subscriptions/", same_secret, format="json").status_code == 409
    assert PushSubscription.objects.values().get() == row
    assert client_for(bo).get("/api/me/push-subscriptions/").json() == []
    # the same browser (the same keys), now signed in as bo: the subscription is bo's
    moved = client_for(bo).post("/api/me/push-subscriptions/", body, format="json")
    assert moved.status_code == 201 and moved.json() == first.json()
    assert api.get("/api/me/push-subscriptions/").json() == []
    assert client_for(bo).delete(f"/api/me/push-subscriptions/{first.json()['id']}/").status_code == 204
    assert not PushSubscription.objects.exists()
    # a cap per person: the newest are kept
    settings.PUSH_SUBSCRIPTIONS_PER_USER = 3
    ids = [api.post("/api/me/push-subscriptions/", keys.subscription(f"https://push.example.net/d{i}"),
                    format="json").json()["id"] for i in range(5)]
    assert sorted(s["id"] for s in api.get("/api/me/push-subscriptions/").json()) == ids[2:]
    assert client_for(amy).get("/api/me/push-subscriptions/").status_code == 200
    assert Client().get("/api/me/push-subscriptions/").status_code in (401, 403)


# --- the settings page ----------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_settings_page_says_push_is_off_without_keys(user: Any, settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    page = browser(user).get("/settings/").content.decode()
    assert 'data-testid="push-off"' in page and 'data-testid="push-enable"' not in page


@pytest.mark.django_db
def test_settings_page_turns_kinds_on_and_off(make_user: Any, vapid: tuple[str, str]) -> None:
    amy = make_user("amy")
    _subscribe(amy, BrowserKeys.new(), "https://push.example.net/one")
    c = browser(amy)
    page = c.get("/settings/").content.decode()
    assert 'data-testid="push-enable"' in page and 'data-testid="push-off"' not in page
    assert "Tell me when it&#x27;s my turn" in page or "Tell me when it's my turn" in page
    assert page.count('data-testid="push-device"') == 1
    r = c.post("/settings/push/", {"your_turn": "on", "rematch": "on"})
    assert r.status_code == 302
    assert client_for(amy).get("/api/me/push-preferences/").json() == {
        "your_turn": True, "reminder": False, "autopilot": False, "handed_over": False, "rematch": True,
        "quick_match": True, "challenge": False}  # quick_match is not on the page (none sent yet): unchanged
    sub = PushSubscription.objects.get()
    assert c.post(f"/settings/push/{sub.pk}/remove/").status_code == 302
    assert not PushSubscription.objects.exists()
    # the email switch is where it was and does what it did
    assert 'name="email_notifications"' in c.get("/settings/").content.decode()
    zh = browser(amy, "zh-hans").get("/settings/").content.decode()
    assert "推送" in zh


# --- keys -------------------------------------------------------------------------------------------------------

@pytest.mark.django_db
def test_vapid_keys_prints_a_pair_the_check_accepts(capsys: Any, settings: Any) -> None:
    call_command("vapid_keys")
    out = dict(line.split("=", 1) for line in capsys.readouterr().out.splitlines() if "=" in line)
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = out["VAPID_PUBLIC_KEY"], out["VAPID_PRIVATE_KEY"]
    assert checks.vapid_keys() == []
    assert webpush.configured()
    settings.VAPID_PUBLIC_KEY = vapid_pair()[0]
    assert [m.id for m in checks.vapid_keys()] == ["push.E002"]
    settings.VAPID_PRIVATE_KEY = ""
    assert [m.id for m in checks.vapid_keys()] == ["push.W001"]
    assert not webpush.configured()


def test_devices_are_named_shortly() -> None:
    from games.push.reads import device

    assert device("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                  "Chrome/126.0 Mobile Safari/537.36") == "Chrome · Android"
    assert device("Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                  "Version/17.5 Mobile/15E148 Safari/604.1") == "Safari · iOS"
    assert device("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 "
                  "Safari/537.36 Edg/126.0") == "Edge · Windows"
    assert device("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0") == "Firefox · Linux"
    assert device("curl/8.5") == ""
