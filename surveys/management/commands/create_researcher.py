"""Create a researcher account, from a script or at a terminal.

The password never comes from the command line, where ``ps`` shows it to
every user of the machine: it is read from an environment variable, from
standard input, or typed at a prompt.
"""

from __future__ import annotations

import getpass
import os
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from surveys.accounts.services import researcher_create, researcher_exists

DEFAULT_PASSWORD_ENV = "RESEARCHER_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create a researcher account. The password comes from the environment "
        f"variable {DEFAULT_PASSWORD_ENV} (or the one --password-env names), from "
        "standard input with --password-stdin, or from a prompt at a terminal."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--username", help="The login name (unique, any case).")
        parser.add_argument(
            "--email", default=None, help="For password-reset emails (optional)."
        )
        parser.add_argument(
            "--password-env",
            default=DEFAULT_PASSWORD_ENV,
            metavar="NAME",
            help=f"Read the password from this variable (default {DEFAULT_PASSWORD_ENV}).",
        )
        parser.add_argument(
            "--password-stdin",
            action="store_true",
            help="Read the password from the first line of standard input.",
        )
        parser.add_argument(
            "--staff", action="store_true", help="May use the admin at /admin/."
        )
        parser.add_argument(
            "--superuser",
            action="store_true",
            help="Staff with every permission in the admin.",
        )
        parser.add_argument(
            "--if-missing",
            action="store_true",
            help="If the username exists, leave it unchanged and exit 0.",
        )
        parser.add_argument(
            "--noinput",
            "--no-input",
            action="store_false",
            dest="interactive",
            help="Never prompt; fail if something is missing.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        interactive = options["interactive"] and sys.stdin.isatty()
        if options["password_stdin"]:
            interactive = False  # standard input holds the password
        username = options["username"] or self._ask(interactive, "Username: ")
        if not username.strip():
            raise CommandError("Give a username: --username NAME.")
        if researcher_exists(username):
            if options["if_missing"]:
                self.stdout.write(
                    f"Researcher {username.strip()!r} already exists: left unchanged."
                )
                return
            raise CommandError(
                f"The username {username.strip()!r} is already taken "
                "(--if-missing leaves an existing account alone)."
            )
        email = options["email"]
        if email is None:
            email = self._ask(interactive, "Email (for password resets; optional): ")
        password = self._password(options, interactive)
        try:
            user = researcher_create(
                username=username,
                email=email,
                password=password,
                staff=options["staff"],
                superuser=options["superuser"],
            )
        except ValidationError as error:
            raise CommandError(_sentences(error)) from None
        kind = (
            "superuser"
            if user.is_superuser
            else "staff"
            if user.is_staff
            else "researcher"
        )
        self.stdout.write(f"Created {kind} {user.get_username()!r}.")

    def _ask(self, interactive: bool, prompt: str) -> str:
        if not interactive:
            return ""
        return input(prompt)

    def _password(self, options: dict[str, Any], interactive: bool) -> str:
        if options["password_stdin"]:
            password = sys.stdin.readline().rstrip("\r\n")
            if not password:
                raise CommandError("--password-stdin: standard input held no password.")
            return password
        name = options["password_env"]
        if os.environ.get(name):
            return os.environ[name]
        if not interactive:
            raise CommandError(
                f"No password: set the environment variable {name} (or name another "
                "with --password-env), or pipe it in with --password-stdin."
            )
        password = getpass.getpass("Password: ")
        if password != getpass.getpass("Password (again): "):
            raise CommandError("The two passwords differ: nothing was created.")
        return password


def _sentences(error: ValidationError) -> str:
    """The validators' messages, one line per field."""
    return "\n".join(
        f"{field}: {' '.join(messages)}"
        for field, messages in error.message_dict.items()
    )
