"""The compiled exact counting (``_count.c``): completions, the heads-up sweeps and the tuple counter's loop."""

from typing_extensions import Buffer

def combinations(m: int, k: int, out: Buffer, /) -> None: ...
def deal_all(pool: Buffer, known: Buffer, k: int, rows: Buffer, hands: Buffer, /) -> None: ...
def sweep(
    m: int, q_rows: Buffer, q_k: int, q_values: Buffer, i_rows: Buffer, i_k: int, i_values: Buffer, /
) -> tuple[int, int]: ...
def sweep_hilo(
    m: int,
    q_rows: Buffer,
    q_k: int,
    q_values: Buffer,
    q_lows: Buffer,
    i_rows: Buffer,
    i_k: int,
    i_values: Buffer,
    i_lows: Buffer,
    /,
) -> tuple[int, ...]: ...
def tuples(
    m: int,
    start: int,
    stop: int,
    players: tuple[tuple[Buffer, int, Buffer, Buffer, Buffer | None], ...],
    keys: Buffer,
    starts: Buffer,
    k: int,
    disjoint: int,
    scale: int,
    prefix: Buffer | None,
    out: Buffer,
    /,
) -> tuple[int, int]: ...
