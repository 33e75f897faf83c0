"""The project store: SQLite in WAL mode, safe under many sessions, each user's own.

Every teacher action is one transaction, committed before the call returns, so a
crash or a closed tab loses nothing; a write that fails half-way rolls back and
leaves the earlier state as it was. Every project belongs to a user; a :class:`Store`
acts as one user (the local user unless told otherwise) and an id that belongs to
someone else reads as one that does not exist. The schema carries
``PRAGMA user_version`` and :data:`MIGRATIONS` brings older files forward.
"""

from qg_studio.store.base import DATA_DIR_ENV
from qg_studio.store.base import DB_NAME
from qg_studio.store.base import StaleEditError
from qg_studio.store.base import StoreError
from qg_studio.store.base import default_data_dir
from qg_studio.store.items import Store
from qg_studio.store.projects import ProjectInfo
from qg_studio.store.projects import StoredStory
from qg_studio.store.schema import LOCAL_USER
from qg_studio.store.schema import MIGRATIONS
from qg_studio.store.schema import SCHEMA_VERSION

__all__ = [
    "DATA_DIR_ENV",
    "DB_NAME",
    "LOCAL_USER",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "ProjectInfo",
    "StaleEditError",
    "Store",
    "StoreError",
    "StoredStory",
    "default_data_dir",
]
