// Stud knowledge the pages need on their own: names of hands at the showdown, street names, action words,
// and reading a PHH hand history into steps for the replayer. Plain ES module, no dependencies.

const RANKS = "23456789TJQKA";
const NOUNS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace"];
const PLURALS = NOUNS.map((n) => (n === "six" ? "sixes" : n + "s"));
const LOW_CHARS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"]; // ace-low order

/** Every k-card subset of `cards` (k <= cards.length; at most 21 for seven cards). */
function combinations(cards, k) {
  const out = [];
  const pick = (start, chosen) => {
    if (chosen.length === k) return out.push(chosen.slice());
    for (let i = start; i < cards.length; i++) {
      chosen.push(cards[i]);
      pick(i + 1, chosen);
      chosen.pop();
    }
  };
  pick(0, []);
  return out;
}

/** Compares two arrays of numbers left to right. */
function compare(a, b) {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

/** Ranks grouped by count, biggest group first then highest rank: [[rank, count], ...]. */
function groups(ranks) {
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
}

/** Score of five cards for high: [category, tie-breaking ranks...]; category 8 = straight flush. */
function highScore(five) {
  const ranks = five.map((c) => RANKS.indexOf(c[0]));
  const flush = five.every((c) => c[1] === five[0][1]);
  const g = groups(ranks);
  const distinct = g.map(([r]) => r);
  let straightTop = -1;
  if (g.length === 5) {
    if (distinct[0] - distinct[4] === 4) straightTop = distinct[0];
    else if (distinct[0] === 12 && distinct[1] === 3) straightTop = 3; // the wheel, five high
  }
  const shape = g.map(([, n]) => n).join("");
  let category;
  if (straightTop >= 0 && flush) category = 8;
  else if (shape === "41") category = 7;
  else if (shape === "32") category = 6;
  else if (flush) category = 5;
  else if (straightTop >= 0) category = 4;
  else if (shape === "311") category = 3;
  else if (shape === "221") category = 2;
  else if (shape === "2111") category = 1;
  else category = 0;
  return straightTop >= 0 ? [category, straightTop] : [category, ...distinct];
}

const HIGH_WORDS = [
  (r) => `High card, ${NOUNS[r[0]]}`,
  (r) => `Pair of ${PLURALS[r[0]]}`,
  (r) => `Two pair, ${PLURALS[r[0]]} and ${PLURALS[r[1]]}`,
  (r) => `Three of a kind, ${PLURALS[r[0]]}`,
  (r) => `Straight, ${NOUNS[r[0]]} high`,
  (r) => `Flush, ${NOUNS[r[0]]} high`,
  (r) => `Full house, ${PLURALS[r[0]]} full of ${PLURALS[r[1]]}`,
  (r) => `Four of a kind, ${PLURALS[r[0]]}`,
  (r) => `Straight flush, ${NOUNS[r[0]]} high`,
];

/** The best high hand of the known cards, in words ("Two pair, aces and sevens"), or "" for none. */
export function highName(cards) {
  const known = cards.filter(Boolean);
  if (known.length === 0) return "";
  const size = Math.min(5, known.length);
  let best = null;
  for (const five of combinations(known, size)) {
    const score = size === 5 ? highScore(five) : partialScore(five);
    if (!best || compare(score, best) > 0) best = score;
  }
  return HIGH_WORDS[best[0]](best.slice(1));
}

/** Fewer than five cards (a hand not dealt out): pairs, trips and quads only. */
function partialScore(cards) {
  const g = groups(cards.map((c) => RANKS.indexOf(c[0])));
  const shape = g.map(([, n]) => n).join("");
  const category = shape.startsWith("4")
    ? 7
    : shape.startsWith("3")
      ? 3
      : shape.startsWith("22")
        ? 2
        : shape.startsWith("2")
          ? 1
          : 0;
  return [category, ...g.map(([r]) => r)];
}

/**
 * The best ace-to-five low of the known cards (straights and flushes do not count).
 * `qualifier` 8: only five different ranks eight or lower ("7-6-3-2-A low"), else null.
 * Without a qualifier (razz) paired hands count: "Pair of twos, K-Q-3-2-2".
 */
export function lowName(cards, qualifier = null) {
  const known = cards.filter(Boolean).map((c) => (c[0] === "A" ? 0 : RANKS.indexOf(c[0]) + 1));
  if (known.length < 5) return null;
  let best = null;
  for (const five of combinations(known, 5)) {
    const g = groups(five);
    const shape = g.map(([, n]) => n).join("");
    const category = { 11111: 0, 2111: 1, 221: 2, 311: 3, 32: 4, 41: 5 }[shape];
    const score = [category, ...five.slice().sort((a, b) => b - a)];
    if (qualifier !== null && (category !== 0 || score[1] >= qualifier)) continue;
    if (!best || compare(score, best) < 0) best = score;
  }
  if (!best) return null;
  const spelled = best
    .slice(1)
    .map((r) => LOW_CHARS[r])
    .join("-");
  if (best[0] === 0) return `${spelled} low`;
  const g = groups(best.slice(1)).map(([r]) => PLURALS[r === 0 ? 12 : r - 1]);
  const words = [
    `Pair of ${g[0]}`,
    `Two pair, ${g[0]} and ${g[1]}`,
    `Three of a kind, ${g[0]}`,
    `Full house, ${g[0]} full of ${g[1]}`,
    `Four of a kind, ${g[0]}`,
  ][best[0] - 1];
  return `${words}, ${spelled}`;
}

/** What a shown hand is in this variant: "Flush, ace high", "Two pair...; low 7-5-4-2-A", "8-6-4-3-2 low". */
export function handName(variant, cards) {
  if (variant === "RAZZ") return lowName(cards) ?? "";
  const high = highName(cards);
  if (variant === "STUD7_HL8") {
    const low = lowName(cards, 8);
    return low ? `${high}; low ${low.replace(/ low$/, "")}` : `${high}; no low`;
  }
  return high;
}

/** "3rd street", "4th street"... */
export function streetName(street) {
  const suffix = { 1: "st", 2: "nd", 3: "rd" }[street] ?? "th";
  return `${street}${suffix} street`;
}

/**
 * The words of an action as a button or a log line says them: "bring in 3", "complete to 10", "raise to 20", and
 * "call 7", where a call says what it adds (`added`: the chips it puts in), not the street's total: the rule of
 * the server's labels (studpoker.engine.action_words), for what the page words itself (the replayer).
 */
export function actionWords(action, amount, added = amount) {
  switch (action) {
    case "bring-in":
    case "bring_in":
      return `bring in ${amount}`;
    case "complete":
      return `complete to ${amount}`;
    case "bet":
      return `bet ${amount}`;
    case "raise":
      return `raise to ${amount}`;
    case "call":
      return `call ${added}`;
    default:
      return action; // fold, check, show, muck
  }
}

/** Capitalised, for a button: "Complete to 10", "Call 7". */
export function actionLabel(action, amount, added = amount) {
  const words = actionWords(action, amount, added);
  return words[0].toUpperCase() + words.slice(1);
}

// -- PHH ---------------------------------------------------------------------------------------------

const PHH_VARIANTS = { F7S: "STUD7", "F7S/8": "STUD7_HL8", FR: "RAZZ", F5S: "STUD5" };

/** Reads the `key = value` lines of one PHH hand (strings, numbers, booleans and flat arrays of them). */
export function parsePhh(text) {
  const doc = {};
  for (const line of text.split("\n")) {
    const match = /^\s*([A-Za-z_][\w]*)\s*=\s*(.*)$/.exec(line);
    if (!match || match[2].startsWith("{")) continue; // inline tables (_rules, _session) are not needed
    try {
      doc[match[1]] = JSON.parse(match[2].replace(/'/g, '"')); // TOML's flat arrays and scalars read as JSON
    } catch {
      doc[match[1]] = match[2];
    }
  }
  return doc;
}

/**
 * Replays a PHH hand into a list of steps for the replayer. Each step is a snapshot:
 * {street, text, pot, players: [{name, seat, stack, bet, total, folded, up: [...], down: [...], shown, won}]}:
 * the antes, then each street's cards as one step, each action, and the result.
 * Stud deals: on the first street two down and one up (five-card stud: one and one), then up, the last one down.
 */
export function replayPhh(text) {
  const doc = parsePhh(text);
  const variant = PHH_VARIANTS[doc.variant] ?? "STUD7";
  const names = doc.players ?? [];
  const n = (doc.starting_stacks ?? names).length;
  const seats = doc.seats ?? names.map((_, i) => i + 1);
  const first = variant === "STUD5" ? 2 : 3;
  const last = variant === "STUD5" ? 5 : 7;
  const players = Array.from({ length: n }, (_, i) => ({
    name: names[i] ?? `p${i + 1}`,
    seat: seats[i],
    stack: doc.starting_stacks?.[i] ?? 0,
    bet: 0,
    total: 0,
    folded: false,
    up: [],
    down: [],
    shown: null,
  }));
  const antes = Array.isArray(doc.antes) ? doc.antes : Array(n).fill(doc.antes ?? 0);
  let street = first - 1;
  let dealtThisStreet = new Set();
  let high = 0;
  let acted = false; // a player acted since the last card was dealt
  const steps = [];
  const pot = () => players.reduce((sum, p) => sum + p.total, 0);
  const snap = (textLine, potNow = pot()) =>
    steps.push({
      street,
      text: textLine,
      pot: potNow,
      players: players.map((p) => ({ ...p, up: [...p.up], down: [...p.down] })),
    });
  const put = (p, roundTotal) => {
    const more = Math.min(roundTotal - p.bet, p.stack);
    p.stack -= more;
    p.bet += more;
    p.total += more;
  };
  players.forEach((p, i) => {
    const ante = Math.min(antes[i] ?? 0, p.stack);
    p.stack -= ante;
    p.total += ante;
  });
  snap("Antes posted");
  // The cards of a street make one step, taken when the first action after them comes.
  let dealing = false;
  const dealtStep = () => {
    if (dealing) snap(`${streetName(street)}: cards dealt`);
    dealing = false;
  };
  for (const raw of doc.actions ?? []) {
    const [body] = raw.split("#");
    const parts = body.trim().split(/\s+/);
    if (parts.length < 2) continue;
    if (parts[0] === "d" && parts[1] === "dh") {
      const who = Number(parts[2].slice(1)) - 1;
      if (street < first || acted || dealtThisStreet.has(who)) {
        // A new street begins with the first card of it.
        dealtStep();
        street += 1;
        dealtThisStreet = new Set();
        players.forEach((p) => (p.bet = 0));
        high = 0;
        acted = false;
      }
      dealtThisStreet.add(who);
      const cards = (parts[3] ?? "").match(/.{2}/g) ?? [];
      cards.forEach((card, k) => {
        const c = card === "??" ? null : card;
        const up = street === first ? k === cards.length - 1 : street !== last || variant === "STUD5";
        (up ? players[who].up : players[who].down).push(c);
      });
      dealing = true;
      continue;
    }
    dealtStep();
    if (parts[0] === "d" && parts[1] === "db") {
      snap(`Community card ${parts[2]}`);
      continue;
    }
    const p = players[Number(parts[0].slice(1)) - 1];
    if (!p) continue;
    acted = true;
    let words;
    switch (parts[1]) {
      case "pb":
        put(p, doc.bring_in ?? 0);
        high = Math.max(high, p.bet);
        words = `brings in ${p.bet}`;
        break;
      case "cc":
        if (high > p.bet) {
          const before = p.bet;
          put(p, high);
          words = `calls ${p.bet - before}`;
        } else words = "checks";
        break;
      case "cbr": {
        const before = high;
        put(p, Number(parts[2]));
        high = Math.max(high, p.bet);
        words =
          before === 0
            ? `bets ${p.bet}`
            : before < (doc.small_bet ?? 0) && street === first
              ? `completes to ${p.bet}`
              : `raises to ${p.bet}`;
        break;
      }
      case "f":
        p.folded = true;
        words = "folds";
        break;
      case "sm":
        if (parts[2] && parts[2] !== "-") {
          p.shown = parts[2].match(/.{2}/g);
          words = `shows ${p.shown.join(" ")}: ${handName(variant, p.shown)}`;
        } else {
          p.folded = true;
          words = "mucks";
        }
        break;
      default:
        words = parts.slice(1).join(" ");
    }
    snap(`${p.name} ${words}`);
  }
  dealtStep();
  // The result: the finishing stacks say who won what.
  const finish = doc.finishing_stacks;
  if (Array.isArray(finish)) {
    const lines = [];
    const final = pot();
    players.forEach((p, i) => {
      // What came back to him: his stack at the end less what he had left after betting.
      p.won = Math.max(0, finish[i] - p.stack);
      p.stack = finish[i];
      p.bet = 0;
      if (p.won) lines.push(`${p.name} wins ${p.won}`);
    });
    snap(lines.join(", ") || "Hand over", final);
  }
  return { variant, hand: doc.hand, table: doc.table, names, steps };
}
