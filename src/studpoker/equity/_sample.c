/* Compiled Monte Carlo loops for studpoker.equity.montecarlo (optional; see docs/performance.md).
 *
 * The two samplers' inner loops: picking completions (with their values, handed over by Python) and
 * dealing by partial shuffles, and the tally of the trials' codes. No hand is evaluated here: the
 * values come from the evaluation kernel or NumPy, so every path rests on the same evaluators.
 *
 * Random numbers: xoshiro256** with a 32-byte state that the caller seeds (from NumPy's
 * SeedSequence, one stream per chunk) and gets back advanced; integers in [0, n) by
 * Lemire's multiply-and-reject method, exactly uniform.
 *
 * Only the CPython C API and the buffer protocol are used (no NumPy headers).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_PLAYERS 10
#define LOW_BITS 6
#define LOW_MASK ((1 << LOW_BITS) - 1)
#define PICKS 32 /* trials drawn ahead so that their table reads overlap */
#define MAX_TRIES (1u << 26) /* picks in a row that do not fit before giving up: no completion can fit */

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif

/* ---- random numbers ------------------------------------------------------------------------ */

typedef struct {
    uint64_t s[4];
} rng_t;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next64(rng_t *r) {
    uint64_t *s = r->s;
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform in [0, n), n >= 1, exactly (Lemire 2019: reject the few low products that bias). */
static inline uint32_t below(rng_t *r, uint32_t n) {
    uint64_t m = (next64(r) >> 32) * (uint64_t)n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t floor = (uint32_t)(-n) % n;
        while (low < floor) {
            m = (next64(r) >> 32) * (uint64_t)n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* Two uniform picks at once, one in [0, na) and one in [0, nb), from the two halves of one draw (each
 * half exactly uniform as in below(); a half that must be rejected is redrawn on its own). */
static inline void pair(rng_t *r, uint32_t na, uint32_t nb, uint32_t *x, uint32_t *y) {
    const uint64_t z = next64(r);
    uint64_t ma = (z >> 32) * (uint64_t)na, mb = (z & 0xFFFFFFFFu) * (uint64_t)nb;
    uint32_t ia = (uint32_t)(ma >> 32), ib = (uint32_t)(mb >> 32);
    if ((uint32_t)ma < na && (uint32_t)ma < (uint32_t)(-na) % na) ia = below(r, na);
    if ((uint32_t)mb < nb && (uint32_t)mb < (uint32_t)(-nb) % nb) ib = below(r, nb);
    *x = ia;
    *y = ib;
}

static int get_state(PyObject *obj, Py_buffer *view, rng_t *r) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != 32) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "the random state is 32 bytes");
        return -1;
    }
    memcpy(r->s, view->buf, 32);
    if ((r->s[0] | r->s[1] | r->s[2] | r->s[3]) == 0) r->s[0] = 1; /* the one state xoshiro cannot leave */
    return 0;
}

static void put_state(Py_buffer *view, const rng_t *r) {
    memcpy(view->buf, r->s, 32);
    PyBuffer_Release(view);
}

/* ---- trial codes ----------------------------------------------------------------------------- */

/* The code of one trial (see montecarlo._codes): bit p for each best high hand; in hi/lo the high
 * bits shifted up by n, below them bit p for each best qualifying low (none if no low qualifies). */
static inline uint32_t code_of(const int32_t *v, int n, int hilo) {
    if (!hilo) {
        int32_t best = v[0];
        for (int p = 1; p < n; p++)
            if (v[p] > best) best = v[p];
        uint32_t code = 0;
        for (int p = 0; p < n; p++) code |= (uint32_t)(v[p] == best) << p;
        return code;
    }
    int32_t best = v[0] >> LOW_BITS, best_low = v[0] & LOW_MASK;
    for (int p = 1; p < n; p++) {
        int32_t h = v[p] >> LOW_BITS, l = v[p] & LOW_MASK;
        if (h > best) best = h;
        if (l > best_low) best_low = l;
    }
    uint32_t high = 0, low = 0;
    for (int p = 0; p < n; p++) {
        high |= (uint32_t)((v[p] >> LOW_BITS) == best) << p;
        low |= (uint32_t)((v[p] & LOW_MASK) == best_low) << p;
    }
    return (high << n) | (best_low ? low : 0);
}

/* ---- the completions sampler ----------------------------------------------------------------- */

typedef struct {
    uint64_t mask;
    int32_t value;
    int32_t pad;
} entry_t; /* one completion: its cards (pool positions) and its value, 16 bytes, one cache line read */

/* completions(tables, state, trials, drop, hilo, counts) -> None
 * tables: one buffer of 16-byte entries per player (a player with nothing to get has one entry);
 * each trial picks one entry per player in seat order, again while it shares a card with the earlier
 * picks, or with `drop` (heads-up) throws away the trial whose last pick clashes. Adds each trial's
 * code into the int64 buffer counts (length 1 << n, or 1 << 2n in hi/lo). */
static PyObject *completions(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "completions(tables, state, trials, drop, hilo, counts)");
        return NULL;
    }
    PyObject *tables = args[0];
    if (!PyTuple_Check(tables)) {
        PyErr_SetString(PyExc_TypeError, "tables must be a tuple of buffers");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(tables);
    long long trials = PyLong_AsLongLong(args[2]);
    int drop = PyObject_IsTrue(args[3]), hilo = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || drop < 0 || hilo < 0) return NULL;
    if (n < 2 || n > MAX_PLAYERS || (hilo && n > 8) || trials < 0) {
        PyErr_SetString(PyExc_ValueError, "2..10 players (8 in hi/lo) and trials >= 0");
        return NULL;
    }
    Py_buffer views[MAX_PLAYERS], state, counts_view;
    const entry_t *rows[MAX_PLAYERS];
    uint32_t sizes[MAX_PLAYERS];
    Py_ssize_t got = 0;
    PyObject *result = NULL;
    rng_t rng;
    int have_state = 0, have_counts = 0;
    for (; got < n; got++) {
        if (PyObject_GetBuffer(PyTuple_GET_ITEM(tables, got), &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
        Py_ssize_t len = views[got].len / (Py_ssize_t)sizeof(entry_t);
        if (len < 1 || len > UINT32_MAX || views[got].len % (Py_ssize_t)sizeof(entry_t)) {
            got++;
            PyErr_SetString(PyExc_ValueError, "each table holds at least one 16-byte entry");
            goto done;
        }
        rows[got] = (const entry_t *)views[got].buf;
        sizes[got] = (uint32_t)len;
    }
    if (get_state(args[1], &state, &rng) < 0) goto done;
    have_state = 1;
    if (PyObject_GetBuffer(args[5], &counts_view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) goto done;
    have_counts = 1;
    if (counts_view.len != (Py_ssize_t)(8 << (hilo ? 2 * n : n))) {
        PyErr_SetString(PyExc_ValueError, "counts must hold one int64 per trial code");
        goto done;
    }
    int64_t *counts = (int64_t *)counts_view.buf;
    int last = -1, first = -1; /* the last player with a choice, and the one before him */
    for (int p = 0; p < n; p++)
        if (sizes[p] > 1) {
            first = last;
            last = p;
        }
    int stuck = 0;
    Py_BEGIN_ALLOW_THREADS
    int32_t v[MAX_PLAYERS];
    for (int p = 0; p < n; p++) v[p] = rows[p][0].value;
    if (drop && first >= 0) {
        /* two players with a choice (the others have none): pick both, keep the trial if they fit */
        const entry_t *a = rows[first], *b = rows[last];
        const uint32_t na = sizes[first], nb = sizes[last];
        long long done = 0;
        const entry_t *xs[PICKS], *ys[PICKS];
        int64_t first_best = 0, last_best = 0, tied = 0; /* heads-up high only: the trials won by each, tied */
        const int plain = n == 2 && !hilo;
        uint64_t misses = 0; /* picks in a row that did not fit */
        while (done < trials) {
            if (misses > MAX_TRIES) {
                stuck = 1;
                break;
            }
            /* draw a batch of picks and ask for their entries first: the reads then overlap */
            for (int j = 0; j < PICKS; j++) {
                uint32_t i, k;
                pair(&rng, na, nb, &i, &k);
                xs[j] = a + i;
                ys[j] = b + k;
                PREFETCH(xs[j]);
                PREFETCH(ys[j]);
            }
            if (plain && trials - done >= PICKS) {
                int kept = 0;
                for (int j = 0; j < PICKS && done + kept < trials; j++) {
                    const int fits = (xs[j]->mask & ys[j]->mask) == 0;
                    const int32_t vx = xs[j]->value, vy = ys[j]->value;
                    first_best += fits & (vx > vy);
                    last_best += fits & (vy > vx);
                    tied += fits & (vx == vy);
                    kept += fits;
                }
                done += kept;
                misses = kept ? 0 : misses + PICKS;
                continue;
            }
            for (int j = 0; j < PICKS && done < trials; j++) {
                if (xs[j]->mask & ys[j]->mask) {
                    misses++;
                    continue;
                }
                misses = 0;
                v[first] = xs[j]->value;
                v[last] = ys[j]->value;
                counts[code_of(v, (int)n, hilo)]++;
                done++;
            }
        }
        if (plain) { /* codes: 1 the first player's, 2 the last's, 3 both (a tie) */
            counts[1 << first] += first_best;
            counts[1 << last] += last_best;
            counts[(1 << first) | (1 << last)] += tied;
        }
    } else {
        const entry_t *firsts[PICKS][MAX_PLAYERS];
        for (long long t0 = 0; t0 < trials; t0 += PICKS) {
            const int batch = trials - t0 < PICKS ? (int)(trials - t0) : PICKS;
            for (int j = 0; j < batch; j++) /* each player's first pick of the batch's trials, asked for early */
                for (int p = 0; p < n; p++)
                    if (sizes[p] > 1) {
                        firsts[j][p] = rows[p] + below(&rng, sizes[p]);
                        PREFETCH(firsts[j][p]);
                    }
            for (int j = 0; j < batch; j++) {
                uint64_t taken = 0;
                for (int p = 0; p < n; p++) {
                    if (sizes[p] == 1) continue;
                    const entry_t *e = firsts[j][p];
                    for (uint32_t tries = 0; e->mask & taken; tries++) {
                        if (tries > MAX_TRIES) {
                            stuck = 1;
                            goto out;
                        }
                        e = rows[p] + below(&rng, sizes[p]);
                    }
                    taken |= e->mask;
                    v[p] = e->value;
                }
                counts[code_of(v, (int)n, hilo)]++;
            }
        }
    }
out:
    Py_END_ALLOW_THREADS
    if (stuck)
        PyErr_SetString(PyExc_ValueError, "no completion fits beside the others' (every pick shares a card)");
    else
        result = Py_NewRef(Py_None);
done:
    for (Py_ssize_t p = 0; p < got; p++) PyBuffer_Release(&views[p]);
    if (have_state) put_state(&state, &rng);
    if (have_counts) PyBuffer_Release(&counts_view);
    return result;
}

/* ---- the shuffle sampler: dealing ----------------------------------------------------------- */

/* A player's range for deal(): his possible down cards (`down` cards each) and their cumulative weights. */
typedef struct {
    const uint8_t *combos; /* NULL: no range (his down cards are known, or dealt like the rest) */
    const double *cumulative;
    Py_ssize_t n;
    int down;
} range_t;

/* A uniform double in [0, 1). */
static inline double uniform(rng_t *r) { return (double)(next64(r) >> 11) * (1.0 / 9007199254740992.0); }

/* The combination a weighted pick lands on: the first whose cumulative weight exceeds u * total. */
static inline Py_ssize_t pick_combo(rng_t *r, const range_t *g) {
    const double x = uniform(r) * g->cumulative[g->n - 1];
    Py_ssize_t lo = 0, hi = g->n - 1;
    while (lo < hi) {
        Py_ssize_t mid = lo + ((hi - lo) >> 1);
        if (g->cumulative[mid] > x) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* deal(pool, hands, needs, community, state, trials, width, out, ranges) -> None
 * For each of `trials` trials, a partial Fisher-Yates shuffle of `pool` (card bytes): the first
 * cards go to the players in seat order (needs[p] each), then, with `community`, one more card
 * that every player gets. out: a writable uint8 buffer of trials x n x width bytes (each player's
 * known cards, then his down cards from his range, then his dealt cards, then the community card).
 * ranges: None, or one entry per player, None or (combos, down, cumulative weights): each trial
 * first picks every ranged player's down cards with probability proportional to their weight,
 * again as a whole while two picks share a card (so an assignment of down cards comes with
 * probability proportional to the product of its weights), and takes them out of the shuffle. */
static PyObject *deal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "deal(pool, hands, needs, community, state, trials, width, out, ranges)");
        return NULL;
    }
    Py_buffer pool_view, state, out_view, views[2 * MAX_PLAYERS];
    if (PyObject_GetBuffer(args[0], &pool_view, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    PyObject *result = NULL;
    int have_state = 0, have_out = 0, got = 0, ranged = 0, stuck = 0;
    rng_t rng;
    range_t ranges[MAX_PLAYERS];
    memset(ranges, 0, sizeof ranges);
    PyObject *hands = args[1], *needs_obj = args[2], *ranges_obj = args[8];
    int community = PyObject_IsTrue(args[3]);
    long long trials = PyLong_AsLongLong(args[5]);
    long width = PyLong_AsLong(args[6]);
    if (PyErr_Occurred() || community < 0) goto done;
    if (!PyTuple_Check(hands) || !PyTuple_Check(needs_obj) || PyTuple_GET_SIZE(hands) != PyTuple_GET_SIZE(needs_obj) ||
        (ranges_obj != Py_None && (!PyTuple_Check(ranges_obj) || PyTuple_GET_SIZE(ranges_obj) != PyTuple_GET_SIZE(hands)))) {
        PyErr_SetString(PyExc_TypeError, "hands, needs (and ranges) must be tuples of the same length");
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(hands), m = pool_view.len;
    if (n < 2 || n > MAX_PLAYERS || m > 52 || width < 1 || width > 7 || trials < 0) {
        PyErr_SetString(PyExc_ValueError, "2..10 players, at most 52 cards in the pool, 1..7 cards a hand");
        goto done;
    }
    const uint8_t *pool = (const uint8_t *)pool_view.buf;
    int in_pool[52];
    for (int c = 0; c < 52; c++) in_pool[c] = 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        if (pool[i] > 51 || in_pool[pool[i]]) {
            PyErr_SetString(PyExc_ValueError, "the pool must hold distinct cards 0..51");
            goto done;
        }
        in_pool[pool[i]] = 1;
    }
    uint8_t known[MAX_PLAYERS][8];
    int nknown[MAX_PLAYERS], need[MAX_PLAYERS], dealt = 0, held = 0;
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *h = PyTuple_GET_ITEM(hands, p);
        char *data;
        Py_ssize_t len;
        if (PyBytes_AsStringAndSize(h, &data, &len) < 0) goto done;
        need[p] = (int)PyLong_AsLong(PyTuple_GET_ITEM(needs_obj, p));
        if (PyErr_Occurred()) goto done;
        PyObject *g = ranges_obj == Py_None ? Py_None : PyTuple_GET_ITEM(ranges_obj, p);
        if (g != Py_None) {
            PyObject *combos, *cumulative;
            int down;
            if (!PyTuple_Check(g) || !PyArg_ParseTuple(g, "OiO", &combos, &down, &cumulative)) goto done;
            if (PyObject_GetBuffer(combos, &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
            ranges[p].combos = views[got].buf;
            Py_ssize_t bytes = views[got++].len;
            if (PyObject_GetBuffer(cumulative, &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
            ranges[p].cumulative = views[got].buf;
            ranges[p].n = views[got++].len / 8;
            ranges[p].down = down;
            int ok = down >= 1 && down <= 3 && ranges[p].n >= 1 && bytes == ranges[p].n * down &&
                     views[got - 1].len == ranges[p].n * 8 && ranges[p].cumulative[ranges[p].n - 1] > 0;
            for (Py_ssize_t i = 0; ok && i < ranges[p].n; i++)
                ok = (i == 0 ? ranges[p].cumulative[0] >= 0 : ranges[p].cumulative[i] >= ranges[p].cumulative[i - 1]);
            for (Py_ssize_t i = 0; ok && i < bytes; i++) ok = ranges[p].combos[i] < 52 && in_pool[ranges[p].combos[i]];
            if (!ok) {
                PyErr_SetString(PyExc_ValueError,
                                "a range: combos of `down` pool cards each and rising cumulative weights, the last > 0");
                goto done;
            }
            ranged = 1;
            held += down;
        }
        if (need[p] < 0 || len + ranges[p].down + need[p] + community != width || len > 7) {
            PyErr_SetString(PyExc_ValueError, "each hand's known and dealt cards must make `width` cards");
            goto done;
        }
        memcpy(known[p], data, (size_t)len);
        nknown[p] = (int)len;
        dealt += need[p];
    }
    if (dealt + community + held > m) {
        PyErr_SetString(PyExc_ValueError, "more cards to deal than the pool holds");
        goto done;
    }
    if (get_state(args[4], &state, &rng) < 0) goto done;
    have_state = 1;
    if (PyObject_GetBuffer(args[7], &out_view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) goto done;
    have_out = 1;
    if (trials > PY_SSIZE_T_MAX / (n * width) || out_view.len != (Py_ssize_t)(trials * n * width)) {
        PyErr_SetString(PyExc_ValueError, "out must hold trials x players x width bytes");
        goto done;
    }
    {
        uint8_t deck[52], where[52]; /* the deck, and each card's place in it */
        uint8_t *out = (uint8_t *)out_view.buf;
        const int draw = dealt + community;
        const uint8_t *chosen[MAX_PLAYERS];
        Py_BEGIN_ALLOW_THREADS
        memcpy(deck, pool, (size_t)m);
        for (int i = 0; i < m; i++) where[deck[i]] = (uint8_t)i;
        for (long long t = 0; t < trials; t++) {
            int first = 0; /* the deck's first `first` cards are the ranged players' down cards */
            if (ranged) {
                uint64_t taken = 0;
                for (uint32_t tries = 0;; tries++) { /* an assignment with no card twice, as a whole */
                    if (tries > MAX_TRIES) {
                        stuck = 1;
                        goto out;
                    }
                    taken = 0;
                    int clash = 0;
                    for (Py_ssize_t p = 0; p < n && !clash; p++) {
                        if (ranges[p].combos == NULL) continue;
                        chosen[p] = ranges[p].combos + pick_combo(&rng, &ranges[p]) * ranges[p].down;
                        for (int j = 0; j < ranges[p].down; j++) {
                            const uint64_t bit = (uint64_t)1 << chosen[p][j];
                            clash |= (taken & bit) != 0;
                            taken |= bit;
                        }
                    }
                    if (!clash) break;
                }
                for (Py_ssize_t p = 0; p < n; p++) { /* move the chosen cards to the front */
                    if (ranges[p].combos == NULL) continue;
                    for (int j = 0; j < ranges[p].down; j++, first++) {
                        const uint8_t c = chosen[p][j], other = deck[first];
                        const uint8_t at = where[c];
                        deck[at] = other;
                        where[other] = at;
                        deck[first] = c;
                        where[c] = (uint8_t)first;
                    }
                }
            }
            /* the deck stays a permutation of the pool from trial to trial: each shuffle starts from the last */
            for (int j = first; j < first + draw; j++) {
                int r = j + (int)below(&rng, (uint32_t)(m - j));
                uint8_t c = deck[r];
                deck[r] = deck[j];
                deck[j] = c;
                where[deck[r]] = (uint8_t)r;
                where[c] = (uint8_t)j;
            }
            int at = first;
            for (Py_ssize_t p = 0; p < n; p++, out += width) {
                memcpy(out, known[p], (size_t)nknown[p]);
                int w = nknown[p];
                if (ranges[p].combos != NULL) {
                    memcpy(out + w, chosen[p], (size_t)ranges[p].down);
                    w += ranges[p].down;
                }
                memcpy(out + w, deck + at, (size_t)need[p]);
                at += need[p];
                if (community) out[width - 1] = deck[first + dealt];
            }
        }
    out:
        Py_END_ALLOW_THREADS
    }
    if (stuck)
        PyErr_SetString(PyExc_ValueError, "no assignment of the ranges' down cards has no card twice");
    else
        result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&pool_view);
    for (int j = 0; j < got; j++) PyBuffer_Release(&views[j]);
    if (have_state) put_state(&state, &rng);
    if (have_out) PyBuffer_Release(&out_view);
    return result;
}

/* tally(values, players, hilo, counts) -> None
 * values: an int32 buffer of trials x players values (packed high << 6 | low in hi/lo); adds each
 * trial's code into the int64 buffer counts. */
static PyObject *tally(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "tally(values, players, hilo, counts)");
        return NULL;
    }
    long n = PyLong_AsLong(args[1]);
    int hilo = PyObject_IsTrue(args[2]);
    if (PyErr_Occurred() || hilo < 0) return NULL;
    if (n < 2 || n > MAX_PLAYERS || (hilo && n > 8)) {
        PyErr_SetString(PyExc_ValueError, "2..10 players (8 in hi/lo)");
        return NULL;
    }
    Py_buffer vv, cv;
    if (PyObject_GetBuffer(args[0], &vv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(args[3], &cv, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&vv);
        return NULL;
    }
    PyObject *result = NULL;
    if (vv.len % (4 * n) || cv.len != (Py_ssize_t)(8 << (hilo ? 2 * n : n))) {
        PyErr_SetString(PyExc_ValueError, "values: trials x players int32; counts: one int64 per code");
    } else {
        const int32_t *v = (const int32_t *)vv.buf;
        int64_t *counts = (int64_t *)cv.buf;
        Py_ssize_t trials = vv.len / (4 * n);
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t t = 0; t < trials; t++, v += n) counts[code_of(v, (int)n, hilo)]++;
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&vv);
    PyBuffer_Release(&cv);
    return result;
}

/* ---- the completions' tables, without NumPy -------------------------------------------------- */

/* Next k-subset of positions 0..m-1 in lexicographic order (itertools.combinations'); 0 after the last. */
static int next_subset(int *idx, int k, int m) {
    int i = k - 1;
    while (i >= 0 && idx[i] == m - k + i) i--;
    if (i < 0) return 0;
    idx[i]++;
    for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    return 1;
}

/* How many k-subsets of m things (0 when k > m), or -1 beyond the limit a table may have. */
static Py_ssize_t subsets(int m, int k) {
    if (k < 0 || k > m) return 0;
    double c = 1;
    for (int i = 0; i < k; i++) c = c * (m - i) / (i + 1);
    return c > 1e8 ? -1 : (Py_ssize_t)(c + 0.5);
}

/* Read pool and k for combos() and entries(): up to 52 distinct card indices, 0 <= k <= 7. */
static int pool_and_k(PyObject *pool_obj, PyObject *k_obj, Py_buffer *pool, int *k, Py_ssize_t *rows) {
    long kk = PyLong_AsLong(k_obj);
    if (kk == -1 && PyErr_Occurred()) return -1;
    if (PyObject_GetBuffer(pool_obj, pool, PyBUF_C_CONTIGUOUS) < 0) return -1;
    const uint8_t *cards = (const uint8_t *)pool->buf;
    int bad = pool->len > 52 || kk < 0 || kk > 7;
    for (Py_ssize_t i = 0; i < pool->len && !bad; i++) bad = cards[i] >= 52;
    *rows = bad ? 0 : subsets((int)pool->len, (int)kk);
    if (bad || *rows < 0) {
        PyBuffer_Release(pool);
        PyErr_SetString(PyExc_ValueError, "a pool of at most 52 card indices, 0 <= k <= 7, at most 1e8 rows");
        return -1;
    }
    *k = (int)kk;
    return 0;
}

/* combos(pool, known, k) -> bytes
 * Every hand made of the `known` cards then k cards of `pool`, the k-subsets of pool positions in
 * lexicographic order: one row of len(known) + k card bytes per completion (ready for the evaluation
 * kernel's batch, which reads bytes). */
static PyObject *combos(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "combos(pool, known, k)");
        return NULL;
    }
    Py_buffer pool, known;
    int k;
    Py_ssize_t rows;
    if (pool_and_k(args[0], args[2], &pool, &k, &rows) < 0) return NULL;
    if (PyObject_GetBuffer(args[1], &known, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&pool);
        return NULL;
    }
    PyObject *out = NULL;
    const Py_ssize_t width = known.len + k;
    if (known.len > 7) {
        PyErr_SetString(PyExc_ValueError, "at most 7 known cards");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, rows * width);
    if (out == NULL) goto done;
    uint8_t *row = (uint8_t *)PyBytes_AS_STRING(out);
    const uint8_t *cards = (const uint8_t *)pool.buf;
    int idx[8];
    for (int j = 0; j < k; j++) idx[j] = j;
    for (Py_ssize_t r = 0; r < rows; r++, row += width) {
        memcpy(row, known.buf, (size_t)known.len);
        for (int j = 0; j < k; j++) row[known.len + j] = cards[idx[j]];
        next_subset(idx, k, (int)pool.len);
    }
done:
    PyBuffer_Release(&pool);
    PyBuffer_Release(&known);
    return out;
}

/* entries(pool, k, values, lows) -> bytes
 * The completions sampler's table of one player, in combos()' order: per completion its 52-bit card
 * mask and its value (an int32 buffer, one per completion; with `lows`, not None, the value is packed as
 * value << 6 | low, as montecarlo._pack does for stud hi/lo), 16 bytes each (entry_t). */
static PyObject *entries(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "entries(pool, k, values, lows)");
        return NULL;
    }
    Py_buffer pool, values, lows;
    int k, have_lows = 0;
    Py_ssize_t rows;
    if (pool_and_k(args[0], args[1], &pool, &k, &rows) < 0) return NULL;
    if (PyObject_GetBuffer(args[2], &values, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&pool);
        return NULL;
    }
    PyObject *out = NULL;
    if (args[3] != Py_None) {
        if (PyObject_GetBuffer(args[3], &lows, PyBUF_C_CONTIGUOUS) < 0) goto done;
        have_lows = 1;
    }
    if (values.len != rows * 4 || (have_lows && lows.len != rows * 4)) {
        PyErr_SetString(PyExc_ValueError, "one int32 value (and low) per completion");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, rows * (Py_ssize_t)sizeof(entry_t));
    if (out == NULL) goto done;
    entry_t *e = (entry_t *)PyBytes_AS_STRING(out);
    const uint8_t *cards = (const uint8_t *)pool.buf;
    const int32_t *v = (const int32_t *)values.buf, *low = have_lows ? (const int32_t *)lows.buf : NULL;
    int idx[8];
    for (int j = 0; j < k; j++) idx[j] = j;
    for (Py_ssize_t r = 0; r < rows; r++, e++) {
        uint64_t mask = 0;
        for (int j = 0; j < k; j++) mask |= (uint64_t)1 << cards[idx[j]];
        e->mask = mask;
        e->value = low ? (int32_t)(((uint32_t)v[r] << LOW_BITS) | (uint32_t)low[r]) : v[r];
        e->pad = 0;
        next_subset(idx, k, (int)pool.len);
    }
done:
    PyBuffer_Release(&pool);
    PyBuffer_Release(&values);
    if (have_lows) PyBuffer_Release(&lows);
    return out;
}


static PyMethodDef methods[] = {
    {"completions", (PyCFunction)(void (*)(void))completions, METH_FASTCALL,
     "completions(tables, state, trials, drop, hilo, counts)"},
    {"deal", (PyCFunction)(void (*)(void))deal, METH_FASTCALL,
     "deal(pool, hands, needs, community, state, trials, width, out, ranges)"},
    {"tally", (PyCFunction)(void (*)(void))tally, METH_FASTCALL, "tally(values, players, hilo, counts)"},
    {"combos", (PyCFunction)(void (*)(void))combos, METH_FASTCALL, "combos(pool, known, k)"},
    {"entries", (PyCFunction)(void (*)(void))entries, METH_FASTCALL, "entries(pool, k, values, lows)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_sample", "studpoker's compiled Monte Carlo loops", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__sample(void) { return PyModule_Create(&module); }
