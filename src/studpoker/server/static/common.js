// Shared helpers for every page of the card room: HTTP calls, the page header, and cards.
// Plain ES module, no framework, no build step.

/** Calls the server's JSON API; throws an Error carrying the server's message on failure. */
export async function api(method, path, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (method !== "GET" && method !== "HEAD") {
    // Every change is JSON: the server refuses any other body (a page elsewhere cannot send it without CORS).
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body ?? {});
  }
  const response = await fetch(path, options);
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: text };
    }
  }
  if (!response.ok) {
    const error = new Error(errorText(data) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

/** The user's message in an error body: {"error": {"code", "message"}} (docs/server-protocol.md). */
function errorText(data) {
  const error = data?.error;
  if (error && typeof error === "object") return error.message ?? error.code ?? "";
  return typeof error === "string" ? error : (data?.detail ?? "");
}

/** Creates an element: el("button", {class: "x", "aria-label": "y", onclick: f}, "text", child...). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/**
 * A data table's cell that names its column on narrow screens, where `table.data.stacked` shows each row as a card
 * (common.css): cell("td", {class: "num"}, "Seats", "3/8"). The name is hidden from screen readers, which have
 * the column's header.
 */
export function cell(tag, attributes, label, ...children) {
  return el(tag, attributes, el("span", { class: "cell-label", "aria-hidden": "true" }, label), ...children);
}

/** Shows a message in the page's status line (role="status" or "alert"). */
export function say(target, message, isError = false) {
  const node = typeof target === "string" ? document.getElementById(target) : target;
  if (!node) return;
  node.textContent = message;
  node.classList.toggle("error", isError);
}

// -- cards ------------------------------------------------------------------------------------------

const RANK_NAMES = {
  2: "Two",
  3: "Three",
  4: "Four",
  5: "Five",
  6: "Six",
  7: "Seven",
  8: "Eight",
  9: "Nine",
  T: "Ten",
  J: "Jack",
  Q: "Queen",
  K: "King",
  A: "Ace",
};
const SUITS = {
  c: { symbol: "\u2663", name: "clubs" },
  d: { symbol: "\u2666", name: "diamonds" },
  h: { symbol: "\u2665", name: "hearts" },
  s: { symbol: "\u2660", name: "spades" },
};

/** "As" -> "Ace of spades"; null -> "face-down card". */
export function cardName(code) {
  if (!code) return "face-down card";
  const rank = RANK_NAMES[code[0]];
  const suit = SUITS[code[1]];
  return rank && suit ? `${rank} of ${suit.name}` : code;
}

/** "As" -> "A♠" (ten as "10"). */
export function cardSymbol(code) {
  if (!code) return "?";
  const suit = SUITS[code[1]];
  return (code[0] === "T" ? "10" : code[0]) + (suit ? suit.symbol : code[1]);
}

/**
 * One card as an element. `code` is "As" (face up) or null (face down, a card back).
 * `marks` may say {door, down} for the CSS and the label: `door` is the first up card, `down` a card dealt
 * face down that this viewer may see (his own, or any shown at the showdown).
 */
export function cardElement(code, marks = {}) {
  const extra = [];
  if (marks.door) extra.push("door card");
  if (marks.down && code) extra.push("dealt down");
  const label = cardName(code) + (extra.length ? ` (${extra.join(", ")})` : "");
  const classes = ["card"];
  if (!code) classes.push("back");
  else classes.push(`suit-${code[1]}`);
  if (marks.door) classes.push("door");
  if (marks.down && code) classes.push("dealt-down");
  const node = el("span", { class: classes.join(" "), role: "img", "aria-label": label, title: label });
  if (code) {
    node.dataset.card = code;
    node.append(el("span", { class: "rank", "aria-hidden": "true" }, code[0] === "T" ? "10" : code[0]));
    node.append(el("span", { class: "suit", "aria-hidden": "true" }, SUITS[code[1]]?.symbol ?? code[1]));
  }
  return node;
}

// -- page frame -------------------------------------------------------------------------------------

/** Fills the page's <nav id="top"> with links and the signed-in user; returns the user or null. */
export async function header() {
  const nav = document.getElementById("top");
  let me = null;
  try {
    me = await api("GET", "/api/me");
  } catch {
    me = null;
  }
  if (nav) {
    nav.replaceChildren(
      el("a", { href: "/lobby", class: "brand" }, "studpoker card room"),
      el("a", { href: "/lobby" }, "Lobby"),
      el("a", { href: "/tournaments" }, "Tournaments"),
      el("a", { href: "/cashier" }, "Cashier"),
      me
        ? el(
            "span",
            { class: "who" },
            // the name leads to the account page (password, signing out everywhere): no new item to wrap on phones
            el(
              "span",
              { class: "who-name" },
              "Signed in as ",
              el("a", { href: "/account", "aria-label": `${me.username}: your account` }, me.username),
            ),
            el("button", { type: "button", class: "link", onclick: logout }, "Sign out"),
          )
        : el(
            "span",
            { class: "who" },
            el("a", { href: "/login" }, "Sign in"),
            " ",
            el("a", { href: "/signup" }, "Sign up"),
          ),
    );
  }
  return me;
}

async function logout() {
  try {
    await api("POST", "/api/logout");
  } finally {
    location.href = "/login";
  }
}

/**
 * Where to go after signing in: `next` if it is a page of this site, else the lobby. Only a path of this origin
 * is followed: "//evil", "/\\evil", "/%09/evil" (a tab the URL parser drops) and "https://evil" resolve to
 * another origin, and "/.//evil" or "/a/..//evil" to a path that starts with "//", which the browser would
 * read as another host again: all are refused.
 */
export function safeNext(next, origin = location.origin) {
  if (typeof next !== "string" || !next.startsWith("/")) return "/lobby";
  let url;
  try {
    url = new URL(next, origin);
  } catch {
    return "/lobby";
  }
  const path = url.pathname + url.search + url.hash;
  if (url.origin !== origin || !path.startsWith("/") || path.startsWith("//") || path.startsWith("/\\")) {
    return "/lobby";
  }
  return path;
}

/** For pages that need an account: the user, or a trip to the sign-in page (coming back here after). */
export async function requireLogin() {
  const me = await header();
  if (!me) location.href = `/login?next=${encodeURIComponent(location.pathname + location.search)}`;
  return me;
}

/** Whole chips with thousands separators. */
export function chips(amount) {
  return Number(amount ?? 0).toLocaleString("en-US");
}
