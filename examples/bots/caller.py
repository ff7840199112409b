#!/usr/bin/env python3
"""A small stud bot for studpoker's JSON-lines protocol: copy it as a starting point for your own.

Standard library only, and no studpoker import: a bot is any program that reads one JSON message per line on
stdin and writes one JSON reply per line on stdout (see docs/bot-protocol.md). Run it at a table with

    stud play --bots "external:python examples/bots/caller.py,random"

The policy: check when it can; bet or raise with a strong hand (a pair or better in a high game, a smooth
unpaired low in razz); call one bet; fold to more. Diagnostics go to stderr, never stdout.
"""

from __future__ import annotations

import json
import sys

RANKS = "23456789TJQKA"


def send(message: dict[str, object]) -> None:
    """One reply: a JSON object on one line, flushed at once (studpoker waits for it)."""
    print(json.dumps(message), flush=True)


def strong(cards: list[str], variant: str) -> bool:
    """Is the hand worth betting? ``cards`` are the bot's own cards, e.g. ["As", "Ad", "7c"]."""
    ranks = [card[0] for card in cards]
    paired = len(set(ranks)) < len(ranks)
    if variant == "RAZZ":  # lowest wins: aces are low, pairs are bad
        low = [card for card in ranks if card in "A2345678"]
        return not paired and len(low) == len(ranks)
    return paired


def choose(view: dict, rules: dict | None) -> dict[str, object]:
    """Pick one of ``view["legal_actions"]``; each is already in the form of a reply."""
    legal: dict[str, dict] = {}
    for action in view["legal_actions"]:
        legal.setdefault(action["action"], action)  # two sizes of one kind? keep the first, the smaller
    me = view["players"][view["viewer"]]
    mine = [card for card in me["up"] + me["down"] if card is not None]
    if strong(mine, view["variant"]):
        for kind in ("raise", "bet", "complete"):
            if kind in legal:
                return legal[kind]
    for kind in ("check", "bring-in", "show"):
        if kind in legal:
            return legal[kind]
    if "call" in legal:
        cost = legal["call"]["amount"] - me["bet"]  # amounts are totals for the round
        one_bet = rules["big_bet"] if rules else cost  # without the rules: call anything
        if cost <= one_bet:
            return legal["call"]
    if "fold" in legal:
        return legal["fold"]
    return view["legal_actions"][0]  # e.g. a completion forced on a short bring-in


def main() -> None:
    rules = None
    for line in sys.stdin:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rules = message.get("rules")  # may be null when the host did not give them
            send({"type": "ready", "name": "caller"})
        elif kind == "act":
            send(choose(message["view"], rules))
        elif kind == "quit":
            break
        # "new_hand", "hand_over" and message types added later need no answer: ignore them


if __name__ == "__main__":
    main()
