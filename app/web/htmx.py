"""The one place that decides whether a request came from htmx."""

from flask import Response, current_app, redirect, request
from flask.typing import ResponseReturnValue


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


def go_to(url: str) -> ResponseReturnValue:
    """Send the browser to another page: a 303 for a plain form, a full navigation for htmx."""
    if is_htmx():
        # htmx would follow a 303 inside fetch and swap the whole next page into the form.
        return current_app.response_class(status=200, headers={"HX-Redirect": url})
    return redirect(url, 303)
