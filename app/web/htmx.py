"""The one place that decides whether a request came from htmx."""

from flask import Response, request


def is_htmx() -> bool:
    """Tell whether htmx asked for a piece of page (not a history restore, which wants it all)."""
    return (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-History-Restore-Request") != "true"
    )


def vary_on_htmx(response: Response) -> Response:
    """Mark a GET whose body depends on HX-Request, so caches keep both versions apart."""
    response.vary.add("HX-Request")
    return response
