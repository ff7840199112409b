// The hand replayer: lists a table's past hands (GET /api/tables/{id}/hands) and steps through one of them,
// street by street or action by action, from its PHH text (GET /api/tables/{id}/hands/{n}).
// Used by the history page and by the "History" tab of the table page.

import { api, cardElement, chips, el } from "./common.js";
import { replayPhh, streetName } from "./poker.js";

/** Mounts a list of hands and a replayer in `container`; returns {refresh, open(number)}. */
export function mountReplayer(container, tableId, { limit = 20, compact = false } = {}) {
  const list = el("div", { class: "hand-list" });
  const viewer = el("div", { class: "replayer", hidden: true });
  container.replaceChildren(viewer, list);
  let replay = null; // {number, steps, variant}
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
    // The compact list (the table page's side panel) leaves out the players.
    list.replaceChildren(
      el(
        "table",
        { class: "data" },
        el("caption", { class: "visually-hidden" }, "Past hands"),
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", {}, "Hand"),
            compact ? null : el("th", {}, "Players"),
            el("th", { class: "num" }, "Pot"),
            el("th", {}, "Winners"),
            el("th", {}, el("span", { class: "visually-hidden" }, "Replay")),
          ),
        ),
        el(
          "tbody",
          {},
          data.hands.map((h) => {
            const names = new Map(h.players.map((p) => [p.seat, p.name]));
            return el(
              "tr",
              { dataset: { hand: h.number } },
              el("td", {}, `#${h.number}`),
              compact ? null : el("td", {}, h.players.map((p) => p.name).join(", ")),
              el("td", { class: "num" }, chips(h.pot)),
              el(
                "td",
                {},
                h.status === "voided" ? "voided" : h.winners.map((s) => names.get(s) ?? `seat ${s}`).join(", "),
              ),
              el(
                "td",
                {},
                h.status === "voided"
                  ? ""
                  : el(
                      "button",
                      {
                        type: "button",
                        class: "secondary",
                        "aria-label": `Replay hand ${h.number}`,
                        onclick: () => open(h.number),
                      },
                      "Replay",
                    ),
                " ",
                h.status === "voided"
                  ? ""
                  : el(
                      "a",
                      {
                        href: `/api/tables/${tableId}/hands/${h.number}.phh`,
                        "aria-label": `Download hand ${h.number} as PHH`,
                      },
                      "PHH",
                    ),
              ),
            );
          }),
        ),
      ),
    );
  }

  async function open(number) {
    let data;
    try {
      data = await api("GET", `/api/tables/${tableId}/hands/${number}`);
    } catch (error) {
      viewer.hidden = false;
      viewer.replaceChildren(el("p", { class: "error" }, error.message));
      return;
    }
    replay = { number, ...replayPhh(data.phh ?? "") };
    at = 0;
    viewer.hidden = false;
    draw();
    viewer.scrollIntoView({ block: "nearest" });
    viewer.querySelector("button[data-step='next-street']")?.focus();
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

  function go(to) {
    at = Math.max(0, Math.min(replay.steps.length - 1, to));
    draw();
  }

  function draw() {
    const steps = replay.steps;
    const step = steps[at];
    const controls = el(
      "div",
      { class: "replay-controls", role: "group", "aria-label": "Replay controls" },
      el(
        "button",
        { type: "button", class: "secondary", dataset: { step: "start" }, onclick: () => go(0) },
        "|◀ Start",
      ),
      el(
        "button",
        { type: "button", class: "secondary", dataset: { step: "prev-street" }, onclick: () => go(streetStart(-1)) },
        "◀◀ Street",
      ),
      el(
        "button",
        { type: "button", class: "secondary", dataset: { step: "prev" }, onclick: () => go(at - 1) },
        "◀ Step",
      ),
      el(
        "button",
        { type: "button", class: "secondary", dataset: { step: "next" }, onclick: () => go(at + 1) },
        "Step ▶",
      ),
      el(
        "button",
        { type: "button", dataset: { step: "next-street" }, onclick: () => go(streetStart(1)) },
        "Street ▶▶",
      ),
      el(
        "button",
        { type: "button", class: "secondary", dataset: { step: "end" }, onclick: () => go(steps.length - 1) },
        "End ▶|",
      ),
    );
    const street = step.street >= (replay.variant === "STUD5" ? 2 : 3) ? streetName(step.street) : "Antes";
    const players = el(
      "ul",
      { class: "replay-players" },
      step.players.map((p) =>
        el(
          "li",
          { class: p.folded ? "folded" : "" },
          el("strong", {}, p.name),
          ` (seat ${p.seat}) stack ${chips(p.stack)}`,
          p.bet ? `, bet ${chips(p.bet)}` : "",
          p.folded ? ", folded" : "",
          p.won ? `, won ${chips(p.won)}` : "",
          el(
            "div",
            { class: "cards", role: "group", "aria-label": `${p.name}'s cards` },
            ...p.down.slice(0, replay.variant === "STUD5" ? 1 : 2).map((c) => cardElement(c, { down: true })),
            ...p.up.map((c) => cardElement(c)),
            ...p.down.slice(replay.variant === "STUD5" ? 1 : 2).map((c) => cardElement(c, { down: true })),
          ),
        ),
      ),
    );
    const lines = el(
      "ol",
      { class: "log" },
      steps.slice(0, at + 1).map((s) => el("li", {}, s.text)),
    );
    viewer.replaceChildren(
      el("h3", {}, `Hand #${replay.number}: ${street}, step ${at + 1} of ${steps.length}`),
      controls,
      el("p", { class: "replay-now", "aria-live": "polite" }, `${step.text} · pot ${chips(step.pot)}`),
      players,
      el("details", {}, el("summary", {}, "Log so far"), lines),
    );
  }

  refresh();
  return { refresh, open };
}
