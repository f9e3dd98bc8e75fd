"""The browser client, served by the server from ``static/``."""
