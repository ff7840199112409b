// What the tournament pages and a tournament's table share: times and countdowns, the clock's words, the places.

import { api } from "./common.js";

/** An ISO time of the API ("2026-01-31T20:00:00Z") as the browser's local time, or null. */
export function when(iso) {
  if (!iso) return null;
  const moment = new Date(iso);
  if (Number.isNaN(moment.getTime())) return null;
  const today = new Date().toDateString() === moment.toDateString();
  return today
    ? moment.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : moment.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

/** When a registering tournament starts: a sit-and-go when full, a scheduled one at its time. */
export function startText(t) {
  if (t.starts_at) return when(t.starts_at);
  const missing = t.max_entries - t.entries;
  return missing > 0 ? `when full (${missing} more)` : "now";
}

/** Seconds as "m:ss" (or "h:mm:ss"). */
export function clockText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** 1 -> "1st", 2 -> "2nd", 11 -> "11th". */
export function ordinal(n) {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] ?? "th");
  return `${n}${suffix}`;
}

/** The level now, in words: "Level 3: 80/160, ante 10, bring-in 25", "Break", or "" before the start. */
export function levelText(clock) {
  if (!clock) return "";
  return clock.on_break ? "Break" : `Level ${clock.level}: ${clock.stakes_text}`;
}

/**
 * A countdown to the next period, from the clock the API gave (`seconds_left` when it was read): call `text()`
 * every second. "" when there is no next period (the last level is played to its end).
 */
export class Countdown {
  constructor() {
    this.clock = null;
    this.at = 0;
  }

  set(clock) {
    this.clock = clock;
    this.at = performance.now();
  }

  /** Seconds to the next period now, or null. */
  left() {
    if (this.clock?.seconds_left == null) return null;
    return Math.max(0, this.clock.seconds_left - (performance.now() - this.at) / 1000);
  }

  text() {
    const left = this.left();
    if (left === null) return this.clock ? "last level" : "";
    const next = this.clock.next_level ? `level ${this.clock.next_level}` : "the next level";
    return `${clockText(left)} to ${this.clock.on_break ? `the end of the break (${next})` : next}`;
  }
}

/** A tournament's detail (GET /api/tournaments/{id}). */
export function tournamentDetail(id) {
  return api("GET", `/api/tournaments/${id}`);
}
