"""The terminal game without the terminal: a :class:`~studpoker.table.Table` with one human seat and bots in
the others, and the moves the screen offers (deal, act, let a bot act, top up, sit out, finish for leaving).

Kept apart from the Textual app so the game's logic is testable without a screen, and so the screen can only
ask for what a seat may see: :meth:`Game.view` is ``table.view(human)`` during a hand and the human's view of
the finished hand after it; nothing here hands out an opponent's down cards.

>>> game = Game.create(PlayOptions(players=3, seed=4, bots=("calling-station",)))
>>> [s.name for s in game.table.occupied], game.table.seat(1).stack
(['You', 'Bob', 'Cid'], 200)
>>> game.deal()
>>> while game.in_hand:
...     if game.human_to_act:
...         game.act(game.view().legal_actions[0])
...     else:
...         _ = game.step_bot()
>>> len(game.table.hands), game.table.check_conservation()
(1, None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import cycle

from ..bots import Bot, BotError, make_bot
from ..engine import Action, ActionKind, Rules, RulesError, Variant, View
from ..table import Table, TableError
from .render import SeatInfo, bring_in_player, shown_hands, winning_cards, winnings

__all__ = ["BOT_NAMES", "Game", "PlayOptions", "SetupError", "default_bot_tag", "parse_stakes"]


#: Names given to the bots, in seat order (one is skipped if the human took it).
BOT_NAMES = ("Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim")


class SetupError(ValueError):
    """Options that cannot make a table (bad stakes, too many players, an unknown bot...)."""


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The options of ``stud play`` (defaults: casino seven-card stud 10/20, ante 1, bring-in 3, 6 players)."""

    variant: str = "7stud"
    preset: str = "casino"
    players: int = 6
    stakes: str = "10/20"
    ante: int = 1
    bring_in: int = 3
    seed: int | None = None
    bots: tuple[str, ...] = ()
    name: str = "You"
    buy_in: int | None = None


def parse_stakes(text: str) -> tuple[int, int]:
    """``"10/20"`` as (small bet, big bet)."""
    small, sep, big = text.partition("/")
    try:
        if not sep:
            raise ValueError
        return int(small), int(big)
    except ValueError:
        raise SetupError(f"--stakes takes SMALL/BIG, e.g. 10/20, got {text!r}") from None


def default_bot_tag() -> str:
    """``tight-aggressive`` where that bot is installed, else ``calling-station``."""
    try:
        from ..bots import tag  # noqa: F401
    except ImportError:
        return "calling-station"
    return "tight-aggressive"


class Game:
    """A table session seen from one human seat; bots (by seat number) fill the others."""

    def __init__(self, table: Table, bots: dict[int, Bot], human: int = 1, preset: str = "casino") -> None:
        self.table = table
        self.bots = bots
        self.human = human
        self.preset = preset
        self.notices: list[str] = []

    @classmethod
    def create(cls, options: PlayOptions) -> Game:
        """A table from the options, the human in seat 1 and bots in seats 2..N; :class:`SetupError` if the
        options cannot make one."""
        try:
            variant = Variant.parse(options.variant)  # any of the game's names
        except ValueError as error:
            raise SetupError(str(error)) from None
        small, big = parse_stakes(options.stakes)
        try:
            rules = Rules.from_preset(options.preset, variant, options.ante, options.bring_in, small, big)
        except RulesError as error:
            raise SetupError(str(error)) from None
        seats = rules.max_seats or variant.max_seats
        if not 2 <= options.players <= seats:
            raise SetupError(f"--players must be 2 to {seats} for {variant.short_name}, got {options.players}")
        tags = options.bots or (default_bot_tag(),)
        bots: dict[int, Bot] = {}
        try:
            for seat, tag in zip(range(2, options.players + 1), cycle(tags), strict=False):
                bots[seat] = make_bot(tag, None if options.seed is None else options.seed + seat, rules=rules)
        except ImportError as error:
            raise SetupError(f"bot {tag!r} is not available: {error}") from None
        except BotError as error:
            raise SetupError(str(error)) from None
        table = Table(rules, seed=options.seed, name="stud play")
        min_buy_in = rules.min_buy_in or 0
        try:
            table.sit(options.name, options.buy_in if options.buy_in is not None else min_buy_in, seat=1)
            names = iter(n for n in BOT_NAMES if n != options.name.strip())
            for seat in bots:
                table.sit(next(names), min_buy_in, seat=seat)
        except TableError as error:
            raise SetupError(str(error)) from None
        return cls(table, bots, preset=options.preset)

    # -- reading --------------------------------------------------------------------------------------------

    @property
    def in_hand(self) -> bool:
        return self.table.hand is not None

    @property
    def human_to_act(self) -> bool:
        return self.table.actor_seat == self.human

    @property
    def bot_to_act(self) -> bool:
        seat = self.table.actor_seat
        return seat is not None and seat in self.bots

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the players of the current hand, or of the last one between hands."""
        if self.in_hand:
            return tuple(self.table.seat(s).name for s in self.table.players)
        if self.table.hands:
            return self.table.hands[-1].names
        return ()

    @property
    def hand_seats(self) -> tuple[int, ...]:
        """The seats of the current hand (of the last one between hands), in position order."""
        if self.in_hand:
            return self.table.players
        return self.table.hands[-1].seats if self.table.hands else ()

    def view(self) -> View | None:
        """The human's view of the current hand, or of the last hand between hands (``None`` before the first).
        A hand the human was not dealt into is seen as a spectator sees it."""
        if self.in_hand:
            return self.table.view(self.human)
        if not self.table.hands:
            return None
        last = self.table.hands[-1]
        player = last.seats.index(self.human) if self.human in last.seats else None
        return last.state.view(player)

    def seat_infos(self) -> list[SeatInfo]:
        """Every occupied seat as its panel shows it (cards from :meth:`view` only)."""
        view = self.view()
        seats = self.hand_seats
        brought = bring_in_player(view) if view is not None else None
        won = winnings(view) if view is not None and not self.in_hand else {}
        best = winning_cards(view) if view is not None and not self.in_hand else {}
        words = shown_hands(view) if view is not None else {}
        infos = []
        for seat in self.table.occupied:
            base = SeatInfo(
                number=seat.number,
                name=seat.name,
                stack=seat.stack,
                tag=self.bots[seat.number].tag if seat.number in self.bots else "",
                you=seat.number == self.human,
                sitting_out=seat.sitting_out,
                queued=seat.queued,
            )
            if view is not None and seat.number in seats:
                p = seats.index(seat.number)
                pv = view.players[p]
                base = SeatInfo(
                    number=base.number,
                    name=base.name,
                    stack=pv.stack if self.in_hand else seat.stack,
                    tag=base.tag,
                    you=base.you,
                    sitting_out=base.sitting_out,
                    queued=base.queued,
                    player=p,
                    bet=pv.bet if self.in_hand else 0,
                    folded=pv.folded,
                    all_in=pv.all_in and self.in_hand,
                    up=pv.up,
                    down=pv.down,
                    to_act=self.in_hand and view.actor == p,
                    bring_in=brought == p,
                    winnings=won.get(p, 0),
                    words=words.get(p, ""),
                    best=best.get(p, ()),
                )
            infos.append(base)
        return infos

    @property
    def busted(self) -> bool:
        """The human has no chips (and none queued) between hands."""
        if self.in_hand:
            return False
        seat = self.table.seat(self.human)
        return seat.stack + seat.queued < self.table.rules.chip_unit

    @property
    def sitting_out(self) -> bool:
        return self.table.seat(self.human).sitting_out

    @property
    def can_deal(self) -> bool:
        return not self.busted and self.table.can_start

    # -- moves ----------------------------------------------------------------------------------------------

    def deal(self) -> None:
        """Deal the next hand (bots are told it started)."""
        self.table.start_hand()
        if self.in_hand:
            for seat in self.table.players:
                if seat in self.bots:
                    view = self.table.view(seat)
                    assert view is not None
                    self._tell(seat, self.bots[seat].new_hand, view)
        else:  # over at once (everyone all-in for the ante)
            self._hand_over()

    def act(self, action: Action) -> None:
        """The human's decision (:class:`~studpoker.engine.IllegalActionError` if it is not legal)."""
        if not self.human_to_act:
            raise TableError("it is not your turn")
        self._apply(action)

    def step_bot(self) -> bool:
        """Let the bot whose turn it is act (``False`` if it is nobody's or the human's turn). A bot that fails
        or answers with an illegal action checks or folds instead, and a notice says so."""
        seat = self.table.actor_seat
        if seat is None or seat not in self.bots:
            return False
        view = self.table.view(seat)
        assert view is not None
        try:
            action = self.bots[seat].act(view)
            if action not in view.legal_actions:
                raise BotError(f"{action} is not legal")
        except (BotError, ValueError) as error:
            action = _passive(view.legal_actions)
            self.notices.append(f"{self.table.seat(seat).name}'s bot failed ({error}): {action} instead")
        self._apply(action)
        return True

    def _tell(self, seat: int, hook: Callable[[View], None], view: View) -> None:
        """Tell a bot about the hand; a bot that fails to listen (an external program that died) is noted,
        and will check or fold when it must act."""
        try:
            hook(view)
        except (BotError, ValueError) as error:
            self.notices.append(f"{self.table.seat(seat).name}'s bot failed ({error})")

    def _apply(self, action: Action) -> None:
        self.table.act(action)
        if not self.in_hand:
            self._hand_over()

    def _hand_over(self) -> None:
        last = self.table.hands[-1]
        for p, seat in enumerate(last.seats):
            if seat in self.bots:
                self._tell(seat, self.bots[seat].hand_over, last.state.view(p))
        unit = self.table.rules.chip_unit
        for place in self.table.occupied:
            if place.number in self.bots and place.stack + place.queued < unit:
                amount = self.table.rules.min_buy_in or unit
                self.table.top_up(place.number, amount)
                self.notices.append(f"{place.name} rebuys for {amount}")

    def top_up_amount(self) -> int:
        """The fixed top-up: the minimum buy-in, less if the maximum buy-in would be passed (0: no room)."""
        rules = self.table.rules
        amount = rules.min_buy_in or rules.chip_unit
        if rules.max_buy_in is not None:
            room = rules.max_buy_in - self.table.chips_behind(self.human)
            amount = min(amount, room - room % rules.chip_unit)
        return max(amount, 0)

    def top_up(self, amount: int | None = None) -> str:
        """Add chips to the human's stack (the fixed amount by default); during a hand the table queues them
        until the pot is awarded. Returns what happened in words; :class:`TableError` if the rules refuse."""
        amount = self.top_up_amount() if amount is None else amount
        if amount <= 0:
            raise TableError("your stack is at the maximum buy-in")
        if self.table.top_up(self.human, amount):
            return f"Added {amount} chips: your stack is {self.table.seat(self.human).stack}"
        return f"Top-up of {amount} queued: the chips arrive when this hand is over"

    def toggle_sit_out(self) -> str:
        if self.sitting_out:
            self.table.sit_in(self.human)
            return "You are back in: you are dealt the next hand"
        self.table.sit_out(self.human)
        return "You sit out from the next hand (press o again to sit in)"

    def finish_hand(self) -> None:
        """Play the current hand to its end for leaving: the human folds (or checks when folding is not
        offered) and the bots play on."""
        while self.in_hand:
            if self.human_to_act:
                legal = self.table.legal_actions()
                kinds = {a.kind: a for a in legal}
                self._apply(kinds.get(ActionKind.FOLD) or kinds.get(ActionKind.CHECK) or _passive(legal))
            elif not self.step_bot():  # pragma: no cover - a hand in progress always has an actor
                raise TableError("the hand has nobody to act")

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()


def _passive(legal: tuple[Action, ...]) -> Action:
    kinds = {a.kind: a for a in legal}
    for kind in (ActionKind.CHECK, ActionKind.FOLD, ActionKind.CALL, ActionKind.BRING_IN, ActionKind.SHOW):
        if kind in kinds:
            return kinds[kind]
    return legal[0]
