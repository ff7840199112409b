// The lobby: every table with its sign, seats taken and average pot; watch, join or open a table.

import { api, cell, chips, el, header, say } from "./common.js";

let me = null;
let stakesOffered = []; // GET /api/presets' stakes, in the order of the Stakes choice

async function loadTables() {
  let data;
  try {
    data = await api("GET", "/api/tables");
  } catch (error) {
    say("status", error.message, true);
    return;
  }
  const rows = data.tables.map((t) =>
    el(
      "tr",
      { dataset: { table: t.id } },
      el("th", { scope: "row" }, t.name, t.training ? el("span", { class: "training-tag", title: "practice chips; every card shown after the hand, with the equities" }, "training") : null),
      cell("td", { class: "game" }, "Game", `${t.variant_name} (${t.preset})`),
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
    ...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 8 }, "No tables yet: open one below."))]),
  );
  if (focused) {
    const again =
      body.querySelector(`[data-focus="${focused}"]`) ??
      body.querySelector(`[data-focus="watch-${focused.split("-").pop()}"]`);
    again?.focus();
  }
}

/** Fills the create form's choices from GET /api/presets. */
async function loadPresets() {
  const presets = await api("GET", "/api/presets");
  document
    .getElementById("create-variant")
    .replaceChildren(...presets.variants.map((v) => el("option", { value: v.variant }, v.name)));
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
  const body = {
    variant: document.getElementById("create-variant").value,
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
