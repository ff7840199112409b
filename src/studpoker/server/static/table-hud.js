// The HUD: an opt-in line of statistics under each other player's seat ("VPIP 34% · n=57"), from the room's own
// hands in the table's game (GET /api/tables/{id}/hud), read when the page starts, when the preference changes and
// after every hand. The Players tab turns it on or off and chooses the statistics (the account's preferences
// `hud` and `hud_stats`, at most the server's `max`). Only a signed-in player seated at the table gets one.

import { api, el } from "./common.js";
import { prefs, setPrefs } from "./prefs.js";
import { state, tableId } from "./table-model.js";

let offered = null; // GET /api/hud/stats: {stats: [{key, label, percent, doc}], max, default}
let lines = new Map(); // seat -> {name, line}: the line shown under it while that player sits there
let reading = false;
let again = false;
let drawn = "";

/** The HUD's line for the player `name` in `seat` ("" when there is none). */
export function hudLine(seat, name) {
  const entry = lines.get(seat);
  return entry && entry.name === name ? entry.line : "";
}

function lineOf(player, stats) {
  const parts = player.stats.map((value, i) => `${stats[i]?.label ?? value.key} ${value.text}`);
  parts.push(`n=${player.hands}`);
  return parts.join(" · ");
}

/** Reads the table's HUD again (one read at a time; a read asked for meanwhile follows it). */
export async function loadHud() {
  const wanted = Boolean(state.me && prefs.hud && state.you?.seat);
  if (!wanted) {
    if (lines.size) {
      lines = new Map();
      state.redraw?.();
    }
    return;
  }
  if (reading) {
    again = true;
    return;
  }
  reading = true;
  try {
    const answer = await api("GET", `/api/tables/${tableId}/hud`);
    const next = new Map();
    if (answer.on) for (const p of answer.players) next.set(p.seat, { name: p.name, line: lineOf(p, answer.stats) });
    lines = next;
  } catch {
    lines = new Map(); // not seated any more, too many reads: no HUD until the next hand
  } finally {
    reading = false;
  }
  state.redraw?.();
  if (again) {
    again = false;
    loadHud();
  }
}

async function loadOffered() {
  if (offered || !state.me) return;
  try {
    offered = await api("GET", "/api/hud/stats");
  } catch {
    offered = null;
  }
  drawn = "";
  renderHudSettings();
}

function choose(key) {
  const chosen = Array.isArray(prefs.hud_stats) ? [...prefs.hud_stats] : [];
  const at = chosen.indexOf(key);
  if (at >= 0) chosen.splice(at, 1);
  else if (chosen.length < (offered?.max ?? 6)) chosen.push(key);
  setPrefs({ hud_stats: chosen }).then(() => loadHud());
}

/** The Players tab's HUD settings: on or off, and the statistics shown (buttons that stay pressed). */
export function renderHudSettings() {
  const box = document.getElementById("hud-settings");
  if (!box) return;
  if (!state.me) {
    box.replaceChildren();
    return;
  }
  if (!offered) {
    loadOffered();
    return;
  }
  const chosen = Array.isArray(prefs.hud_stats) ? prefs.hud_stats : [];
  const key = `${Boolean(prefs.hud)}|${chosen.join(",")}`;
  if (key === drawn) return;
  drawn = key;
  const full = chosen.length >= offered.max;
  box.replaceChildren(
    el("h2", { id: "hud-title", class: "hud-title" }, "HUD"),
    el(
      "p",
      { id: "hud-help", class: "status" },
      "Statistics of the other players here, from this room's hands in this game. Only you see your HUD.",
    ),
    el(
      "button",
      {
        type: "button",
        id: "hud-toggle",
        class: "secondary hud-button",
        "aria-pressed": String(Boolean(prefs.hud)),
        "aria-describedby": "hud-help",
        onclick: () => setPrefs({ hud: !prefs.hud }).then(() => loadHud()),
      },
      prefs.hud ? "HUD on" : "HUD off",
    ),
    el(
      "div",
      { class: "hud-choice", role: "group", "aria-label": `Statistics shown (at most ${offered.max})` },
      offered.stats.map((stat) => {
        const on = chosen.includes(stat.key);
        return el(
          "button",
          {
            type: "button",
            class: "secondary hud-button",
            title: stat.doc,
            "aria-pressed": String(on),
            "aria-disabled": !on && full ? "true" : null,
            dataset: { stat: stat.key },
            onclick: () => choose(stat.key),
          },
          stat.label,
        );
      }),
    ),
  );
}
