"""How games are stored: the SQLAlchemy models (the migrations in migrations/ follow them)."""
