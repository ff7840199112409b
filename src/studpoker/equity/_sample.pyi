"""The compiled Monte Carlo loops (``_sample.c``): picking completions, dealing by shuffles, tallying trials."""

from typing_extensions import Buffer

def completions(
    tables: tuple[Buffer, ...], state: Buffer, trials: int, drop: bool, hilo: bool, counts: Buffer, /
) -> None: ...
def deal(
    pool: Buffer,
    hands: tuple[bytes, ...],
    needs: tuple[int, ...],
    community: bool,
    state: Buffer,
    trials: int,
    width: int,
    out: Buffer,
    ranges: tuple[tuple[Buffer, int, Buffer] | None, ...] | None,
    /,
) -> None: ...
def tally(values: Buffer, players: int, hilo: bool, counts: Buffer, /) -> None: ...
def combos(pool: Buffer, known: Buffer, k: int, /) -> bytes: ...
def entries(pool: Buffer, k: int, values: Buffer, lows: Buffer | None, /) -> bytes: ...
