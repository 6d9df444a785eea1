"""The deployment examples (deploy/; docs/operations.md, "Deployment"), tested where they can be:
the systemd unit has a dedicated user, LimitNOFILE, restart on failure, hardening and its state
directory for the database, its command line is one the server accepts, and ``systemd-analyze
verify`` finds nothing in it; the Dockerfile builds from a slim Python image, runs as a user that
is not root, keeps the database on a volume, exposes the port the server listens on, has a
health check (which passes against a real server) and names no package registry host."""
from __future__ import annotations

import configparser
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from protocol.process.options import parse_args
from server_process import ROOT, ServerProcess, command

DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "tichu-lobby.service"
DOCKERFILE = DEPLOY / "Dockerfile"
#: the server's log line of the metrics listener (protocol/process/server.py)
METRICS_ON = re.compile(r"metrics on \S+ \([\d.]+:(\d+)\)")


# ---- systemd ---------------------------------------------------------------------------------------
def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",))
    parser.optionxform = str  # type: ignore[assignment,method-assign]   (keys keep their case)
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser


def test_the_systemd_unit_runs_the_server_as_it_should() -> None:
    service = unit()["Service"]
    user = service["User"]
    assert user and user != "root" and service["Group"]
    assert int(service["LimitNOFILE"]) >= 65536
    assert service["Restart"] == "on-failure" and "2" in service["RestartPreventExitStatus"].split()
    assert service["KillSignal"] == "SIGTERM"
    for hardening, value in (("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"),
                             ("ProtectHome", "yes"), ("PrivateTmp", "yes"),
                             ("CapabilityBoundingSet", "")):
        assert service[hardening] == value, hardening
    # the database in the state directory, the one place ProtectSystem=strict leaves writable
    state = "/var/lib/" + service["StateDirectory"]
    argv = shlex.split(service["ExecStart"])
    assert argv[0].endswith("/tichu-lobby")
    # the options come from the configuration file, deploy/tichu-lobby.toml installed there
    assert argv[1:] == ["--config", "/etc/tichu-lobby/tichu-lobby.toml"]
    opts = parse_args(["--config", str(DEPLOY / "tichu-lobby.toml")])   # one the server accepts
    assert opts.metrics and "9100" not in opts.metrics   # node_exporter's port
    assert Path(opts.db).parent == Path(state) and service["WorkingDirectory"] == state
    assert unit()["Install"]["WantedBy"] == "multi-user.target"


def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed: the unit was only parsed (the test above)")
    # the unit as it is, with ExecStart's program at this environment's tichu-lobby (verify
    # checks that the program exists)
    text = UNIT.read_text(encoding="utf-8")
    program = shlex.split(unit()["Service"]["ExecStart"])[0]
    copy = tmp_path / UNIT.name
    copy.write_text(text.replace(program, command("tichu-lobby")), encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


# ---- docker ----------------------------------------------------------------------------------------
def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined, comments left out."""
    out: list[tuple[str, str]] = []
    pending = ""
    for line in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        word, _, rest = (pending + line).strip().partition(" ")
        out.append((word.upper(), rest.strip()))
        pending = ""
    assert not pending
    return out


def exec_form(args: str) -> list[str]:
    import json
    value = json.loads(args)
    assert isinstance(value, list) and all(isinstance(v, str) for v in value)
    return value


def test_the_dockerfile_has_what_a_deployment_needs() -> None:
    steps = instructions()
    kinds = [k for k, _ in steps]
    (base,) = [a for k, a in steps if k == "FROM"]
    assert re.fullmatch(r"python:3\.1[1-9]-slim", base), base
    users = [a for k, a in steps if k == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert kinds.index("USER") < kinds.index("ENTRYPOINT")
    entrypoint = exec_form(dict(steps)["ENTRYPOINT"])
    cmd = exec_form(dict(steps)["CMD"])
    assert entrypoint == ["tichu-lobby"]
    opts = parse_args(cmd)                                  # the server accepts CMD
    volumes = exec_form(dict(steps)["VOLUME"])
    assert str(Path(opts.db).parent) in volumes             # the database on the volume
    (port,) = [int(p.split("/")[0]) for p in dict(steps)["EXPOSE"].split()]
    assert opts.port == [f"tcp:{port}"]                     # every interface of the container
    # the health check asks /healthz on the metrics port, which CMD opens on loopback only
    health = dict(steps)["HEALTHCHECK"]
    assert opts.metrics and opts.metrics.endswith(":interface=127.0.0.1")
    metrics_port = opts.metrics.split(":")[1]
    assert "CMD" in health and f"http://127.0.0.1:{metrics_port}/healthz" in health
    assert "STOPSIGNAL" in kinds and dict(steps)["STOPSIGNAL"] == "SIGTERM"


def test_the_image_holds_every_package_the_wheel_has() -> None:
    setup = configparser.ConfigParser()
    setup.read(ROOT / "setup.cfg", encoding="utf-8")
    packages = {p.split(".")[0] for p in setup["options.packages.find"]["include"].split()}
    copied = {args.split()[0] for kind, args in instructions() if kind == "COPY"}
    assert packages <= copied, packages - copied
    for name in copied:
        assert (ROOT / name).exists(), name
    ignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").split()
    assert ".venv" in ignore and ".git" in ignore


def test_the_dockerfile_names_no_registry_host() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    # the one URL is the health check's, on the container's own loopback
    assert re.findall(r"\w+://[^/'\"]*", text) == ["http://127.0.0.1:4001"]
    for kind, args in instructions():
        if kind == "FROM":
            first = args.split("/")[0]
            assert "/" not in args or ("." not in first and ":" not in first), args
        if kind == "RUN":
            assert not re.search(r"--(extra-)?index-url|--trusted-host|\s-i\s", args), args


def test_the_health_check_passes_against_a_real_server(tmp_path: Path) -> None:
    health = dict(instructions())["HEALTHCHECK"]
    check = exec_form(health.split(" CMD ", 1)[1])
    assert check[0] == "python"
    argv = [sys.executable, "-m", "protocol", "--db", str(tmp_path / "l.sqlite3"),
            "--port", "tcp:0:interface=127.0.0.1", "--metrics", "tcp:0:interface=127.0.0.1"]
    with ServerProcess(argv, tmp_path) as server:
        line = next((x for x in server.lines if METRICS_ON.search(x)), None) \
            or server.wait_for(lambda text: METRICS_ON.search(text) is not None)
        found = METRICS_ON.search(line)
        assert found is not None
        probe = [sys.executable, *[a.replace("4001", found.group(1)) for a in check[1:]]]
        done = subprocess.run(probe, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        server.stop()
    done = subprocess.run(probe, capture_output=True, text=True, timeout=60)
    assert done.returncode != 0                   # and fails when nothing answers


def test_the_backup_timer_runs_admin_backup_daily(tmp_path: Path) -> None:
    """Issue 27: deploy/ has a systemd timer for a daily backup with `admin backup`."""
    timer = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",))
    timer.optionxform = str  # type: ignore[assignment,method-assign]
    timer.read_string((DEPLOY / "tichu-lobby-backup.timer").read_text(encoding="utf-8"))
    assert timer["Timer"]["OnCalendar"] == "daily" and timer["Timer"]["Persistent"] == "true"
    service = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",))
    service.optionxform = str  # type: ignore[assignment,method-assign]
    service.read_string((DEPLOY / "tichu-lobby-backup.service").read_text(encoding="utf-8"))
    run = service["Service"]["ExecStart"]
    assert service["Service"]["Type"] == "oneshot" and " admin --db " in run and " backup " in run
    # the command it runs works: with the date filled in, against a real database
    command_line = shlex.split(run)[2]
    db = tmp_path / "lobby.sqlite3"
    from lobby.storage.store import Store, inline_runner
    store = Store(str(db), inline_runner)
    store.open()
    store.close()
    (tmp_path / "backups").mkdir()
    script = (command_line.replace("%%", "%").replace("/var/lib/tichu-lobby", str(tmp_path))
              .replace("/opt/tichu-lobby/bin/tichu-lobby", command("tichu-lobby")))
    done = subprocess.run(["/bin/sh", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    (copy,) = (tmp_path / "backups").iterdir()
    assert re.fullmatch(r"lobby-\d{4}-\d{2}-\d{2}\.sqlite3", copy.name)
    assert copy.stat().st_mode & 0o777 == 0o600
    if shutil.which("systemd-analyze") is not None:
        for name in ("tichu-lobby-backup.service", "tichu-lobby-backup.timer"):
            text = (DEPLOY / name).read_text(encoding="utf-8")
            (tmp_path / name).write_text(text.replace("/opt/tichu-lobby/bin/tichu-lobby",
                                                      command("tichu-lobby")), encoding="utf-8")
        verified = subprocess.run(["systemd-analyze", "verify",
                                   str(tmp_path / "tichu-lobby-backup.timer"),
                                   str(tmp_path / "tichu-lobby-backup.service")],
                                  capture_output=True, text=True, timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr


def test_the_backup_unit_can_open_the_database_in_its_sandbox(tmp_path: Path) -> None:
    """Outside finding (issue 27 review, item 2): the backup unit has ProtectSystem=strict and
    made only the backups folder writable, but SQLite (WAL) must create the -wal/-shm files next
    to the database to read it: `admin backup` failed. Here the unit's sandbox is rebuilt with
    `unshare -rm`: /var/lib/tichu-lobby (tmp_path) read-only but for the folders the unit makes
    writable (StateDirectory=, ReadWritePaths=), and the unit's command must succeed in it."""
    if shutil.which("unshare") is None or subprocess.run(
            ["unshare", "-rm", "true"], capture_output=True).returncode != 0:
        pytest.skip("no user and mount namespaces here (unshare -rm)")
    service = configparser.ConfigParser(interpolation=None, strict=True, delimiters=("=",))
    service.optionxform = str  # type: ignore[assignment,method-assign]
    service.read_string((DEPLOY / "tichu-lobby-backup.service").read_text(encoding="utf-8"))
    section = service["Service"]
    assert section["ProtectSystem"] == "strict"
    state = "/var/lib/tichu-lobby"
    writable = ["/var/lib/" + d for d in section.get("StateDirectory", "").split()]
    writable += [p.lstrip("-") for p in section.get("ReadWritePaths", "").split()]
    db = tmp_path / "lobby.sqlite3"
    from lobby.storage.store import Store, inline_runner
    store = Store(str(db), inline_runner)
    store.open()
    store.close()
    (tmp_path / "backups").mkdir()
    binds = [str(tmp_path) + w[len(state):] for w in writable if w.startswith(state + "/")]
    read_only = ([] if state in writable else
                 [f"mount --rbind {tmp_path} {tmp_path}", f"mount -o remount,bind,ro {tmp_path}"])
    script = (shlex.split(section["ExecStart"])[2].replace("%%", "%")
              .replace(state, str(tmp_path))
              .replace("/opt/tichu-lobby/bin/tichu-lobby", command("tichu-lobby")))
    sandbox = " && ".join([*(f"mount --bind {shlex.quote(b)} {shlex.quote(b)}" for b in binds),
                           *read_only, script])
    done = subprocess.run(["unshare", "-rm", "sh", "-c", sandbox], capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    (copy,) = (tmp_path / "backups").iterdir()
    assert copy.stat().st_size > 0


def test_the_systemd_steps_of_the_docs_install_what_the_unit_needs() -> None:
    """Outside finding (issue 27 review, item 3): docs/operations.md's systemd steps never
    installed /etc/tichu-lobby/tichu-lobby.toml, which ExecStart's --config reads (the unit then
    fails with exit status 2, not retried); they installed the package by a name no index has;
    and said to add options to ExecStart=. Every file the unit's command line reads is installed
    by the steps, from the checkout, and the options are said to go into the file."""
    docs = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    section = docs[docs.index("### systemd (deploy/tichu-lobby.service)"):]
    section = section[:section.index("\n### ", 1)]
    steps = section[section.index("```sh"):section.index("```", section.index("```sh") + 5)]
    argv = shlex.split(unit()["Service"]["ExecStart"])
    config = argv[argv.index("--config") + 1]
    installs = [line.split(" #")[0].strip() for line in steps.splitlines()
                if line.startswith("install ")]
    assert any(line.split()[-1] == config and "deploy/tichu-lobby.toml" in line
               for line in installs), steps
    assert any(line.split()[-1] == str(Path(config).parent) for line in installs), steps
    assert "pip install '.[uvloop]'" in steps
    everywhere = docs + "".join(p.read_text(encoding="utf-8") for p in DEPLOY.iterdir())
    assert not re.search(r"pip install '?tichu-lobby", everywhere)   # no index has it
    assert "Add options to `ExecStart=`" not in section
    assert "/etc/tichu-lobby/tichu-lobby.toml" in section
