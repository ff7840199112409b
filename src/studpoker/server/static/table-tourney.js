// A tournament's table: beside the sign, the tournament's level, a countdown to the next level, the viewer's place
// (his rank by stack among the players left) and a link to the tournament's page. The tournament's detail is read
// again every few seconds; the countdown ticks every second.

import { chips, el } from "./common.js";
import { state } from "./table-model.js";
import { Countdown, levelText, ordinal, tournamentDetail } from "./tourney.js";

const countdown = new Countdown();
let watching = null; // the tournament whose detail is read
let detail = null;
let timer = null;

/** Called on every redraw of the table page: starts (or stops) reading the tournament of the table's sign. */
export function renderTourney() {
  const id = state.table?.tournament_id ?? null;
  if (id === watching) return;
  watching = id;
  detail = null;
  clearInterval(timer);
  timer = null;
  const line = document.getElementById("tourney-line");
  line.hidden = !id;
  line.replaceChildren();
  if (!id) return;
  read();
  timer = setInterval(read, 3000);
}

async function read() {
  const id = watching;
  try {
    const answer = await tournamentDetail(id);
    if (id !== watching) return;
    detail = answer;
    countdown.set(answer.clock);
  } catch {
    return; // the next read tries again; the line keeps what it said
  }
  draw();
}

/** The viewer's standing: "2nd of 5 (1,840 chips)" while he plays, "out in 4th" once out, null for a watcher. */
function standing() {
  const name = state.me?.username;
  if (!name || !detail) return null;
  const mine = detail.players.find((p) => !p.bot && p.name === name);
  if (!mine) return null;
  if (mine.status === "out") return mine.place === 1 ? "you won" : `out in ${ordinal(mine.place)}`;
  if (mine.status !== "playing") return null;
  const playing = detail.players.filter((p) => p.status === "playing");
  const rank = 1 + playing.filter((p) => (p.stack ?? 0) > (mine.stack ?? 0)).length;
  return `you are ${ordinal(rank)} of ${playing.length}`;
}

function draw() {
  const line = document.getElementById("tourney-line");
  if (!detail) return;
  const parts = [];
  if (detail.status === "running" && detail.clock) {
    parts.push(el("span", { class: "tourney-level" }, levelText(detail.clock).replace(/:.*/, "")));
    parts.push(el("span", { class: "tourney-countdown" }, countdown.text()));
  } else {
    parts.push(el("span", {}, detail.status === "finished" ? "Tournament over" : detail.status));
  }
  const place = standing();
  if (place) parts.push(el("span", { class: "tourney-place" }, place));
  if (detail.status === "running") parts.push(el("span", {}, `avg ${chips(detail.average_stack)}`));
  parts.push(el("a", { href: `/tournament/${detail.id}`, class: "tourney-link" }, detail.name));
  line.replaceChildren(...parts.flatMap((part, i) => (i ? [" · ", part] : [part])));
}

setInterval(() => {
  const node = document.querySelector("#tourney-line .tourney-countdown");
  if (node && detail?.clock) {
    const text = countdown.text();
    if (node.textContent !== text) node.textContent = text;
  }
}, 1000);
