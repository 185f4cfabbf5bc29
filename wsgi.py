"""WSGI entry point for any WSGI server: `app` is the referee application."""

from referee import create_app

app = create_app()
