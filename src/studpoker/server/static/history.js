// The history page (/history/{table_id}): the table's past hands, each replayable street by street.

import { api, header } from "./common.js";
import { mountReplayer } from "./replayer.js";

const tableId = Number(location.pathname.split("/").filter(Boolean).pop());

(async () => {
  header();
  document.getElementById("back").href = `/table/${tableId}`;
  try {
    const table = await api("GET", `/api/tables/${tableId}`);
    document.getElementById("title").textContent = `Hand histories: ${table.name}`;
    document.getElementById("sign").textContent =
      `${table.variant_name} (${table.preset}), ${table.stakes_text}, minimum buy-in ${table.min_buy_in}` +
      (table.training ? ". A training table: practice chips; every card is shown, with each player's equity." : "");
    document.title = `Histories of ${table.name} · studpoker`;
  } catch {
    // The list below says what went wrong.
  }
  const replayer = mountReplayer(document.getElementById("hands"), tableId, { limit: 100 });
  const wanted = Number(new URLSearchParams(location.search).get("hand"));
  if (wanted) replayer.open(wanted);
})();
