"""Pots against a naive reference that follows every chip (SPEC R11), over random totals, live and all-in flags,
zero totals, dead antes, and amounts that are not a multiple of the chip unit."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from studpoker.engine.pots import Pot, build_pots, pots_in_play, split, uncalled


def by_chip(totals: list[int], eligible_at: list[tuple[int, ...]], live: list[bool]) -> list[Pot]:
    """Chip ``k`` of every player who put in at least ``k`` goes to the pot of the players who may win it
    (``eligible_at[k - 1]``); consecutive chips with the same players make one pot; chips nobody live may win go
    to the last pot (or, with no pot at all, to every live player)."""
    pots: list[Pot] = []
    orphans = 0
    for k in range(1, max(totals, default=0) + 1):
        chips = sum(1 for t in totals if t >= k)
        eligible = eligible_at[k - 1]
        if not eligible:
            orphans += chips
        elif pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + chips, eligible)
        else:
            pots.append(Pot(chips, eligible))
    if orphans:
        if pots:
            pots[-1] = Pot(pots[-1].amount + orphans, pots[-1].eligible)
        else:
            pots.append(Pot(orphans, tuple(p for p, alive in enumerate(live) if alive)))
    return pots


def reference_build(totals: list[int], live: list[bool]) -> list[Pot]:
    top = max(totals, default=0)
    eligible_at = [tuple(p for p, t in enumerate(totals) if live[p] and t >= k) for k in range(1, top + 1)]
    return by_chip(totals, eligible_at, live)


def reference_in_play(totals: list[int], live: list[bool], all_in: list[bool]) -> list[Pot]:
    top = max(totals, default=0)
    eligible_at = [
        tuple(p for p, t in enumerate(totals) if live[p] and (t >= k or not all_in[p])) for k in range(1, top + 1)
    ]
    pots = by_chip(totals, eligible_at, live)
    playing = tuple(p for p in range(len(totals)) if live[p] and not all_in[p])
    return pots or ([Pot(0, playing)] if playing else [])  # before any chip, the (empty) pot of those who play on


def with_dead(pots: list[Pot], dead: list[int], live: list[bool]) -> list[Pot]:
    everyone = tuple(p for p, alive in enumerate(live) if alive)
    if not sum(dead):
        return pots
    if pots and pots[0].eligible == everyone:
        return [Pot(pots[0].amount + sum(dead), everyone), *pots[1:]]
    return [Pot(sum(dead), everyone), *pots]


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[int], list[bool], list[bool], list[int]]:
    n = draw(st.integers(2, 8))
    totals = [draw(st.sampled_from([0, 0, 1, 2, 3, 5, 7, 10, 13, 20, 40])) for _ in range(n)]
    live = [draw(st.booleans()) for _ in range(n)]
    if not any(live):
        live[draw(st.integers(0, n - 1))] = True
    all_in = [alive and draw(st.booleans()) for alive in live]
    dead = [min(t, draw(st.integers(0, 2))) for t in totals]
    return totals, live, all_in, dead


@settings(max_examples=400, deadline=None)
@given(tables())
def test_pots_follow_every_chip(case: tuple[list[int], list[bool], list[bool], list[int]]) -> None:
    totals, live, all_in, dead = case
    built = build_pots(totals, live)
    assert built == reference_build(totals, live)
    assert sum(p.amount for p in built) == sum(totals)  # no chip made or lost, folded chips included
    playing = pots_in_play(totals, live, all_in)
    assert playing == reference_in_play(totals, live, all_in)
    assert sum(p.amount for p in playing) == sum(totals)
    # antes as dead money: the rest follows the chips, the antes sit in front for every live player
    rest = [t - d for t, d in zip(totals, dead, strict=True)]
    assert build_pots(totals, live, dead) == with_dead(reference_build(rest, live), dead, live)
    assert pots_in_play(totals, live, all_in, dead) == with_dead(reference_in_play(rest, live, all_in), dead, live)
    assert sum(p.amount for p in build_pots(totals, live, dead)) == sum(totals)


def test_folded_chips_above_every_live_level_go_to_the_last_pot() -> None:
    # player 2 folded after putting in 30; the live players reached 10 and 20
    assert build_pots([10, 20, 30], [True, True, False]) == [Pot(30, (0, 1)), Pot(30, (1,))]
    assert pots_in_play([10, 20, 30], [True, True, False], [True, False, False]) == [Pot(30, (0, 1)), Pot(30, (1,))]


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 6), st.sampled_from([1, 5, 25]))
def test_a_split_never_loses_a_chip(amount: int, winners: int, unit: int) -> None:
    shares = split(amount, list(range(winners)), unit)
    assert sum(a for _, a in shares) == amount  # a remainder below one unit goes with the first odd chip
    assert all(a % unit == 0 for _, a in shares[1:])
    assert max(a for _, a in shares) - min(a for _, a in shares) <= unit + amount % unit


def test_uncalled_chips() -> None:
    assert uncalled([5, 0]) == (0, 5)  # nobody matched any of the 5
    assert uncalled([0, 0]) == (-1, 0) and uncalled([7, 7, 3]) == (-1, 0)
    assert uncalled([3, 9, 4]) == (1, 5)
    assert uncalled([9]) == (-1, 0)  # nobody to call: nothing to return
