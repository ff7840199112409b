// The side panel: one log for the hands, the dealer's words and the table chat (plain text, always written as
// text nodes, never as HTML), the chat box, muting a player, and the table's past hands. On a narrow screen the
// panel is a drawer over the felt, opened from the bar (with a count of the chat lines it has not shown).

import { el } from "./common.js";
import { isMuted, onPrefs, prefs, setPrefs } from "./prefs.js";
import { mountReplayer } from "./replayer.js";
import { state, tableId } from "./table-model.js";

const CHAT_MAX = 200;
let unread = 0;
let filter = "all"; // the log shows everything, or only the chat
let drawn = { length: -1, last: null, muted: "", filter: "" };

function drawerMode() {
  return window.matchMedia("(max-width: 900px), (max-height: 500px)").matches;
}

function sideOpen() {
  return document.getElementById("side").classList.contains("open");
}

/** The log's <li> of each line drawn: a new line adds its own item and leaves the others in place, so a click on a
 * name is never lost to a redraw under the pointer. */
const items = new WeakMap();

function logItem(line) {
  if (line.kind === "chat") {
    return el(
      "li",
      { class: "chat" },
      el(
        "button",
        { type: "button", class: "link who", title: `Mute ${line.name}`, "aria-label": `${line.name}: mute`, onclick: () => mute(line.name) },
        line.name,
      ),
      ": ",
      el("span", { class: "text" }, line.text), // a text node: HTML in chat stays text
    );
  }
  const dataset = line.hand == null ? {} : { hand: line.hand };
  return el("li", { class: line.kind, dataset }, line.kind === "dealer" ? `Dealer: ${line.text}` : line.text);
}

export function renderLog({ chat = false } = {}) {
  const list = document.getElementById("log");
  const lines = state.log;
  const mutedKey = prefs.muted.join("\n");
  if (drawn.length === lines.length && drawn.last === lines.at(-1) && drawn.muted === mutedKey && drawn.filter === filter)
    return;
  drawn = { length: lines.length, last: lines.at(-1), muted: mutedKey, filter };
  const wanted = [];
  for (const line of lines) {
    if (filter === "chat" && line.kind !== "chat") continue;
    if (line.kind === "chat" && isMuted(line.name)) continue;
    let item = items.get(line);
    if (!item) {
      item = logItem(line);
      items.set(line, item);
    }
    wanted.push(item);
  }
  // Only the lines gone (the oldest, past the log's length) leave and only the new ones come in.
  const keep = new Set(wanted);
  for (const child of [...list.children]) if (!keep.has(child)) child.remove();
  wanted.forEach((item, i) => {
    if (list.children[i] !== item) list.insertBefore(item, list.children[i] ?? null);
  });
  const panel = list.parentElement;
  panel.scrollTop = panel.scrollHeight;
  if (chat && drawerMode() && !sideOpen()) unread += 1;
  showUnread();
}

function showUnread() {
  const badge = document.getElementById("unread");
  badge.textContent = unread ? String(unread) : "";
  badge.setAttribute("aria-label", unread ? `${unread} new chat messages` : "");
}

async function mute(name) {
  if (state.you && name.toLowerCase() === String(state.you.username ?? "").toLowerCase()) return;
  if (!window.confirm(`Mute ${name}? Their chat is hidden from you (unmute below the chat).`)) return;
  await setPrefs({ muted: [...prefs.muted, name] });
}

function renderMuted() {
  const box = document.getElementById("muted");
  if (!prefs.muted.length) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    el("span", {}, "Muted: "),
    ...prefs.muted.map((name) =>
      el(
        "button",
        {
          type: "button",
          class: "secondary unmute",
          "aria-label": `Unmute ${name}`,
          onclick: () => setPrefs({ muted: prefs.muted.filter((m) => m !== name) }),
        },
        `${name} ×`,
      ),
    ),
  );
}

/** The chat box: enabled for a signed-in player; the server checks and bounds every line again. */
export function renderChatBox() {
  const input = document.getElementById("chat-text");
  const button = document.getElementById("chat-send");
  const can = Boolean(state.me) && !state.ended;
  input.disabled = !can;
  button.disabled = !can;
  input.placeholder = state.me ? "Say something…" : "Sign in to chat";
}

export function chatError(message) {
  const node = document.getElementById("chat-error");
  node.textContent = message;
  node.classList.toggle("error", Boolean(message));
}

let lastSent = ""; // the last line sent: the server may still refuse it (too fast, a character it does not take)

/** The server refused the last line: it goes back into an empty box, to send again or mend, and the page says why. */
export function chatRefused(message) {
  const input = document.getElementById("chat-text");
  if (!input.value && lastSent) input.value = lastSent;
  chatError(message);
}

document.getElementById("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-text");
  const text = input.value.trim();
  if (!text) return;
  if (text.length > CHAT_MAX) return chatError(`A chat line is at most ${CHAT_MAX} characters.`);
  // while the socket is down the line stays in the box (not cleared as if it had gone)
  if (!state.send({ type: "chat", text })) return chatError("Not connected: send it again once the table is back.");
  chatError("");
  state.lastChat = performance.now();
  lastSent = text;
  input.value = "";
});

// -- the drawer (narrow screens) and the tabs ---------------------------------------------------------

state.closeSide = () => {
  if (drawerMode() && sideOpen()) setSide(false);
};

function setSide(open) {
  const side = document.getElementById("side");
  side.classList.toggle("open", open);
  document.getElementById("side-toggle").setAttribute("aria-expanded", String(open));
  if (open) {
    unread = 0;
    showUnread();
    document.getElementById("tab-log").focus({ preventScroll: true });
  }
}
document.getElementById("side-toggle").addEventListener("click", () => setSide(!sideOpen()));
document.getElementById("side-close").addEventListener("click", () => {
  setSide(false);
  document.getElementById("side-toggle").focus();
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && sideOpen() && drawerMode()) setSide(false);
});

const replayer = mountReplayer(document.getElementById("panel-history"), tableId, { compact: true });

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

onPrefs(() => {
  renderMuted();
  drawn = { length: -1, last: null, muted: "", filter: "" };
  renderLog();
});

for (const button of document.querySelectorAll("#log-filter button")) {
  button.addEventListener("click", () => {
    filter = button.dataset.filter;
    for (const other of document.querySelectorAll("#log-filter button"))
      other.setAttribute("aria-pressed", String(other === button));
    renderLog();
  });
}
