"""The base of the generated method namespaces (``s.notes.create(...)``)."""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any


class Unset:
    """The default of a parameter left out: it is not sent at all (unlike ``None``, sent as ``null``)."""

    _instance: Unset | None = None

    def __new__(cls) -> Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = Unset()


def named(**params: Any) -> dict[str, Any]:
    """The params object of a call: every parameter that was given."""
    return {name: value for name, value in params.items() if value is not UNSET}


def either(name: str, camel: Any, snake: Any, required: bool = False) -> Any:
    """The value of a parameter that may be spelt ``ifRevision`` or ``if_revision``: whichever was given."""
    snake_name = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()
    if camel is not UNSET and snake is not UNSET:
        raise TypeError(f"pass {name} or {snake_name}, not both")
    value = camel if snake is UNSET else snake
    if required and value is UNSET:
        raise TypeError(f"missing the keyword argument {name} (or {snake_name})")
    return value


def public_names(cls: type) -> list[str]:
    """The names ``cls`` and its bases up to ``object`` give, but for those that begin with ``_``."""
    return sorted({name for base in cls.__mro__[:-1] for name in vars(base) if not name.startswith("_")})


def no_such_method(path: str, known: Sequence[str]) -> AttributeError:
    """The error for ``s.notes.craete``: it names the close matches among the known methods."""
    matches = difflib.get_close_matches(path, known, n=3, cutoff=0.6)
    hint = f"; did you mean {', '.join(matches)}?" if matches else "; `satchel_client.api.PATHS` lists them all"
    return AttributeError(f"satchel has no method {path}{hint}")


class MisspeltNames:
    """Gives a client's misspelt top-level name (``s.pnig``) the close matches among its names."""

    if not TYPE_CHECKING:  # a type checker reports a misspelt name itself

        def __getattr__(self, name: str) -> Any:
            if name.startswith("_"):
                raise AttributeError(name)
            raise no_such_method(name, public_names(type(self)))


class Namespace:
    """The methods under one prefix (``notes``, ``reminders``, ...), calling through the client."""

    _prefix = ""

    def __init__(self, call: Callable[..., Any]) -> None:
        self._call = call

    if not TYPE_CHECKING:  # a type checker reports a misspelt method itself

        def __getattr__(self, name: str) -> Any:
            if name.startswith("_"):
                raise AttributeError(name)
            raise no_such_method(f"{self._prefix}.{name}", [f"{self._prefix}.{known}" for known in self.__dir__()])

    def __dir__(self) -> list[str]:
        return public_names(type(self))

    def __repr__(self) -> str:
        return f"<satchel namespace {self._prefix}: {', '.join(self.__dir__())}>"
