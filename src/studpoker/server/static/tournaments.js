// The tournament lobby (/tournaments): the tournaments registering, running and finished, Register and Unregister
// for the signed-in user, and the form to open a sit-and-go. Redrawn every few seconds.

import { api, cell, chips, el, header, say } from "./common.js";
import { startText, when } from "./tourney.js";

let me = null;
let tournaments = []; // the last list the server gave
const entered = new Set(); // ids of the tournaments registering that the user has entered
let busy = false; // a Register or Unregister under way: no redraw until its answer

async function load() {
  if (busy) return;
  try {
    tournaments = (await api("GET", "/api/tournaments")).tournaments;
    await loadEntries();
  } catch (error) {
    say("status", error.message, true);
    return;
  }
  draw();
}

/** Which registering tournaments the user has entered (their pages list the entries by name). */
async function loadEntries() {
  entered.clear();
  if (!me) return;
  const open = tournaments.filter((t) => t.status === "registering" && t.entries > 0);
  const details = await Promise.all(open.map((t) => api("GET", `/api/tournaments/${t.id}`).catch(() => null)));
  for (const d of details) {
    if (d?.players.some((p) => !p.bot && p.name === me.username)) entered.add(d.id);
  }
}

function nameCell(t) {
  return el(
    "th",
    { scope: "row" },
    el("a", { href: `/tournament/${t.id}`, dataset: { focus: `open-${t.id}` } }, t.name),
    entered.has(t.id) ? el("span", { class: "entered-tag" }, "entered") : null,
  );
}

const STATUS = { registering: "Registering", running: "Running", finished: "Finished", cancelled: "Cancelled" };

function common(t) {
  return [
    nameCell(t),
    cell("td", { class: "game" }, "Game", `${t.variant_name}${t.kind === "sit_and_go" ? " sit-and-go" : ""}`),
    cell("td", { class: "num" }, "Buy-in", chips(t.buy_in)),
    cell("td", { class: "num" }, "Entries", `${t.entries}/${t.max_entries}`),
    cell("td", { class: "num" }, "Prize pool", chips(t.prize_pool)),
    cell("td", { class: "state" }, "Status", STATUS[t.status] ?? t.status),
  ];
}

function registerButton(t) {
  if (!me) return el("a", { class: "button secondary", href: `/login?next=${encodeURIComponent("/tournaments")}` }, "Sign in to enter");
  if (entered.has(t.id)) {
    return el(
      "button",
      {
        type: "button",
        class: "secondary",
        "aria-label": `Unregister from ${t.name}`,
        dataset: { focus: `unregister-${t.id}` },
        onclick: () => entry(t, "DELETE"),
      },
      "Unregister",
    );
  }
  return el(
    "button",
    {
      type: "button",
      "aria-label": `Register for ${t.name} (buy-in ${chips(t.buy_in)})`,
      disabled: t.entries >= t.max_entries,
      dataset: { focus: `register-${t.id}` },
      onclick: () => entry(t, "POST"),
    },
    t.entries >= t.max_entries ? "Full" : "Register",
  );
}

/** Registers (POST) or unregisters (DELETE) the user; says what came of it. */
async function entry(t, method) {
  busy = true;
  try {
    const answer = await api(method, `/api/tournaments/${t.id}/register`);
    say(
      "status",
      method === "POST"
        ? `You are registered for ${t.name}: ${chips(t.buy_in)} paid, ${chips(answer.balance)} left.`
        : `You are unregistered from ${t.name}: ${chips(answer.refunded)} refunded.`,
    );
  } catch (error) {
    say("status", error.status === 402 ? `Your balance is short of the ${chips(t.buy_in)} buy-in.` : error.message, true);
  } finally {
    busy = false;
  }
  await load();
}

function rows(body, list, columns, extra, empty) {
  const drawn = list.map((t) => el("tr", { dataset: { tournament: t.id } }, ...common(t), ...extra(t)));
  body.replaceChildren(...(drawn.length ? drawn : [el("tr", { class: "empty" }, el("td", { colspan: columns }, empty))]));
}

function draw() {
  // The rows are redrawn every few seconds: a keyboard user keeps his place (the same control of the same row).
  const focused = document.activeElement?.dataset?.focus;
  const of = (...statuses) => tournaments.filter((t) => statuses.includes(t.status));
  rows(
    document.getElementById("registering-rows"),
    of("registering"),
    8,
    (t) => [
      cell("td", {}, "Starts", startText(t)),
      el("td", { class: "go" }, registerButton(t)),
    ],
    "No tournament is registering: open a sit-and-go below.",
  );
  rows(
    document.getElementById("running-rows"),
    of("running"),
    7,
    (t) => [cell("td", { class: "num" }, "Players left", `${t.players_left} of ${t.entries}`)],
    "No tournament is running.",
  );
  rows(
    document.getElementById("finished-rows"),
    of("finished", "cancelled"),
    7,
    (t) => [cell("td", {}, "Ended", when(t.finished_at) ?? "—")],
    "No tournament finished in the last day.",
  );
  if (focused) {
    const [kind, id] = focused.split("-");
    const again =
      document.querySelector(`main [data-focus="${focused}"]`) ??
      (["register", "unregister"].includes(kind)
        ? document.querySelector(`main [data-focus="${kind === "register" ? "unregister" : "register"}-${id}"]`)
        : null) ??
      document.querySelector(`main [data-focus="open-${id}"]`);
    again?.focus();
  }
}

/** Fills the form's games from GET /api/presets. */
async function loadGames() {
  const presets = await api("GET", "/api/presets");
  document
    .getElementById("create-variant")
    .replaceChildren(...presets.variants.map((v) => el("option", { value: v.variant }, v.name)));
}

document.getElementById("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const number = (id) => Number(document.getElementById(id).value) || 0;
  const body = {
    kind: "sit_and_go",
    variant: document.getElementById("create-variant").value,
    buy_in: number("create-buy-in"),
    seats: number("create-seats"),
    structure: document.getElementById("create-structure").value,
    bots: number("create-bots"),
  };
  const name = document.getElementById("create-name").value.trim();
  if (name) body.name = name;
  try {
    const t = await api("POST", "/api/tournaments", body);
    location.href = `/tournament/${t.id}`;
  } catch (error) {
    say("create-status", error.status === 401 ? "Sign in to open a sit-and-go." : error.message, true);
  }
});

(async () => {
  me = await header();
  if (!me) {
    document.getElementById("create-form").querySelector("button").disabled = true;
    say("create-status", "Sign in to open a sit-and-go or to enter one.");
  }
  await Promise.all([load(), loadGames().catch((e) => say("create-status", e.message, true))]);
  setInterval(load, 4000); // entries, places and prize pools change while the page is open
})();
