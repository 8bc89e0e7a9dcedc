"""The lab's web app (`vivace lab serve`): browse, compare and explain the runs in the store.

``create_app(store)`` builds the FastAPI application; pages live in ``pages/``, their SQL in
``queries.py``, charts in ``charts.py``. lab/docs/web.md describes every page.
"""

from vivace_lab.web.app import create_app

__all__ = ["create_app"]
