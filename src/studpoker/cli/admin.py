"""``stud admin``: manage the card room's accounts on its database (the ``server`` extra).

``stud admin create-user NAME [--admin]`` asks for the password (twice) on a terminal, or reads one line from
standard input (``--password-stdin``); ``stud admin set-admin NAME [--revoke]`` gives or takes the admin role;
``stud admin recount-hud`` counts the HUD's statistics again from the room's finished hands.
"""

from __future__ import annotations

import argparse
import getpass
import sys

from .options import UsageError
from .serve import add_database_options

__all__ = ["add_commands"]


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    admin = sub.add_parser(
        "admin",
        help="manage the card room's accounts",
        description="Manage the card room's accounts, straight on its database.",
        epilog="example: stud admin create-user ann --admin --db sqlite:///./studpoker.db",
    )
    tasks = admin.add_subparsers(dest="task", metavar="TASK")
    tasks.required = True
    create = tasks.add_parser("create-user", help="create an account", description="Create an account.")
    create.add_argument("username", help="3 to 20 letters, digits, _ or -")
    create.add_argument("--admin", action="store_true", help="the account may manage every table and see every card")
    create.add_argument(
        "--password-stdin", action="store_true", help="read the password from standard input (one line)"
    )
    create.add_argument(
        "--starting-balance",
        type=int,
        default=10_000,
        metavar="CHIPS",
        help="the play chips the account starts with, from the house (default 10,000, as a sign-up gets)",
    )
    role = tasks.add_parser("set-admin", help="give or take the admin role", description="Give the admin role.")
    role.add_argument("username", help="an existing account")
    role.add_argument("--revoke", action="store_true", help="take the role away")
    recount = tasks.add_parser(
        "recount-hud",
        help="count the HUD's statistics again from the finished hands",
        description="Count the HUD's statistics again from every finished hand (after an upgrade that added count"
        " fields, or for the hands finished before the HUD existed).",
    )
    for parser in (create, role, recount):
        add_database_options(parser)
    admin.set_defaults(run=_admin)


def _password(args: argparse.Namespace) -> str:
    if args.password_stdin:
        line = sys.stdin.readline()
        return line.removesuffix("\n").removesuffix("\r")
    if not sys.stdin.isatty():
        raise UsageError("no terminal to ask the password on: give it on standard input with --password-stdin")
    first = getpass.getpass("password: ")
    if getpass.getpass("password again: ") != first:
        raise UsageError("the two passwords differ")
    return first


def _admin(args: argparse.Namespace) -> int:
    from .serve import database_url, missing_server_extra

    if missing_server_extra("admin"):
        return 2
    from ..server.manage import ManageError, create_user, recount_hud, set_admin

    url = database_url(args)
    try:
        if args.task == "create-user":
            account = create_user(
                url, args.username, _password(args), admin=args.admin, starting_balance=args.starting_balance
            )
            role = "an admin" if args.admin else "a player"
            print(f"created {args.username} (account {account}), {role}")
        elif args.task == "recount-hud":
            print(f"counted {recount_hud(url):,} finished hands for the HUD")
        else:
            set_admin(url, args.username, not args.revoke)
            print(f"{args.username} is {'no longer ' if args.revoke else ''}an admin")
    except ManageError as error:
        raise UsageError(str(error)) from None
    return 0
