"""[I1] The cores are not re-entrant: the guard around their calls into engine code."""

from __future__ import annotations

from .wire import EctpError


class EngineCalls:
    """[I1] Counts a core's calls into engine code in progress (``with calls:``): its item store or
    destination pool. While one runs, the core's state half updated, that code calling one of the
    core's state-changing methods gets ``REENTRANT_CALL`` (see :meth:`refuse`)."""

    __slots__ = ("depth",)

    def __init__(self) -> None:
        self.depth = 0

    def __enter__(self) -> None:
        self.depth += 1

    def __exit__(self, *exc: object) -> None:
        self.depth -= 1

    def refuse(self, core: str, method: str, callee: str) -> None:
        """Raise ``REENTRANT_CALL`` for ``core.method`` when it is called from inside a call into ``callee``
        (what the engine code is, for the message); nothing otherwise."""
        if self.depth:
            raise EctpError(
                "REENTRANT_CALL",
                f"{core}.{method} was called from inside code the {core} was running in the middle of "
                f"another of its calls ({callee}); a core is not re-entrant: note what is needed and make "
                "the call after the current one returns.",
            )
