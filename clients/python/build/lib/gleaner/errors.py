"""Exceptions. Every failure of a call is a GleanerError.

The API's own errors are instances of the class of their ``error.code`` (``PaymentRequiredError``
for ``PAYMENT_REQUIRED``, ...), generated from the API's OpenAPI document, each a subclass of the
class of its kind (``GleanerPaymentError``, ...). Failures that never got a readable answer are
``NetworkError``, ``RequestTimeoutError`` and ``InvalidResponseError``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Type

#: kind of each error code: a coarse class of failure, to switch on without listing codes
_KINDS = {
    "BAD_REQUEST": "bad_request",
    "PAYLOAD_TOO_LARGE": "bad_request",
    "UNSUPPORTED_MEDIA_TYPE": "bad_request",
    "METHOD_NOT_ALLOWED": "bad_request",
    "UNAUTHORIZED": "auth",
    "PAYMENT_REQUIRED": "payment",
    "NOT_FOUND": "not_found",
    "RATE_LIMITED": "rate_limit",
    "EXTERNAL_API_ERROR": "upstream",
    "SERVICE_UNAVAILABLE": "upstream",
    "IDEMPOTENCY_IN_PROGRESS": "idempotency",
    "IDEMPOTENCY_KEY_REUSED": "idempotency",
    "NETWORK_ERROR": "network",
    "TIMEOUT": "timeout",
    "INTERNAL_SERVER_ERROR": "server",
}


def kind_of(code: str, status: int) -> str:
    """The kind of an error: bad_request, auth, payment, not_found, rate_limit, upstream,
    idempotency, network, timeout, server or other."""
    if code in _KINDS:
        return _KINDS[code]
    if status == 429:
        return "rate_limit"
    if status in (502, 503):
        return "upstream"
    return "other"


class GleanerError(Exception):
    """A failed call.

    Attributes:
        code: the API's ``error.code``, or NETWORK_ERROR, TIMEOUT, INVALID_RESPONSE
        status: HTTP status; 0 when no answer arrived
        message: the API's message
        details: ``error.details``: for a 400, one ``{"field", "message"}`` per problem
        request_id: X-Request-Id of the failed attempt, to quote to the operator
        retry_after: the last Retry-After, in seconds
        attempts: attempts made before giving up
        kind: the kind of failure (see ``kind_of``)
    """

    def __init__(
        self,
        code: str,
        status: int,
        message: str,
        details: Optional[List[Dict[str, Any]]] = None,
        request_id: Optional[str] = None,
        retry_after: Optional[float] = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.message = message
        self.details: List[Dict[str, Any]] = list(details or [])
        self.request_id = request_id
        self.retry_after = retry_after
        self.attempts = attempts
        self.kind = kind_of(code, status)

    def __str__(self) -> str:
        status = f" (HTTP {self.status})" if self.status else ""
        text = f"{self.code}{status}: {self.message}"
        for d in self.details:
            text += f"\n  {d.get('field')}: {d.get('message')}"
        if self.request_id:
            text += f"\n  request id: {self.request_id}"
        return text

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, status={self.status}, message={self.message!r})"


class GleanerBadRequestError(GleanerError):
    """400 and other rejections of the request itself."""


class GleanerAuthError(GleanerError):
    """401: missing, invalid or revoked key."""


class GleanerPaymentError(GleanerError):
    """402: the balance does not cover the call's minimum charge."""


class GleanerNotFoundError(GleanerError):
    """404: a single target does not exist."""


class GleanerRateLimitError(GleanerError):
    """429, still so after the last retry."""


class GleanerUpstreamError(GleanerError):
    """502/503: a platform failed or is switched off, still so after the last retry."""


class GleanerNetworkError(GleanerError):
    """No answer: connection refused or reset, DNS, timeout."""


class NetworkError(GleanerNetworkError):
    """NETWORK_ERROR: the server could not be reached."""


class RequestTimeoutError(GleanerNetworkError):
    """TIMEOUT: no answer within the client's timeout."""


class InvalidResponseError(GleanerError):
    """INVALID_RESPONSE: an answer that is not the API's JSON envelope."""


#: the class of each kind, for codes this version of the client does not know
KIND_CLASSES: Dict[str, Type[GleanerError]] = {
    "bad_request": GleanerBadRequestError,
    "auth": GleanerAuthError,
    "payment": GleanerPaymentError,
    "not_found": GleanerNotFoundError,
    "rate_limit": GleanerRateLimitError,
    "upstream": GleanerUpstreamError,
    "network": NetworkError,
    "timeout": RequestTimeoutError,
}
