"""The Python client against the real server on the sandbox: every endpoint, cursor iterators,
retries that reuse the Idempotency-Key and are charged once, an exception class per error code,
the key from GLEANER_API_KEY, DataFrames, and the README's examples."""

from __future__ import annotations

import http.server
import inspect
import json
import re
import socket
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Tuple, Union

import pytest

import gleaner
from gleaner import (
    ENDPOINTS,
    Gleaner,
    GleanerAuthError,
    GleanerBadRequestError,
    GleanerError,
    GleanerNetworkError,
    GleanerNotFoundError,
    GleanerPaymentError,
    NetworkError,
    NotFoundError,
    PaymentRequiredError,
    ServiceUnavailableError,
    UnauthorizedError,
    BadRequestError,
)

from .conftest import REPO, Server, pandas_or_skip

FAST = {"retry_base_delay": 0.001, "retry_max_delay": 0.005}


def client_for(server: Server, key: Dict[str, Any], **options: Any) -> Gleaner:
    return Gleaner(api_key=key["key"], base_url=server.base_url, **{**FAST, **options})


# ---- the contract ----


def test_one_method_per_endpoint_of_the_openapi_document() -> None:
    doc = json.loads((REPO / "docs/openapi.json").read_text())
    ops = {
        path[len("/api/v1") :]: op["post"]["operationId"]
        for path, op in doc["paths"].items()
        if path.startswith("/api/v1/") and "post" in op
    }
    assert {e["path"] for e in ENDPOINTS.values()} == set(ops)
    for endpoint_id, info in ENDPOINTS.items():
        operation = ops[info["path"]]
        name = operation[len("ml_") :] if operation.startswith("ml_") else operation
        method = getattr(Gleaner, name)
        body = doc["paths"][f"/api/v1{info['path']}"]["post"]["requestBody"]["content"]["application/json"]["schema"]
        params = inspect.signature(method).parameters
        assert set(body["properties"]) | {"self", "idempotency_key"} == set(params), endpoint_id
        required = {n for n, p in params.items() if p.default is inspect.Parameter.empty and n != "self"}
        with_default = {n for n, s in body["properties"].items() if "default" in s}
        assert required == set(body.get("required", [])) - with_default, endpoint_id
    # the free GETs of the account API: a method each, its query parameters as keyword arguments
    # (``from`` is ``from_``)
    for path, ops in doc["paths"].items():
        if not path.startswith("/api/v1/") or "get" not in ops:
            continue
        operation = ops["get"]["operationId"]
        name = operation.split("_", 1)[1] if "_" in operation else operation
        params = inspect.signature(getattr(Gleaner, name)).parameters
        query = {p["name"] + ("_" if p["name"] == "from" else "") for p in ops["get"].get("parameters", [])}
        assert set(params) - {"self"} == query, path
    assert gleaner.API_VERSION == doc["info"]["version"]
    assert gleaner.__version__.split(".")[:2] == doc["info"]["version"].split(".")[:2]
    codes = doc["components"]["schemas"]["ErrorEnvelope"]["properties"]["error"]["properties"]["code"]["enum"]
    assert set(gleaner.ERROR_CLASSES) == set(codes)


# ---- calls ----


def test_every_endpoint_returns_its_data_and_charges_what_it_reports(server: Server, key: Dict[str, Any]) -> None:
    g = client_for(server, key)
    calls: List[Tuple[Callable[..., Any], Dict[str, Any], str]] = [
        (g.clipnet_posts, {"username": "rafatech", "limit": 3, "enrich": ["sentiment"]}, "posts"),
        (g.clipnet_comments, {"post_urls": [_a_clipnet_post_url(g)], "limit_per_post": 3}, "comments"),
        (g.clipnet_bulk_posts, {"usernames": ["rafatech", "zanedrums"], "limit_per_user": 2}, "users"),
        (g.clipnet_hashtag_posts, {"hashtags": ["fitness"], "days": 30, "max_posts_per_hashtag": 3}, "posts"),
        (g.picnet_posts, {"username": "critterswithliam", "limit": 2}, "posts"),
        (g.picnet_comments, {"post_urls": ["CxD9PthspC3"], "limit_per_post": 2}, "comments"),
        (g.picnet_hashtag_posts, {"hashtags": ["ootd"], "days": 30, "max_posts_per_hashtag": 2}, "posts"),
        (g.vidnet_search, {"keywords": ["speedrun"], "period": "all", "max_posts_per_keyword": 3}, "videos"),
        (g.vidnet_hashtag_search, {"hashtags": ["gaming"], "depth": 1}, "videos"),
        (g.vidnet_comments, {"post_urls": ["5O6KwFczlHE"], "limit_per_post": 2}, "comments"),
        (g.vidnet_channel_videos, {"browse_ids": ["UCFTj_UgjSmO3GpS1X1fSzqw"], "depth": 1}, "videos"),
        (g.vidnet_channel_shorts, {"browse_ids": ["UCFTj_UgjSmO3GpS1X1fSzqw"]}, "shorts"),
        (g.blipnet_posts, {"username": "marareads.blipnet.social", "limit": 3}, "posts"),
        (
            g.blipnet_comments,
            {"post_urls": ["https://blipnet.app/profile/marareads.blipnet.social/post/3l754t3z5mssm"]},
            "comments",
        ),
        (g.blipnet_search, {"keywords": ["coffee"], "period": "month", "max_posts_per_keyword": 3}, "posts"),
        (g.blipnet_hashtag_posts, {"hashtags": ["books"], "max_posts_per_hashtag": 3}, "posts"),
        (g.analyze, {"texts": ["I love it", "worst purchase ever"], "enrich": ["sentiment"]}, "results"),
    ]
    assert len(calls) == len(ENDPOINTS)
    for method, params, field in calls:
        before = server.balance(key["id"])
        r = method(**params)
        assert isinstance(r, dict) and isinstance(r["data"], dict), method.__name__
        assert len(r["data"][field]) > 0, method.__name__
        assert r["credits_used"] > 0
        assert server.balance(key["id"]) == pytest.approx(before - r["credits_used"])
        assert r["credits_remaining"] == pytest.approx(before - r["credits_used"])
        assert re.match(r"^req_", r["request_id"] or "")
        assert r["attempts"] == 1 and r["replayed"] is False
        json.dumps(r)  # plain data all the way down
    sentiment = g.analyze(texts=["I love it"], enrich=["sentiment"])["data"]["results"][0]
    assert sentiment["enrichment"]["sentiment"] == "positive"


def _a_clipnet_post_url(g: Gleaner) -> str:
    # a post at least two days old: the world's newest post is published minutes before midnight
    # UTC and its first comments come later, so shortly after midnight it has none yet (as
    # test/e2e/sandbox-api.test.ts picks its post)
    posts = g.clipnet_posts(username="rafatech", limit=5)["data"]["posts"]
    cutoff = time.time() - 2 * 86_400
    return next(
        p["url"]
        for p in posts
        if datetime.fromisoformat(p["timestamp"].replace("Z", "+00:00")).timestamp() < cutoff
    )


def test_enrichment_and_its_price(server: Server, key: Dict[str, Any]) -> None:
    r = client_for(server, key).clipnet_posts(username="rafatech", limit=3, enrich=["sentiment", "topics"])
    posts = r["data"]["posts"]
    assert len(posts) == 3
    assert all(p["enrichment"]["sentiment"] in ("positive", "negative", "neutral") for p in posts)
    assert r["enrichments"] == ["sentiment", "topics"]
    assert r["metadata"]["enrichments_applied"] == ["sentiment", "topics"]
    assert r["credits_used"] == 1 + 3 * (1 + 0.5 + 1)


def test_a_misspelt_field_is_refused_before_anything_is_sent(server: Server, key: Dict[str, Any]) -> None:
    g = client_for(server, key)
    before = server.balance(key["id"])
    with pytest.raises(TypeError, match="limt"):
        g.clipnet_posts(username="rafatech", limt=5)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        g.clipnet_posts(limit=5)  # type: ignore[call-arg]
    assert server.balance(key["id"]) == before


def test_the_key_and_server_come_from_the_environment(server: Server, env_key: Dict[str, Any]) -> None:
    g = Gleaner()
    assert g.base_url == server.base_url
    assert env_key["key"] not in repr(g)
    assert g.analyze(texts=["fine"], enrich=["sentiment"])["credits_used"] == 0.5


def test_the_account_api_reports_what_the_calls_cost(server: Server, key: Dict[str, Any]) -> None:
    g = client_for(server, key)
    spent = g.clipnet_posts(username="rafatech", limit=2)["credits_used"]
    spent += g.analyze(texts=["good"], enrich=["sentiment"])["credits_used"]
    me = g.account()
    assert me["data"]["id"] == key["id"]
    assert me["data"]["credits"] == pytest.approx(server.balance(key["id"])) == pytest.approx(5000 - spent)
    assert me["credits_used"] == 0 and me["endpoint"] == "account"
    today = g.usage()["data"]["to"]
    usage = g.usage(from_=today, to=today)["data"]
    assert (usage["from"], usage["to"]) == (today, today)
    assert usage["total"]["credits"] == pytest.approx(spent) and usage["total"]["calls"] == 2
    first = g.entries(limit=1)["data"]
    assert len(first["entries"]) == 1 and first["entries"][0]["kind"] == "debit"
    rest = g.entries(limit=10, cursor=first["next_cursor"])["data"]["entries"]
    assert [e["kind"] for e in rest] == ["debit", "grant"]
    assert server.balance(key["id"]) == pytest.approx(5000 - spent)


# ---- iterators ----


def test_the_iterator_follows_the_cursor_to_the_end_each_post_once(server: Server, key: Dict[str, Any]) -> None:
    g = client_for(server, key)
    # by hand, page after page
    by_hand: List[Dict[str, Any]] = []
    cursor = None
    while True:
        page = g.clipnet_posts(username="rafatech", limit=7, **({"cursor": cursor} if cursor else {}))
        by_hand += page["data"]["posts"]
        if not page["data"]["has_more"]:
            break
        cursor = page["data"]["cursor"]
    assert len(by_hand) > 14

    pager = g.iterate_clipnet_posts(username="rafatech", limit=7)
    before = server.balance(key["id"])
    posts = pager.all()
    assert posts == by_hand
    assert len({p["id"] for p in posts}) == len(posts)
    assert pager.stop_reason == "end"
    assert pager.pages_fetched == -(-len(posts) // 7)
    assert pager.credits_used == pager.pages_fetched + len(posts)
    assert server.balance(key["id"]) == pytest.approx(before - pager.credits_used)

    # by default a page is as large as the endpoint allows: 100 posts a request
    largest = ENDPOINTS["clipnet.posts"]["fields"]["limit"]["maximum"]
    whole = g.iterate_clipnet_posts(username="rafatech")
    assert whole.all() == by_hand
    assert whole.pages_fetched == -(-len(by_hand) // largest)


def test_iterators_stop_where_asked(server: Server, key: Dict[str, Any]) -> None:
    g = client_for(server, key)
    pager = g.iterate_clipnet_posts(username="rafatech", limit=5, max_pages=2)
    assert len(pager.all()) == 10
    assert pager.stop_reason == "max_pages"

    seen: List[Dict[str, Any]] = []

    def budget(state: Dict[str, Any]) -> Union[bool, Dict[str, Any]]:
        seen.append(state)
        return False if state["credits_used"] >= 6 else {"limit": 2}

    limited = g.iterate_picnet_posts(username="critterswithliam", limit=50, before_page=budget)
    items = limited.all()
    assert [s["page"] for s in seen] == [0, 1, 2]
    assert len(items) == 4 and limited.credits_used == 6 and limited.stop_reason == "before_page"


def test_targets_are_sent_in_batches(server: Server, key: Dict[str, Any]) -> None:
    g = client_for(server, key)
    texts = [f"text number {i} is great" for i in range(130)]
    pager = g.iterate_targets("ml.analyze", {"texts": texts, "enrich": ["sentiment"]}, "texts")
    results = pager.all()
    assert [r["text"] for r in results] == texts
    assert pager.pages_fetched == 2
    assert pager.credits_used == 65

    videos = g.iterate_vidnet_search(keywords=["speedrun", "budgeting"], videos_per_keyword=25, period="all")
    found = videos.all()
    assert videos.pages_fetched == 1
    assert {v["source_keyword"] for v in found} == {"speedrun", "budgeting"}
    assert all(sum(v["source_keyword"] == k for v in found) <= 25 for k in ("speedrun", "budgeting"))


# ---- retries ----


class Proxy:
    """An HTTP proxy in front of the server. ``decide(n)`` for the n-th request (from 1) returns
    "pass", "drop" (forward, let the server answer and charge, then cut the connection before the
    answer reaches the client), "html502" (a proxy's own error page) or a status to answer
    itself with the API's envelope (and Retry-After: 0)."""

    def __init__(self, target: str, decide: Callable[[int], Union[str, int]]) -> None:
        self.seen: List[Dict[str, Any]] = []
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                proxy.seen.append({"path": self.path, "idempotency_key": self.headers.get("Idempotency-Key")})
                action = decide(len(proxy.seen))
                if action == "html502":
                    page = b"<html><body>502 Bad Gateway</body></html>"
                    self.send_response(502)
                    self.send_header("Content-Type", "text/html")
                    self.send_header("Content-Length", str(len(page)))
                    self.end_headers()
                    self.wfile.write(page)
                    return
                if isinstance(action, int):
                    payload = json.dumps(
                        {
                            "success": False,
                            "error": {"code": "SERVICE_UNAVAILABLE", "message": "injected by the proxy"},
                            "metadata": {"credits_used": 0, "processing_time": 0},
                        }
                    ).encode()
                    self.send_response(action)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Retry-After", "0")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
                request = urllib.request.Request(f"{target}{self.path}", data=body, headers=headers, method="POST")
                try:
                    with urllib.request.urlopen(request, timeout=30) as r:
                        status, reply_headers, reply = r.status, r.headers, r.read()
                except urllib.error.HTTPError as e:
                    status, reply_headers, reply = e.code, e.headers, e.read()
                if action == "drop":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                self.send_response(status)
                for k, v in reply_headers.items():
                    if k.lower() not in ("content-length", "transfer-encoding", "connection", "date", "server"):
                        self.send_header(k, v)
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture()
def proxy_factory(server: Server) -> Iterator[Callable[[Callable[[int], Union[str, int]]], Proxy]]:
    made: List[Proxy] = []

    def make(decide: Callable[[int], Union[str, int]]) -> Proxy:
        p = Proxy(server.base_url, decide)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


def test_a_lost_answer_is_retried_with_the_same_key_and_charged_once(
    server: Server, key: Dict[str, Any], proxy_factory: Callable[..., Proxy]
) -> None:
    proxy = proxy_factory(lambda n: "drop" if n == 1 else "pass")
    retries: List[Dict[str, Any]] = []
    g = Gleaner(api_key=key["key"], base_url=proxy.url, on_retry=retries.append, **FAST)
    before = server.balance(key["id"])
    r = g.clipnet_posts(username="rafatech", limit=4)
    assert len(proxy.seen) == 2
    assert proxy.seen[0]["idempotency_key"] == proxy.seen[1]["idempotency_key"] == r["idempotency_key"]
    assert r["replayed"] is True and r["attempts"] == 2
    assert isinstance(retries[0]["error"], NetworkError)
    assert server.balance(key["id"]) == pytest.approx(before - 5)
    assert r["credits_used"] == 5


def test_503s_are_retried_until_an_answer_and_the_call_is_charged_once(
    server: Server, key: Dict[str, Any], proxy_factory: Callable[..., Proxy]
) -> None:
    proxy = proxy_factory(lambda n: 503 if n <= 2 else "pass")
    g = Gleaner(api_key=key["key"], base_url=proxy.url, **FAST)
    before = server.balance(key["id"])
    r = g.analyze(texts=["good", "bad"], enrich=["sentiment"], idempotency_key="my-own-key-1")
    assert [s["idempotency_key"] for s in proxy.seen] == ["my-own-key-1"] * 3
    assert r["attempts"] == 3 and r["replayed"] is False
    assert server.balance(key["id"]) == pytest.approx(before - 1)

    # with no retries left, the error is raised with what the server said
    always = proxy_factory(lambda n: 503)
    with pytest.raises(ServiceUnavailableError) as e:
        Gleaner(api_key=key["key"], base_url=always.url, retries=2, **FAST).analyze(texts=["x"], enrich=["sentiment"])
    assert e.value.attempts == 3 and e.value.status == 503 and e.value.retry_after == 0
    assert len(always.seen) == 3


# ---- errors ----


def test_an_error_page_of_a_proxy_is_named_by_its_status(
    server: Server, key: Dict[str, Any], proxy_factory: Callable[..., Proxy]
) -> None:
    proxy = proxy_factory(lambda n: "html502" if n == 1 else "pass")
    r = Gleaner(api_key=key["key"], base_url=proxy.url, **FAST).analyze(texts=["ok"], enrich=["sentiment"])
    assert r["attempts"] == 2
    always = proxy_factory(lambda n: "html502")
    with pytest.raises(gleaner.ExternalApiError) as e:
        Gleaner(api_key=key["key"], base_url=always.url, retries=0).analyze(texts=["ok"], enrich=["sentiment"])
    assert e.value.status == 502 and e.value.message == "HTTP 502" and e.value.kind == "upstream"


def test_each_error_code_raises_its_class(server: Server, key: Dict[str, Any]) -> None:
    g = client_for(server, key)
    with pytest.raises(NotFoundError) as nf:
        g.clipnet_posts(username="no_such_user_here")
    assert isinstance(nf.value, GleanerNotFoundError) and isinstance(nf.value, GleanerError)
    assert nf.value.code == "NOT_FOUND" and nf.value.status == 404 and nf.value.kind == "not_found"
    assert "no_such_user_here" in nf.value.message and nf.value.request_id.startswith("req_")
    assert nf.value.attempts == 1

    with pytest.raises(BadRequestError) as bad:
        g.clipnet_posts(username="rafatech", limit=1000)
    assert isinstance(bad.value, GleanerBadRequestError)
    assert [d["field"] for d in bad.value.details] == ["limit"]
    assert "limit" in str(bad.value)

    poor = server.new_key(1)
    with pytest.raises(PaymentRequiredError) as pay:
        client_for(server, poor).clipnet_hashtag_posts(hashtags=["fitness"])
    assert isinstance(pay.value, GleanerPaymentError) and pay.value.status == 402
    assert server.balance(poor["id"]) == 1

    wrong = "gl_wrong_wrong_wrong_wrong_wrong_wrong"
    with pytest.raises(UnauthorizedError) as auth:
        Gleaner(api_key=wrong, base_url=server.base_url).analyze(texts=["x"], enrich=["sentiment"])
    assert isinstance(auth.value, GleanerAuthError)
    assert wrong not in str(auth.value) and wrong not in repr(auth.value)


def test_no_server_is_a_network_error_after_the_retries() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    seen: List[int] = []
    g = Gleaner(api_key="gl_x", base_url=f"http://127.0.0.1:{port}", retries=2, on_retry=lambda r: seen.append(r["attempt"]), **FAST)
    with pytest.raises(NetworkError) as e:
        g.analyze(texts=["x"], enrich=["sentiment"])
    assert isinstance(e.value, GleanerNetworkError) and e.value.status == 0 and e.value.attempts == 3
    assert seen == [1, 2]


# ---- DataFrames and the README ----


def test_to_dataframe_flattens_items_into_columns(server: Server, key: Dict[str, Any]) -> None:
    pd = pandas_or_skip()
    g = client_for(server, key)
    result = g.clipnet_bulk_posts(usernames=["rafatech", "zanedrums"], limit_per_user=2, enrich=["sentiment"])
    df = gleaner.to_dataframe(result)
    assert isinstance(df, pd.DataFrame)
    assert list(df["username"]) == ["rafatech", "rafatech", "zanedrums", "zanedrums"]
    assert {"id", "stats.views", "enrichment.sentiment"} <= set(df.columns)
    assert len(gleaner.to_dataframe([])) == 0


def python_blocks(markdown: Path) -> List[str]:
    return re.findall(r"```python\n(.*?)```", markdown.read_text(), flags=re.S)


@pytest.mark.parametrize("readme", ["clients/python/README.md", "README.md"])
def test_the_three_lines_of_the_readme_give_a_users_posts_with_enrichment(
    readme: str, server: Server, env_key: Dict[str, Any]
) -> None:
    pd = pandas_or_skip()
    block = next(b for b in python_blocks(REPO / readme) if "to_dataframe()" in b)
    assert len(block.strip().splitlines()) == 3
    scope: Dict[str, Any] = {}
    exec(compile(block, readme, "exec"), scope)
    df = scope["df"]
    assert isinstance(df, pd.DataFrame)
    username = re.search(r'username="([^"]+)"', block).group(1)  # type: ignore[union-attr]
    expected = Gleaner().iterate_clipnet_posts(username=username, limit=100).all()
    assert len(expected) > 0
    assert list(df["id"]) == [p["id"] for p in expected]
    assert {"caption", "stats.views", "enrichment.sentiment", "enrichment.topics"} <= set(df.columns)
    assert df["enrichment.sentiment"].isin(["positive", "negative", "neutral"]).all()


def test_every_example_of_the_readme_runs(server: Server, env_key: Dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    blocks = python_blocks(REPO / "clients/python/README.md")
    assert len(blocks) >= 4
    for block in blocks:
        if "to_dataframe()" in block:
            continue  # the test above
        exec(compile(block, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "no such user:" in out
