// The live table page (/table/{id}): one WebSocket to the server, a small model of the table and the hand
// built from its messages (docs/server-protocol.md), and a render of that model after every message.
// The server sends only what this viewer may see, so the page never holds an opponent's hidden card.

import { api, cardElement, cardSymbol, chips, el, header, say } from "./common.js";
import { actionLabel, actionWords, handName, streetName } from "./poker.js";
import { mountReplayer } from "./replayer.js";

const tableId = Number(location.pathname.split("/").filter(Boolean).pop());

// -- the model -----------------------------------------------------------------------------------------

const state = {
  table: null, // the table object (its sign)
  you: null, // {account_id, username, seat} or null for a visitor
  seats: new Map(), // seat number -> seat object (name, stack, bot, sitting_out, leaving, connected, time_bank...)
  hand: null, // the hand being dealt, or the last one finished (kept on screen until the next one starts)
  turn: null, // the `your_turn` message being answered, or null
  meLoggedIn: false,
  me: null, // GET /api/me: {id, username, is_admin, ...} or null
  ended: null, // why the table's socket will not come back ("closed", "logged out"), or null
};

/** Whether the viewer may manage this table (its creator or an admin): add and remove bots, close it. */
function manager() {
  return Boolean(state.me && state.table && (state.me.is_admin || state.table.created_by === state.me.id));
}

/** A fresh hand: one entry per seat dealt in, in position order. */
function newHand(number, players) {
  return {
    number,
    seq: 0,
    street: 0,
    pot: 0,
    toCall: 0,
    order: players.map((p) => p.seat),
    players: new Map(
      players.map((p) => [
        p.seat,
        {
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
          handName: "",
        },
      ]),
    ),
    actor: null,
    clock: null, // {action, bank, at}: what was left of the actor's clock at `at` (performance.now())
    bringIn: null, // the seat that brought in (or completed) on the first street
    actions: 0, // actions taken so far (the first one of the hand decides the bring-in)
    community: null,
    over: false,
    log: [],
  };
}

const nameOf = (seat) => state.hand?.players.get(seat)?.name ?? state.seats.get(seat)?.name ?? `Seat ${seat}`;
const cardsText = (cards) => cards.map(cardSymbol).join(" ");

// -- messages -----------------------------------------------------------------------------------------

/** Applies one server message to the model; returns true when the action bar must be redrawn. */
function apply(msg) {
  const hand = state.hand && msg.hand === state.hand.number ? state.hand : null;
  switch (msg.type) {
    case "snapshot":
      fromSnapshot(msg);
      return true;
    case "seated":
    case "seat":
      state.seats.set(msg.seat, { ...state.seats.get(msg.seat), ...msg });
      return false;
    case "left":
      state.seats.delete(msg.seat);
      if (state.you && state.you.seat === msg.seat) state.you.seat = null;
      return true;
    case "hand_started":
      state.hand = newHand(msg.hand, msg.players);
      state.turn = null;
      log(`Hand #${msg.hand}: ${msg.players.map((p) => p.name).join(", ")}`, "street");
      return true;
    case "pong":
      return false;
    case "error":
      say("status", msg.message, true);
      if (msg.code === "stale" || msg.code === "not_your_turn") send({ type: "snapshot" });
      if (msg.code === "logged_out") state.ended = msg.message;
      return false;
    case "closing":
      if (state.table) state.table.status = "closing";
      say("status", "This table is closing: no new hand will be dealt.");
      return true;
    case "closed": {
      const mine = msg.cashed_out.find((c) => c.seat === state.you?.seat);
      state.ended = "This table is closed.";
      say("status", mine ? `This table is closed: ${chips(mine.amount)} went back to your balance.` : state.ended);
      state.seats.clear();
      state.turn = null;
      return true;
    }
  }
  if (!hand) return false; // a message about a hand this page does not know: the next snapshot repairs it
  const p = hand.players.get(msg.seat);
  switch (msg.type) {
    case "ante":
      p.stack -= msg.amount;
      p.total += msg.amount;
      break; // antes are summed up in the log by the street line
    case "street":
      hand.street = msg.street;
      for (const q of hand.players.values()) q.bet = 0;
      log(streetName(msg.street), "street");
      break;
    case "dealt":
      dealt(hand, msg.cards, msg.street);
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
      break;
    case "returned":
      p.stack += msg.amount;
      p.total -= msg.amount;
      log(`${p.name} takes back ${msg.amount} uncalled`);
      break;
    case "pot":
      hand.pot = msg.pot;
      hand.toCall = msg.to_call;
      for (const q of msg.players) {
        Object.assign(hand.players.get(q.seat), {
          stack: q.stack,
          bet: q.bet,
          total: q.total,
          folded: q.folded,
          allIn: q.all_in,
        });
      }
      break;
    case "showdown":
      Object.assign(p, { down: msg.down, up: msg.up, shown: true });
      // the server names the hand (its evaluator, community card included); the local reader is a fallback
      p.handName = msg.description || handName(state.table?.variant, [...msg.down, ...msg.up]);
      log(`${p.name} shows ${cardsText([...msg.down, ...msg.up])}: ${p.handName}`, "result");
      break;
    case "muck":
      p.mucked = true;
      log(`${p.name} mucks`);
      break;
    case "awarded":
      p.won += msg.amount;
      log(
        `${p.name} wins ${chips(msg.amount)} from the ${potName(msg.pot)}${msg.share === "pot" ? "" : ` (${msg.share})`}`,
        "result",
      );
      break;
    case "hand_over":
      hand.over = true;
      hand.actor = null;
      hand.pot = msg.pot;
      for (const s of msg.stacks) {
        if (hand.players.has(s.seat)) hand.players.get(s.seat).stack = s.stack;
        if (state.seats.has(s.seat)) state.seats.get(s.seat).stack = s.stack; // `seat` messages follow
      }
      state.turn = null;
      log(`Hand #${hand.number} is over (pot ${chips(msg.pot)})`, "street");
      return true;
    case "turn":
      hand.seq = msg.seq;
      hand.actor = msg.seat;
      hand.clock = { ...msg.clock, at: performance.now() };
      if (state.turn && state.turn.seq !== msg.seq) state.turn = null;
      return true;
    case "your_turn":
      hand.seq = msg.seq;
      hand.actor = msg.seat;
      hand.clock = { ...msg.clock, at: performance.now() };
      state.turn = msg;
      return true;
  }
  return false;
}

/** Puts the cards of one dealing round on the seats; marks the door cards. */
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
  log(`${p.name}: ${actionWords(msg.action, msg.amount)}${allIn}${auto}`);
}

function potName(pot) {
  return pot === 0 ? "main pot" : `side pot ${pot}`;
}

function log(text, kind = "") {
  state.hand?.log.push({ text, kind });
}

/** Rebuilds the model from a snapshot (on connect, reconnect, and when the viewer's seat changes). */
function fromSnapshot(msg) {
  state.table = msg.table;
  state.you = msg.you;
  state.seats = new Map(msg.seats.map((s) => [s.seat, s]));
  state.turn = null;
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
  // The log of the hand so far, from the view's events (players by engine number: h.seats maps them).
  log(`Hand #${h.hand}: ${view.players.map((p) => p.name).join(", ")}`, "street");
  for (const m of eventsAsMessages(view.events, h.seats, h.hand)) {
    if (m.type === "street") log(streetName(m.street), "street");
    else if (m.type === "dealt") dealtLog(hand, m.cards, m.street);
    else if (m.type === "action") {
      hand.actions += 1;
      if (hand.actions === 1 && (m.action === "bring-in" || m.action === "complete")) hand.bringIn = m.seat;
      log(`${nameOf(m.seat)}: ${actionWords(m.action, m.amount)}${m.all_in ? " and is all-in" : ""}`);
    } else if (m.type === "returned") log(`${nameOf(m.seat)} takes back ${m.amount} uncalled`);
    else if (m.type === "community") log(`Community card ${cardsText([m.card])}`);
  }
}

/** The log lines of a dealing round, without touching the seats (their cards are already in the view). */
function dealtLog(hand, cards, street) {
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
    } else if (e.type === "ActionTaken")
      out.push({ type: "action", seat, action: e.action, amount: e.amount, all_in: e.all_in });
    else if (e.type === "Returned") out.push({ type: "returned", seat, amount: e.amount });
    else if (e.type === "CommunityCard") out.push({ type: "community", card: e.card });
  }
  return out;
}

// -- the connection -----------------------------------------------------------------------------------

let socket = null;
let retryDelay = 500;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/table/${tableId}`);
  socket.addEventListener("open", () => {
    retryDelay = 500;
    connection(true);
  });
  socket.addEventListener("message", (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    const actionsChanged = apply(msg);
    render(actionsChanged);
  });
  socket.addEventListener("close", (event) => {
    connection(false);
    state.turn = null;
    render(true);
    if (event.code === 4404) {
      say("status", "There is no such table.", true);
      return;
    }
    if (event.code === 4410 || event.code === 4401) {
      // closed table, or signed out (in this tab or another): reconnecting would not bring the seat back
      if (event.code === 4401) say("status", state.ended ?? "You signed out.", true);
      return;
    }
    // Reconnect with a growing delay; the server answers the new connection with a fresh snapshot.
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  });
}

function send(msg) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
}

function connection(up) {
  const node = document.getElementById("conn");
  node.textContent = up ? "Connected" : "Reconnecting…";
  node.classList.toggle("down", !up);
}

// Keep-alive: a ping every 20 seconds.
setInterval(() => send({ type: "ping" }), 20000);

// -- rendering -----------------------------------------------------------------------------------------

/** Redraws the page from the model (the action bar only when it changed, so focus stays put). */
function render(actionsChanged) {
  renderSign();
  renderSeats();
  renderCenter();
  renderShowdown();
  renderLog();
  renderControls();
  if (actionsChanged) renderActions();
}

function renderSign() {
  const t = state.table;
  if (!t) return;
  document.title = `${t.name} · studpoker`;
  document.getElementById("table-name").textContent = t.name;
  const items = [
    ["Game", `${t.variant_name} (${t.preset})`],
    ["Limits", `${t.stakes.small_bet}/${t.stakes.big_bet}`],
    ["Ante", t.stakes.ante],
    ["Bring-in", t.stakes.bring_in],
    ["Min buy-in", chips(t.min_buy_in)],
  ];
  if (t.max_buy_in) items.push(["Max buy-in", chips(t.max_buy_in)]);
  if (t.clock) items.push(["Clock", `${t.clock.action} s + ${t.clock.bank} s bank`]);
  document
    .getElementById("sign-list")
    .replaceChildren(...items.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, String(v)))));
}

/** The seats around the oval; the viewer's own seat at the bottom. */
function renderSeats() {
  const t = state.table;
  if (!t) return;
  const ring = document.getElementById("seats");
  const n = t.max_seats;
  ring.closest(".felt-wrap").classList.toggle("many", n > 8); // ten seats (five-card stud): smaller boxes
  const mine = state.you?.seat ?? null;
  const nodes = [];
  for (let seat = 1; seat <= n; seat++) {
    // Seat 1 at the dealer's left (top, going clockwise), or the viewer's seat at the bottom.
    const turnsFromBottom = mine ? seat - mine : seat - 1 - n / 2 + 0.5;
    const angle = Math.PI / 2 + (turnsFromBottom * 2 * Math.PI) / n;
    const node = seatNode(seat);
    node.style.left = `${50 + 42 * Math.cos(angle)}%`;
    node.style.top = `${50 + 40 * Math.sin(angle)}%`;
    nodes.push(node);
  }
  ring.replaceChildren(...nodes);
}

function seatNode(seat) {
  const info = state.seats.get(seat);
  const hand = state.hand;
  const p = hand?.players.get(seat);
  if (!info && !p) {
    const canSit = state.meLoggedIn && !state.you?.seat;
    return el(
      "div",
      { class: "seat empty", dataset: { seat } },
      canSit
        ? el(
            "button",
            {
              type: "button",
              class: "secondary",
              "aria-label": `Sit down in seat ${seat}`,
              onclick: () => openSit(seat),
            },
            `Sit here (${seat})`,
          )
        : el("span", { class: "muted" }, `Seat ${seat}: empty`),
    );
  }
  const name = p?.name ?? info.name;
  const isMe = seat === state.you?.seat;
  const acting = hand && !hand.over && hand.actor === seat;
  const classes = ["seat"];
  if (isMe) classes.push("me");
  if (acting) classes.push("acting");
  if (p?.folded || p?.mucked) classes.push("folded");
  const tags = [];
  if (isMe) tags.push(["you", "You"]);
  if (info?.bot) tags.push(["bot", "Bot"]);
  if (hand && hand.bringIn === seat) tags.push(["bring-in", "Bring-in"]);
  if (p?.folded) tags.push(["folded", "Folded"]);
  if (p?.allIn && !p.folded) tags.push(["all-in", "All-in"]);
  if (info?.sitting_out) tags.push(["out", "Sitting out"]);
  if (info?.leaving) tags.push(["out", "Leaving"]);
  if (info && !info.bot && !info.connected) tags.push(["out", "Disconnected"]); // bots play inside the server
  if (p?.won) tags.push(["winner", `Won ${chips(p.won)}`]);
  const stack = p && hand && !hand.over ? p.stack : (info?.stack ?? p?.stack ?? 0);
  const label = `Seat ${seat}: ${name}${isMe ? " (you)" : ""}, stack ${stack}`;
  const dataset = { seat };
  if (p?.shown) dataset.shown = "1";
  return el(
    "section",
    { class: classes.join(" "), "aria-label": label, dataset },
    el(
      "div",
      { class: "top" },
      el("span", { class: "name" }, name),
      el("span", { class: "stack", "aria-label": `Stack ${stack}` }, chips(stack)),
    ),
    el(
      "div",
      { class: "tags" },
      tags.map(([cls, text]) => el("span", { class: `tag ${cls}` }, text)),
    ),
    p ? cardsNode(p, hand) : null,
    p?.bet && !hand.over ? el("div", { class: "bet" }, `Bet ${chips(p.bet)}`) : null,
    p?.shown && p.handName ? el("div", { class: "shown" }, p.handName) : null,
    acting ? el("div", { class: "clock", "aria-live": "off", "data-clock": "1" }) : null,
    info?.queued ? el("div", { class: "shown" }, `+${chips(info.queued)} after this hand`) : null,
  );
}

/** A player's cards in dealing order: the down cards (backs unless the viewer may see them), the up cards,
 * and the last down card. The door card (first up card) is marked. */
function cardsNode(p, hand) {
  const downs = p.down.map((c) => cardElement(c, { down: true }));
  const first = state.table.variant === "STUD5" ? 2 : 3; // the first street, where the door cards decide the bring-in
  const ups = p.up.map((c, i) => cardElement(c, { door: i === 0 && !hand.over && hand.street <= first + 1 }));
  const firstDowns = Math.min(downs.length, first - 1);
  return el(
    "div",
    { class: "cards", role: "group", "aria-label": `${p.name}'s cards` },
    ...downs.slice(0, firstDowns),
    ...ups,
    ...downs.slice(firstDowns),
  );
}

/** Pots in play: a side pot starts behind each all-in player's total, as the server builds them. */
function pots(players) {
  const levels = [...new Set(players.filter((p) => p.allIn && !p.folded).map((p) => p.total))].sort((a, b) => a - b);
  levels.push(Infinity);
  const out = [];
  let floor = 0;
  for (const level of levels) {
    let amount = 0;
    let contenders = 0;
    for (const p of players) {
      amount += Math.max(0, Math.min(p.total, level) - floor);
      if (!p.folded && !p.mucked && p.total > floor) contenders += 1;
    }
    if (amount > 0) out.push({ amount, contenders });
    floor = level;
  }
  return out;
}

function renderCenter() {
  const hand = state.hand;
  const center = document.getElementById("center");
  if (!hand) {
    const waiting = state.seats.size < 2 ? "Waiting for players" : "Waiting for the next hand";
    center.replaceChildren(el("div", { class: "pot", id: "pot" }, waiting));
    return;
  }
  const live = pots([...hand.players.values()]).filter((p) => p.contenders > 1);
  const parts = [
    el(
      "div",
      { class: "street" },
      hand.over ? `Hand #${hand.number} is over` : `Hand #${hand.number} · ${streetName(hand.street)}`,
    ),
  ];
  parts.push(el("div", { class: "pot", id: "pot" }, `Pot ${chips(hand.pot)}`));
  if (live.length > 1 && !hand.over) {
    parts.push(
      el(
        "div",
        { class: "side-pots", id: "side-pots" },
        live.map((p, i) => (i === 0 ? `Main ${chips(p.amount)}` : `Side pot ${i} ${chips(p.amount)}`)).join(" · "),
      ),
    );
  }
  if (hand.community) parts.push(el("div", { class: "community" }, "Community card ", cardElement(hand.community)));
  if (!hand.over && hand.actor) {
    parts.push(
      el("div", { class: "turn", id: "turn" }, `${nameOf(hand.actor)} to act `, el("span", { "data-clock": "1" })),
    );
  }
  center.replaceChildren(...parts);
  tick();
}

/** The showdown box: hand names and chips won, for the hand just finished. */
function renderShowdown() {
  const box = document.getElementById("showdown");
  const hand = state.hand;
  if (!hand?.over) {
    box.replaceChildren();
    return;
  }
  const rows = [...hand.players.values()]
    .filter((p) => p.shown || p.won)
    .map((p) =>
      el(
        "li",
        {},
        el("strong", {}, p.name),
        p.shown ? `: ${p.handName}` : "",
        p.won ? ` \u2014 wins ${chips(p.won)}` : "",
      ),
    );
  box.replaceChildren(el("h2", {}, `Hand #${hand.number}: result`), el("ul", {}, rows));
}

function renderLog() {
  const list = document.getElementById("log");
  const lines = state.hand?.log ?? [];
  if (list.childElementCount === lines.length && list.dataset.hand === String(state.hand?.number)) return;
  list.dataset.hand = String(state.hand?.number);
  list.replaceChildren(...lines.map((l) => el("li", { class: l.kind }, l.text)));
  list.parentElement.scrollTop = list.parentElement.scrollHeight;
}

/** The buttons of the viewer's turn, generated from the server's legal actions. */
function renderActions() {
  const bar = document.getElementById("actions");
  const turn = state.turn;
  if (!turn) {
    const hand = state.hand;
    const text = !state.you?.seat
      ? state.meLoggedIn
        ? "You are watching."
        : "You are watching. Sign in to play."
      : hand && !hand.over && hand.actor
        ? `Waiting for ${nameOf(hand.actor)}…`
        : "Waiting for the next hand…";
    bar.replaceChildren(el("span", { class: "prompt" }, text));
    return;
  }
  const cost = turn.to_call - turn.bet;
  const prompt =
    cost > 0 ? `Your turn: ${chips(cost)} to call, pot ${chips(turn.pot)}` : `Your turn: pot ${chips(turn.pot)}`;
  const buttons = turn.legal.map((a, i) =>
    el(
      "button",
      {
        type: "button",
        class: `act ${a.action}`,
        dataset: { action: a.action, amount: a.amount },
        "aria-keyshortcuts": i < 9 ? String(i + 1) : undefined,
        onclick: () => act(turn, a),
      },
      actionLabel(a.action, a.amount),
    ),
  );
  bar.replaceChildren(
    el("span", { class: "prompt", id: "prompt" }, prompt, " ", el("span", { "data-clock": "1" })),
    ...buttons,
  );
  buttons.find((b) => b.dataset.action !== "fold")?.focus({ preventScroll: true });
}

function act(turn, legal) {
  send({ type: "act", hand: turn.hand, seq: turn.seq, action: legal.action, amount: legal.amount });
  state.turn = null; // no second click: the server's `action` broadcast moves the game on
  renderActions();
}

// Digits 1-9 press the action buttons (not while typing in a field).
document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, select, textarea, dialog") || event.ctrlKey || event.metaKey || event.altKey)
    return;
  const index = Number(event.key) - 1;
  const buttons = document.querySelectorAll("#actions button.act");
  if (index >= 0 && index < buttons.length) buttons[index].click();
});

/** The countdown of the actor's clock: the action clock, then the time bank. */
function tick() {
  const hand = state.hand;
  const nodes = document.querySelectorAll("[data-clock]");
  if (!hand?.clock || hand.over || !hand.actor) {
    nodes.forEach((n) => (n.textContent = ""));
    return;
  }
  const spent = (performance.now() - hand.clock.at) / 1000;
  const action = Math.max(0, hand.clock.action - spent);
  const bank = Math.max(0, hand.clock.bank - Math.max(0, spent - hand.clock.action));
  const text = action > 0 ? `${Math.ceil(action)} s` : `time bank ${Math.ceil(bank)} s`;
  nodes.forEach((n) => {
    n.textContent = text;
    n.classList.toggle("low", action <= 5);
  });
}
setInterval(tick, 250);

// -- seat controls: sit down, top up, sit out/in, leave, bots ----------------------------------------

function renderControls() {
  const box = document.getElementById("seat-controls");
  const me = state.you?.seat ? state.seats.get(state.you.seat) : null;
  const who = !state.meLoggedIn ? "visitor" : me ? `seated-${me.sitting_out}-${me.leaving}` : "watching";
  const wanted = `${who}-${manager()}-${state.table?.status}-${Boolean(state.ended)}`;
  if (box.dataset.mode === wanted) return;
  box.dataset.mode = wanted;
  const buttons = [];
  if (state.ended) {
    // nothing to do at this table any more
  } else if (!state.meLoggedIn) {
    buttons.push(
      el("a", { class: "button", href: `/login?next=${encodeURIComponent(location.pathname)}` }, "Sign in to play"),
    );
  } else if (!me) {
    buttons.push(el("button", { type: "button", id: "sit-button", onclick: () => openSit(null) }, "Sit down"));
  } else {
    buttons.push(
      el("button", { type: "button", id: "top-up-button", class: "secondary", onclick: openTopUp }, "Top up"),
    );
    buttons.push(
      me.sitting_out
        ? el("button", { type: "button", class: "secondary", onclick: () => post("sit-in") }, "Sit in")
        : el("button", { type: "button", class: "secondary", onclick: () => post("sit-out") }, "Sit out next hand"),
    );
    buttons.push(
      el(
        "button",
        { type: "button", class: "danger", disabled: me.leaving, onclick: leave },
        me.leaving ? "Leaving after this hand" : "Leave table",
      ),
    );
  }
  if (manager() && !state.ended && state.table?.status === "open") {
    buttons.push(el("button", { type: "button", class: "secondary", id: "add-bot", onclick: addBot }, "Add bot"));
    buttons.push(el("button", { type: "button", class: "secondary", onclick: removeBots }, "Remove bots"));
    buttons.push(
      el("button", { type: "button", class: "danger", id: "close-table", onclick: closeTable }, "Close table"),
    );
  }
  buttons.push(el("a", { class: "button secondary", href: `/history/${tableId}` }, "Hand histories"));
  box.replaceChildren(...buttons);
}

async function post(what, body = {}) {
  try {
    const answer = await api("POST", `/api/tables/${tableId}/${what}`, body);
    say("status", "");
    return answer;
  } catch (error) {
    say("status", error.message, true);
    return null;
  }
}

/** The buy-in dialog; `seat` preselects a seat (null: the lowest free one). */
function openSit(seat) {
  const dialog = document.getElementById("sit-dialog");
  const t = state.table;
  const amount = document.getElementById("buy-in");
  amount.min = t.min_buy_in;
  if (t.max_buy_in) amount.max = t.max_buy_in;
  amount.value = Math.max(t.min_buy_in, Number(amount.value) || 0);
  const choice = document.getElementById("sit-seat");
  const free = [];
  for (let s = 1; s <= t.max_seats; s++) if (!state.seats.has(s)) free.push(s);
  choice.replaceChildren(
    el("option", { value: "" }, "Any free seat"),
    ...free.map((s) => el("option", { value: s, selected: s === seat }, `Seat ${s}`)),
  );
  document.getElementById("sit-note").textContent =
    `Minimum ${chips(t.min_buy_in)}${t.max_buy_in ? `, maximum ${chips(t.max_buy_in)}` : ""}.`;
  dialog.showModal();
}

document.getElementById("sit-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (event.submitter?.value === "cancel") return document.getElementById("sit-dialog").close();
  const seat = document.getElementById("sit-seat").value;
  const body = { buy_in: Number(document.getElementById("buy-in").value) };
  if (seat) body.seat = Number(seat);
  const answer = await post("sit", body);
  if (answer) {
    document.getElementById("sit-dialog").close();
    say("status", `You sit in seat ${answer.seat} with ${chips(answer.stack)}.`);
  } else say("sit-error", document.getElementById("status").textContent, true);
});

function openTopUp() {
  document.getElementById("top-up-amount").value = state.table.min_buy_in;
  document.getElementById("top-up-dialog").showModal();
}

document.getElementById("top-up-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (event.submitter?.value === "cancel") return document.getElementById("top-up-dialog").close();
  const answer = await post("top-up", { amount: Number(document.getElementById("top-up-amount").value) });
  if (answer) {
    document.getElementById("top-up-dialog").close();
    say(
      "status",
      answer.queued
        ? `${chips(answer.queued_chips)} will be added after this hand.`
        : `Your stack is ${chips(answer.stack)}.`,
    );
  } else say("top-up-error", document.getElementById("status").textContent, true);
});

async function leave() {
  const answer = await post("leave");
  if (answer)
    say(
      "status",
      answer.left ? `You left the table with ${chips(answer.cashed_out)}.` : "You will leave when this hand is over.",
    );
}

async function addBot() {
  const answer = await post("bots", { count: 1 });
  if (answer)
    say("status", answer.seats.length ? `A bot sits in seat ${answer.seats.join(", ")}.` : "The table is full.");
}

async function removeBots() {
  try {
    await api("DELETE", `/api/tables/${tableId}/bots`);
  } catch (error) {
    say("status", error.message, true);
  }
}

async function closeTable() {
  if (!window.confirm("Close this table? Every seat is cashed out (after the hand in play).")) return;
  try {
    const answer = await api("DELETE", `/api/tables/${tableId}`);
    if (!answer.closed) say("status", "The table closes when this hand is over.");
  } catch (error) {
    say("status", error.message, true);
  }
}

// -- tabs: this hand's log, and the table's past hands -------------------------------------------------

for (const tab of document.querySelectorAll('[role="tab"]')) {
  tab.addEventListener("click", () => {
    for (const other of document.querySelectorAll('[role="tab"]')) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      document.getElementById(other.getAttribute("aria-controls")).hidden = !selected;
    }
    if (tab.id === "tab-history") replayer.refresh();
  });
}

const replayer = mountReplayer(document.getElementById("panel-history"), tableId, { compact: true });

// -- start ------------------------------------------------------------------------------------------

(async () => {
  const me = await header();
  state.me = me;
  state.meLoggedIn = Boolean(me);
  render(true);
  connect();
  if (new URLSearchParams(location.search).has("join") && me) {
    // From the lobby's "Join" button: open the buy-in dialog once the table is known.
    const wait = setInterval(() => {
      if (!state.table) return;
      clearInterval(wait);
      if (!state.you?.seat) openSit(null);
    }, 100);
  }
})();
