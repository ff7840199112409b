// The lobby: every table with its sign, seats taken and average pot; watch, join or open a table.

import { api, cell, chips, el, header, say } from "./common.js";

let me = null;
let stakesOffered = []; // GET /api/presets' stakes, in the order of the Stakes choice
let tables = []; // the last list the server gave

// -- filters: game, stakes, seats free (kept in this browser) --------------------------------------------

const FILTER_KEY = "studpoker.lobby-filters";
const filters = { game: "", stakes: "", free: false };
try {
  Object.assign(filters, JSON.parse(localStorage.getItem(FILTER_KEY) ?? "{}"));
} catch {
  // the defaults
}

/** Whether a table passes the filters. */
function shown(t) {
  if (filters.game && t.variant !== filters.game) return false;
  if (filters.stakes && t.stakes_text !== filters.stakes) return false;
  if (filters.free && t.seats_taken >= t.max_seats) return false;
  return true;
}

/** The filters' choices from the tables open now (a choice made stays offered though no table has it). */
function fillFilters() {
  const choices = (id, pairs, chosen, all) => {
    const select = document.getElementById(id);
    const seen = new Map(pairs);
    if (chosen && !seen.has(chosen)) seen.set(chosen, chosen);
    const key = [...seen.keys()].join("\n");
    if (select.dataset.key === key) return;
    select.dataset.key = key;
    select.replaceChildren(
      el("option", { value: "" }, all),
      ...[...seen].map(([value, text]) => el("option", { value, selected: value === chosen }, text)),
    );
  };
  choices("filter-game", tables.map((t) => [t.variant, t.variant_name]), filters.game, "Every game");
  choices("filter-stakes", tables.map((t) => [t.stakes_text, t.stakes_text]), filters.stakes, "Any stakes");
  document.getElementById("filter-free").checked = Boolean(filters.free);
}

document.getElementById("filters").addEventListener("change", () => {
  filters.game = document.getElementById("filter-game").value;
  filters.stakes = document.getElementById("filter-stakes").value;
  filters.free = document.getElementById("filter-free").checked;
  localStorage.setItem(FILTER_KEY, JSON.stringify(filters));
  drawTables();
});
document.getElementById("filters").addEventListener("submit", (event) => event.preventDefault());

async function loadTables() {
  try {
    tables = (await api("GET", "/api/tables")).tables;
  } catch (error) {
    say("status", error.message, true);
    return;
  }
  fillFilters();
  drawTables();
}

function drawTables() {
  const passing = tables.filter(shown);
  const hidden = tables.length - passing.length;
  document.getElementById("filter-count").textContent = hidden
    ? `${passing.length} of ${tables.length} tables shown (the filters hide ${hidden}).`
    : "";
  const rows = passing.map((t) =>
    el(
      "tr",
      { dataset: { table: t.id } },
      el("th", { scope: "row" }, t.name, t.training ? el("span", { class: "training-tag", title: "practice chips; every card shown after the hand, with the equities" }, "training") : null),
      cell("td", { class: "game" }, "Game", `${t.mix ? `${t.mix.name}, ${t.variant_name} now` : t.variant_name} (${t.preset})`),
      cell("td", { class: "stakes" }, "Stakes", t.stakes_text),
      cell("td", { class: "num" }, "Min buy-in", chips(t.min_buy_in)),
      cell("td", { class: "num" }, "Seats", `${t.seats_taken}/${t.max_seats}`),
      cell("td", { class: "num" }, "Average pot", chips(t.average_pot)),
      cell("td", { class: "num" }, "Hands", chips(t.hands_played)),
      el(
        "td",
        { class: "go" },
        el(
          "div",
          { class: "go-buttons" },
          el(
            "a",
            {
              class: "button secondary",
              href: `/table/${t.id}`,
              "aria-label": `Watch ${t.name}`,
              dataset: { focus: `watch-${t.id}` },
            },
            "Watch",
          ),
          me && t.seats_taken < t.max_seats
            ? el(
                "a",
                {
                  class: "button",
                  href: `/table/${t.id}?join=1`,
                  "aria-label": `Join ${t.name}`,
                  dataset: { focus: `join-${t.id}` },
                },
                "Join",
              )
            : me
              ? el(
                  "a",
                  {
                    class: "button",
                    href: `/table/${t.id}?wait=1`,
                    "aria-label": `Join the waiting list of ${t.name}`,
                    dataset: { focus: `wait-${t.id}` },
                  },
                  t.waiting ? `Wait (${t.waiting})` : "Wait",
                )
              : null,
          el(
            "a",
            {
              class: "button secondary",
              href: `/history/${t.id}`,
              "aria-label": `History of ${t.name}`,
              dataset: { focus: `history-${t.id}` },
            },
            "History",
          ),
        ),
      ),
    ),
  );
  // The list is redrawn every few seconds: a keyboard user keeps his place (the same control of the same table,
  // or that table's Watch when its Join went away with its last free seat).
  const focused = document.activeElement?.dataset?.focus;
  const body = document.getElementById("table-rows");
  body.replaceChildren(
    ...(rows.length
      ? rows
      : [el("tr", {}, el("td", { colspan: 8 }, tables.length ? "No table passes the filters." : "No tables yet: open one below."))]),
  );
  if (focused) {
    const again =
      body.querySelector(`[data-focus="${focused}"]`) ??
      body.querySelector(`[data-focus="watch-${focused.split("-").pop()}"]`);
    again?.focus();
  }
}

/** The games of a Triple Stud table, in the order they are dealt. */
const TRIPLE_STUD = ["STUD7", "RAZZ", "STUD7_HL8"];

/** Fills the create form's choices from GET /api/presets. */
async function loadPresets() {
  const presets = await api("GET", "/api/presets");
  document
    .getElementById("create-variant")
    .replaceChildren(
      ...presets.variants.map((v) => el("option", { value: v.variant }, v.name)),
      el("option", { value: "TRIPLE" }, "Triple Stud (stud, razz, stud/8; 8 hands each)"),
    );
  document
    .getElementById("create-preset")
    .replaceChildren(...presets.presets.map((p) => el("option", { value: p }, p)));
  document
    .getElementById("create-stakes")
    .replaceChildren(
      ...presets.stakes.map((s, i) =>
        el(
          "option",
          { value: i, selected: s.small_bet === 10 },
          `${s.small_bet}/${s.big_bet}, ante ${s.ante}, bring-in ${s.bring_in}`,
        ),
      ),
    );
  stakesOffered = presets.stakes;
}

document.getElementById("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const stakes = stakesOffered[Number(document.getElementById("create-stakes").value)];
  const variant = document.getElementById("create-variant").value;
  const game = variant === "TRIPLE" ? { games: TRIPLE_STUD.map((v) => ({ variant: v })), every: 8 } : { variant };
  const body = {
    ...game,
    preset: document.getElementById("create-preset").value,
    ...stakes,
    bots: Number(document.getElementById("create-bots").value) || 0,
    training: document.getElementById("create-training").checked,
  };
  const name = document.getElementById("create-name").value.trim();
  if (name) body.name = name;
  try {
    const table = await api("POST", "/api/tables", body);
    location.href = `/table/${table.id}`;
  } catch (error) {
    say("create-status", error.status === 401 ? "Sign in to open a table." : error.message, true);
  }
});

(async () => {
  me = await header();
  if (!me) document.getElementById("create-form").querySelector("button").disabled = true;
  if (!me) say("create-status", "Sign in to open a table or take a seat.");
  await Promise.all([loadTables(), loadPresets().catch((e) => say("create-status", e.message, true))]);
  setInterval(loadTables, 5000); // seats and pots change while the page is open
})();
