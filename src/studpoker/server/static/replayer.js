// The hand replayer: lists a table's past hands (GET /api/tables/{id}/hands) and steps through one of them,
// street by street or action by action, from its PHH text (GET /api/tables/{id}/hands/{n}).
// Used by the history page and by the "History" tab of the table page. At a training table it also shows each
// player's equity street by street (GET /api/tables/{id}/hands/{n}/equity): against the others' actual cards, and
// against their up cards with any down cards (what he could know at the table).

import { api, cardElement, cell, chips, el } from "./common.js";
import { replayPhh, streetName } from "./poker.js";

/**
 * Mounts a list of hands and a replayer in `container`; returns {refresh, open(number)}. `compact` (the table page's
 * side panel) leaves the players out of the list; otherwise the list is a `stacked` table (cards on a phone).
 */
export function mountReplayer(container, tableId, { limit = 20, compact = false } = {}) {
  const list = el("div", { class: "hand-list" });
  // The replayer is built once and only its contents change from step to step, so the focused button keeps the
  // focus and the polite live region is the same element (a screen reader hears each step).
  const title = el("h3", {});
  const now = el("p", { class: "replay-now", "aria-live": "polite" });
  const players = el("ul", { class: "replay-players" });
  const lines = el("ol", { class: "log" });
  const equities = el("div", { class: "replay-equity", hidden: true });
  const problem = el("p", { class: "error", hidden: true });
  const button = (step, text, onclick, primary = false) =>
    el("button", { type: "button", class: primary ? null : "secondary", dataset: { step }, onclick }, text);
  const controls = el(
    "div",
    { class: "replay-controls", role: "group", "aria-label": "Replay controls" },
    button("start", "|◀ Start", () => go(0)),
    button("prev-street", "◀◀ Street", () => go(streetStart(-1))),
    button("prev", "◀ Step", () => go(at - 1)),
    button("next", "Step ▶", () => go(at + 1)),
    button("next-street", "Street ▶▶", () => go(streetStart(1)), true),
    button("end", "End ▶|", () => go(replay.steps.length - 1)),
  );
  const stage = el(
    "div",
    { class: "replay-stage" },
    title,
    controls,
    now,
    players,
    equities,
    el("details", {}, el("summary", {}, "Log so far"), lines),
  );
  const viewer = el("div", { class: "replayer", hidden: true }, problem, stage);
  container.replaceChildren(viewer, list);
  let replay = null; // {number, steps, variant, equity: {street: {seat: {actual, ranged}}} | null}
  let at = 0; // the step shown

  async function refresh() {
    let data;
    try {
      data = await api("GET", `/api/tables/${tableId}/hands?limit=${limit}`);
    } catch (error) {
      list.replaceChildren(el("p", { class: "error" }, error.message));
      return;
    }
    if (!data.hands.length) {
      list.replaceChildren(el("p", {}, "No hands have been played at this table yet."));
      return;
    }
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    list.replaceChildren(
      el(
        "table",
        { class: compact ? "data" : "data stacked" },
        el("caption", { class: "visually-hidden" }, "Past hands"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", { scope: "col" }, "Hand"),
            compact ? null : el("th", { scope: "col" }, "Players"),
            el("th", { scope: "col", class: "num" }, "Pot"),
            el("th", { scope: "col" }, "Winners"),
            el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, "Replay")),
          ),
        ),
        el(
          "tbody",
          {},
          data.hands.map((h) => {
            const names = new Map(h.players.map((p) => [p.seat, p.name]));
            const voided = h.status === "voided";
            return el(
              "tr",
              { dataset: { hand: h.number } },
              cell("td", {}, "Hand", `#${h.number}`),
              compact ? null : cell("td", {}, "Players", h.players.map((p) => p.name).join(", ")),
              cell("td", { class: "num" }, "Pot", chips(h.pot)),
              cell(
                "td",
                {},
                "Winners",
                voided ? "voided" : h.winners.map((s) => names.get(s) ?? `seat ${s}`).join(", "),
              ),
              el(
                "td",
                { class: "hand-actions" },
                voided
                  ? ""
                  : el(
                      "button",
                      {
                        type: "button",
                        class: "secondary",
                        "aria-label": `Replay hand ${h.number}`,
                        dataset: { focus: `replay-${h.number}` },
                        onclick: () => open(h.number),
                      },
                      "Replay",
                    ),
                " ",
                voided
                  ? ""
                  : el(
                      "a",
                      {
                        class: "button secondary",
                        href: `/api/tables/${tableId}/hands/${h.number}.phh`,
                        "aria-label": `Download hand ${h.number} as PHH`,
                        dataset: { focus: `phh-${h.number}` },
                      },
                      "PHH",
                    ),
              ),
            );
          }),
        ),
      ),
    );
    if (focused) list.querySelector(`[data-focus="${focused}"]`)?.focus();
  }

  async function open(number) {
    let data;
    try {
      data = await api("GET", `/api/tables/${tableId}/hands/${number}`);
    } catch (error) {
      viewer.hidden = false;
      stage.hidden = true;
      problem.hidden = false;
      problem.textContent = error.message;
      return;
    }
    replay = { number, ...replayPhh(data.phh ?? ""), equity: null };
    at = 0;
    viewer.hidden = false;
    stage.hidden = false;
    problem.hidden = true;
    equities.hidden = true;
    draw();
    if (data.training) loadEquity(replay);
    viewer.scrollIntoView({ block: "nearest" });
    controls.querySelector("button[data-step='next-street']").focus();
  }

  /** The first step of the next (direction 1) or current/previous (direction -1) street. */
  function streetStart(direction) {
    const steps = replay.steps;
    if (direction > 0) {
      const street = steps[at].street;
      const next = steps.findIndex((s, i) => i > at && s.street > street);
      return next < 0 ? steps.length - 1 : next;
    }
    const street = steps[at].street;
    const start = steps.findIndex((s) => s.street === street);
    if (start < at) return start;
    const prev = steps.findIndex((s) => s.street === street - 1);
    return prev < 0 ? 0 : prev;
  }

  /** A training hand's equities: fetched once per opening, then a table of every street and shown per step. */
  async function loadEquity(shown) {
    let data;
    try {
      data = await api("GET", `/api/tables/${tableId}/hands/${shown.number}/equity`);
    } catch (error) {
      if (replay !== shown) return;
      equities.hidden = false;
      equities.replaceChildren(el("p", { class: "error" }, `Equities: ${error.message}`));
      return;
    }
    if (replay !== shown) return; // another hand was opened meanwhile
    shown.equity = {};
    for (const s of data.streets) {
      shown.equity[s.street] = Object.fromEntries(s.players.map((p) => [p.seat, p]));
    }
    const seats = [];
    for (const s of data.streets) for (const p of s.players) if (!seats.some((x) => x.seat === p.seat)) seats.push(p);
    equities.hidden = false;
    equities.replaceChildren(
      el(
        "table",
        {},
        el("caption", {}, "Equity by street: against the actual cards / against the up cards (training table)"),
        el(
          "thead",
          {},
          el("tr", {}, el("th", { scope: "col" }, "Player"), ...data.streets.map((s) => el("th", { scope: "col" }, s.name))),
        ),
        el(
          "tbody",
          {},
          ...seats.map((who) =>
            el(
              "tr",
              {},
              el("th", { scope: "row" }, who.name),
              ...data.streets.map((s) => {
                const p = shown.equity[s.street][who.seat];
                return el("td", { class: "num" }, p ? `${percent(p.actual)} / ${percent(p.ranged)}` : "–");
              }),
            ),
          ),
        ),
      ),
    );
    draw();
  }

  function go(to) {
    if (!replay) return;
    at = Math.max(0, Math.min(replay.steps.length - 1, to));
    draw();
  }

  function draw() {
    const steps = replay.steps;
    const step = steps[at];
    const street = step.street >= (replay.variant === "STUD5" ? 2 : 3) ? streetName(step.street) : "Antes";
    const downFirst = replay.variant === "STUD5" ? 1 : 2; // the hole cards dealt before the first up card
    title.textContent = `Hand #${replay.number}: ${street}, step ${at + 1} of ${steps.length}`;
    now.textContent = `${step.text} · pot ${chips(step.pot)}`;
    players.replaceChildren(
      ...step.players.map((p) =>
        el(
          "li",
          { class: p.folded ? "folded" : "" },
          el("strong", {}, p.name),
          ` (seat ${p.seat}) stack ${chips(p.stack)}`,
          p.bet ? `, bet ${chips(p.bet)}` : "",
          p.folded ? ", folded" : "",
          p.won ? `, won ${chips(p.won)}` : "",
          equityText(step.street, p.seat),
          el(
            "div",
            { class: "cards", role: "group", "aria-label": `${p.name}'s cards` },
            ...p.down.slice(0, downFirst).map((c) => cardElement(c, { down: true })),
            ...p.up.map((c) => cardElement(c)),
            ...p.down.slice(downFirst).map((c) => cardElement(c, { down: true })),
          ),
        ),
      ),
    );
    lines.replaceChildren(...steps.slice(0, at + 1).map((s) => el("li", {}, s.text)));
  }

  /** ", equity 61.2% (55.0% against the up cards)" on a training hand's street, else nothing. */
  function equityText(street, seat) {
    const p = replay.equity?.[street]?.[seat];
    return p ? `, equity ${percent(p.actual)} (${percent(p.ranged)} against the up cards)` : "";
  }

  refresh();
  return { refresh, open };
}

function percent(share) {
  return `${(100 * share).toFixed(1)}%`;
}
