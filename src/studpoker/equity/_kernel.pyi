"""The compiled equity kernel (``_kernel.c``): the samplers' and the heads-up sweep's inner loops."""

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
    /,
) -> None: ...
def tally(values: Buffer, players: int, hilo: bool, counts: Buffer, /) -> None: ...
def combinations(m: int, k: int, out: Buffer, /) -> None: ...
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
def deal_all(pool: Buffer, known: Buffer, k: int, rows: Buffer, hands: Buffer, /) -> None: ...
