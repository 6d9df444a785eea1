"""The process: the composition root and operations.

- `server.py`: the composition root (``LobbyServer``, ``LobbyFactory``, ``LobbyService``,
  ``main``); `options.py`: every option declared once, the command line built from them;
  `config.py`: options from a TOML file and the environment;
- `host.py`: what the process asks of its machine (the hashing threads, the open-files limit,
  the reactor's install);
- `logs.py`: text and JSON logs, rotation; `metrics.py`: the Prometheus metrics;
  `metrics_site.py`: their port (`--metrics`, imported only then), health;
- `reactor_health.py`: the reactor's lag; `admin_cli.py`: ``tichu-lobby admin ...``.

May import: anything of lobby and protocol. Nothing imports it but protocol.__main__,
twisted/plugins, scripts and tests (the exceptions still in the code are listed in
tests/project/test_layers.py).
"""
