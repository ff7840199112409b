// A player's preferences (four-colour deck, sound and its volume, auto-muck, muted chat names, the HUD and its
// statistics) and the table's sounds.
// Signed-in players keep them on their account (GET/POST /api/me/preferences) so every device and tab agrees;
// visitors keep them in this browser (localStorage). Sounds are synthesised with the Web Audio API: no files.

import { api } from "./common.js";

const DEFAULTS = { four_color: false, sound: true, volume: 70, auto_muck: false, muted: [], hud: false, hud_stats: [] };
const LOCAL_KEY = "studpoker.preferences";

export const prefs = { ...DEFAULTS };
let signedIn = false;
const listeners = [];

/** Calls `fn(prefs)` now and after every change. */
export function onPrefs(fn) {
  listeners.push(fn);
  fn(prefs);
}

function changed() {
  document.documentElement.classList.toggle("four-color", Boolean(prefs.four_color));
  for (const fn of listeners) fn(prefs);
}

/** Loads the preferences: the account's when signed in, else this browser's. */
export async function loadPrefs(me) {
  signedIn = Boolean(me);
  let loaded = null;
  if (signedIn) {
    try {
      loaded = await api("GET", "/api/me/preferences");
    } catch {
      loaded = null; // an older server or a hiccup: the defaults will do
    }
  } else {
    try {
      loaded = JSON.parse(localStorage.getItem(LOCAL_KEY) ?? "null");
    } catch {
      loaded = null;
    }
  }
  if (loaded && typeof loaded === "object") {
    for (const key of Object.keys(DEFAULTS)) if (key in loaded) prefs[key] = loaded[key];
  }
  if (!Array.isArray(prefs.muted)) prefs.muted = [];
  changed();
}

/** Changes some preferences and saves them (on the account, or in this browser). */
export async function setPrefs(change) {
  Object.assign(prefs, change);
  changed();
  if (signedIn) {
    try {
      const saved = await api("POST", "/api/me/preferences", change);
      if (saved && typeof saved === "object") Object.assign(prefs, saved);
    } catch {
      // kept for this page; the next change tries again
    }
  } else {
    localStorage.setItem(LOCAL_KEY, JSON.stringify(prefs));
  }
}

/** Whether chat from `name` is muted (names compare without case, as usernames do). */
export function isMuted(name) {
  const key = String(name ?? "").toLowerCase();
  return prefs.muted.some((m) => String(m).toLowerCase() === key);
}

// -- sound ---------------------------------------------------------------------------------------------

let audio = null;

/** Browsers start audio only after a gesture: the first click or key on the page makes the context. */
function unlock() {
  if (audio) return;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (Context) audio = new Context();
}
document.addEventListener("pointerdown", unlock, { once: true });
document.addEventListener("keydown", unlock, { once: true });

const SOUNDS = {
  deal: [{ freq: 1800, at: 0, length: 0.03, type: "triangle", gain: 0.25 }],
  turn: [
    { freq: 660, at: 0, length: 0.12, type: "sine", gain: 0.5 },
    { freq: 880, at: 0.13, length: 0.18, type: "sine", gain: 0.5 },
  ],
  hurry: [
    { freq: 990, at: 0, length: 0.08, type: "square", gain: 0.2 },
    { freq: 990, at: 0.16, length: 0.08, type: "square", gain: 0.2 },
  ],
  chips: [{ freq: 2600, at: 0, length: 0.04, type: "triangle", gain: 0.2 }],
};

/** Plays one of the table's sounds ("deal", "turn", "hurry", "chips") unless sound is off. */
export function play(name) {
  if (!prefs.sound || !audio || audio.state === "closed") return;
  const notes = SOUNDS[name];
  if (!notes) return;
  const now = audio.currentTime;
  const volume = Math.max(0, Math.min(100, Number(prefs.volume) || 0)) / 100;
  for (const note of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = note.type;
    osc.frequency.value = note.freq;
    gain.gain.setValueAtTime(note.gain * volume, now + note.at);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + note.at + note.length);
    osc.connect(gain).connect(audio.destination);
    osc.start(now + note.at);
    osc.stop(now + note.at + note.length + 0.02);
  }
}
