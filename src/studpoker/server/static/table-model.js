// The live table's model: what the page knows of the table and the hand, built only from the server's messages
// (docs/server-protocol.md). No DOM here: `apply(msg)` changes the model and says what the page must redraw.
// The server sends only what this viewer may see, so the model never holds an opponent's hidden card.

import { cardSymbol, chips } from "./common.js";
import { actionWords, handName, streetName } from "./poker.js";

export const tableId = Number(location.pathname.split("/").filter(Boolean).pop());

/** How long a showdown stays on the felt when the server does not say (seconds). */
const DEFAULT_SHOWDOWN_SECONDS = 5;
const MAX_LOG = 400;

export const state = {
  table: null, // the table object (its sign)
  you: null, // {account_id, username, seat} or null for a visitor
  seats: new Map(), // seat number -> seat object (name, stack, bot, sitting_out, leaving, connected, time_bank...)
  hand: null, // the hand being dealt, or the last one finished (kept on screen until the next one starts)
  turn: null, // the `your_turn` message being answered, or null
  me: null, // GET /api/me: {id, username, is_admin, balance, ...} or null
  ended: null, // why the table's socket will not come back ("closed", "logged out"), or null
  connected: false,
  everConnected: false,
  log: [], // {text, kind: street|result|dealer|chat|"", hand, name, chatId}: hands, the dealer and chat together
  chatIds: new Set(),
  result: null, // {hand, seconds, until}: the showdown on show, until performance.now() passes `until` (set when drawn)
  voided: [], // the snapshot's voided hands
  sounds: [], // sounds the last messages asked for (the page plays and clears them)
  mayShow: null, // the number of the last hand, if the viewer won it uncalled and may still show it
};

/** Whether the viewer may manage this table (its creator or an admin): add and remove bots, close it. */
export function manager() {
  return Boolean(state.me && state.table && (state.me.is_admin || state.table.created_by === state.me.id));
}

function newPlayer(p) {
  return {
    seat: p.seat,
    name: p.name,
    stack: p.stack,
    bet: 0,
    total: 0,
    folded: false,
    allIn: false,
    up: [],
    down: [],
    shown: false,
    mucked: false,
    won: 0,
    awards: [], // {amount, pot, share}
    handName: "",
    highName: "",
    lowName: "",
    best: [], // the five cards that play (high, or the razz low)
    low: [], // stud hi/lo: the five cards of the low
  };
}

/** A fresh hand: one entry per seat dealt in, in position order. */
function newHand(number, players) {
  return {
    number,
    seq: 0,
    street: 0,
    pot: 0,
    toCall: 0,
    raises: 0,
    raiseCap: null,
    capped: false,
    uncapped: false,
    order: players.map((p) => p.seat),
    players: new Map(players.map((p) => [p.seat, newPlayer(p)])),
    actor: null,
    clock: null, // {action, bank, at}: what was left of the actor's clock at `at` (performance.now())
    bringIn: null, // the seat that brought in (or completed) on the first street
    actions: 0, // actions taken so far (the first one of the hand decides the bring-in)
    community: null,
    over: false,
    gathered: 0, // bumped when a betting round ends: the page sweeps the bets into the pot
  };
}

export const nameOf = (seat) =>
  state.hand?.players.get(seat)?.name ?? state.seats.get(seat)?.name ?? `Seat ${seat}`;
export const cardsText = (cards) => cards.map(cardSymbol).join(" ");
export const potName = (pot) => (pot === 0 ? "main pot" : `side pot ${pot}`);

export function log(text, kind = "", extra = {}) {
  state.log.push({ text, kind, hand: state.hand?.number ?? null, ...extra });
  if (state.log.length > MAX_LOG) state.log.splice(0, state.log.length - MAX_LOG);
}

function addChat(m) {
  if (state.chatIds.has(m.id)) return false;
  state.chatIds.add(m.id);
  state.log.push({
    text: String(m.text ?? ""),
    kind: "chat",
    name: String(m.name ?? ""),
    seat: m.seat,
    chatId: m.id,
    hand: state.hand?.number ?? null,
  });
  if (state.log.length > MAX_LOG) state.log.splice(0, state.log.length - MAX_LOG);
  return true;
}

function showdownSeconds(msg) {
  if (typeof msg.next_in === "number") return Math.max(0, msg.next_in);
  const s = state.table?.showdown_seconds;
  return typeof s === "number" ? s : DEFAULT_SHOWDOWN_SECONDS;
}

// -- messages -----------------------------------------------------------------------------------------

/** Applies one server message; returns {actions: the action bar must be redrawn, chat: a chat line came}. */
export function apply(msg) {
  const out = { actions: false, chat: false };
  const hand = state.hand && msg.hand === state.hand.number ? state.hand : null;
  switch (msg.type) {
    case "snapshot":
      fromSnapshot(msg);
      out.actions = true;
      return out;
    case "seated":
    case "seat":
      state.seats.set(msg.seat, { ...state.seats.get(msg.seat), ...msg });
      return out;
    case "left":
      state.seats.delete(msg.seat);
      if (msg.moved_to) log(`${msg.name} was moved to ${msg.moved_to.name}`);
      if (state.you && state.you.seat === msg.seat) {
        state.you.seat = null;
        if (msg.moved_to) state.movedTo = msg.moved_to; // the floor moved you: follow your chips
      }
      out.actions = true;
      return out;
    case "hand_started": {
      const before = state.table?.variant;
      if (msg.table) state.table = msg.table; // a mixed table: the sign as this hand is dealt
      state.hand = newHand(msg.hand, msg.players);
      state.turn = null;
      state.mayShow = null;
      const game = msg.table?.mix && msg.table.variant !== before ? ` (${msg.table.variant_name} now)` : "";
      log(`Hand #${msg.hand}${game}: ${msg.players.map((p) => p.name).join(", ")}`, "street");
      out.actions = true;
      return out;
    }
    case "pong":
      return out;
    case "chat":
      out.chat = addChat(msg);
      return out;
    case "dealer":
      log(String(msg.text ?? ""), "dealer");
      return out;
    case "error":
      if (msg.code === "stale" || msg.code === "not_your_turn") state.wantSnapshot = true;
      if (msg.code === "logged_out") state.ended = msg.message;
      return out;
    case "closing":
      if (state.table) state.table.status = "closing";
      state.notice = "This table is closing: no new hand will be dealt.";
      out.actions = true;
      return out;
    case "closed": {
      const mine = (msg.cashed_out ?? []).find((c) => c.seat === state.you?.seat);
      state.ended = "This table is closed.";
      state.notice = mine ? `This table is closed: ${chips(mine.amount)} went back to your balance.` : state.ended;
      state.seats.clear();
      state.turn = null;
      out.actions = true;
      return out;
    }
  }
  if (!hand) return out; // a message about a hand this page does not know: the next snapshot repairs it
  const p = hand.players.get(msg.seat);
  switch (msg.type) {
    case "ante":
      p.stack -= msg.amount;
      p.total += msg.amount;
      break;
    case "street":
      if ([...hand.players.values()].some((q) => q.bet > 0)) hand.gathered += 1;
      hand.street = msg.street;
      for (const q of hand.players.values()) q.bet = 0;
      hand.raises = 0;
      hand.capped = false;
      hand.uncapped = false;
      log(streetName(msg.street), "street");
      out.actions = true;
      break;
    case "dealt":
      dealt(hand, msg.cards, msg.street);
      state.sounds.push("deal");
      break;
    case "community":
      hand.community = msg.card;
      log(`Community card ${cardsText([msg.card])}`);
      break;
    case "reshuffled":
      log(`The stub and the burn cards are shuffled (${msg.cards} cards)`);
      break;
    case "action":
      acted(hand, msg);
      if (msg.action !== "fold" && msg.action !== "check") state.sounds.push("chips");
      break;
    case "returned":
      p.stack += msg.amount;
      p.total -= msg.amount;
      log(`${p.name} takes back ${msg.amount} uncalled`);
      break;
    case "pot":
      hand.pot = msg.pot;
      hand.toCall = msg.to_call;
      takeBetting(hand, msg);
      for (const q of msg.players) {
        Object.assign(hand.players.get(q.seat) ?? {}, {
          stack: q.stack,
          bet: q.bet,
          total: q.total,
          folded: q.folded,
          allIn: q.all_in,
        });
      }
      out.actions = true; // the advance actions depend on the bet
      break;
    case "showdown":
      Object.assign(p, { down: msg.down, up: msg.up, shown: true });
      if (msg.voluntary) {
        if (msg.seat === state.you?.seat) state.mayShow = null;
        out.actions = true;
      }
      // the server names the hand (its evaluator, community card included); the local reader is a fallback
      p.handName = msg.description || handName(state.table?.variant, [...msg.down, ...msg.up]);
      p.highName = msg.high_description ?? "";
      p.lowName = msg.low_description ?? "";
      p.best = Array.isArray(msg.best) ? msg.best : [];
      p.low = Array.isArray(msg.low) ? msg.low : [];
      log(
        `${p.name} shows ${cardsText([...msg.down, ...msg.up])}${p.handName ? `: ${p.handName}` : ""}` +
          (msg.voluntary ? " (nobody called)" : ""),
        "result",
      );
      break;
    case "muck":
      p.mucked = true;
      log(`${p.name} mucks`);
      break;
    case "awarded":
      p.won += msg.amount;
      p.awards.push({ amount: msg.amount, pot: msg.pot, share: msg.share });
      break; // the dealer's line says who wins what, with which hand
    case "hand_over": {
      if ([...hand.players.values()].some((q) => q.bet > 0)) hand.gathered += 1;
      hand.over = true;
      hand.actor = null;
      hand.pot = msg.pot;
      for (const s of msg.stacks) {
        if (hand.players.has(s.seat)) hand.players.get(s.seat).stack = s.stack;
        if (state.seats.has(s.seat)) state.seats.get(s.seat).stack = s.stack; // `seat` messages follow
      }
      state.turn = null;
      // the time on screen counts from when the box is first drawn (renderShowdown), not from the message
      state.result = { hand: hand, seconds: showdownSeconds(msg), until: null };
      // won uncalled (nobody shown, one winner): the winner may show his cards until the next deal
      const winners = new Set((msg.winners ?? []).map((w) => w.seat));
      const shownAny = [...hand.players.values()].some((q) => q.shown);
      state.mayShow = !shownAny && winners.size === 1 && winners.has(state.you?.seat) ? hand.number : null;
      log(`Hand #${hand.number} is over (pot ${chips(msg.pot)})`, "street");
      out.actions = true;
      return out;
    }
    case "turn":
      takeTurn(hand, msg);
      if (state.turn && state.turn.seq !== msg.seq) state.turn = null;
      out.actions = true;
      return out;
    case "your_turn":
      takeTurn(hand, msg);
      takeBetting(hand, msg);
      state.turn = msg;
      state.sounds.push("turn");
      out.actions = true;
      return out;
  }
  return out;
}

/** Whose turn it is and what is left of his clock (`turn` and `your_turn`). */
function takeTurn(hand, msg) {
  hand.seq = msg.seq;
  hand.actor = msg.seat;
  hand.clock = { ...msg.clock, at: performance.now() };
}

/** The street's raises, the cap and whether it is reached (`pot`, `your_turn`, a snapshot's hand), when said. */
function takeBetting(hand, msg) {
  if (typeof msg.raises === "number") hand.raises = msg.raises;
  if ("raise_cap" in msg) hand.raiseCap = msg.raise_cap;
  if (typeof msg.capped === "boolean") hand.capped = msg.capped;
  if (typeof msg.uncapped === "boolean") hand.uncapped = msg.uncapped;
}

/** Puts the cards of one dealing round on the seats. */
function dealt(hand, cards, street) {
  const ups = [];
  const mine = [];
  for (const { seat, card, face_up: faceUp } of cards) {
    const p = hand.players.get(seat);
    if (!p) continue;
    if (faceUp) {
      p.up.push(card);
      ups.push(`${p.name} ${cardsText([card])}`);
    } else {
      p.down.push(card);
      if (card && seat === state.you?.seat) mine.push(card);
    }
  }
  if (mine.length) log(`Your down card${mine.length > 1 ? "s" : ""}: ${cardsText(mine)}`);
  if (ups.length) log(`Up cards (${streetName(street)}): ${ups.join(", ")}`);
}

/** An action of a player: his bet, fold and all-in; the first action of the hand decides the bring-in. */
function acted(hand, msg) {
  const p = hand.players.get(msg.seat);
  hand.actions += 1;
  if (hand.actions === 1 && (msg.action === "bring-in" || msg.action === "complete")) hand.bringIn = msg.seat;
  if (msg.action === "fold") p.folded = true;
  else if (msg.action !== "check") p.bet = msg.amount;
  if (msg.all_in) p.allIn = true;
  const allIn = msg.all_in ? " and is all-in" : "";
  const auto = msg.auto ? " (the clock ran out)" : "";
  log(`${p.name}: ${msg.label ?? actionWords(msg.action, msg.amount, msg.added)}${allIn}${auto}`);
}

/** Rebuilds the model from a snapshot (on connect, reconnect, and when the viewer's seat changes). */
function fromSnapshot(msg) {
  state.table = msg.table;
  state.you = msg.you;
  state.seats = new Map(msg.seats.map((s) => [s.seat, s]));
  state.turn = null;
  state.voided = Array.isArray(msg.voided) ? msg.voided : [];
  for (const c of Array.isArray(msg.chat) ? msg.chat : []) addChat(c);
  const h = msg.hand;
  if (!h) {
    if (state.hand && !state.hand.over) state.hand = null; // a hand we saw but that is gone
    return;
  }
  const view = h.view;
  const hand = newHand(
    h.hand,
    view.players.map((p) => ({ seat: p.seat, name: p.name, stack: p.stack })),
  );
  Object.assign(hand, {
    seq: h.seq,
    street: view.street,
    pot: view.pot,
    toCall: view.to_call,
    actor: h.actor_seat,
    community: view.community,
  });
  takeBetting(hand, h);
  hand.clock = h.clock ? { ...h.clock, at: performance.now() } : null;
  for (const p of view.players) {
    Object.assign(hand.players.get(p.seat), {
      bet: p.bet,
      total: p.total,
      folded: p.folded,
      allIn: p.all_in,
      up: p.up,
      down: p.down,
    });
  }
  state.hand = hand;
  // The log of the hand so far, rebuilt from the view's events; what the log had of this hand (but the chat and
  // the dealer's words, which are not events) is replaced so a reconnect does not repeat it.
  state.log = state.log.filter((l) => l.hand !== h.hand || l.kind === "chat" || l.kind === "dealer");
  log(`Hand #${h.hand}: ${view.players.map((p) => p.name).join(", ")}`, "street");
  for (const m of eventsAsMessages(view.events, h.seats, h.hand)) {
    if (m.type === "street") log(streetName(m.street), "street");
    else if (m.type === "dealt") dealtLog(m.cards, m.street);
    else if (m.type === "action") {
      hand.actions += 1;
      if (hand.actions === 1 && (m.action === "bring-in" || m.action === "complete")) hand.bringIn = m.seat;
      log(`${nameOf(m.seat)}: ${actionWords(m.action, m.amount, m.added)}${m.all_in ? " and is all-in" : ""}`);
    } else if (m.type === "returned") log(`${nameOf(m.seat)} takes back ${m.amount} uncalled`);
    else if (m.type === "community") log(`Community card ${cardsText([m.card])}`);
  }
}

/** The log lines of a dealing round, without touching the seats (their cards are already in the view). */
function dealtLog(cards, street) {
  const mine = cards.filter((c) => !c.face_up && c.card && c.seat === state.you?.seat).map((c) => c.card);
  const ups = cards.filter((c) => c.face_up).map((c) => `${nameOf(c.seat)} ${cardsText([c.card])}`);
  if (mine.length) log(`Your down card${mine.length > 1 ? "s" : ""}: ${cardsText(mine)}`);
  if (ups.length) log(`Up cards (${streetName(street)}): ${ups.join(", ")}`);
}

/** The view's event records in the shape of the WebSocket messages (consecutive deals grouped). */
function eventsAsMessages(events, seats, number) {
  const out = [];
  for (const e of events) {
    const seat = seats[e.player];
    if (e.type === "StreetStarted") out.push({ type: "street", hand: number, street: e.street });
    else if (e.type === "CardDealt") {
      const last = out.at(-1);
      const card = { seat, card: e.card, face_up: e.face_up };
      if (last?.type === "dealt" && last.street === e.street) last.cards.push(card);
      else out.push({ type: "dealt", hand: number, street: e.street, cards: [card] });
    } else if (e.type === "ActionTaken") {
      out.push({ type: "action", seat, action: e.action, amount: e.amount, added: e.added, all_in: e.all_in });
    } else if (e.type === "Returned") out.push({ type: "returned", seat, amount: e.amount });
    else if (e.type === "CommunityCard") out.push({ type: "community", card: e.card });
  }
  return out;
}
