// The cashier: the account's balance, its seats (chips at tables) and its ledger.

import { api, cell, chips, el, requireLogin, say } from "./common.js";

const KINDS = { grant: "Starting chips", buy_in: "Buy-in", top_up: "Top-up", cash_out: "Cash-out" };

(async () => {
  const me = await requireLogin();
  if (!me) return;
  document.getElementById("balance").textContent = chips(me.balance);
  const seats = me.seats ?? [];
  document
    .getElementById("seat-rows")
    .replaceChildren(
      ...(seats.length
        ? seats.map((s) =>
            el(
              "tr",
              {},
              cell("td", {}, "Table", el("a", { href: `/table/${s.table_id}` }, s.table)),
              cell("td", { class: "num" }, "Seat", s.seat),
              cell(
                "td",
                { class: "num" },
                "Stack",
                chips(s.stack) + (s.queued ? ` (+${chips(s.queued)} queued)` : ""),
              ),
              cell("td", {}, "State", s.sitting_out ? "sitting out" : "playing"),
            ),
          )
        : [el("tr", {}, el("td", { colspan: 4 }, "You are not sitting at any table."))]),
    );
  try {
    const ledger = await api("GET", "/api/ledger?limit=100");
    document
      .getElementById("ledger-rows")
      .replaceChildren(
        ...ledger.entries.map((e) =>
          el(
            "tr",
            {},
            cell("td", {}, "When", new Date(e.at).toLocaleString()),
            cell("td", {}, "What", KINDS[e.kind] ?? e.kind),
            cell("td", { class: "num" }, "Amount", (e.amount > 0 ? "+" : "") + chips(e.amount)),
            cell("td", {}, "Memo", e.table_id ? el("a", { href: `/table/${e.table_id}` }, e.memo) : e.memo),
          ),
        ),
      );
  } catch (error) {
    say("status", error.message, true);
  }
})();
