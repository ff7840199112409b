// The live table page (/table/{id}): one WebSocket to the server, the model built from its messages
// (table-model.js), and a redraw after every message: the felt (table-felt.js), the viewer's decisions
// (table-actions.js), the log and chat (table-side.js). Several tables open in several tabs each have their own
// socket and their own model: nothing here is shared between tabs but the account's preferences.

import { api, chips, el, header, say } from "./common.js";
import { loadPrefs, onPrefs, play, prefs, setPrefs } from "./prefs.js";
import { renderActions } from "./table-actions.js";
import { gatherBets, placeSeats, renderCenter, renderMyCards, renderSeats, renderShowdown, renderSign } from "./table-felt.js";
import { loadHud, renderHudSettings } from "./table-hud.js";
import { apply, log, manager, nameOf, state, tableId } from "./table-model.js";
import { loadNotes, renderNotes } from "./table-notes.js";
import { chatRefused, renderChatBox, renderLog } from "./table-side.js";
import { renderTitle } from "./table-title.js";
import { renderTourney } from "./table-tourney.js";

state.nameOf = nameOf;
state.openSit = openSit;

// -- the status line: a message stays a few seconds, then the line clears (it never goes stale) -----------

let statusTimer = null;
function status(message, isError = false) {
  say("status", message, isError);
  clearTimeout(statusTimer);
  if (message) statusTimer = setTimeout(() => say("status", ""), isError ? 12000 : 7000);
}
state.say = status;

// -- the connection -----------------------------------------------------------------------------------

let socket = null;
let retryDelay = 500;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  // ?batch=1: the messages of a step come together, as one JSON array per frame (docs/server-protocol.md)
  socket = new WebSocket(`${scheme}://${location.host}/ws/table/${tableId}?batch=1`);
  socket.addEventListener("open", () => {
    retryDelay = 500;
    connection(true);
  });
  socket.addEventListener("message", (event) => {
    let batch;
    try {
      batch = JSON.parse(event.data);
    } catch {
      return;
    }
    for (const msg of Array.isArray(batch) ? batch : [batch]) {
      try {
        onMessage(msg);
      } catch (error) {
        reportError(error); // reported as an uncaught error would be, and the rest of the batch still read
      }
    }
  });
  socket.addEventListener("close", (event) => {
    state.turn = null;
    if (event.code === 4404) {
      connection(false, "There is no such table.");
      return;
    }
    if (event.code === 4410 || event.code === 4401) {
      // closed table, or signed out (in this tab or another): reconnecting would not bring the seat back
      connection(false, event.code === 4401 ? (state.ended ?? "You signed out.") : (state.ended ?? "This table is closed."), true);
      return;
    }
    connection(false);
    // Reconnect with a growing delay; the server answers the new connection with a fresh snapshot.
    setTimeout(connect, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 5000);
  });
}

/** Sends one message if the socket is open; says whether it did. */
function send(msg) {
  if (socket?.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(msg));
  return true;
}
state.send = send;

/** The connection state, impossible to miss: a banner while it is down, the clock stopped. */
function connection(up, why = null, final = false) {
  const wasUp = state.connected;
  state.connected = up;
  const node = document.getElementById("conn");
  node.textContent = up ? "Connected" : final ? "Disconnected" : "Reconnecting…";
  node.classList.toggle("down", !up);
  document.body.classList.toggle("offline", !up);
  if (up) {
    hideBanner("connection");
    if (state.everConnected && !wasUp) status("Connected again.");
    state.everConnected = true;
  } else {
    const text =
      why ??
      (state.everConnected
        ? "Connection lost: reconnecting… Your seat is kept; the table's clock keeps running while you are away."
        : "Cannot reach the table: retrying…");
    showBanner("connection", text, { final });
  }
  render(true);
}

// Keep-alive: a ping every 20 seconds.
setInterval(() => send({ type: "ping" }), 20000);

// -- banners: the connection, a voided hand ------------------------------------------------------------

const banners = new Map(); // kind -> text
function showBanner(kind, text, { dismiss = false } = {}) {
  banners.set(kind, { text, dismiss });
  drawBanners();
}
function hideBanner(kind) {
  banners.delete(kind);
  drawBanners();
}
function drawBanners() {
  const node = document.getElementById("banner");
  const items = [...banners].map(([kind, b]) =>
    el(
      "div",
      { class: `banner-item ${kind}`, dataset: { kind } },
      el("span", {}, b.text),
      b.dismiss ? el("button", { type: "button", class: "secondary", onclick: () => hideBanner(kind) }, "OK") : null,
    ),
  );
  node.replaceChildren(...items);
  node.hidden = items.length === 0;
}

/** Says once per hand (in this browser) that a hand was voided by a restart and where its chips went. */
function sayVoided() {
  for (const v of state.voided) {
    const key = `studpoker.voided.${tableId}.${v.hand}`;
    if (sessionStorage.getItem(key)) continue;
    sessionStorage.setItem(key, "1");
    const mine = (v.players ?? []).find((p) => p.seat === state.you?.seat || p.name === state.you?.username);
    const text =
      `Hand #${v.hand} was cut short when the server restarted, and it is void: every player got back the stack ` +
      `he had when it was dealt${mine ? ` (you: ${chips(mine.stack)})` : ""}. No chip was won or lost in it.`;
    showBanner(`voided-${v.hand}`, text, { dismiss: true });
    log(text, "dealer");
  }
}

// -- messages ----------------------------------------------------------------------------------------

function onMessage(msg) {
  const hadBets = state.hand?.gathered ?? 0;
  const handBefore = state.hand;
  const changed = apply(msg);
  if (msg.type === "snapshot") sayVoided();
  if (state.hand && state.hand === handBefore && state.hand.gathered !== hadBets) gatherBets();
  if (msg.type === "hand_started") status("");
  // the HUD: read again after each hand, and when somebody sits down or leaves (a new player's statistics)
  if (["snapshot", "hand_over", "seated", "left"].includes(msg.type)) loadHud();
  if (msg.type === "hand_over") {
    status("");
    const mine = state.seats.get(state.you?.seat);
    if (mine && mine.stack <= 0 && !mine.queued) status("You have no chips left: Top up to play the next hand.");
  }
  if (msg.type === "your_turn") state.closeSide?.(); // on a phone the drawer gives way to your decision
  if (msg.type === "error") {
    const chatty = performance.now() - (state.lastChat ?? -1e9) < 3000;
    if (msg.code === "chat_rate_limited")
      chatRefused(`Slow down: try again in ${Math.max(1, Math.ceil(Number(msg.retry_after) || 1))} s.`);
    else if (msg.code?.startsWith("chat") || (chatty && (msg.code === "bad_message" || msg.code === "not_logged_in")))
      chatRefused(msg.message);
    else status(msg.message, true);
  }
  if (state.wantSnapshot) {
    state.wantSnapshot = false;
    send({ type: "snapshot" });
  }
  if (state.notice) {
    status(state.notice);
    state.notice = null;
  }
  if (state.movedTo) {
    const table = Number(state.movedTo.table);
    state.movedTo = null;
    if (Number.isSafeInteger(table) && table > 0) location.assign(`/table/${table}`);
  }
  for (const sound of state.sounds.splice(0)) play(sound);
  render(changed.actions, changed.chat);
}

// -- rendering -----------------------------------------------------------------------------------------

/** Redraws the page from the model (the action bar only when it changed, so focus stays put). */
function render(actionsChanged, chat = false) {
  renderSign();
  renderTourney();
  renderSeats();
  renderCenter();
  renderShowdown();
  renderMyCards();
  renderLog({ chat });
  renderControls();
  renderChatBox();
  renderHudSettings();
  renderNotes();
  if (actionsChanged) renderActions();
  renderTitle();
  tick();
}

new ResizeObserver(() => placeSeats()).observe(document.getElementById("felt-wrap"));

/** The countdown of the actor's clock (action clock, then time bank); stopped while disconnected. */
let hurried = null;
function tick() {
  const hand = state.hand;
  const nodes = document.querySelectorAll("[data-clock]");
  if (!hand?.clock || hand.over || !hand.actor) {
    nodes.forEach((n) => (n.textContent = ""));
  } else if (!state.connected) {
    nodes.forEach((n) => (n.textContent = "clock stopped"));
  } else {
    const spent = (performance.now() - hand.clock.at) / 1000;
    const action = Math.max(0, hand.clock.action - spent);
    const bank = Math.max(0, hand.clock.bank - Math.max(0, spent - hand.clock.action));
    const text = action > 0 ? `${Math.ceil(action)} s` : `time bank ${Math.ceil(bank)} s`;
    nodes.forEach((n) => {
      n.textContent = text;
      n.classList.toggle("low", action <= 5);
    });
    const mine = state.turn && hand.actor === state.you?.seat;
    if (mine && action + bank <= 5 && hurried !== `${hand.number}-${hand.seq}`) {
      hurried = `${hand.number}-${hand.seq}`;
      play("hurry");
    }
  }
  // the showdown's time is up: take it away
  const held = state.result && [...state.result.hand.players.values()].some((p) => p.shown);
  const over = state.result?.until != null && performance.now() >= state.result.until;
  if (state.result && state.hand !== state.result.hand && (!held || over)) {
    state.result = null;
    renderShowdown();
  }
}
setInterval(tick, 250); // tick also takes the showdown away when its time is up

// -- seat controls: sit down, top up, sit out/in, leave, bots ----------------------------------------

function renderControls() {
  const box = document.getElementById("seat-controls");
  const me = state.you?.seat ? state.seats.get(state.you.seat) : null;
  const offer = state.you?.offer ?? null;
  const place = state.you?.waiting ?? null;
  const full = state.table ? state.seats.size >= state.table.max_seats || (state.table.waiting ?? 0) > 0 : false;
  const who = !state.me
    ? "visitor"
    : me
      ? `seated-${me.sitting_out}-${me.leaving}-${prefs.auto_muck}`
      : `watching-${full}-${place}-${offer?.seat}`;
  const tournament = state.table?.tournament_id ?? null;
  const wanted = `${who}-${manager()}-${state.table?.status}-${Boolean(state.ended)}-${tournament}`;
  if (box.dataset.mode === wanted) return;
  box.dataset.mode = wanted;
  const buttons = [];
  if (state.ended) {
    // nothing to do at this table any more
  } else if (tournament) {
    // a tournament's table: the tournament seats, moves and pays its players (no buy-in, top-up, sitting out,
    // leaving with chips or waiting list: the server refuses them), so only the tournament's page is offered
    buttons.push(el("a", { class: "button secondary", id: "tournament-button", href: `/tournament/${tournament}` }, "Tournament"));
    if (me) buttons.push(autoMuckButton());
  } else if (!state.me) {
    buttons.push(el("a", { class: "button", href: `/login?next=${encodeURIComponent(location.pathname)}` }, "Sign in to play"));
  } else if (!me && offer) {
    buttons.push(
      el("span", { class: "prompt" }, `A seat is held for you from the waiting list: seat ${offer.seat}.`),
      el("button", { type: "button", id: "sit-button", onclick: () => openSit(offer.seat) }, "Take your seat"),
    );
  } else if (!me && place) {
    buttons.push(
      el("span", { class: "prompt", id: "waiting-place" }, `You are number ${place} on the waiting list.`),
      el("button", { type: "button", class: "secondary", id: "leave-waiting", onclick: leaveWaiting }, "Leave the waiting list"),
    );
  } else if (!me) {
    if (state.seats.size < (state.table?.max_seats ?? 0))
      buttons.push(el("button", { type: "button", id: "sit-button", onclick: () => openSit(null) }, "Sit down"));
    if (full) buttons.push(el("button", { type: "button", id: "join-waiting", onclick: joinWaiting }, "Join the waiting list"));
  } else {
    buttons.push(el("button", { type: "button", id: "top-up-button", class: "secondary", onclick: openTopUp }, "Top up"));
    buttons.push(
      me.sitting_out
        ? el("button", { type: "button", class: "secondary", onclick: () => post("sit-in") }, "Sit in")
        : el("button", { type: "button", class: "secondary", onclick: () => post("sit-out") }, "Sit out next hand"),
    );
    buttons.push(autoMuckButton());
    buttons.push(
      el(
        "button",
        { type: "button", class: "danger", disabled: me.leaving, onclick: leave },
        me.leaving ? "Leaving after this hand" : "Leave table",
      ),
    );
  }
  buttons.push(el("a", { class: "button secondary", href: `/history/${tableId}` }, "Hand histories"));
  if (manager() && !state.ended && state.table?.status === "open" && !tournament) {
    // the manager's actions behind a disclosure, away from the everyday buttons
    buttons.push(
      el(
        "details",
        { class: "manage" },
        el("summary", {}, "Manage table"),
        el("button", { type: "button", class: "secondary", id: "add-bot", onclick: addBot }, "Add bot"),
        el("button", { type: "button", class: "secondary", onclick: removeBots }, "Remove bots"),
        el("button", { type: "button", class: "danger", id: "close-table", onclick: closeTable }, "Close table"),
      ),
    );
  }
  box.replaceChildren(...buttons);
}

function autoMuckButton() {
  return el(
    "button",
    {
      type: "button",
      class: "secondary",
      id: "auto-muck",
      "aria-pressed": String(Boolean(prefs.auto_muck)),
      title: "At the showdown, muck a hand that cannot win without being asked",
      onclick: () => setPrefs({ auto_muck: !prefs.auto_muck }).then(() => renderControls()),
    },
    "Auto-muck",
  );
}

async function post(what, body = {}) {
  try {
    const answer = await api("POST", `/api/tables/${tableId}/${what}`, body);
    status("");
    return answer;
  } catch (error) {
    status(error.message, true);
    return null;
  }
}

/** The balance the account has to buy in or top up with (asked fresh each time a dialog opens). */
async function showBalance(id) {
  const node = document.getElementById(id);
  node.textContent = "";
  try {
    const me = await api("GET", "/api/me");
    state.me = { ...state.me, ...me };
    node.textContent = `Your balance: ${chips(me.balance)} chips.`;
  } catch {
    node.textContent = "";
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
  say("sit-error", "");
  showBalance("sit-balance");
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
    status(`You sit in seat ${answer.seat} with ${chips(answer.stack)}.`);
  } else say("sit-error", document.getElementById("status").textContent, true);
});

function openTopUp() {
  const t = state.table;
  const me = state.seats.get(state.you?.seat);
  document.getElementById("top-up-amount").value = t.min_buy_in;
  document.getElementById("top-up-note").textContent =
    `Your stack: ${chips(me?.stack ?? 0)}${t.max_buy_in ? `; at most ${chips(t.max_buy_in)} on the table` : ""}. ` +
    "Chips asked for during a hand are added when it is over.";
  say("top-up-error", "");
  showBalance("top-up-balance");
  document.getElementById("top-up-dialog").showModal();
}

document.getElementById("top-up-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  if (event.submitter?.value === "cancel") return document.getElementById("top-up-dialog").close();
  const answer = await post("top-up", { amount: Number(document.getElementById("top-up-amount").value) });
  if (answer) {
    document.getElementById("top-up-dialog").close();
    status(answer.queued ? `${chips(answer.queued_chips)} will be added after this hand.` : `Your stack is ${chips(answer.stack)}.`);
  } else say("top-up-error", document.getElementById("status").textContent, true);
});

async function leave() {
  const answer = await post("leave");
  if (answer) status(answer.left ? `You left the table with ${chips(answer.cashed_out)}.` : "You will leave when this hand is over.");
}

async function joinWaiting() {
  try {
    const answer = await api("POST", `/api/tables/${tableId}/waiting-list`, {});
    status(`You are number ${answer.place} on the waiting list: a seat that opens is held for you in turn.`);
  } catch (error) {
    status(error.message, true);
  }
}

async function leaveWaiting() {
  try {
    await api("DELETE", `/api/tables/${tableId}/waiting-list`);
    status("You left the waiting list.");
  } catch (error) {
    status(error.message, true);
  }
}

async function addBot() {
  const answer = await post("bots", { count: 1 });
  if (answer) status(answer.seats.length ? `A bot sits in seat ${answer.seats.join(", ")}.` : "The table is full.");
}

async function removeBots() {
  try {
    await api("DELETE", `/api/tables/${tableId}/bots`);
  } catch (error) {
    status(error.message, true);
  }
}

async function closeTable() {
  if (!window.confirm("Close this table? Every seat is cashed out (after the hand in play).")) return;
  try {
    const answer = await api("DELETE", `/api/tables/${tableId}`);
    if (!answer.closed) status("The table closes when this hand is over.");
  } catch (error) {
    status(error.message, true);
  }
}

// -- preferences: sound, four-colour deck ------------------------------------------------------------

document.getElementById("menu-toggle").addEventListener("click", (event) => {
  const open = !document.body.classList.contains("menu-open");
  document.body.classList.toggle("menu-open", open);
  event.currentTarget.setAttribute("aria-expanded", String(open));
  // on a phone the menu hangs below the bar but comes after the dock in the page: the focus goes into it
  if (open) document.querySelector("#seat-controls :is(button, a, summary)")?.focus({ preventScroll: true });
});
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape" || !document.body.classList.contains("menu-open") || event.target.closest?.("dialog")) return;
  const toggle = document.getElementById("menu-toggle");
  document.body.classList.remove("menu-open");
  toggle.setAttribute("aria-expanded", "false");
  if (document.getElementById("seat-controls").contains(document.activeElement)) toggle.focus();
});
document.getElementById("sound-toggle").addEventListener("click", () => setPrefs({ sound: !prefs.sound }));
document.getElementById("deck-toggle").addEventListener("click", () => setPrefs({ four_color: !prefs.four_color }));
onPrefs((p) => {
  const sound = document.getElementById("sound-toggle");
  sound.setAttribute("aria-pressed", String(Boolean(p.sound)));
  sound.textContent = p.sound ? "Sound on" : "Sound off";
  document.getElementById("deck-toggle").setAttribute("aria-pressed", String(Boolean(p.four_color)));
  renderControls(); // the auto-muck toggle
  renderHudSettings();
});

// -- start ------------------------------------------------------------------------------------------

(async () => {
  const me = await header();
  state.me = me;
  await loadPrefs(me);
  state.redraw = () => render(false);
  render(true);
  connect();
  loadNotes(state.redraw);
  if (new URLSearchParams(location.search).has("wait") && me) {
    // From the lobby's "Wait" button of a full table: put the name down once the table is known.
    const wait = setInterval(() => {
      if (!state.table) return;
      clearInterval(wait);
      if (!state.you?.seat && !state.you?.waiting && !state.table.tournament_id) joinWaiting();
    }, 100);
  }
  if (new URLSearchParams(location.search).has("join") && me) {
    // From the lobby's "Join" button: open the buy-in dialog once the table is known.
    const wait = setInterval(() => {
      if (!state.table) return;
      clearInterval(wait);
      if (!state.you?.seat && !state.table.tournament_id) openSit(null);
    }, 100);
  }
})();

