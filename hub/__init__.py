"""The community hub: challenge maps published only after a server-side clear check, runs
re-simulated on the server, shared leaderboards (docs/hub.md).

``db`` holds the storage (SQLite or PostgreSQL through one set of versioned migrations),
``service`` the rules of the hub (accounts, publish, submit, leaderboards) without HTTP,
``app`` the HTTP API and ``pages`` the HTML pages (Starlette), ``client`` and ``config``
what the ``cardrogue hub`` commands use, ``addresses`` the one check of a server's address (which
``cardrogue web --public-url`` shares). No module here imports Textual.
"""
