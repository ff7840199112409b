// Private notes on players: what you want to remember of how they play, kept on your account (GET/PUT/DELETE
// /api/me/notes) and read by nobody else. The side panel's Players tab lists the players at the table, each with
// his note to read and change; a seat whose player has a note shows a "Note" tag. Visitors have no notes.

import { api, el } from "./common.js";
import { state } from "./table-model.js";

const notes = new Map(); // name (lower case) -> text
let loaded = false;
let drawn = "";

/** The viewer's note on a player, or "". */
export function noteOf(name) {
  return notes.get(String(name ?? "").toLowerCase()) ?? "";
}

/** Loads the signed-in viewer's notes once (the page redraws when they arrive). */
export async function loadNotes(redraw) {
  if (loaded || !state.me) return;
  loaded = true;
  try {
    const answer = await api("GET", "/api/me/notes");
    for (const n of answer.notes) notes.set(n.name.toLowerCase(), n.text);
  } catch {
    loaded = false; // tried again on the next start of the page
  }
  drawn = "";
  redraw?.();
}

async function save(name, text, statusNode) {
  try {
    const answer = await api("PUT", `/api/me/notes/${encodeURIComponent(name)}`, { text });
    if (answer.text) notes.set(name.toLowerCase(), answer.text);
    else notes.delete(name.toLowerCase());
    statusNode.textContent = answer.text ? "Saved." : "Deleted.";
    statusNode.classList.remove("error");
    drawn = panelKey(); // the panel already shows it: keep it (and this status line) as it is
    state.redraw?.(); // the seats' Note tags
  } catch (error) {
    statusNode.textContent = error.message;
    statusNode.classList.add("error");
  }
}

/** The Players tab (under the HUD's settings): every player seated at the table but you, with your note on him. */
function others() {
  return [...state.seats.values()]
    .filter((s) => s.seat !== state.you?.seat)
    .sort((a, b) => a.seat - b.seat)
    .map((s) => s.name);
}

function panelKey() {
  return `${Boolean(state.me)}|${others().join("\n")}|${[...notes].join("\n")}`;
}

export function renderNotes() {
  const panel = document.getElementById("notes-list");
  if (!panel) return;
  const players = others();
  const key = panelKey();
  if (key === drawn) return; // unchanged: keep what is being typed
  if (panel.contains(document.activeElement) && document.activeElement.tagName === "TEXTAREA") return;
  drawn = key;
  if (!state.me) {
    panel.replaceChildren(el("p", { class: "status" }, "Sign in to keep private notes on players."));
    return;
  }
  if (!players.length) {
    panel.replaceChildren(el("p", { class: "status" }, "Nobody else sits at this table."));
    return;
  }
  panel.replaceChildren(
    el("p", { class: "status" }, "Your notes on the players here: only you can read them."),
    ...players.map((name, i) => {
      const id = `note-${i}`;
      const status = el("p", { class: "status note-status", role: "status" });
      const area = el("textarea", { id, rows: 2, maxlength: 500, dataset: { player: name } });
      area.value = noteOf(name);
      return el(
        "form",
        {
          class: "note",
          onsubmit: (event) => {
            event.preventDefault();
            save(name, area.value, status);
          },
        },
        el("label", { for: id }, `Notes on ${name}`),
        area,
        el("button", { type: "submit", class: "secondary" }, "Save note"),
        status,
      );
    }),
  );
}
