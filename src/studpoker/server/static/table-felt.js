// Drawing the felt: the sign, the seats around the table, the chips in front of them, the pot in the middle,
// the showdown, and the viewer's own cards in the dock. Everything is redrawn from the model (table-model.js).
// Seats sit on fixed spots of a wide table (desktop, landscape phone) or a tall one (portrait phone), 8 spots
// for the seven-card games and 10 for five-card stud, the viewer's own seat always at the bottom.

import { cardElement, chips, el } from "./common.js";
import { streetName } from "./poker.js";
import { nameOf, potName, state } from "./table-model.js";
import { hudLine } from "./table-hud.js";
import { noteOf } from "./table-notes.js";

// Spots as fractions of the free area (0 = one edge minus half a seat, 1 = the other), clockwise from the
// bottom middle (the viewer's seat, or the middle of the table's bottom when he watches).
const SPOTS = {
  wide8: [
    [0.5, 1], [0.17, 0.92], [0, 0.5], [0.17, 0.06], [0.5, 0], [0.83, 0.06], [1, 0.5], [0.83, 0.92],
  ],
  wide10: [
    [0.5, 1], [0.24, 0.97], [0, 0.69], [0, 0.31], [0.24, 0.03], [0.5, 0], [0.76, 0.03], [1, 0.31], [1, 0.69], [0.76, 0.97],
  ],
  // a tall table: the side columns use the whole height (the top and bottom seats are in the middle column)
  tall8: [[0.5, 1], [0, 0.86], [0, 0.5], [0, 0.14], [0.5, 0], [1, 0.14], [1, 0.5], [1, 0.86]],
  tall10: [[0.5, 1], [0, 1], [0, 0.667], [0, 0.333], [0, 0], [0.5, 0], [1, 0], [1, 0.333], [1, 0.667], [1, 1]],
};

export function renderSign() {
  const t = state.table;
  if (!t) return;
  document.getElementById("table-name").textContent = t.name;
  const mix = t.mix;
  const after = mix ? mix.games[mix.next] : null;
  // a mixed table: "Triple Stud: Razz now, Seven-card stud hi/lo in 3 hands"
  const rotation = mix
    ? `${mix.name}: ${t.variant_name} now` +
      (mix.hands_left === null
        ? `, then ${after.variant_name} after an orbit`
        : mix.hands_left === 0
          ? `, ${after.variant_name} from the next hand`
          : `, ${after.variant_name} in ${mix.hands_left} hand${mix.hands_left === 1 ? "" : "s"}`)
    : null;
  const items = [
    ...(mix ? [["Mixed", rotation], ["Games", mix.games.map((g) => `${g.variant_name} ${g.stakes_text}`).join("; ")]] : []),
    ["Game", `${t.variant_name} (${t.preset})`],
    ["Limits", `${t.stakes.small_bet}/${t.stakes.big_bet}`],
    ["Ante", t.stakes.ante],
    ["Bring-in", t.stakes.bring_in],
  ];
  // a tournament's table has no buy-in: its level and clock are drawn beside the sign (table-tourney.js)
  if (!t.tournament_id) items.push(["Min buy-in", chips(t.min_buy_in)]);
  if (t.max_buy_in && !t.tournament_id) items.push(["Max buy-in", chips(t.max_buy_in)]);
  if (t.clock) items.push(["Clock", `${t.clock.action} s + ${t.clock.bank} s bank`]);
  if (t.training) items.push(["Training", "practice chips; every card shown after the hand, with the equities"]);
  const short = [t.stakes_text ?? `${t.stakes.small_bet}/${t.stakes.big_bet}`];
  if (!t.tournament_id) short.push(`min buy-in ${chips(t.min_buy_in)}`);
  if (t.clock) short.push(`clock ${t.clock.action} s`);
  if (t.training) short.push("training table");
  document.getElementById("sign-short").textContent = `${rotation ?? t.variant_name}: ${short.join(" · ")}`;
  document
    .getElementById("sign-list")
    .replaceChildren(...items.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, String(v)))));
}

/** The spot of each seat: seat number -> [x, y] in pixels of the felt area, and the seat boxes' size. */
function spots(n, width, height, seatW, seatH, tall, edge) {
  const table = SPOTS[`${tall ? "tall" : "wide"}${n > 8 ? 10 : 8}`];
  const mine = state.you?.seat ?? null;
  const out = new Map();
  for (let seat = 1; seat <= n; seat++) {
    // the viewer at the bottom; a watcher sees seat 1 at the top and the others clockwise from it
    const slot = (((mine ? seat - mine : seat - 1 + Math.floor(table.length / 2)) % n) + n) % n;
    const [fx, fy] = table[Math.round((slot * table.length) / n) % table.length];
    // `edge` px kept free above and below: the clock badge sits on a seat's top edge
    out.set(seat, [seatW / 2 + fx * Math.max(0, width - seatW), seatH / 2 + edge + fy * Math.max(0, height - seatH - 2 * edge)]);
  }
  return out;
}

/** The seats around the felt, the chips in front of them; placed after they are drawn (their size decides). */
export function renderSeats() {
  const t = state.table;
  if (!t) return;
  const wrap = document.getElementById("felt-wrap");
  const ring = document.getElementById("seats");
  const n = t.max_seats;
  wrap.classList.toggle("many", n > 8);
  const nodes = [];
  for (let seat = 1; seat <= n; seat++) nodes.push(seatNode(seat));
  ring.replaceChildren(...nodes);
  placeSeats();
}

/** Puts the seat boxes and bet chips on their spots (also on every resize of the felt). */
export function placeSeats() {
  const t = state.table;
  const wrap = document.getElementById("felt-wrap");
  if (!t || !wrap) return;
  const width = wrap.clientWidth;
  const height = wrap.clientHeight;
  // a portrait phone: the tall table (smaller seats, set by the CSS); a wide table needs three seats across its top
  const tall = width < height * 1.1 || width < 480;
  wrap.classList.toggle("tall", tall);
  const boxes = [...document.querySelectorAll("#seats > .seat")];
  const seatW = Math.max(0, ...boxes.map((b) => b.offsetWidth));
  const seatH = Math.max(0, ...boxes.map((b) => b.offsetHeight));
  // the clock badge (0.9em, line-height 1.3, in the seat's font) stands 70% above the seat's top edge
  const font = parseFloat(getComputedStyle(boxes[0] ?? wrap).fontSize) || 12;
  const out = spots(t.max_seats, width, height, seatW, seatH, tall, Math.max(9, Math.ceil(0.9 * 1.3 * 0.7 * font) + 1));
  for (const box of boxes) {
    const [x, y] = out.get(Number(box.dataset.seat));
    box.style.left = `${x - box.offsetWidth / 2}px`;
    box.style.top = `${y - box.offsetHeight / 2}px`;
  }
  // chips in front of each seat: drawn here, put in place by placeBets (which knows what they must not cover)
  const bets = [];
  const hand = state.hand;
  if (hand && !hand.over) {
    for (const p of hand.players.values()) {
      if (!p.bet) continue;
      bets.push(
        el(
          "div",
          { class: "bet-chips", dataset: { seat: p.seat } },
          el("span", { class: "chip" }),
          el("span", { class: "amount" }, chips(p.bet)),
        ),
      );
    }
  }
  document.getElementById("bets").replaceChildren(...bets);
  placeBets();
  placeShowdown();
}

const CHIP_GAP = 6; // px between the chips and their seat's box
const CLEAR = { seat: 5, line: 4, chips: 3 }; // px kept clear around seat boxes (their rings), centre lines, chips

/**
 * Puts the chips in front of each seat where they cover nothing: no seat box (their own included), no line of the
 * centre (street, pot, side pots, betting, who acts), no other chips, all on the felt, and nearer their own seat
 * than any other. Each goes as near as it can to its ideal spot, on the line from the seat to the middle of the
 * table just past the seat's edge: the spots tried are further along that line and along the seat's sides; the
 * chips with the fewest free spots go first. Chips that find no spot try again smaller (the amount alone); if
 * even that finds none, the bet is shown in the seat's box, by the name (.seat-bet). A tall (portrait) felt has
 * no room in front of its side seats at all (their boxes leave a middle column that the centre's lines fill): every
 * bet is shown in its seat's box there. The chips in front stay, hidden, on a bet shown in a box, so that they are
 * swept to the pot from there. Run again whenever the centre's lines change (see the observer below).
 */
function placeBets() {
  const wrap = document.getElementById("felt-wrap");
  const nodes = [...document.querySelectorAll("#bets > .bet-chips")];
  for (const seat of document.querySelectorAll("#seats > .seat.bet-inside")) seat.classList.remove("bet-inside");
  if (!wrap || !nodes.length) return;
  const width = wrap.clientWidth;
  const height = wrap.clientHeight;
  const origin = wrap.getBoundingClientRect();
  const rel = (r, m = 0) => ({ l: r.left - origin.left - m, t: r.top - origin.top - m, r: r.right - origin.left + m, b: r.bottom - origin.top + m });
  const hits = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
  const gap = (a, b) => Math.hypot(Math.max(0, a.l - b.r, b.l - a.r), Math.max(0, a.t - b.b, b.t - a.b));
  const inside = (node) => {
    node.classList.remove("small");
    node.classList.add("inside");
    const seat = document.querySelector(`#seats > .seat[data-seat="${node.dataset.seat}"]`);
    seat?.classList.add("bet-inside");
    const r = seat?.querySelector(".seat-bet")?.getBoundingClientRect();
    if (!r) return;
    node.style.left = `${(r.left + r.right) / 2 - origin.left}px`;
    node.style.top = `${(r.top + r.bottom) / 2 - origin.top}px`;
  };
  for (const node of nodes) node.classList.remove("small", "inside");
  if (wrap.classList.contains("tall")) {
    nodes.forEach(inside);
    return;
  }
  const seats = new Map();
  const blocks = [];
  for (const box of document.querySelectorAll("#seats > .seat")) {
    seats.set(box.dataset.seat, rel(box.getBoundingClientRect()));
    blocks.push(rel(box.getBoundingClientRect(), CLEAR.seat));
    const clock = box.querySelector(".clock");
    if (clock?.getClientRects().length) blocks.push(rel(clock.getBoundingClientRect(), CLEAR.line));
  }
  const center = document.getElementById("center");
  if (!center.hidden) for (const line of center.children) blocks.push(rel(line.getBoundingClientRect(), CLEAR.line));
  const cx = width / 2;
  const cy = height / 2;
  // the free spots of one node as it is now drawn, the nearest to its ideal spot first
  const spotsOf = (node) => {
    const w = node.offsetWidth;
    const h = node.offsetHeight;
    const own = seats.get(node.dataset.seat);
    if (!own) return [];
    const sx = (own.l + own.r) / 2;
    const sy = (own.t + own.b) / 2;
    const dx = cx - sx;
    const dy = cy - sy;
    const length = Math.hypot(dx, dy) || 1;
    // the ideal spot: on the line to the middle, the chips just clear of the seat's box
    const tx = Math.abs(dx) > 0.5 ? ((own.r - own.l) / 2 + w / 2 + CHIP_GAP) / Math.abs(dx) : Infinity;
    const ty = Math.abs(dy) > 0.5 ? ((own.b - own.t) / 2 + h / 2 + CHIP_GAP) / Math.abs(dy) : Infinity;
    const t0 = Math.min(tx, ty, 1);
    const [ix, iy] = [sx + dx * t0, sy + dy * t0];
    const tries = [];
    for (let t = t0; t <= 1; t += 6 / length) tries.push([sx + dx * t, sy + dy * t]);
    for (const off of [CHIP_GAP, CHIP_GAP + 10]) {
      for (let y = own.t; y <= own.b; y += 3) tries.push([own.r + off + w / 2, y], [own.l - off - w / 2, y]);
      for (let x = own.l; x <= own.r; x += 3) tries.push([x, own.b + off + h / 2], [x, own.t - off - h / 2]);
    }
    const spots = [];
    for (const [x, y] of tries) {
      const r = { l: x - w / 2, t: y - h / 2, r: x + w / 2, b: y + h / 2 };
      if (r.l < 2 || r.t < 2 || r.r > width - 2 || r.b > height - 2) continue;
      if (blocks.some((b) => hits(r, b))) continue;
      const mine = gap(r, own);
      let nearest = true;
      for (const [seat, other] of seats) if (seat !== node.dataset.seat && gap(r, other) <= mine + 2) nearest = false;
      if (nearest) spots.push({ x, y, r, cost: Math.hypot(x - ix, y - iy) });
    }
    return spots.sort((a, b) => a.cost - b.cost);
  };
  const placed = [];
  const free = (spots) =>
    spots.find(({ r }) => !placed.some((p) => hits({ l: r.l - CLEAR.chips, t: r.t - CLEAR.chips, r: r.r + CLEAR.chips, b: r.b + CLEAR.chips }, p)));
  const plans = nodes.map((node) => ({ node, spots: spotsOf(node) })).sort((a, b) => a.spots.length - b.spots.length);
  for (const { node, spots } of plans) {
    let spot = free(spots);
    if (!spot) {
      node.classList.add("small");
      spot = free(spotsOf(node));
    }
    if (!spot) {
      inside(node);
      continue;
    }
    placed.push(spot.r);
    node.style.left = `${spot.x}px`;
    node.style.top = `${spot.y}px`;
  }
}

// The chips keep clear of the centre's lines, which change after the seats are drawn (the centre is drawn next) and
// every second (the clock): they are placed again when a line moved or changed size.
let centreLines = "";
new MutationObserver(() => {
  const center = document.getElementById("center");
  const lines = center.hidden ? "" : [...center.children].map((e) => JSON.stringify(e.getBoundingClientRect())).join();
  if (lines === centreLines) return;
  centreLines = lines;
  placeBets();
}).observe(document.getElementById("center"), {
  childList: true,
  subtree: true,
  characterData: true,
  attributes: true,
});

/** Sweeps the chips in front of the seats into the pot (at the end of a betting round). */
export function gatherBets() {
  const wrap = document.getElementById("felt-wrap");
  const cx = wrap.clientWidth / 2;
  const cy = wrap.clientHeight / 2;
  for (const node of document.querySelectorAll("#bets .bet-chips")) {
    const dx = cx - parseFloat(node.style.left);
    const dy = cy - parseFloat(node.style.top);
    const copy = node.cloneNode(true);
    copy.classList.add("gathering");
    copy.querySelector(".amount")?.remove(); // only the chip flies to the pot (fading text would be unreadable)
    wrap.append(copy);
    const run = copy.animate(
      [{ transform: "translate(-50%, -50%)" }, { transform: `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))`, opacity: 0.2 }],
      { duration: 350, easing: "ease-in" },
    );
    run.onfinish = () => copy.remove();
    setTimeout(() => copy.remove(), 1000); // also when the animation never runs (a hidden tab)
  }
}

function seatNode(seat) {
  const info = state.seats.get(seat);
  const hand = state.hand;
  const p = hand?.players.get(seat);
  if (!info && !p) {
    const canSit = Boolean(state.me) && !state.you?.seat && !state.ended;
    return el(
      "div",
      { class: state.you?.seat ? "seat empty small" : "seat empty", dataset: { seat } },
      canSit
        ? el(
            "button",
            { type: "button", class: "secondary sit-here", "aria-label": `Sit down in seat ${seat}`, onclick: () => state.openSit?.(seat) },
            `Sit here (${seat})`,
          )
        : el("span", { class: "empty-label" }, `Seat ${seat}`),
    );
  }
  const name = p?.name ?? info.name;
  const isMe = seat === state.you?.seat;
  const acting = hand && !hand.over && hand.actor === seat;
  const out = p?.folded || p?.mucked;
  const classes = ["seat"];
  if (isMe) classes.push("me");
  if (acting) classes.push("acting");
  if (out) classes.push("folded");
  if (p && hand?.over && p.won) classes.push("winner");
  const tags = [];
  if (isMe) tags.push(["you", "You"]);
  if (info?.bot) tags.push(["bot", "Bot"]);
  if (hand && hand.bringIn === seat && hand.street <= firstStreet() && !hand.over) tags.push(["bring-in", "Bring-in"]);
  if (p?.folded) tags.push(["folded", "Folded"]);
  else if (p?.mucked) tags.push(["folded", "Mucked"]);
  if (p?.allIn && !out && !hand.over) tags.push(["all-in", "All-in"]);
  if (info?.sitting_out) tags.push(["out", "Sitting out"]);
  if (info?.leaving) tags.push(["out", "Leaving"]);
  if (info && !info.bot && !info.connected) tags.push(["out", "Disconnected"]); // bots play inside the server
  if (p?.won && hand?.over) tags.push(["winner", `Won ${chips(p.won)}`]);
  const note = isMe ? "" : noteOf(name);
  const hud = isMe ? "" : hudLine(seat, name);
  if (note) tags.push(["note", "Note"]); // your private note on him: the Players tab shows it
  const stack = p && hand && !hand.over ? p.stack : (info?.stack ?? p?.stack ?? 0);
  const label =
    `Seat ${seat}: ${name}${isMe ? " (you)" : ""}, stack ${stack}${note ? `; your note: ${note}` : ""}` +
    (hud ? `; HUD: ${hud}` : "");
  const dataset = { seat };
  if (p?.shown) dataset.shown = "1";
  return el(
    "section",
    { class: classes.join(" "), "aria-label": label, dataset },
    el(
      "div",
      { class: "top" },
      el("span", { class: "name" }, name),
      // this street's bet, shown here where the felt has no room in front of the seat (see placeBets)
      p?.bet && hand && !hand.over
        ? el("span", { class: "seat-bet", "aria-hidden": "true" }, el("span", { class: "chip" }), chips(p.bet))
        : null,
      el("span", { class: "stack", "aria-label": `Stack ${stack}` }, chips(stack)),
    ),
    p && !out ? cardsNode(p, hand) : null,
    // the countdown is a badge on the seat's edge: its text changes every second without moving anything
    acting ? el("span", { class: "clock", "aria-live": "off", "data-clock": "1" }) : null,
    p?.shown && p.handName ? el("div", { class: "shown" }, shownWords(p)) : null,
    // one line of small facts: the tags, what the seat has put in the pot this hand, the clock
    el(
      "div",
      { class: "meta" },
      tags.map(([cls, text]) => el("span", { class: `tag ${cls}` }, text)),
      p && hand && !hand.over && p.total ? el("span", { class: "in-pot" }, `In pot ${chips(p.total)}`) : null,
      info?.queued ? el("span", { class: "in-pot" }, `+${chips(info.queued)} next hand`) : null,
    ),
    // the HUD (opt-in): his statistics from the room's hands, under the seat
    hud ? el("p", { class: "hud" }, hud) : null,
  );
}

function firstStreet() {
  return state.table?.variant === "STUD5" ? 2 : 3; // the street where the door cards decide the bring-in
}

/** A player's cards in dealing order (the down cards are backs unless the viewer may see them); the door card
 * (first up card) is marked until 4th street, the five cards that won are marked at the showdown. */
export function cardsNode(p, hand, { big = false } = {}) {
  const first = firstStreet();
  // at the showdown, the five cards that won are marked: the high (or razz) hand of a winner of the pot or its
  // high half, the low of a winner of the low half
  const shares = new Set(p.awards.map((a) => a.share));
  const best = new Set(p.shown && (shares.has("pot") || shares.has("high")) ? p.best : []);
  const low = new Set(p.shown && shares.has("low") ? p.low : []);
  const mark = (node, code) => {
    if (code && best.has(code)) node.classList.add("best");
    if (code && low.has(code)) node.classList.add("low-card");
    return node;
  };
  const downs = p.down.map((c) => mark(cardElement(c, { down: true }), c));
  const ups = p.up.map((c, i) => mark(cardElement(c, { door: i === 0 && !hand.over && hand.street <= first }), c));
  const firstDowns = Math.min(downs.length, first - 1);
  return el(
    "div",
    { class: big ? "cards big" : "cards", role: "group", "aria-label": `${p.name}'s cards` },
    ...downs.slice(0, firstDowns),
    ...ups,
    ...downs.slice(firstDowns),
  );
}

/** Pots in play: a side pot starts behind each all-in player's total, as the server builds them. */
export function pots(players) {
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

/**
 * The betting on this street in words: "Bring-in 3", "Bet 20 · 2 raises (cap 3 raises)", "Bet 40 · capped", and
 * heads-up, where the cap no longer applies (R6.6), "Bet 100 · 4 raises (cap off heads-up)".
 */
export function bettingText(hand) {
  const bet = Math.max(0, ...[...hand.players.values()].map((p) => p.bet));
  if (!bet) return "No bet yet";
  const bringIn = state.table?.stakes?.bring_in;
  if (hand.street === firstStreet() && bet === bringIn && bringIn < (state.table?.stakes?.small_bet ?? 0)) {
    return `Bring-in ${chips(bet)}`;
  }
  const raises = hand.raises ?? 0;
  if (hand.capped) return `Bet ${chips(bet)} · capped`;
  const count = raises ? ` · ${raises} raise${raises > 1 ? "s" : ""}` : "";
  const cap =
    hand.raiseCap == null
      ? ""
      : hand.uncapped
        ? " (cap off heads-up)"
        : ` (cap ${hand.raiseCap} raise${hand.raiseCap === 1 ? "" : "s"})`;
  return `Bet ${chips(bet)}${count}${cap}`;
}

export function renderCenter() {
  const hand = state.hand;
  const center = document.getElementById("center");
  if (!hand) {
    const waiting = state.seats.size < 2 ? "Waiting for players" : "Waiting for the next hand";
    center.replaceChildren(el("div", { class: "pot", id: "pot" }, waiting));
    return;
  }
  const live = pots([...hand.players.values()]).filter((p) => p.contenders > 1);
  const parts = [
    el("div", { class: "street" }, hand.over ? `Hand #${hand.number} is over` : `Hand #${hand.number} · ${streetName(hand.street)}`),
    el("div", { class: "pot", id: "pot" }, `Pot ${chips(hand.pot)}`),
  ];
  if (live.length > 1 && !hand.over) {
    parts.push(
      el(
        "div",
        { class: "side-pots", id: "side-pots" },
        live.map((p, i) => (i === 0 ? `Main pot ${chips(p.amount)}` : `Side pot ${i} ${chips(p.amount)}`)).join(" · "),
      ),
    );
  }
  if (!hand.over) parts.push(el("div", { class: "betting", id: "betting" }, bettingText(hand)));
  if (hand.community) parts.push(el("div", { class: "community" }, "Community card ", cardElement(hand.community)));
  if (!hand.over && hand.actor) {
    parts.push(el("div", { class: "turn", id: "turn" }, `${nameOf(hand.actor)} to act `, el("span", { "data-clock": "1" })));
  }
  center.replaceChildren(...parts);
}

const SHARES = { high: "high", low: "low", split: "high and low", pot: "" };

/** What a player won in words: "wins 120", "scoops 96 (high and low)", "wins 51 (main pot, high) and 20 (side
 * pot 1)". */
function awardWords(awards) {
  const many = new Set(awards.map((a) => a.pot)).size > 1;
  const one = (a) => {
    const what = [many ? potName(a.pot) : "", SHARES[a.share] ?? a.share].filter(Boolean).join(", ");
    return `${chips(a.amount)}${what ? ` (${what})` : ""}`;
  };
  if (awards.length === 1 && awards[0].share === "split" && !many) return `scoops ${chips(awards[0].amount)} (high and low)`;
  const scoop = !many && awards.length === 2 && new Set(awards.map((a) => a.share)).size === 2 && awards.every((a) => a.share === "high" || a.share === "low");
  if (scoop) return `scoops ${chips(awards[0].amount + awards[1].amount)} (high and low)`;
  const parts = awards.map(one);
  return `wins ${parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0]}`;
}

/** A shown hand in words: in stud hi/lo the high and the low ("Flush, king high; 8-6-4-2-A low", "...; no low"). */
function shownWords(p) {
  const hiLo = state.table?.variant === "STUD7_HL8" && p.highName;
  const words = hiLo ? `${p.highName}; ${p.lowName || "no low"}` : p.handName;
  return String(words ?? "").replace(/\bT\b/g, "10"); // "T-8-7-5-4 low" as players say it: 10-8-7-5-4
}

/** The showdown: hands in words, who won what (the hi and lo halves named); it stays for the table's
 * showdown time even if the next hand is already being dealt. */
export function renderShowdown() {
  const box = document.getElementById("showdown");
  const result = state.result;
  const shown = result && [...result.hand.players.values()].some((p) => p.shown);
  const showing =
    result && (state.hand === result.hand || (shown && (result.until === null || performance.now() < result.until)));
  if (!showing) {
    if (!box.hidden) box.replaceChildren();
    box.hidden = true;
    document.getElementById("center").hidden = false;
    return;
  }
  const hand = result.hand;
  const rows = [...hand.players.values()]
    .filter((p) => p.shown || p.won)
    .map((p) => {
      const parts = [el("strong", {}, p.name)];
      if (p.shown) parts.push(el("span", { class: "hand-words" }, `: ${shownWords(p)}`));
      if (p.awards.length) parts.push(el("span", { class: "award" }, ` \u2014 ${awardWords(p.awards)}`));
      return el("li", { class: p.won ? "won" : "" }, ...parts);
    });
  box.replaceChildren(el("h2", {}, `Hand #${hand.number}: result`), el("ul", {}, rows));
  if (result.until === null) result.until = performance.now() + result.seconds * 1000; // on screen from now
  box.hidden = false;
  // the pot line would sit under the box: the box says it all while it shows
  document.getElementById("center").hidden = state.hand === hand;
  placeShowdown();
}

/**
 * Puts the showdown box where it covers no seat that has cards on the felt (the hands shown, or the next hand's
 * when it is dealt while the box stays), and if it can the centre's lines: the widest box that fits, as near the
 * middle as it fits. Where no box with every hand in words fits (a phone, many hands shown), the box says only who
 * won what ("compact": the hands are in words under each seat's cards, and stay in the box for screen readers).
 * Where even that does not fit (a felt far too small), it goes in the middle, over the seats, as before.
 */
function placeShowdown() {
  const box = document.getElementById("showdown");
  const wrap = document.getElementById("felt-wrap");
  if (!box || !wrap || box.hidden) return;
  const width = wrap.clientWidth;
  const height = wrap.clientHeight;
  const origin = wrap.getBoundingClientRect();
  const rel = (r, m) => ({ l: r.left - origin.left - m, t: r.top - origin.top - m, r: r.right - origin.left + m, b: r.bottom - origin.top + m });
  const hits = (a, b) => a.l < b.r && b.l < a.r && a.t < b.b && b.t < a.b;
  const seats = [...document.querySelectorAll("#seats > .seat")]
    .filter((seat) => seat.querySelector(".cards .card") || seat.classList.contains("winner"))
    .map((seat) => rel(seat.getBoundingClientRect(), 5));
  const center = document.getElementById("center");
  const lines = center.hidden ? [] : [...center.children].map((line) => rel(line.getBoundingClientRect(), 4));
  const margin = 4;
  const widest = Math.min(28 * 16, width - 2 * margin);
  const narrowest = Math.min(6.5 * 16, widest);
  box.classList.add("placed");
  const spotFor = (w, h, avoid) => {
    const xs = new Set([(width - w) / 2, margin, width - w - margin]);
    const ys = new Set([(height - h) / 2, margin, height - h - margin]);
    for (const a of avoid) {
      xs.add(a.r).add(a.l - w);
      ys.add(a.b).add(a.t - h);
    }
    let best = null;
    for (const x of xs) {
      if (x < margin - 0.5 || x + w > width - margin + 0.5) continue;
      for (const y of ys) {
        if (y < margin - 0.5 || y + h > height - margin + 0.5) continue;
        const r = { l: x, t: y, r: x + w, b: y + h };
        if (avoid.some((a) => hits(r, a))) continue;
        const cost = Math.hypot(x + w / 2 - width / 2, y + h / 2 - height / 2);
        if (!best || cost < best.cost) best = { x, y, cost };
      }
    }
    return best;
  };
  for (const avoid of lines.length ? [[...seats, ...lines], seats] : [seats]) {
    for (const compact of [false, true]) {
      box.classList.toggle("compact", compact);
      for (let w = widest; w >= narrowest - 0.5; w -= Math.max(16, (widest - narrowest) / 4)) {
        box.style.width = `${w}px`;
        const spot = spotFor(w, box.offsetHeight, avoid);
        if (spot) {
          box.style.left = `${spot.x}px`;
          box.style.top = `${spot.y}px`;
          return;
        }
      }
    }
  }
  box.style.width = `${widest}px`;
  box.style.left = `${(width - widest) / 2}px`;
  box.style.top = `${Math.max(margin, (height - box.offsetHeight) / 2)}px`;
}

/** The viewer's own cards, large, in the dock (always on screen while he plays). */
export function renderMyCards() {
  const box = document.getElementById("my-cards");
  const hand = state.hand;
  const p = hand && state.you?.seat ? hand.players.get(state.you.seat) : null;
  if (!p || (!p.down.length && !p.up.length)) {
    box.replaceChildren();
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const text = p.folded ? "Folded" : p.shown && p.handName ? shownWords(p) : "";
  box.replaceChildren(cardsNode(p, hand, { big: true }), ...(text ? [el("span", { class: "my-hand" }, text)] : []));
}

// The bar's height as --bar-h on the page: the seat and table menu of a phone drops from just below it.
const bar = document.querySelector("body > .bar");
if (bar) new ResizeObserver(() => document.body.style.setProperty("--bar-h", `${bar.offsetHeight}px`)).observe(bar);
