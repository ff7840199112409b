// A tournament's page (/tournament/{id}): its status, the level and a countdown to the next one, the structure
// (the level in play marked), the stacks, the payouts by place, the tables and the players; Register and
// Unregister while it is registering. Read again from the API every few seconds; the countdown ticks every second.

import { api, cell, chips, el, header, say } from "./common.js";
import { Countdown, levelText, ordinal, startText, tournamentDetail, when } from "./tourney.js";

const id = Number(location.pathname.split("/").filter(Boolean).pop());
let me = null;
let t = null; // the last detail the server gave
let busy = false;
const countdown = new Countdown();

const STATUS = {
  registering: "Registering",
  running: "Running",
  finished: "Finished",
  cancelled: "Cancelled: every buy-in was refunded",
};

async function load() {
  if (busy) return;
  try {
    t = await tournamentDetail(id);
  } catch (error) {
    say("status", error.status === 404 ? "There is no such tournament." : error.message, true);
    return;
  }
  countdown.set(t.clock);
  draw();
}

const fact = (term, value) => el("div", {}, el("dt", {}, term), el("dd", {}, value));

function draw() {
  document.title = `${t.name} · studpoker`;
  document.getElementById("name").textContent = t.name;
  const facts = [
    fact("Status", STATUS[t.status] ?? t.status),
    fact("Game", `${t.variant_name}${t.kind === "sit_and_go" ? " sit-and-go" : ""}`),
    fact("Buy-in", chips(t.buy_in)),
    fact("Entries", `${t.entries}/${t.max_entries}`),
    fact("Prize pool", chips(t.prize_pool)),
    fact("Starting chips", chips(t.starting_chips)),
  ];
  if (t.status === "registering") facts.push(fact("Starts", startText(t)));
  if (t.started_at) facts.push(fact("Started", when(t.started_at)));
  if (t.status === "running") {
    facts.push(fact("Players left", `${t.players_left} of ${t.entries}`));
    if (t.average_stack != null) facts.push(fact("Average stack", chips(t.average_stack)));
    if (t.biggest_stack != null) facts.push(fact("Biggest stack", chips(t.biggest_stack)));
    if (t.hand_for_hand) facts.push(fact("Hand for hand", "every table deals one hand at a time"));
  }
  if (t.finished_at) facts.push(fact(t.status === "cancelled" ? "Cancelled" : "Finished", when(t.finished_at)));
  document.getElementById("facts").replaceChildren(...facts);
  drawClock();
  drawEntry();
  drawPlayers();
  drawTables();
  drawPayouts();
  drawLevels();
}

function drawClock() {
  const box = document.getElementById("clock");
  box.hidden = !t.clock;
  if (!t.clock) return;
  const now = levelText(t.clock);
  const line = document.getElementById("level-now");
  if (line.textContent !== now) line.textContent = now;
  document.getElementById("level-next").textContent = t.clock.next_stakes_text
    ? `Next: level ${t.clock.next_level}, ${t.clock.next_stakes_text}`
    : "The last level: played to the end.";
  tick();
}

function tick() {
  const node = document.getElementById("countdown");
  const text = t?.clock ? countdown.text() : "";
  if (node.textContent !== text) node.textContent = text;
}

function drawEntry() {
  const box = document.getElementById("entry");
  const key = `${t.status}-${Boolean(me)}-${mine()}-${t.entries >= t.max_entries}`;
  if (box.dataset.key === key) return; // keeps the focus on the button between reads
  box.dataset.key = key;
  if (t.status !== "registering") return box.replaceChildren();
  if (!me) {
    return box.replaceChildren(
      el("a", { class: "button", href: `/login?next=${encodeURIComponent(location.pathname)}` }, "Sign in to enter"),
    );
  }
  box.replaceChildren(
    mine()
      ? el("button", { type: "button", class: "secondary", id: "unregister", onclick: () => entry("DELETE") }, "Unregister")
      : el(
          "button",
          { type: "button", id: "register", disabled: t.entries >= t.max_entries, onclick: () => entry("POST") },
          t.entries >= t.max_entries ? "Full" : `Register (${chips(t.buy_in)})`,
        ),
  );
}

/** Whether the user has entered. */
function mine() {
  return Boolean(me && t.players.some((p) => !p.bot && p.name === me.username));
}

async function entry(method) {
  busy = true;
  try {
    const answer = await api(method, `/api/tournaments/${id}/register`);
    say(
      "status",
      method === "POST"
        ? `You are registered: ${chips(t.buy_in)} paid, ${chips(answer.balance)} left.`
        : `You are unregistered: ${chips(answer.refunded)} refunded.`,
    );
  } catch (error) {
    say("status", error.status === 402 ? `Your balance is short of the ${chips(t.buy_in)} buy-in.` : error.message, true);
  } finally {
    busy = false;
  }
  await load();
  document.querySelector("#entry button")?.focus();
}

const PLAYER_STATUS = { registered: "registered", playing: "playing", out: "out" };

function drawPlayers() {
  const rows = t.players.map((p) =>
    el(
      "tr",
      { class: p.name === me?.username && !p.bot ? "me" : null },
      el("th", { scope: "row" }, p.name, p.bot ? el("span", { class: "muted" }, " (bot)") : null),
      cell("td", {}, "Status", p.status === "out" && p.place === 1 ? "winner" : (PLAYER_STATUS[p.status] ?? p.status)),
      cell("td", { class: "num" }, "Stack", p.stack == null ? "—" : chips(p.stack)),
      cell("td", { class: "num" }, "Place", p.place ? ordinal(p.place) : "—"),
      cell("td", { class: "num" }, "Prize", p.prize ? chips(p.prize) : "—"),
    ),
  );
  document
    .getElementById("player-rows")
    .replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5 }, "No entries yet."))]));
}

function drawTables() {
  document.getElementById("tables-section").hidden = !t.tables.length;
  const key = JSON.stringify(t.tables);
  const list = document.getElementById("tables");
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(
    ...t.tables.map((table) =>
      el(
        "li",
        {},
        el("a", { href: `/table/${table.table_id}` }, `Table ${table.number}`),
        ` — ${table.players} player${table.players === 1 ? "" : "s"}`,
      ),
    ),
  );
}

function drawPayouts() {
  const rows = t.payouts.map((amount, i) =>
    el("tr", {}, el("td", {}, ordinal(i + 1)), el("td", { class: "num" }, chips(amount))),
  );
  document
    .getElementById("payout-rows")
    .replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 2 }, "No prize pool yet."))]));
}

function drawLevels() {
  // the period in play: the level of the clock, or the break after the level before it
  let current = -1;
  if (t.clock) {
    let last = null;
    t.levels.forEach((period, i) => {
      if (!t.clock.on_break && period.level === t.clock.level) current = i;
      if (t.clock.on_break && period.break !== undefined && last === t.clock.next_level - 1) current = i;
      if (period.level !== undefined) last = period.level;
    });
  }
  const rows = t.levels.map((period, i) => {
    const now = i === current;
    const attributes = { class: now ? "current" : null, "aria-current": now ? "step" : null };
    if (period.break !== undefined) {
      return el(
        "tr",
        { ...attributes, class: `break${now ? " current" : ""}` },
        el("th", { scope: "row", colspan: 4 }, "Break", now ? el("span", { class: "now-tag" }, "now") : null),
        el("td", { class: "num" }, period.break),
      );
    }
    return el(
      "tr",
      attributes,
      el("th", { scope: "row" }, String(period.level), now ? el("span", { class: "now-tag" }, "now") : null),
      el("td", { class: "num" }, chips(period.ante)),
      el("td", { class: "num" }, chips(period.bring_in)),
      el("td", { class: "num" }, `${chips(period.small_bet)}/${chips(period.big_bet)}`),
      el("td", { class: "num" }, period.minutes),
    );
  });
  document.getElementById("level-rows").replaceChildren(...rows);
}

(async () => {
  me = await header();
  if (!Number.isSafeInteger(id) || id < 1) return say("status", "There is no such tournament.", true);
  await load();
  setInterval(load, 3000); // the clock, the stacks and the places change while the page is open
  setInterval(tick, 1000);
})();
