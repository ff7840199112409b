// The viewer's decisions: the action bar of his turn (the server's legal actions in the engine's words, with
// keyboard shortcuts on the buttons) and the advance actions he may choose while others act, as the big rooms
// offer them: Check/Fold, Check, Call N, Call any. An advance choice is cleared when the situation it was made for
// changes (Check when a bet comes in, Call N when the amount to call changes, every choice at a new street or
// hand) and fires exactly once, on the turn it was waiting for.

import { chips, el } from "./common.js";
import { actionLabel } from "./poker.js";
import { prefs } from "./prefs.js";
import { state } from "./table-model.js";

// and R for the first bet, complete or raise
const KEYS = { fold: "F", check: "K", call: "C", "bring-in": "B", show: "S", muck: "M" };

/** Whether a turn is the showdown's question to a hand that cannot win: show it or muck it. */
function showdownQuestion(turn) {
  return turn.legal.some((a) => a.action === "muck");
}
const AGGRESSIVE = new Set(["bet", "complete", "raise"]);

/** The advance choice: {kind: check_fold|check|call|call_any, hand, street, cost (to call when chosen)}, or null. */
export const advance = { choice: null };

/** What the viewer must add to call now (0: nothing to call; at most his stack, an all-in call): what "Call N" says. */
function cost(hand, me) {
  return Math.max(0, Math.min((hand?.toCall ?? 0) - (me?.bet ?? 0), me?.stack ?? Infinity));
}

function myPlayer() {
  const seat = state.you?.seat;
  return seat && state.hand ? state.hand.players.get(seat) : null;
}

/** Clears an advance choice its situation no longer holds (called after every message). */
export function reviewAdvance() {
  const c = advance.choice;
  if (!c) return;
  const hand = state.hand;
  const me = myPlayer();
  if (!hand || hand.over || hand.number !== c.hand || hand.street !== c.street || !me || me.folded || me.allIn) {
    advance.choice = null;
  } else if (c.kind === "check" && cost(hand, me) > 0) advance.choice = null;
  else if (c.kind === "call" && cost(hand, me) !== c.cost) advance.choice = null;
}

/** The legal action an advance choice stands for on this turn, or null (then the viewer decides). */
function advanceAction(turn) {
  const c = advance.choice;
  if (!c || turn.hand !== c.hand || turn.street !== c.street) return null;
  const by = (kind) => turn.legal.find((a) => a.action === kind) ?? null;
  if (c.kind === "check_fold") return by("check") ?? by("fold");
  if (c.kind === "check") return by("check");
  if (c.kind === "call") return by("call")?.cost === c.cost ? by("call") : null; // "Call N": the same N, or you decide
  if (c.kind === "call_any") return by("call") ?? by("check");
  return null;
}

/** Sends an action for the turn; no second click: the server's `action` broadcast moves the game on. */
function act(turn, legal) {
  state.send({ type: "act", hand: turn.hand, seq: turn.seq, action: legal.action, amount: legal.amount });
  state.turn = null;
  renderActions();
}

/** On the viewer's turn: plays the advance choice if there is one (once), else draws the buttons. */
export function renderActions() {
  const bar = document.getElementById("actions");
  const turn = state.turn;
  if (turn && advance.choice) {
    const chosen = advanceAction(turn);
    advance.choice = null; // fired or not, a choice serves one turn only
    if (chosen) {
      state.say?.(`Advance action: ${chosen.label ?? actionLabel(chosen.action, chosen.amount, chosen.cost)}.`);
      act(turn, chosen);
      return;
    }
  }
  if (turn && showdownQuestion(turn) && prefs.auto_muck) {
    const muck = turn.legal.find((a) => a.action === "muck");
    state.say?.("Auto-muck: your hand could not win, so it was mucked.");
    act(turn, muck);
    return;
  }
  renderAdvance();
  if (!turn && state.mayShow) {
    // won without a showdown: show the cards if you like (until the next deal)
    const number = state.mayShow;
    const show = el(
      "button",
      {
        type: "button",
        class: "act show",
        dataset: { action: "show-uncalled", key: "S" },
        "aria-keyshortcuts": "S",
        onclick: () => {
          state.send({ type: "show", hand: number });
          state.mayShow = null;
          renderActions();
        },
      },
      el("span", { class: "words" }, "Show your cards"),
      el("kbd", { "aria-hidden": "true" }, "S"),
    );
    bar.replaceChildren(el("span", { class: "prompt" }, "Nobody called: you win. "), show);
    bar.classList.remove("my-turn");
    return;
  }
  if (!turn) {
    const hand = state.hand;
    const text = !state.you?.seat
      ? state.me
        ? "You are watching."
        : "You are watching. Sign in to play."
      : hand && !hand.over && hand.actor
        ? `Waiting for ${state.nameOf(hand.actor)}…`
        : "Waiting for the next hand…";
    bar.replaceChildren(el("span", { class: "prompt" }, text));
    bar.classList.remove("my-turn");
    return;
  }
  // what calling costs, as the Call button says it (the server's `cost`: an all-in call costs the stack)
  const toCall = turn.legal.find((a) => a.action === "call")?.cost ?? 0;
  const prompt = showdownQuestion(turn)
    ? "Your hand cannot win against the hands shown: show it or muck it?"
    : toCall > 0
      ? `Your turn: ${chips(toCall)} to call, pot ${chips(turn.pot)}`
      : `Your turn: pot ${chips(turn.pot)}`;
  let raiseKey = "R";
  const buttons = turn.legal.map((a, i) => {
    let key = KEYS[a.action] ?? null;
    if (AGGRESSIVE.has(a.action)) {
      key = raiseKey;
      raiseKey = null; // only the first wager gets R (open pairs offer two sizes)
    }
    const shortcuts = [key, i < 9 ? String(i + 1) : null].filter(Boolean);
    const words = a.label ? a.label[0].toUpperCase() + a.label.slice(1) : actionLabel(a.action, a.amount, a.cost);
    return el(
      "button",
      {
        type: "button",
        class: `act ${a.action}${a.cap ? " cap" : ""}`,
        dataset: { action: a.action, amount: a.amount, key: key ?? "" },
        "aria-keyshortcuts": shortcuts.join(" ") || undefined,
        onclick: () => act(turn, a),
      },
      el("span", { class: "words" }, words),
      shortcuts.length ? el("kbd", { "aria-hidden": "true" }, shortcuts[0]) : null,
    );
  });
  bar.replaceChildren(el("span", { class: "prompt", id: "prompt" }, prompt, " ", el("span", { "data-clock": "1" })), ...buttons);
  bar.classList.add("my-turn");
  buttons.find((b) => b.dataset.action !== "fold")?.focus({ preventScroll: true });
}

/** The advance-action toggles while another player acts (the viewer is in the hand, not folded, not all-in). */
function renderAdvance() {
  const box = document.getElementById("advance");
  const hand = state.hand;
  const me = myPlayer();
  reviewAdvance();
  const offer = hand && !hand.over && hand.actor && hand.actor !== me?.seat && me && !me.folded && !me.allIn && !state.turn;
  if (!offer) {
    if (box.childElementCount) box.replaceChildren();
    box.hidden = true;
    return;
  }
  const due = cost(hand, me);
  const options =
    due > 0
      ? [
          ["check_fold", "Fold"],
          ["call", `Call ${chips(due)}`],
          ["call_any", "Call any"],
        ]
      : [
          ["check_fold", "Check/Fold"],
          ["check", "Check"],
          ["call_any", "Call any"],
        ];
  const chosen = advance.choice?.kind ?? null;
  const key = `${hand.number}-${hand.street}-${due}-${chosen}`;
  if (box.dataset.key === key && !box.hidden) return; // unchanged: keep the focus where it is
  box.dataset.key = key;
  box.hidden = false;
  box.replaceChildren(
    el("span", { class: "prompt" }, "In turn:"),
    ...options.map(([kind, words]) =>
      el(
        "button",
        {
          type: "button",
          class: "advance-choice",
          "aria-pressed": String(chosen === kind),
          dataset: { advance: kind },
          onclick: () => {
            advance.choice =
              chosen === kind ? null : { kind, hand: hand.number, street: hand.street, cost: due };
            renderAdvance();
          },
        },
        words,
      ),
    ),
  );
}

// Shortcuts: the letters on the buttons (F fold, K check, C call, B bring in, R bet/complete/raise) and the
// digits 1-9 in order; never while typing in a field or with a modifier held.
document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey) return;
  const buttons = [...document.querySelectorAll("#actions button.act")];
  const index = Number(event.key) - 1;
  let button = null;
  if (Number.isInteger(index) && index >= 0 && index < 9) button = buttons[index] ?? null;
  else if (event.key.length === 1) button = buttons.find((b) => b.dataset.key === event.key.toUpperCase()) ?? null;
  if (button) {
    event.preventDefault();
    button.click();
  }
});
