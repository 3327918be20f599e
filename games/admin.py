"""Django discovers ``games.admin``: each concept registers its own models."""

from .analysis import admin as analysis_admin
from .matches import admin as matches_admin
from .players import admin as players_admin
from .tables import admin as tables_admin

__all__ = ["analysis_admin", "matches_admin", "players_admin", "tables_admin"]
