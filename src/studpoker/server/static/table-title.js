// The tab itself says when the table needs you, so a table in a background tab is not missed: its title starts
// with "Your turn" (or "Seat for you" when a seat is held for you from the waiting list) and its icon turns into a
// gold disc; otherwise the title is the table's name and the icon the page's plain one.

import { state } from "./table-model.js";

const PLAIN_ICON = "data:,";
// a gold disc with a dark ring: drawn as an SVG data URL (the room's CSP allows data: images and no other site)
const ALERT_ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#f2c14e" stroke="#3a2a00" stroke-width="2"/></svg>',
  );

/** What the tab should say now: [title, needs attention]. */
export function tabTitle() {
  const name = state.table?.name ?? "Table";
  if (state.turn && state.turn.seat === state.you?.seat) return [`▶ Your turn · ${name}`, true];
  if (state.you?.offer) return [`▶ Seat for you · ${name}`, true];
  return [`${name} · studpoker`, false];
}

/** Sets the tab's title and icon (after every redraw). */
export function renderTitle() {
  const [title, alert] = tabTitle();
  if (document.title !== title) document.title = title;
  const icon = document.querySelector('link[rel="icon"]');
  const href = alert ? ALERT_ICON : PLAIN_ICON;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
  document.documentElement.dataset.attention = alert ? "1" : "";
}
