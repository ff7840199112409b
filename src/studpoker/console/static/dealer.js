// The dealer's console page (`stud dealer`): every screen is drawn again from the `state` of each answer
// (docs/console.md, /api/state). No build step, no external resources: the page's CSP is `default-src 'self'`.

const RANKS = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
const SUITS = [
  { code: "s", symbol: "\u2660", name: "spades", red: false },
  { code: "h", symbol: "\u2665", name: "hearts", red: true },
  { code: "d", symbol: "\u2666", name: "diamonds", red: true },
  { code: "c", symbol: "\u2663", name: "clubs", red: false },
];
const RANK_NAMES = {
  A: "ace",
  K: "king",
  Q: "queen",
  J: "jack",
  T: "ten",
  9: "nine",
  8: "eight",
  7: "seven",
  6: "six",
  5: "five",
  4: "four",
  3: "three",
  2: "deuce",
};
// The keyboard shortcut of each kind of action (the journal's encoding): shown on its button.
const KEYS = { fold: "f", check: "c", call: "c", "bring-in": "b", complete: "r", bet: "r", raise: "r", show: "s", muck: "m" };
const SPEAK_KEY = "studpoker.dealer.speak";

const $ = (id) => document.getElementById(id);
let state = null;
let busy = false;
let revealTarget = null; // the reveal field the grid's taps fill

/** An element: h("button", {type: "button", class: "x", onclick: f}, "text", child...). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

function cardName(card) {
  const suit = SUITS.find((s) => s.code === card[1]);
  return `${RANK_NAMES[card[0]]} of ${suit.name}`;
}

/** A card as shown in a seat: rank and suit symbol, its name for screen readers. */
function cardFace(card, down) {
  if (card === "??") {
    return h("span", { class: "card unknown down" }, h("span", { "aria-hidden": "true" }, "?"), h("span", { class: "visually-hidden" }, "unknown"));
  }
  const suit = SUITS.find((s) => s.code === card[1]);
  return h(
    "span",
    { class: `card${suit.red ? " red" : ""}${down ? " down" : ""}` },
    h("span", { "aria-hidden": "true" }, `${card[0] === "T" ? "10" : card[0]}${suit.symbol}`),
    h("span", { class: "visually-hidden" }, cardName(card)),
  );
}

/** "ah", "10h", "A♥" ... as the engine's "Ah"; null if it is not a card. */
function parseCard(text) {
  let t = text.trim().replace(/\s+/g, "");
  if (!t) return null;
  for (const s of SUITS) t = t.replace(s.symbol, s.code);
  const m = /^(10|[2-9tjqka])([shdc])$/i.exec(t);
  if (!m) return null;
  const rank = m[1] === "10" ? "T" : m[1].toUpperCase();
  return rank + m[2].toLowerCase();
}

// ---- the API -------------------------------------------------------------------------------------------------

async function call(method, path, body) {
  const options = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch {
    throw new Error("the console does not answer: is `stud dealer` still running?");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const message = data && data.error && data.error.message ? data.error.message : `HTTP ${response.status}`;
    throw new Error(message);
  }
  return data;
}

/** POSTs an entry; on success draws the new state and speaks its lines; on a refusal shows why (nothing changes). */
async function post(path, body) {
  if (busy) return null;
  busy = true;
  document.body.classList.add("busy");
  try {
    const answer = await call("POST", path, body);
    alertMessage("");
    state = answer.state;
    render();
    speak(answer.said || []);
    return answer;
  } catch (error) {
    alertMessage(error.message);
    return null;
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

function alertMessage(text) {
  const box = $("alert");
  box.textContent = text;
  box.classList.toggle("shown", Boolean(text));
}

// ---- speech --------------------------------------------------------------------------------------------------

function speaking() {
  try {
    return localStorage.getItem(SPEAK_KEY) === "1";
  } catch {
    return false;
  }
}

function speak(lines) {
  if (!speaking() || !("speechSynthesis" in window)) return;
  for (const line of lines) window.speechSynthesis.speak(new SpeechSynthesisUtterance(line));
}

function drawSpeak() {
  const on = speaking();
  $("speak").setAttribute("aria-pressed", String(on));
  $("speak").textContent = on ? "Speak: on" : "Speak: off";
}

$("speak").addEventListener("click", () => {
  try {
    localStorage.setItem(SPEAK_KEY, speaking() ? "0" : "1");
  } catch {
    /* private mode: the toggle is not remembered */
  }
  if (!speaking() && "speechSynthesis" in window) window.speechSynthesis.cancel();
  drawSpeak();
});

// ---- drawing -------------------------------------------------------------------------------------------------

function dealtCards() {
  const dealt = new Set();
  for (const seat of state.seats) for (const c of [...seat.up, ...seat.down]) if (c && c !== "??") dealt.add(c);
  if (state.community) dealt.add(state.community);
  return dealt;
}

function render() {
  $("loading").hidden = true;
  const signed = state.sign !== null;
  $("sign-section").hidden = signed;
  $("play").hidden = !signed;
  $("tools").hidden = !signed;
  $("title").textContent = signed ? state.sign.title : "Stud dealer";
  $("sign-text").textContent = signed ? state.sign.text : "No session yet: set the sign.";
  document.title = signed ? `Stud dealer · ${state.sign.title}` : "Stud dealer";
  if (!signed) return;
  renderPrompt();
  renderInfo();
  renderSeats();
  renderSaid();
  renderPushes();
  const undo = $("undo");
  undo.disabled = !state.last;
  $("last").textContent = state.last ? `Last entry: ${state.last}` : "Nothing to undo.";
}

function renderPrompt() {
  const needed = state.needed;
  $("needed").textContent = needed.text;
  $("burn").hidden = !(needed.kind === "card" && state.burn_first);
  $("note").hidden = !needed.note;
  $("note").textContent = needed.note || "";
  $("start").hidden = needed.kind !== "start";

  const actions = $("actions");
  actions.replaceChildren();
  actions.hidden = needed.kind !== "action";
  if (needed.kind === "action") {
    const used = new Set();
    for (const action of state.actions) {
      let key = KEYS[action.action];
      if (!key || used.has(key)) key = null;
      if (key) used.add(key);
      actions.append(
        h(
          "button",
          {
            type: "button",
            class: `action ${action.action}`,
            "data-key": key,
            "aria-keyshortcuts": key ? key.toUpperCase() : null,
            onclick: (event) => {
              if (!doubleTap(event)) post("/api/action", { action: action.action, amount: action.amount });
            },
          },
          h("span", {}, action.label),
          key ? h("kbd", {}, key.toUpperCase()) : null,
        ),
      );
    }
  }

  const cardPrompt = needed.kind === "card" || needed.kind === "reveal";
  const entry = $("card-entry");
  // a field about to be hidden gives the focus back to the page, so the action keys work at once
  if (!cardPrompt && entry.contains(document.activeElement)) document.activeElement.blur();
  entry.hidden = !cardPrompt;
  $("card-form").hidden = needed.kind !== "card";
  $("unseen").hidden = !(needed.kind === "card" && needed.seat !== null && !needed.face_up);
  if (cardPrompt) {
    const dealt = dealtCards();
    for (const button of $("grid").querySelectorAll("button")) {
      const taken = dealt.has(button.dataset.card);
      button.disabled = taken;
      button.classList.toggle("taken", taken);
    }
  }
  renderReveal(needed);
}

function renderReveal(needed) {
  const box = $("reveal");
  box.replaceChildren();
  box.hidden = needed.kind !== "reveal";
  revealTarget = null;
  if (needed.kind !== "reveal") return;
  for (const number of needed.seats) {
    const seat = state.seats.find((s) => s.seat === number);
    const unknown = seat ? seat.down.filter((c) => c === "??").length : 0;
    const id = `reveal-${number}`;
    const input = h("input", {
      id,
      autocomplete: "off",
      autocapitalize: "off",
      spellcheck: "false",
      placeholder: unknown > 1 ? "Ah Kd" : "Ah",
      "data-seat": number,
      onfocus: (event) => (revealTarget = event.target),
    });
    const form = h(
      "form",
      {
        class: "reveal-form",
        onsubmit: (event) => {
          event.preventDefault();
          const parts = input.value.trim().split(/[\s,]+/).filter(Boolean);
          const cards = parts.map(parseCard);
          const bad = parts.find((p, i) => cards[i] === null);
          if (bad !== undefined || !cards.length) {
            alertMessage(bad !== undefined ? `${bad} is not a card: type a rank and a suit, as Ah or Td` : "enter the cards shown");
            return;
          }
          post("/api/reveal", { seat: number, cards });
        },
      },
      h("label", { for: id }, `Seat ${number}${seat ? ` (${seat.name})` : ""} shows ${unknown} card${unknown === 1 ? "" : "s"}`),
      input,
      h("button", { type: "submit" }, "Show"),
    );
    box.append(form);
    if (!revealTarget) revealTarget = input;
  }
}

function renderInfo() {
  $("hand-number").textContent = state.hand ? String(state.hand) : "–";
  $("street").textContent = state.playing ? state.street_name : "between hands";
  $("pot").textContent = String(state.pot);
  $("burns").textContent = String(state.burns);
  $("community-row").hidden = !state.community;
  $("community").replaceChildren(state.community ? cardFace(state.community, false) : "");
  const pots = $("pots");
  pots.replaceChildren(
    ...state.pots.map((pot) =>
      h("li", {}, h("strong", {}, `${pot.name} ${pot.amount}`), pot.seats && pot.seats.length ? ` (seats ${pot.seats.join(", ")})` : ""),
    ),
  );
}

function renderSeats() {
  const list = $("seats");
  const bySeat = new Map(state.seats.map((s) => [s.seat, s]));
  const items = [];
  for (let number = 1; number <= state.max_seats; number++) {
    const seat = bySeat.get(number);
    if (!seat) {
      items.push(
        h(
          "li",
          { class: "seat empty" },
          h(
            "button",
            { type: "button", id: `seat-${number}-button`, class: "seat-button", onclick: (e) => openSeat(number, null, e.currentTarget) },
            `Seat ${number}: empty`,
            h("span", { class: "hint" }, "Buy in"),
          ),
        ),
      );
      continue;
    }
    const marks = [];
    if (seat.to_act) marks.push(h("span", { class: "mark to-act" }, "to act"));
    if (seat.high_on_board) marks.push(h("span", { class: "mark high" }, "high on board"));
    if (seat.folded) marks.push(h("span", { class: "mark folded" }, "folded"));
    if (seat.all_in) marks.push(h("span", { class: "mark all-in" }, "all-in"));
    if (!seat.in_hand && state.playing) marks.push(h("span", { class: "mark out" }, "not in this hand"));
    const classes = ["seat"];
    if (seat.to_act) classes.push("to-act");
    if (seat.folded) classes.push("folded");
    if (seat.all_in) classes.push("all-in");
    if (state.needed.kind === "card" && state.needed.seat === number) classes.push("to-deal");
    const cards = [];
    if (seat.down.length) {
      cards.push(h("div", { class: "cards-row" }, h("span", { class: "cards-label" }, "down"), ...seat.down.map((c) => cardFace(c, true))));
    }
    if (seat.up.length) {
      cards.push(h("div", { class: "cards-row" }, h("span", { class: "cards-label" }, "up"), ...seat.up.map((c) => cardFace(c, false))));
    }
    items.push(
      h(
        "li",
        { class: classes.join(" "), "data-seat": number },
        h(
          "div",
          { class: "seat-head" },
          h("span", { class: "seat-number" }, `Seat ${number}`),
          h("strong", { class: "seat-name" }, seat.name),
          h("span", { class: "chips" }, `${seat.chips} chips`),
        ),
        marks.length ? h("div", { class: "marks" }, marks) : null,
        cards.length ? h("div", { class: "cards" }, cards) : null,
        seat.bet ? h("div", { class: "bet" }, `bet ${seat.bet}`) : null,
        state.playing
          ? null
          : h(
              "button",
              { type: "button", id: `seat-${number}-button`, class: "seat-button small", onclick: (e) => openSeat(number, seat, e.currentTarget) },
              `Top up or leave`,
              h("span", { class: "visually-hidden" }, ` (seat ${number}, ${seat.name})`),
            ),
      ),
    );
  }
  list.replaceChildren(...items);
}

function renderSaid() {
  $("said").replaceChildren(...[...state.said].reverse().map((line) => h("li", {}, line)));
}

function renderPushes() {
  const show = !state.playing && state.pushes && state.pushes.length > 0;
  $("pushes-section").hidden = !show;
  $("pushes").replaceChildren(...(show ? state.pushes.map((p) => h("li", {}, p.text)) : []));
}

/** The second tap of a double tap (the click's count is 2 or more): ignored, lest it land on the next prompt's
 * button drawn where the first tap was (the next player's call, the next card). */
function doubleTap(event) {
  return event.detail > 1;
}

// ---- the card grid and field ---------------------------------------------------------------------------------

function buildGrid() {
  const grid = $("grid");
  for (const suit of SUITS) {
    for (const rank of RANKS) {
      const card = rank + suit.code;
      grid.append(
        h(
          "button",
          {
            type: "button",
            class: `grid-card${suit.red ? " red" : ""}`,
            "data-card": card,
            onclick: (event) => {
              if (!doubleTap(event)) pickCard(card);
            },
          },
          h("span", { "aria-hidden": "true" }, `${rank === "T" ? "10" : rank}${suit.symbol}`),
          h("span", { class: "visually-hidden" }, cardName(card)),
        ),
      );
    }
  }
}

function pickCard(card) {
  if (!state) return;
  if (state.needed.kind === "card") {
    post("/api/card", { card });
  } else if (state.needed.kind === "reveal" && revealTarget) {
    revealTarget.value = `${revealTarget.value.trim()} ${card}`.trim();
  }
}

$("card-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("card-input");
  const card = parseCard(input.value);
  if (card === null) {
    alertMessage(`${input.value.trim() || "nothing"} is not a card: type a rank and a suit, as Ah or Td`);
    return;
  }
  // cleared at once, so the next card can be typed while this one is entered; put back if it is refused
  const typed = input.value;
  input.value = "";
  const answer = await post("/api/card", { card });
  if (!answer && !input.value) input.value = typed;
});

$("unseen").addEventListener("click", (event) => doubleTap(event) || post("/api/card", { card: null }));
$("start").addEventListener("click", (event) => doubleTap(event) || post("/api/start", {}));

// ---- the sign ------------------------------------------------------------------------------------------------

$("sign-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const number = (id) => Number($(id).value);
  const body = {
    game: $("game").value,
    small_bet: number("small_bet"),
    big_bet: number("big_bet"),
    ante: number("ante"),
    bring_in: number("bring_in"),
    odd_chip: $("odd_chip").value,
    seventh_card: $("seventh_card").value,
  };
  if ($("min_buy_in").value.trim()) body.min_buy_in = number("min_buy_in");
  post("/api/sign", body);
});

// ---- dialogs -------------------------------------------------------------------------------------------------

const FOCUSABLE = "button, input, select, textarea, a[href], [tabindex]:not([tabindex='-1'])";
let opener = null;

function openDialog(dialog, from) {
  opener = from || document.activeElement;
  dialog.showModal();
  const first =
    dialog.querySelector("[data-first-focus]") ||
    [...dialog.querySelectorAll(FOCUSABLE)].find((el) => !el.disabled && el.checkVisibility());
  if (first) first.focus();
}

for (const dialog of document.querySelectorAll("dialog")) {
  // Focus stays in the dialog: Tab from its last control goes to its first, Shift+Tab the other way.
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "Tab") return;
    const items = [...dialog.querySelectorAll(FOCUSABLE)].filter((el) => !el.disabled && el.checkVisibility());
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
  dialog.addEventListener("close", () => {
    // the opener may have been drawn again meanwhile (a seat's button): its namesake takes the focus
    const back = opener && (opener.isConnected ? opener : opener.id && document.getElementById(opener.id));
    if (back) back.focus();
    opener = null;
  });
  for (const button of dialog.querySelectorAll("button.close")) button.addEventListener("click", () => dialog.close());
}

// Seats: buy in at an empty seat; top up or leave between hands.
let dialogSeat = null;

function openSeat(number, seat, from) {
  dialogSeat = number;
  const dialog = $("seat-dialog");
  $("buy-in-form").hidden = seat !== null;
  $("seated").hidden = seat === null;
  if (seat === null) {
    $("seat-dialog-title").textContent = `Buy in at seat ${number}`;
    $("buy-in-name").value = "";
    $("buy-in-chips").value = state.sign ? String(state.sign.min_buy_in) : "";
  } else {
    $("seat-dialog-title").textContent = `Seat ${number}: ${seat.name}, ${seat.chips} chips`;
    $("top-up-chips").value = "";
  }
  openDialog(dialog, from);
}

$("buy-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await post("/api/buy-in", {
    seat: dialogSeat,
    name: $("buy-in-name").value.trim(),
    chips: Number($("buy-in-chips").value),
  });
  if (answer) $("seat-dialog").close();
});

$("top-up-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const answer = await post("/api/top-up", { seat: dialogSeat, chips: Number($("top-up-chips").value) });
  if (answer) $("seat-dialog").close();
});

$("leave").addEventListener("click", async () => {
  const answer = await post("/api/leave", { seat: dialogSeat });
  if (answer) $("seat-dialog").close();
});

// Undo: says what it takes back, and asks.
$("undo").addEventListener("click", (event) => {
  if (!state || !state.last) return;
  $("undo-what").textContent = `This takes back: ${state.last}.`;
  openDialog($("undo-dialog"), event.currentTarget);
});

$("undo-confirm").addEventListener("click", async () => {
  const answer = await post("/api/undo", {});
  if (answer) $("undo-dialog").close();
});

// The report: the session's books as text.
$("report").addEventListener("click", async (event) => {
  const from = event.currentTarget;
  try {
    const report = await call("GET", "/api/report");
    alertMessage("");
    $("report-text").textContent = report.text;
    openDialog($("report-dialog"), from);
  } catch (error) {
    alertMessage(error.message);
  }
});

// Irregularities: the cases, with a seat and a card where the case names them; the ruling after.
function drawCase() {
  const name = $("case").value;
  const chosen = state.cases.find((c) => c.case === name);
  $("case-rule").textContent = chosen ? `Rule: ${chosen.rule}` : "";
  const seat = Boolean(chosen && chosen.seat);
  const card = Boolean(chosen && chosen.card);
  $("case-seat").hidden = !seat;
  $("case-seat-label").hidden = !seat;
  $("case-card").hidden = !card;
  $("case-card-label").hidden = !card;
}

$("irregularity").addEventListener("click", (event) => {
  const select = $("case");
  const before = select.value;
  select.replaceChildren(...state.cases.map((c) => h("option", { value: c.case }, c.case)));
  if (state.cases.some((c) => c.case === before)) select.value = before;
  const seats = $("case-seat");
  seats.replaceChildren(
    ...state.seats.filter((s) => s.in_hand || !state.playing).map((s) => h("option", { value: s.seat }, `Seat ${s.seat} (${s.name})`)),
  );
  if (state.needed.seat) seats.value = String(state.needed.seat);
  $("case-card").value = "";
  $("ruling").hidden = true;
  drawCase();
  openDialog($("irregularity-dialog"), event.currentTarget);
});

$("case").addEventListener("change", drawCase);

$("irregularity-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const chosen = state.cases.find((c) => c.case === $("case").value);
  if (!chosen) return;
  const body = { case: chosen.case, seat: null, card: null };
  if (chosen.seat) body.seat = Number($("case-seat").value);
  if (chosen.card) {
    const card = parseCard($("case-card").value);
    if (card === null) {
      alertMessage(`${$("case-card").value.trim() || "nothing"} is not a card: type a rank and a suit, as Ah or Td`);
      return;
    }
    body.card = card;
  }
  const answer = await post("/api/irregularity", body);
  if (answer && answer.ruling) {
    $("ruling-what").textContent = answer.ruling.what;
    $("ruling-ruling").textContent = answer.ruling.ruling;
    $("ruling-rule").textContent = answer.ruling.rule;
    $("ruling-next").textContent = answer.ruling.next;
    $("ruling").hidden = false;
  }
});

// The refusal of an entry made in a dialog is shown in the dialog too (the page behind is inert).
const alertObserver = new MutationObserver(() => {
  for (const dialog of document.querySelectorAll("dialog[open]")) {
    let box = dialog.querySelector(".dialog-alert");
    if (!box) {
      box = h("p", { class: "dialog-alert alert", role: "alert" });
      dialog.insertBefore(box, dialog.children[1] || null);
    }
    box.textContent = $("alert").textContent;
    box.classList.toggle("shown", Boolean(box.textContent));
  }
});
alertObserver.observe($("alert"), { childList: true, characterData: true, subtree: true });
for (const dialog of document.querySelectorAll("dialog")) {
  dialog.addEventListener("close", () => {
    const box = dialog.querySelector(".dialog-alert");
    if (box) {
      box.textContent = "";
      box.classList.remove("shown");
    }
  });
}

// ---- the keyboard --------------------------------------------------------------------------------------------

document.addEventListener("keydown", (event) => {
  if (!state || !state.sign || event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
  if (document.querySelector("dialog[open]")) return;
  const target = event.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement;
  if (typing) return;
  const kind = state.needed.kind;
  if (kind === "action" && event.key.length === 1) {
    const button = $("actions").querySelector(`button[data-key="${event.key.toLowerCase()}"]`);
    if (button) {
      event.preventDefault();
      button.click();
    }
  } else if (kind === "start" && event.key === "Enter" && !(target instanceof HTMLButtonElement || target instanceof HTMLAnchorElement)) {
    event.preventDefault();
    $("start").click();
  } else if (kind === "card" && /^[2-9tjqka]$/i.test(event.key)) {
    // typing a card anywhere goes into the card field
    event.preventDefault();
    const input = $("card-input");
    input.focus();
    input.value = event.key;
  }
});

// ---- start ---------------------------------------------------------------------------------------------------

async function load() {
  try {
    state = await call("GET", "/api/state");
    render();
  } catch (error) {
    $("loading").textContent = "The table could not be loaded.";
    alertMessage(error.message);
  }
}

// Entries made elsewhere (a card reader, another tab) are picked up: with a reader, every 1.5 s; always when the
// page comes back into view. The page is drawn again only when the journal has changed.
async function refresh() {
  if (busy || !state || document.hidden) return;
  try {
    const fresh = await call("GET", "/api/state");
    if (busy || (fresh.journal === state.journal && fresh.last === state.last)) return;
    const lines = fresh.hand === state.hand ? fresh.said.slice(state.said.length) : fresh.said;
    state = fresh;
    render();
    speak(lines);
  } catch {
    /* the next entry will say what is wrong */
  }
}

setInterval(() => {
  if (state && state.reader) refresh();
}, 1500);
document.addEventListener("visibilitychange", refresh);

buildGrid();
drawSpeak();
load();
