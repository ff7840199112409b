"""Make the secrets docker-compose.yml reads: random passwords for PostgreSQL and Redis, and the URLs with them.

``python3 tools/compose_secrets.py [FOLDER]`` (default ``./secrets``, beside docker-compose.yml) writes

* ``postgres_password``: the ``stud`` role's password, which the postgres image sets on its first start;
* ``db_url``: ``postgresql+psycopg://stud:PASSWORD@postgres/studpoker``, for the room's services (``--db-file``);
* ``redis_acl``: Redis's users (``--aclfile``): the default user off, so that a client without the password is
  refused (``NOAUTH``), and ``studpoker`` with a password and only the room's keys and channels;
* ``redis_url``: ``redis://studpoker:PASSWORD@redis:6379/0``, for the room's services (``--redis-file``).

The folder is made readable by its owner only; the files in it by everyone, because the containers read them as
their own users (``nobody``, ``redis``, ``postgres``) and Compose mounts them as they are. It refuses to replace
files already there: PostgreSQL keeps the password of its first start (in the ``pgdata`` volume), so new ones
need ``docker compose down -v`` as well. Needs nothing but Python.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

#: The room's rules as an ACL user (``studpoker.server.bus.ACL_RULES``; a test checks that they agree).
ACL_RULES = "~studpoker:* &studpoker:* +@all -@dangerous"
NAMES = ("postgres_password", "db_url", "redis_acl", "redis_url")


def contents() -> dict[str, str]:
    """Each file's text, with new random passwords (hex: nothing to escape in a URL)."""
    postgres, redis = secrets.token_hex(24), secrets.token_hex(24)
    return {
        "postgres_password": f"{postgres}\n",
        "db_url": f"postgresql+psycopg://stud:{postgres}@postgres/studpoker\n",
        "redis_acl": f"user default off\nuser studpoker on >{redis} {ACL_RULES}\n",
        "redis_url": f"redis://studpoker:{redis}@redis:6379/0\n",
    }


def main(argv: list[str]) -> int:
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print("usage: python3 tools/compose_secrets.py [FOLDER]   (default ./secrets)", file=sys.stderr)
        return 2
    folder = Path(argv[0] if argv else "secrets")
    there = [name for name in NAMES if (folder / name).exists()]
    if there:
        print(
            f"compose_secrets: error: {folder} already holds {', '.join(there)}: remove them to make new ones"
            " (and the pgdata volume, docker compose down -v: PostgreSQL keeps its first password)",
            file=sys.stderr,
        )
        return 2
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    for name, text in contents().items():
        path = folder / name
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(text)
        path.chmod(0o644)  # the containers' users must read it; the folder keeps the host's other users out
    print(f"wrote {', '.join(NAMES)} in {folder}/ (the folder readable by you only)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
