"""Django discovers ``games.admin``: each concept registers its own models."""

from .accounts import admin as accounts_admin
from .analysis import admin as analysis_admin
from .bots import admin as bots_admin
from .matches import admin as matches_admin
from .notices import admin as notices_admin
from .push import admin as push_admin
from .quickmatch import admin as quickmatch_admin
from .ratings import admin as ratings_admin
from .tables import admin as tables_admin

__all__ = ["accounts_admin", "analysis_admin", "bots_admin", "matches_admin", "notices_admin", "push_admin",
           "quickmatch_admin", "ratings_admin", "tables_admin"]
