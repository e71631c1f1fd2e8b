"""Client for the Gleaner API.

    from gleaner import Gleaner
    posts = Gleaner().iterate_clipnet_posts(username="rafatech", enrich=["sentiment", "topics"])
    df = posts.to_dataframe()

The key is read from GLEANER_API_KEY and the server from GLEANER_BASE_URL unless given. Results
are plain dicts; every failure is a GleanerError, of the class of its ``error.code``.
"""

from . import _generated
from ._generated import *  # noqa: F401,F403  (types, ENDPOINTS, one error class per error.code)
from .client import (
    API_PREFIX,
    DEFAULT_BASE_URL,
    Gleaner,
    Paginator,
    __version__,
    add_credits,
    depth_for,
    items_of,
    parse_retry_after,
    to_dataframe,
)
from .errors import (
    GleanerAuthError,
    GleanerBadRequestError,
    GleanerError,
    GleanerNetworkError,
    GleanerNotFoundError,
    GleanerPaymentError,
    GleanerRateLimitError,
    GleanerUpstreamError,
    InvalidResponseError,
    NetworkError,
    RequestTimeoutError,
    kind_of,
)

__all__ = [
    *_generated.__all__,
    "API_PREFIX",
    "DEFAULT_BASE_URL",
    "Gleaner",
    "GleanerAuthError",
    "GleanerBadRequestError",
    "GleanerError",
    "GleanerNetworkError",
    "GleanerNotFoundError",
    "GleanerPaymentError",
    "GleanerRateLimitError",
    "GleanerUpstreamError",
    "InvalidResponseError",
    "NetworkError",
    "Paginator",
    "RequestTimeoutError",
    "__version__",
    "add_credits",
    "depth_for",
    "items_of",
    "kind_of",
    "parse_retry_after",
    "to_dataframe",
]
