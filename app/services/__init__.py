"""The service layer: each use case one function, each write one unit of work (unit_of_work.py)."""
