"""A throwaway PostgreSQL 15 for tests and benchmarks: `initdb` in a temporary folder, a Unix socket there
only, run as the `postgres` user when this process is root (PostgreSQL refuses root); removed by `stop()`."""
from __future__ import annotations

import os
import pathlib
import pwd
import secrets
import shutil
import subprocess
import tempfile

BIN = pathlib.Path("/usr/lib/postgresql/15/bin")


class Cluster:
    def __init__(self) -> None:
        if not (BIN / "initdb").exists():
            raise RuntimeError("PostgreSQL 15 is not installed (Debian: apt-get install postgresql)")
        self.folder = tempfile.mkdtemp(prefix="satchel-pg-")
        if os.getuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
        os.chmod(self.folder, 0o700)
        self._run(BIN / "initdb", "-D", f"{self.folder}/data", "-A", "trust", "-U", "postgres", "--no-sync",
                  "-E", "UTF8", "--locale=C")
        self._run(BIN / "pg_ctl", "-D", f"{self.folder}/data", "-l", f"{self.folder}/log", "-w", "-o",
                  f"-k {self.folder} -c listen_addresses='' -c fsync=off", "start")

    def _run(self, *command: object) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.getuid() == 0 else []
        subprocess.run([*prefix, *map(str, command)], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd="/tmp")

    def uri(self, role: str, database: str) -> str:
        return f"postgresql:///{database}?host={self.folder}&user={role}"

    def sql(self, statement: str) -> None:
        subprocess.run(["psql", "-h", self.folder, "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                        "-c", statement], check=True, stdout=subprocess.DEVNULL)

    def database(self, binary: str, accounts: list[str]) -> tuple[str, dict[str, str]]:
        """A fresh database with the sync schema (made by its owner with `satchel sync-setup`) and a login role
        for each of `accounts` (names made unique); answers its name and each account's connection URI."""
        suffix = secrets.token_hex(4)
        name, owner = f"satchel_{suffix}", f"owner_{suffix}"
        self.sql(f"CREATE ROLE {owner} LOGIN")
        self.sql(f"CREATE DATABASE {name} OWNER {owner}")
        uris = {}
        for account in accounts:
            self.sql(f"CREATE ROLE {account}_{suffix} LOGIN")
            uris[account] = self.uri(f"{account}_{suffix}", name)
        subprocess.run([binary, "sync-setup", self.uri(owner, name)], check=True, stdout=subprocess.DEVNULL)
        return name, uris

    def stop(self) -> None:
        self._run(BIN / "pg_ctl", "-D", f"{self.folder}/data", "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)
