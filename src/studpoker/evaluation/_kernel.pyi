"""The compiled evaluation kernel (``_kernel.c``); optional, used by ``batch``, ``high`` and ``low``."""

from typing_extensions import Buffer

OK: int
UNSUPPORTED: int
NOT_LOADED: int

def set_common(
    card_keys: Buffer,
    rank_keys: Buffer,
    flush_values: Buffer,
    text_ranks: Buffer,
    text_suits: Buffer,
    card_type: type,
    /,
) -> None: ...
def set_table(k: int, kind: int, keys: Buffer, values: Buffer, flush_suits: bytes | None, /) -> None: ...
def is_loaded(k: int, kind: int, /) -> bool: ...
def batch(out: Buffer, hands: object, k: int, kind: int, check: bool, /) -> int: ...
def value(cards: object, kind: int, /) -> int: ...
