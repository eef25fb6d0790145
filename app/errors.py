"""Error pages in the person's language: what went wrong and the way back, never a stack trace."""

from flask import Flask, render_template
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from app.games import GameNotFound


def _messages() -> dict[int, tuple[str, str]]:
    # Built for each error, not at import time: each text is in the language of the request.
    return {
        400: (_("Requête refusée"), _("Le formulaire envoyé est incomplet ou invalide.")),
        404: (
            _("Page introuvable"),
            _("Cette page n’existe pas, ou cette partie appartient à un autre appareil."),
        ),
        405: (_("Action impossible"), _("Cette adresse ne s’utilise pas ainsi.")),
        413: (_("Envoi trop gros"), _("Ce qui a été envoyé dépasse la taille permise.")),
        429: (
            _("Doucement !"),
            _("Trop de demandes en peu de temps : patientez un instant puis réessayez."),
        ),
        500: (
            _("Oups, une erreur"),
            _("Une erreur est survenue de notre côté. Rien n’a été perdu : réessayez."),
        ),
    }


def render_error(status: int, detail: str | None = None):
    title, text = _messages().get(
        status, (_("Erreur %(status)s", status=status), _("La demande n’a pas abouti."))
    )
    return render_template("error.html", status=status, title=title, text=detail or text), status


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(_error):
        return render_error(
            400,
            _(
                "Le formulaire a expiré ou n’a pas de jeton de sécurité. Rechargez la page et "
                "recommencez : rien n’a été enregistré."
            ),
        )

    @app.errorhandler(GameNotFound)
    def game_not_found(_error: GameNotFound):
        return render_error(404)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        return render_error(error.code or 500)

    @app.errorhandler(Exception)
    def unexpected_error(error: Exception):
        app.logger.exception("Unexpected error", exc_info=error)
        from app.extensions import db

        db.session.rollback()
        return render_error(500)
