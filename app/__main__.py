"""`python -m app --upgrade` (make run): the database's migrations, then the start-up banner
(app/platform/banner.py), in one process before gunicorn starts."""

import sys

from flask_migrate import upgrade

from app import create_app
from app.platform import banner


def upgrade_database() -> None:
    """Apply the migrations as `flask --app app db upgrade` does, in this process: `make run`
    then starts Python and imports the app once before gunicorn, not twice (about 1 s here)."""
    with create_app().app_context():
        upgrade()


if __name__ == "__main__":
    if "--upgrade" in sys.argv[1:]:
        upgrade_database()
    banner.main()
