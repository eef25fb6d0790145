"""Error pages in the person's language: what went wrong and the way back, never a stack trace."""

import math
import time

from babel.units import format_unit
from flask import Flask, Response, render_template, request
from flask.globals import request_ctx
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_limiter import RateLimitExceeded
from flask_wtf.csrf import CSRFError
from sqlalchemy import exc
from werkzeug.exceptions import HTTPException

from app.platform import rate_limits
from app.platform.languages import wait_in_words
from app.services.refusals import GameNotFound, OwnPhoneOnly
from app.web.htmx import is_htmx

RETRY_AFTER = 5  # seconds before a phone sends again what a failing database refused


def database_unavailable(error: Exception) -> bool:
    """Whether an error is the database failing (stopped, unreachable, full, read-only, a file
    that is no database), not a mistake of the request or of the code (a constraint, bad SQL)."""
    failing = (exc.OperationalError, exc.InterfaceError, exc.InternalError, exc.TimeoutError)
    return isinstance(error, failing) or type(error) is exc.DatabaseError


def _messages() -> dict[int, tuple[str, str]]:
    # Built for each error, not at import time: each text is in the language of the request.
    return {
        400: (_("Requête refusée"), _("Le formulaire envoyé est incomplet ou invalide.")),
        404: (
            _("Page introuvable"),
            _("Cette page n’existe pas, ou cette partie appartient à un autre appareil."),
        ),
        403: (
            _("Action réservée"),
            _(
                "Seul le téléphone qui a commencé la partie peut la supprimer, arrêter son "
                "partage ou son invitation, et retirer les téléphones invités. Rien n’a changé."
            ),
        ),
        405: (_("Action impossible"), _("Cette adresse ne s’utilise pas ainsi.")),
        413: (_("Envoi trop gros"), _("Ce qui a été envoyé dépasse la taille permise.")),
        429: (
            _("Doucement !"),
            _("Trop de demandes en peu de temps : patientez un instant puis réessayez."),
        ),
        503: (
            _("Enregistrement impossible pour l’instant"),
            _(
                "Le serveur ne peut pas écrire dans sa base de données en ce moment : rien n’a "
                "été enregistré. Réessayez dans un instant."
            ),
        ),
        500: (
            _("Oups, une erreur"),
            _("Une erreur est survenue de notre côté. Rien n’a été perdu : réessayez."),
        ),
    }


def _csrf_messages() -> dict[str, str]:
    """Say what Flask-WTF found wrong (CSRFError.description, in English) as it is."""
    return {
        "The CSRF token is missing.": _(
            "Ce formulaire n’a pas de jeton de sécurité (il ne vient pas d’une page du compteur)."
        ),
        "The CSRF session token is missing.": _(
            "Ce navigateur n’a plus la session qui garde les jetons de sécurité (cookies "
            "effacés, ou bloqués pour ce site)."
        ),
        "The CSRF token is invalid.": _("Le jeton de sécurité du formulaire n’est pas valable."),
        "The CSRF tokens do not match.": _(
            "Ce formulaire vient d’une page ouverte dans une autre session de ce navigateur (ses "
            "cookies ont changé depuis)."
        ),
        "The CSRF token has expired.": _("Le formulaire a expiré."),
        "The referrer header is missing.": _(
            "Votre navigateur n’a pas dit de quelle page vient ce formulaire (en-tête Referer "
            "absent : un réglage de confidentialité ou une extension le retire). Sur une "
            "connexion sécurisée, le compteur en a besoin pour savoir que le formulaire vient "
            "bien de lui : autorisez-le pour ce site."
        ),
        "The referrer does not match the host.": _(
            "Ce formulaire a été envoyé depuis une autre adresse que celle du compteur."
        ),
    }


def render_error(status: int, detail: str | None = None):
    title, text = _messages().get(
        status, (_("Erreur %(status)s", status=status), _("La demande n’a pas abouti."))
    )
    if is_htmx():
        # htmx would put the whole error page in the part it asked for (a second <main>): the
        # refusal replaces the page's notices instead, scrolled into view.
        refusal = render_template("_error_notice.html", title=title, text=detail or text)
        return refusal, status, {"HX-Retarget": "#messages", "HX-Reswap": "outerHTML show:top"}
    return render_template("error.html", status=status, title=title, text=detail or text), status


def _too_big() -> str:
    """Say the limit of what this request may send (an import's is bigger than a form's)."""
    limit = request.max_content_length or 0  # not None: this body was refused for its length
    if limit % (1024 * 1024) == 0:
        unit, count = "digital-megabyte", limit // (1024 * 1024)
    else:
        unit, count = "digital-kilobyte", limit // 1024
    size = format_unit(count, unit, locale=str(get_locale()))
    return _(
        "Ce qui a été envoyé dépasse la taille permise (%(size)s au plus)\u202f: rien n’a été "
        "enregistré.",
        size=size,
    )


def _too_many(app: Flask, seconds: float) -> Response:
    wait = max(1, math.ceil(seconds))
    if request.method in ("GET", "HEAD"):  # a page read (the statistics sorted again and again)
        text = _(
            "Trop de demandes en peu de temps depuis cet appareil ou cette adresse. Réessayez "
            "dans %(wait)s."
        )
    else:
        text = _(
            "Trop de demandes en peu de temps depuis cet appareil ou cette adresse : rien "
            "n’a été enregistré. Réessayez dans %(wait)s."
        )
    said = text % {"wait": wait_in_words(wait)}
    response = app.make_response(render_error(429, said))
    response.headers["Retry-After"] = str(wait)  # the same wait as the page says
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError):
        said = _csrf_messages().get(
            error.description or "", _("Le formulaire n’a pas pu être vérifié.")
        )
        again = _("Rechargez la page et recommencez : rien n’a été enregistré.")
        return render_error(400, f"{said} {again}")

    @app.errorhandler(RateLimitExceeded)
    def rate_limited(_error: RateLimitExceeded):
        from app.platform.extensions import limiter

        reached = limiter.current_limit
        return _too_many(app, reached.reset_at - time.time() if reached else 60)

    @app.after_request
    def guessed(response: Response) -> Response:
        # An address of a game or a share that leads nowhere is a guess (rate_limits.py).
        wait = rate_limits.count_guess(response)
        if wait is None:
            return response
        refusal = _too_many(app, wait)
        for name in ("Referrer-Policy", "X-Robots-Tag"):  # an address that is a key keeps them
            if name in response.headers:
                refusal.headers[name] = response.headers[name]
        return refusal

    @app.errorhandler(GameNotFound)
    def game_not_found(_error: GameNotFound):
        return render_error(404)

    @app.errorhandler(OwnPhoneOnly)
    def own_phone_only(_error: OwnPhoneOnly):
        return render_error(403)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if request_ctx.url_adapter is None:  # a Host not in TRUSTED_HOSTS: no page can be built
            return _("Requête refusée : ce site ne répond pas à cette adresse."), error.code or 400
        if error.code == 413 and (request.content_length or 0) > (request.max_content_length or 0):
            return render_error(413, _too_big())  # a file to import, most often
        return render_error(error.code or 500)

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception):
        from app.platform.extensions import db

        try:
            db.session.rollback()
        except exc.SQLAlchemyError:
            pass  # a connection that is gone has nothing to roll back
        if database_unavailable(error):
            # Nothing was written, and it may go through in a moment: a 503 the phone treats as
            # no network (static/pwa.js keeps the round waiting and sends it again).
            app.logger.warning("Database unavailable: %s", error)
            response = app.make_response(render_error(503))
            response.headers["Retry-After"] = str(RETRY_AFTER)
            return response
        app.logger.exception("Unexpected error", exc_info=error)
        return render_error(500)
