"""The Gleaner API client: one method per endpoint (generated from the API's OpenAPI document into
_generated.py), iterators that follow cursors, retries that are never charged twice, and an
exception class per ``error.code``. Standard library only (urllib)."""

from __future__ import annotations

import importlib
import json
import os
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from email.utils import parsedate_to_datetime
from typing import (
    Any,
    Callable,
    Dict,
    Generic,
    Iterable,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Type,
    TypeVar,
    Union,
)

from ._generated import API_VERSION, CODE_OF_STATUS, ENDPOINTS, ERROR_CLASSES, ApiResult, EndpointId, Endpoints
from .errors import (
    KIND_CLASSES,
    GleanerError,
    InvalidResponseError,
    NetworkError,
    RequestTimeoutError,
    kind_of,
)

__version__ = "1.0.0"

DEFAULT_BASE_URL = "http://127.0.0.1:8080"
API_PREFIX = "/api/v1"

#: statuses worth another attempt with the same Idempotency-Key: the server charged nothing for
#: them and a repeat can succeed (409 only as IDEMPOTENCY_IN_PROGRESS: our own earlier attempt)
RETRYABLE_STATUS = frozenset({409, 429, 502, 503})

#: videos per unit of ``depth`` on the vidnet endpoints (one upstream results page)
VIDEOS_PER_DEPTH = 20

T = TypeVar("T")
BeforePage = Callable[[Dict[str, Any]], Any]


def _normalise_base_url(url: str) -> str:
    u = url.strip().rstrip("/")
    for suffix in (API_PREFIX, "/api"):
        if u.endswith(suffix):
            return u[: -len(suffix)]
    return u


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[float]:
    """Retry-After in seconds: delta-seconds or an HTTP date; None when absent or unreadable."""
    if value is None or not value.strip():
        return None
    v = value.strip()
    try:
        return max(0.0, float(v))
    except ValueError:
        pass
    try:
        at = parsedate_to_datetime(v).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0.0, at - (time.time() if now is None else now))


def add_credits(a: float, b: float) -> float:
    """Credits come in 0.5 (and finer, 0.001) steps: added in thousandths to stay exact."""
    return round(a * 1000 + b * 1000) / 1000


def items_of(endpoint: str, data: Mapping[str, Any]) -> List[Dict[str, Any]]:
    """The list of items of a response. Bulk posts are flattened, each post with its username."""
    if endpoint == "clipnet.bulk_posts":
        return [{"username": u["username"], **p} for u in data.get("users", []) for p in u["posts"]]
    field = ENDPOINTS[endpoint]["items"]
    return list(data.get(field) or [])


def depth_for(videos: int) -> int:
    """The ``depth`` that reaches ``videos`` results per keyword, hashtag or channel."""
    most = int(ENDPOINTS["vidnet.search"]["fields"]["depth"]["maximum"])
    return min(most, max(1, -(-videos // VIDEOS_PER_DEPTH)))


def to_dataframe(items: Union["Paginator[Any]", Mapping[str, Any], Iterable[Mapping[str, Any]]]) -> Any:
    """A pandas DataFrame of items: a paginator (pulled to the end), a result of an endpoint
    method, or a list of items. Nested fields become dotted columns (``stats.views``,
    ``enrichment.sentiment``); lists stay lists. Needs pandas (``pip install pandas``)."""
    try:
        pd: Any = importlib.import_module("pandas")
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("to_dataframe needs pandas: pip install pandas") from e
    rows: Sequence[Mapping[str, Any]]
    if isinstance(items, Paginator):
        rows = items.all()
    elif isinstance(items, Mapping) and "data" in items and "endpoint" in items:
        rows = items_of(items["endpoint"], items["data"])
    else:
        rows = list(items)  # type: ignore[arg-type]
    return pd.json_normalize(rows, sep=".") if rows else pd.DataFrame()


class Paginator(Generic[T]):
    """A pull of several requests: follows ``cursor`` while ``has_more``, or sends one request per
    batch of targets. Iterate it for the items; ``pages()`` gives the results themselves, with
    their credits. Each page is its own call with its own Idempotency-Key.

    Attributes (of the latest run): credits_used, pages_fetched, items_returned,
    credits_remaining, stop_reason ("end", "max_pages" or "before_page").
    """

    def __init__(
        self,
        fetch: Callable[[Dict[str, Any]], ApiResult],
        first: Dict[str, Any],
        next_body: Callable[[ApiResult, Dict[str, Any], int], Optional[Dict[str, Any]]],
        max_pages: Optional[int] = None,
        before_page: Optional[BeforePage] = None,
    ) -> None:
        self._fetch = fetch
        self._first = first
        self._next = next_body
        self._max_pages = max_pages
        self._before_page = before_page
        self.credits_used = 0.0
        self.pages_fetched = 0
        self.items_returned = 0
        self.credits_remaining: Optional[float] = None
        self.stop_reason: Optional[str] = None

    def pages(self) -> Iterator[ApiResult]:
        """Every result in order, to the end. Each call starts a new run from the first page."""
        self.credits_used = 0.0
        self.pages_fetched = 0
        self.items_returned = 0
        self.stop_reason = None
        body: Optional[Dict[str, Any]] = dict(self._first)
        previous: Optional[ApiResult] = None
        seen_cursors = set()
        while body is not None:
            if self._max_pages is not None and self.pages_fetched >= self._max_pages:
                self.stop_reason = "max_pages"
                return
            if self._before_page is not None:
                patch = self._before_page(
                    {
                        "body": body,
                        "page": self.pages_fetched,
                        "credits_used": self.credits_used,
                        "items": self.items_returned,
                        "previous": previous,
                    }
                )
                if patch is False:
                    self.stop_reason = "before_page"
                    return
                if patch:
                    body = {**body, **patch}
            result = self._fetch(body)
            self.pages_fetched += 1
            self.credits_used = add_credits(self.credits_used, result["credits_used"])
            self.credits_remaining = result["credits_remaining"]
            self.items_returned += len(items_of(result["endpoint"], result["data"]))
            previous = result
            yield result
            nxt = self._next(result, body, self.pages_fetched - 1)
            cursor = nxt.get("cursor") if nxt else None
            if isinstance(cursor, str):
                # a server handing out the same cursor twice would loop (and bill) for ever
                if cursor in seen_cursors:
                    raise InvalidResponseError(
                        "INVALID_RESPONSE", 0, f"the server returned cursor {cursor} twice"
                    )
                seen_cursors.add(cursor)
            body = nxt
        self.stop_reason = "end"

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from items_of(page["endpoint"], page["data"])  # type: ignore[misc]

    def all(self) -> List[T]:
        """Every item (mind the credits: this pulls to the end)."""
        return list(self)

    def to_dataframe(self) -> Any:
        """Every item in a pandas DataFrame (see ``gleaner.to_dataframe``)."""
        return to_dataframe(self)


class Gleaner(Endpoints):
    """A client of one Gleaner server.

    Args:
        api_key: the API key (X-API-Key); default: the GLEANER_API_KEY environment variable
        base_url: the server; default: GLEANER_BASE_URL, else http://127.0.0.1:8080
        retries: retries after the first attempt on 429, 502, 503, 409 in progress, timeouts and
            network errors (default 3; 0 disables)
        timeout: per-attempt timeout in seconds (default 120)
        retry_base_delay, retry_max_delay: backoff bounds in seconds (default 0.5 and 20)
        max_retry_after: a Retry-After longer than this (seconds) is not waited for: the error is
            raised instead (default 60)
        on_retry: called before each retry with {"endpoint", "attempt", "delay", "error"}
        headers: extra headers sent with every request
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        retries: int = 3,
        timeout: float = 120.0,
        retry_base_delay: float = 0.5,
        retry_max_delay: float = 20.0,
        max_retry_after: float = 60.0,
        on_retry: Optional[Callable[[Dict[str, Any]], None]] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> None:
        key = api_key if api_key is not None else os.environ.get("GLEANER_API_KEY", "").strip()
        self._api_key = key or None
        self.base_url = _normalise_base_url(
            base_url or os.environ.get("GLEANER_BASE_URL", "").strip() or DEFAULT_BASE_URL
        )
        self.retries = max(0, int(retries))
        self.timeout = timeout
        self.retry_base_delay = retry_base_delay
        self.retry_max_delay = retry_max_delay
        self.max_retry_after = max_retry_after
        self.on_retry = on_retry
        self.headers = dict(headers or {})

    def __repr__(self) -> str:
        # the key is never shown
        return f"Gleaner(base_url={self.base_url!r}, api_key={'<redacted>' if self._api_key else None})"

    def backoff(self, attempt: int) -> float:
        """Seconds to wait before retry ``attempt`` (from 0): a random wait between half the base
        delay and min(max delay, base delay * 2**attempt)."""
        ceiling = min(self.retry_max_delay, self.retry_base_delay * 2.0**attempt)
        floor = min(ceiling, self.retry_base_delay / 2)
        return floor + random.random() * (ceiling - floor)

    def call(
        self, endpoint: EndpointId, params: Mapping[str, Any], *, idempotency_key: Optional[str] = None
    ) -> ApiResult:
        """Calls one endpoint by id ("clipnet.posts", ...) with a body.

        Every attempt of this call sends the same Idempotency-Key, so a retry of a call the server
        already served (an answer lost on the way back) is replayed, not charged again. Retries on
        429, 502, 503, 409 IDEMPOTENCY_IN_PROGRESS, timeouts and network errors, waiting
        Retry-After when the server sent it, else an exponential backoff with jitter.
        """
        if endpoint not in ENDPOINTS:
            raise ValueError(f"unknown endpoint {endpoint!r}; one of {', '.join(ENDPOINTS)}")
        url = f"{self.base_url}{API_PREFIX}{ENDPOINTS[endpoint]['path']}"
        key = idempotency_key or str(uuid.uuid4())
        body = json.dumps(dict(params), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        headers = {
            **self.headers,
            "Content-Type": "application/json",
            "Accept": "application/json",
            "Idempotency-Key": key,
            "User-Agent": f"gleaner-python/{__version__}",
        }
        if self._api_key:
            headers["X-API-Key"] = self._api_key
        return self._retrying(endpoint, lambda attempt: self._attempt(endpoint, url, headers, body, key, attempt))

    def _read(self, endpoint: str, path: str, query: Mapping[str, Any]) -> ApiResult:
        """A free GET of the account API, retried on the same errors as a call (but for 409)."""
        qs = urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})
        url = f"{self.base_url}{API_PREFIX}{path}{'?' + qs if qs else ''}"
        headers = {**self.headers, "Accept": "application/json", "User-Agent": f"gleaner-python/{__version__}"}
        if self._api_key:
            headers["X-API-Key"] = self._api_key
        return self._retrying(endpoint, lambda attempt: self._attempt(endpoint, url, headers, None, "", attempt))

    def _retrying(self, endpoint: str, attempt_once: Callable[[int], ApiResult]) -> ApiResult:
        attempt = 1
        while True:
            try:
                return attempt_once(attempt)
            except GleanerError as e:
                error = e
            retryable = error.code in ("NETWORK_ERROR", "TIMEOUT") or error.status in RETRYABLE_STATUS
            # 409 is worth waiting for only as our own call still running (IDEMPOTENCY_IN_PROGRESS)
            in_progress_ok = error.status != 409 or error.code == "IDEMPOTENCY_IN_PROGRESS"
            if not retryable or not in_progress_ok or attempt > self.retries:
                raise error
            if error.retry_after is not None and error.retry_after > self.max_retry_after:
                raise error
            delay = error.retry_after if error.retry_after is not None else self.backoff(attempt - 1)
            if self.on_retry is not None:
                self.on_retry({"endpoint": endpoint, "attempt": attempt, "delay": delay, "error": error})
            time.sleep(delay)
            attempt += 1

    def _attempt(
        self, endpoint: str, url: str, headers: Dict[str, str], body: Optional[bytes], key: str, attempt: int
    ) -> ApiResult:
        method = "GET" if body is None else "POST"
        request = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, reply_headers, text = response.status, response.headers, response.read()
        except urllib.error.HTTPError as e:
            status, reply_headers = e.code, e.headers
            try:
                text = e.read()
            except OSError:
                text = b""
            finally:
                e.close()
        except (socket.timeout, TimeoutError) as e:
            raise RequestTimeoutError(
                "TIMEOUT", 0, f"no answer from {self.base_url} within {self.timeout} s", attempts=attempt
            ) from e
        except urllib.error.URLError as e:
            if isinstance(e.reason, (socket.timeout, TimeoutError)):
                raise RequestTimeoutError(
                    "TIMEOUT", 0, f"no answer from {self.base_url} within {self.timeout} s", attempts=attempt
                ) from e
            raise NetworkError(
                "NETWORK_ERROR", 0, f"could not reach {self.base_url}: {e.reason}", attempts=attempt
            ) from e
        except (ConnectionError, OSError) as e:
            raise NetworkError("NETWORK_ERROR", 0, f"could not reach {self.base_url}: {e}", attempts=attempt) from e

        request_id = reply_headers.get("X-Request-Id")
        retry_after = parse_retry_after(reply_headers.get("Retry-After"))
        try:
            envelope = json.loads(text.decode("utf-8")) if text else None
        except (UnicodeDecodeError, ValueError):
            envelope = None
        if not isinstance(envelope, dict):
            envelope = None

        if status >= 400 or envelope is None or envelope.get("success") is not True:
            err = (envelope or {}).get("error") or {}
            if not isinstance(err, dict):
                err = {}
            # an answer without the API's envelope (a proxy's error page) is named by its status
            code = str(err.get("code") or CODE_OF_STATUS.get(status) or "INVALID_RESPONSE")
            message = str(
                err.get("message")
                or (f"unreadable response from {self.base_url}" if status < 400 else f"HTTP {status}")
            )
            cls: Type[GleanerError] = GleanerError
            if code in ERROR_CLASSES:
                cls = ERROR_CLASSES[code]
            elif code == "INVALID_RESPONSE":
                cls = InvalidResponseError
            elif kind_of(code, status) in KIND_CLASSES:
                cls = KIND_CLASSES[kind_of(code, status)]
            raise cls(
                code,
                status,
                message,
                details=err.get("details"),
                request_id=request_id,
                retry_after=retry_after,
                attempts=attempt,
            )

        metadata = dict(envelope.get("metadata") or {"credits_used": 0, "processing_time": 0})
        enrichments = list(metadata.get("enrichments") or metadata.get("enrichments_applied") or [])
        if "enrichments" in metadata or "enrichments_applied" in metadata:
            metadata["enrichments"] = enrichments
            metadata["enrichments_applied"] = list(enrichments)

        def header_number(name: str) -> Optional[float]:
            value = reply_headers.get(name)
            try:
                return None if value is None else float(value)
            except ValueError:
                return None

        credits_used = metadata.get("credits_used")
        if credits_used is None:
            credits_used = header_number("X-Credits-Used") or 0
        credits_remaining = metadata.get("credits_remaining")
        if credits_remaining is None:
            credits_remaining = header_number("X-Credits-Remaining")
        return {
            "endpoint": endpoint,
            "data": envelope.get("data"),
            "metadata": metadata,  # type: ignore[typeddict-item]
            "credits_used": credits_used,
            "credits_remaining": credits_remaining,
            "request_id": request_id,
            "enrichments": enrichments,
            "warnings": list(metadata.get("warnings") or []),
            "truncated": metadata.get("truncated") is True,
            "replayed": (reply_headers.get("Idempotent-Replayed") or "").lower() == "true",
            "idempotency_key": key,
            "attempts": attempt,
        }

    # ---- pulls of several requests ----

    def _cursor_pages(
        self,
        endpoint: EndpointId,
        params: Dict[str, Any],
        max_pages: Optional[int],
        before_page: Optional[BeforePage],
    ) -> Paginator[Any]:
        # every page pays the base charge: by default pages are as large as the endpoint allows
        if params.get("limit") is None:
            params = {**params, "limit": ENDPOINTS[endpoint]["fields"]["limit"]["maximum"]}

        def next_body(result: ApiResult, body: Dict[str, Any], page: int) -> Optional[Dict[str, Any]]:
            data = result["data"]
            if data.get("has_more") and data.get("cursor"):
                return {**body, "cursor": data["cursor"]}
            return None

        return Paginator(
            lambda body: self.call(endpoint, body),
            params,
            next_body,
            max_pages=max_pages,
            before_page=before_page,
        )

    def iterate_targets(
        self,
        endpoint: EndpointId,
        params: Mapping[str, Any],
        field: str,
        size: Optional[int] = None,
        *,
        max_pages: Optional[int] = None,
        before_page: Optional[BeforePage] = None,
    ) -> Paginator[Dict[str, Any]]:
        """One request per batch of ``size`` entries of ``params[field]`` (post URLs, usernames,
        hashtags, keywords, browse ids, texts), for lists longer than one request takes; ``size``
        defaults to the most the endpoint accepts."""
        targets = params.get(field)
        if not isinstance(targets, (list, tuple)):
            raise TypeError(f"{field} must be a list")
        if size is None:
            size = int(ENDPOINTS[endpoint]["fields"][field]["maxItems"])
        bodies = [{**params, field: list(targets[i : i + size])} for i in range(0, len(targets), size)]
        return Paginator(
            lambda body: self.call(endpoint, body),
            bodies[0] if bodies else dict(params),
            lambda _result, _body, page: bodies[page + 1] if page + 1 < len(bodies) else None,
            max_pages=max_pages,
            before_page=before_page,
        )

    def iterate_vidnet_search(
        self,
        *,
        keywords: List[str],
        videos_per_keyword: Optional[int] = None,
        max_pages: Optional[int] = None,
        before_page: Optional[BeforePage] = None,
        **params: Any,
    ) -> Paginator[Dict[str, Any]]:
        """vidnet keyword search over any number of keywords, to a chosen depth.

        vidnet search has no cursor: ``depth`` (result pages of about 20 videos) says how far one
        request reads. ``videos_per_keyword`` sets both ``max_posts_per_keyword`` and the
        ``depth`` that reaches it (unless ``depth`` is given); keywords are sent as many per
        request as the API takes. Other keyword arguments are fields of the body
        (period, sorting, enrich, ...).
        """
        body: Dict[str, Any] = {k: v for k, v in params.items() if v is not None}
        if videos_per_keyword is not None:
            most = ENDPOINTS["vidnet.search"]["fields"]["max_posts_per_keyword"]["maximum"]
            body["max_posts_per_keyword"] = min(most, max(1, videos_per_keyword))
            body.setdefault("depth", depth_for(body["max_posts_per_keyword"]))
        body["keywords"] = list(keywords)
        return self.iterate_targets(
            "vidnet.search", body, "keywords", max_pages=max_pages, before_page=before_page
        )


__all__ = [
    "API_PREFIX",
    "API_VERSION",
    "DEFAULT_BASE_URL",
    "Gleaner",
    "Paginator",
    "add_credits",
    "depth_for",
    "items_of",
    "parse_retry_after",
    "to_dataframe",
]
