"""The compiled kernel (``_kernel.c``) against the NumPy and Python paths: same values, same errors.

Every check runs twice: on the kernel, and with the kernel monkeypatched away (the
path an install without a C compiler takes). No timing here: see docs/performance.md.
"""

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from studpoker.cards import CARDS, card_indices, format_cards
from studpoker.evaluation import batch, high, high_value, low, low8_value, razz_value

BATCH: dict[str, Callable[..., Any]] = {"high": batch.high_batch, "low8": batch.low8_batch, "razz": batch.razz_batch}
SCALAR: dict[str, Callable[..., Any]] = {"high": high_value, "low8": low8_value, "razz": razz_value}
DTYPES = [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
N = 100_000
HAS_KERNEL = batch._kernel is not None


def numpy_values(arr: npt.NDArray[np.integer], kind: str, check: bool = True) -> list[int]:
    """The NumPy path itself, whatever is installed."""
    hands = batch._hands(arr)
    values = batch._numpy_high(hands, check) if kind == "high" else batch._numpy_rank_only(hands, check, kind)
    return [int(v) for v in values]


def random_hands(n: int, k: int, seed: int) -> npt.NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.fixture(params=["kernel", "fallback"])
def path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Run the test on the compiled kernel, then without it."""
    if request.param == "kernel" and not HAS_KERNEL:
        pytest.skip("the compiled kernel is not built here")
    if request.param == "fallback":
        monkeypatch.setattr(batch, "_kernel", None)
        monkeypatch.setattr(high, "_fast", None)
        monkeypatch.setattr(low, "_fast", None)
    yield request.param


def test_the_kernel_is_built_where_the_mypyc_modules_are() -> None:
    """An install that compiled the engine (a C compiler and the Python headers) has the kernel too."""
    from studpoker.engine import state

    if state.__file__ is None or state.__file__.endswith(".py"):
        pytest.skip("a pure-Python build")
    assert HAS_KERNEL


def layouts(hands: npt.NDArray[np.integer], dtype: npt.DTypeLike) -> dict[str, npt.NDArray[np.integer]]:
    """The same hands in ``dtype``: C-contiguous, Fortran order, strided views of wider arrays (rows,
    a column step, reversed columns, reversed rows), and all of these in the other byte order."""
    native = np.dtype(dtype)
    out = _layouts(hands, native)
    swapped = native.newbyteorder()
    if swapped != native:  # one-byte types have no byte order
        out |= {f"{name}, {swapped.str}": form for name, form in _layouts(hands, swapped).items()}
    return out


def _layouts(hands: npt.NDArray[np.integer], dtype: np.dtype[Any]) -> dict[str, npt.NDArray[np.integer]]:
    n, k = hands.shape
    arr = hands.astype(dtype)
    wide = np.zeros((n, k + 1), dtype=dtype)
    wide[:, :k] = arr
    stepped = np.zeros((n, 2 * k), dtype=dtype)
    stepped[:, ::2] = arr
    return {
        "C": arr,
        "Fortran": np.asfortranarray(arr),
        "strided rows": wide[:, :k],
        "column step": stepped[:, ::2],
        "reversed columns": np.ascontiguousarray(arr[:, ::-1])[:, ::-1],
        "reversed rows": np.ascontiguousarray(arr[::-1])[::-1],
    }


@pytest.mark.skipif(not HAS_KERNEL, reason="the compiled kernel is not built here")
def test_every_integer_buffer_goes_to_the_kernel() -> None:
    """uint8 arrays (the exhaustive tests), every integer dtype in any layout and byte order, and the
    other usual input forms run on the kernel: none falls back to NumPy."""
    hands = random_hands(10, 7, 0)
    for form in (hands, hands.tolist(), hands[:, ::-1]):
        assert batch._compiled(form, "high", True, None) is not None
    for dtype in DTYPES:
        for name, form in layouts(hands, dtype).items():
            assert batch._compiled(form, "high", True, None) is not None, (dtype, name)
    assert batch._compiled(bytes(hands), "razz", True, 7) is not None
    assert batch._kernel is not None
    assert batch._kernel.NOT_LOADED == high.NOT_LOADED


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("k", [5, 6, 7])
def test_every_dtype_and_layout_gives_the_uint8_values(path: str, dtype: type, k: int) -> None:
    """Every integer dtype, in every layout and both byte orders, gives the values of the uint8
    C-contiguous array, which are those of the scalar functions (on a sample)."""
    hands = random_hands(4000, k, seed=30 + k)
    rows = hands[:300].tolist()
    for kind, fn in BATCH.items():
        expected = fn(hands).tolist()
        assert [SCALAR[kind](r) for r in rows] == expected[:300]
        for name, form in layouts(hands, dtype).items():
            assert fn(form).tolist() == expected, (kind, name)
            assert fn(form, check=False).tolist() == expected, (kind, name)


def bad_cards(dtype: type) -> list[int]:
    """Card values outside 0..51 that ``dtype`` holds: just past the range, just below the next
    power of two, a value whose low byte (or low six bits) is a valid card, the extremes."""
    info = np.iinfo(dtype)
    values = [52, 63, 64, 255, 256 + 7, 2**16 + 3, 2**31 + 1, 2**32 + 5, 2**63 + 9, -1, -52, -256 + 7]
    return sorted({v for v in values if info.min <= v <= info.max} | {int(info.max), int(info.min)} - {0})


@pytest.mark.parametrize("dtype", DTYPES)
def test_bad_cards_in_every_dtype_and_layout_raise_the_same_error(dtype: type, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index outside 0..51, in any dtype, layout and byte order, raises the CardError that names
    it, its row and column, as the NumPy path does; a card twice too. Nothing else is wrong in the
    hands, so the kernel itself must see the bad card (it must not evaluate the row)."""
    good = random_hands(3000, 7, seed=41)
    cases: list[tuple[str, npt.NDArray[np.integer]]] = []
    for value in bad_cards(dtype):
        arr: npt.NDArray[np.integer] = good.astype(dtype)
        arr[2100, 3] = value
        cases += [(f"{value} {name}", form) for name, form in layouts(arr, dtype).items()]
    dup: npt.NDArray[np.integer] = good.astype(dtype)
    dup[1700, 6] = dup[1700, 2]
    cases += [(f"dup {name}", form) for name, form in layouts(dup, dtype).items()]
    fast = [outcome(partial(batch.high_batch, h)) for _, h in cases]
    if HAS_KERNEL:
        for name, h in cases:
            assert batch._compiled(h, "razz", True, None) is None, name  # the kernel declines every one
    monkeypatch.setattr(batch, "_kernel", None)
    slow = [outcome(partial(batch.high_batch, h)) for _, h in cases]
    for (name, _), f, s in zip(cases, fast, slow, strict=True):
        assert f == s, name
        assert f[0] == "CardError", name
        if name.startswith("dup"):
            assert f[1].startswith("row 1700 holds the same card twice"), name
        else:
            bad = name.split()[0]
            assert f[1] == f"card index {bad} in row 2100, column 3 is outside 0..51", name


@pytest.mark.parametrize("k", [5, 6, pytest.param(7, marks=pytest.mark.slow)])
def test_kernel_numpy_and_scalar_agree(path: str, k: int) -> None:
    hands = random_hands(N, k, seed=k)
    rows = hands.tolist()
    for kind, fn in BATCH.items():
        expected = numpy_values(hands, kind)
        assert fn(hands).tolist() == expected
        assert fn(hands, check=False).tolist() == expected
        for dtype in DTYPES[1:]:
            assert fn(hands.astype(dtype)).tolist() == expected, dtype
        assert fn(np.asfortranarray(hands)).tolist() == expected
        assert fn(rows).tolist() == expected
        assert fn(tuple(map(tuple, rows[:1000]))).tolist() == expected[:1000]
        assert fn(bytes(hands), cards_per_hand=k).tolist() == expected
        assert fn(bytearray(hands), cards_per_hand=k).tolist() == expected
        assert fn(memoryview(hands.data)).tolist() == expected
        assert fn(hands.ravel(), cards_per_hand=k).tolist() == expected
        scalar = SCALAR[kind]
        assert [scalar(r) for r in rows] == expected
        assert [scalar(tuple(r)) for r in rows[:1000]] == expected[:1000]


def test_card_objects_and_text(path: str) -> None:
    hands = random_hands(2000, 7, seed=9)
    rows = hands.tolist()
    cards = [[CARDS[c] for c in r] for r in rows]
    text = [format_cards(r) for r in cards]
    for kind, fn in BATCH.items():
        expected = numpy_values(hands, kind)
        assert fn(cards).tolist() == expected
        assert fn(text).tolist() == expected
        assert [SCALAR[kind](r) for r in cards] == expected
        assert [SCALAR[kind](t) for t in text[:200]] == expected[:200]


def outcome(call: Callable[[], object]) -> tuple[str, str]:
    try:
        result = call()
    except Exception as error:  # the type and message are what is compared
        return type(error).__name__, str(error)
    return "ok", repr(result.tolist() if isinstance(result, np.ndarray) else result)


def error_cases() -> list[tuple[str, object, dict[str, object]]]:
    good = np.tile(np.arange(7, dtype=np.uint8), (70_000, 1))
    out: list[tuple[str, object, dict[str, object]]] = []
    for i, j in [(0, 1), (2, 5), (5, 6)]:
        dup = good.copy()
        dup[66_000, j] = dup[66_000, i]
        out.append((f"dup {i} {j}", dup, {}))
    big = good.astype(np.int64)
    big[3, 4] = 52
    out.append(("52", big, {}))
    neg = good.astype(np.int16)
    neg[69_999, 0] = -3
    out.append(("-3", neg, {}))
    both = good.copy()
    both[10, 1] = 0
    both[60_000, 2] = 99  # a duplicate before a bad index in the same 65,536-row block: the index is named
    out.append(("dup and range", both, {}))
    out.append(("dup and range, unchecked", both, {"check": False}))
    rows = good[:5].tolist()
    rows[2][6] = 0
    out.append(("list dup", rows, {}))
    rows = good[:5].tolist()
    rows[4][0] = 2**70
    out.append(("list huge", rows, {}))
    out.append(("list ragged", [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4, 5]], {}))
    out.append(("list of ints", list(range(7)), {}))
    out.append(("list bool", [[True] * 7], {}))
    out.append(("list float", [[0.0, 1, 2, 3, 4]], {}))
    out.append(("cards dup", [[CARDS[0]] * 5], {}))
    out.append(("text dup", ["As Ad As 2c 3c"], {}))
    out.append(("text bad", ["As Ad Zz 2c 3c"], {}))
    out.append(("shape", np.zeros((3, 4), dtype=np.uint8), {}))
    out.append(("1-D", np.arange(7), {}))
    out.append(("float", np.zeros((1, 7)), {}))
    out.append(("bytes without k", bytes(range(14)), {}))
    out.append(("bytes ragged", bytes(range(13)), {"cards_per_hand": 7}))
    out.append(("bytes bad k", bytes(range(14)), {"cards_per_hand": 4}))
    out.append(("bytes 52", bytes([0, 1, 2, 3, 52]), {"cards_per_hand": 5}))
    out.append(("k mismatch", good[:3], {"cards_per_hand": 6}))
    quads = np.array([[48, 49, 50, 51, 48, 49, 50]], dtype=np.uint8)  # unchecked repeats: whatever NumPy does
    out.append(("unchecked repeats", quads, {"check": False}))
    out.append(("empty", np.zeros((0, 7), dtype=np.uint8), {}))
    out.append(("empty list", [], {}))
    return out


@pytest.mark.parametrize("kind", list(BATCH))
def test_errors_are_the_same_on_both_paths(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fn = BATCH[kind]
    cases = error_cases()
    fast = [outcome(partial(fn, h, **kw)) for _, h, kw in cases]
    monkeypatch.setattr(batch, "_kernel", None)
    slow = [outcome(partial(fn, h, **kw)) for _, h, kw in cases]
    for (name, _, _), f, s in zip(cases, fast, slow, strict=True):
        assert f == s, name
    messages = dict(zip([c[0] for c in cases], slow, strict=True))
    assert messages["dup 2 5"] == ("CardError", "row 66000 holds the same card twice: 2c 2d 2h 2s 3c 2h 3h")
    assert messages["52"] == ("CardError", "card index 52 in row 3, column 4 is outside 0..51")
    assert messages["dup and range"][1] == "card index 99 in row 60000, column 2 is outside 0..51"
    assert messages["list dup"][1].startswith("row 2 holds the same card twice")
    assert messages["cards dup"][1] == "row 0 holds the same card twice: 2c 2c 2c 2c 2c"


@pytest.mark.parametrize(
    "cards",
    [
        [0, 1, 2, 3],
        [0, 1, 2, 3, 4, 5, 6, 7],
        [0, 1, 2, 3, 52],
        [0, 1, 2, 3, -1],
        [0, 1, 2, 3, 3],
        (0, 1, 2, 3, 2**80),
        [0, 1, 2, 3, True],
        [0, 1, 2, 3, "As"],
        [CARDS[0], CARDS[1], CARDS[2], CARDS[3], CARDS[0]],
        "As Ad Ac",
        "As Ad Ac Ah As",
        "As Ad Ac Ah Ks Kd Kc Kh",
        "As Ad Ac Ah 1s",
        "As Ad Ac Ah K",
        "As Ad Ac AhKs",
        "AsKd7c7h2s",
        "as kd 7C 7H 2S",
        "As,Kd,7c,7h,2s",
        "As, Kd,, 7c 7h 2s",
        "10h Kd 7c 7h 2s",
        "Th Kd 7c 7h 2s 9s 9c",
        "A♠ Kd 7c 7h 2s",
        "As\tKd 7c 7h 2s",
        " As Kd 7c 7h 2s ",
        "",
    ],
)
def test_scalar_errors_are_the_same_on_both_paths(cards: object, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [outcome(partial(f, cards)) for f in SCALAR.values()]
    monkeypatch.setattr(high, "_fast", None)
    monkeypatch.setattr(low, "_fast", None)
    slow = [outcome(partial(f, cards)) for f in SCALAR.values()]
    assert fast == slow


TEXTS = ["AsKd7c7h2s", "as kd 7C 7H 2S", "As,Kd,7c,7h,2s", "10h Kd 7c 7h 2s", "A♠ Kd 7c 7h 2s", "As\tKd 7c 7h 2s"]


def test_card_text_in_every_form(path: str) -> None:
    """Text the kernel parses (ASCII pairs) and text only Python parses give the same values."""
    for kind, fn in BATCH.items():
        expected = numpy_values(np.array([card_indices(t) for t in TEXTS]), kind)
        assert [SCALAR[kind](t) for t in TEXTS] == expected
        assert fn(TEXTS).tolist() == expected
        assert fn(list(reversed(TEXTS))).tolist() == expected[::-1]


def test_scalar_first_use_loads_the_tables() -> None:
    """The first one-hand call of a size hands the kernel its tables (either way, the same value)."""
    for k in (5, 6, 7):
        hand = list(range(40, 40 + k))
        assert high_value(hand) == high_value(format_cards(CARDS[c] for c in hand))
        assert razz_value(tuple(hand)) == razz_value([CARDS[c] for c in hand])
