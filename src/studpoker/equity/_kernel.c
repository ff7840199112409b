/* Compiled equity kernel for studpoker.equity (optional; see docs/performance.md).
 *
 * The inner loops of the Monte Carlo samplers and of the heads-up exact sweep. No hand is
 * evaluated here: Python hands over each completion's value (computed by the evaluation
 * kernel or NumPy), so the answers rest on the same evaluators as every other path.
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
#define VALUES 8192 /* every value of every game is below this */
#define MAX_SUBSET 4 /* the sweep counts subsets of at most this many cards */
#define PICKS 32     /* trials drawn ahead so that their table reads overlap */

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
    int last = -1; /* the last player with a choice */
    for (int p = 0; p < n; p++)
        if (sizes[p] > 1) last = p;
    Py_BEGIN_ALLOW_THREADS
    int32_t v[MAX_PLAYERS];
    for (int p = 0; p < n; p++) v[p] = rows[p][0].value;
    if (drop && last >= 0) {
        /* two players with a choice: pick both, keep the trial if they fit */
        int first = -1;
        for (int p = 0; p < last; p++)
            if (sizes[p] > 1) first = p;
        const entry_t *a = rows[first], *b = rows[last];
        const uint32_t na = sizes[first], nb = sizes[last];
        long long done = 0;
        const entry_t *xs[PICKS], *ys[PICKS];
        int64_t first_best = 0, last_best = 0, tied = 0; /* heads-up high only: the trials won by each, tied */
        const int plain = n == 2 && !hilo;
        while (done < trials) {
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
                continue;
            }
            for (int j = 0; j < PICKS && done < trials; j++) {
                if (xs[j]->mask & ys[j]->mask) continue;
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
                    while (e->mask & taken) e = rows[p] + below(&rng, sizes[p]);
                    taken |= e->mask;
                    v[p] = e->value;
                }
                counts[code_of(v, (int)n, hilo)]++;
            }
        }
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    for (Py_ssize_t p = 0; p < got; p++) PyBuffer_Release(&views[p]);
    if (have_state) put_state(&state, &rng);
    if (have_counts) PyBuffer_Release(&counts_view);
    return result;
}

/* ---- the shuffle sampler: dealing ----------------------------------------------------------- */

/* deal(pool, hands, needs, community, state, trials, out) -> None
 * For each of `trials` trials, a partial Fisher-Yates shuffle of `pool` (card bytes): the first
 * cards go to the players in seat order (needs[p] each), then, with `community`, one more card
 * that every player gets. out: a writable uint8 buffer of trials x n x 7 bytes (each player's
 * known cards, then his dealt cards, then the community card; `width` cards a hand). */
static PyObject *deal(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "deal(pool, hands, needs, community, state, trials, width, out)");
        return NULL;
    }
    Py_buffer pool_view, state, out_view;
    if (PyObject_GetBuffer(args[0], &pool_view, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    PyObject *result = NULL;
    int have_state = 0, have_out = 0;
    rng_t rng;
    PyObject *hands = args[1], *needs_obj = args[2];
    int community = PyObject_IsTrue(args[3]);
    long long trials = PyLong_AsLongLong(args[5]);
    long width = PyLong_AsLong(args[6]);
    if (PyErr_Occurred() || community < 0) goto done;
    if (!PyTuple_Check(hands) || !PyTuple_Check(needs_obj) || PyTuple_GET_SIZE(hands) != PyTuple_GET_SIZE(needs_obj)) {
        PyErr_SetString(PyExc_TypeError, "hands and needs must be tuples of the same length");
        goto done;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(hands), m = pool_view.len;
    if (n < 2 || n > MAX_PLAYERS || m > 52 || width < 1 || width > 7 || trials < 0) {
        PyErr_SetString(PyExc_ValueError, "2..10 players, at most 52 cards in the pool, 1..7 cards a hand");
        goto done;
    }
    uint8_t known[MAX_PLAYERS][8];
    int nknown[MAX_PLAYERS], need[MAX_PLAYERS], dealt = 0;
    for (Py_ssize_t p = 0; p < n; p++) {
        PyObject *h = PyTuple_GET_ITEM(hands, p);
        char *data;
        Py_ssize_t len;
        if (PyBytes_AsStringAndSize(h, &data, &len) < 0) goto done;
        need[p] = (int)PyLong_AsLong(PyTuple_GET_ITEM(needs_obj, p));
        if (PyErr_Occurred()) goto done;
        if (need[p] < 0 || len + need[p] + community != width) {
            PyErr_SetString(PyExc_ValueError, "each hand's known and dealt cards must make `width` cards");
            goto done;
        }
        memcpy(known[p], data, (size_t)len);
        nknown[p] = (int)len;
        dealt += need[p];
    }
    if (dealt + community > m) {
        PyErr_SetString(PyExc_ValueError, "more cards to deal than the pool holds");
        goto done;
    }
    if (get_state(args[4], &state, &rng) < 0) goto done;
    have_state = 1;
    if (PyObject_GetBuffer(args[7], &out_view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) goto done;
    have_out = 1;
    if (out_view.len != (Py_ssize_t)(trials * n * width)) {
        PyErr_SetString(PyExc_ValueError, "out must hold trials x players x width bytes");
        goto done;
    }
    {
        uint8_t deck[52];
        const uint8_t *pool = (const uint8_t *)pool_view.buf;
        uint8_t *out = (uint8_t *)out_view.buf;
        const int draw = dealt + community;
        Py_BEGIN_ALLOW_THREADS
        memcpy(deck, pool, (size_t)m);
        for (long long t = 0; t < trials; t++) {
            /* the deck stays a permutation of the pool from trial to trial: each shuffle starts from the last */
            for (int j = 0; j < draw; j++) {
                int r = j + (int)below(&rng, (uint32_t)(m - j));
                uint8_t c = deck[r];
                deck[r] = deck[j];
                deck[j] = c;
            }
            int at = 0;
            for (Py_ssize_t p = 0; p < n; p++, out += width) {
                memcpy(out, known[p], (size_t)nknown[p]);
                memcpy(out + nknown[p], deck + at, (size_t)need[p]);
                at += need[p];
                if (community) out[width - 1] = deck[dealt];
            }
        }
        Py_END_ALLOW_THREADS
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&pool_view);
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

/* ---- combinations ---------------------------------------------------------------------------- */

/* combinations(m, k, out) -> None: every k-subset of range(m) in lexicographic order (as
 * itertools.combinations), k bytes a row, into the writable buffer out (C(m, k) x k bytes). */
static PyObject *combinations(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "combinations(m, k, out)");
        return NULL;
    }
    long m = PyLong_AsLong(args[0]), k = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    if (m < 0 || m > 64 || k < 1 || k > m) {
        PyErr_SetString(PyExc_ValueError, "need 1 <= k <= m <= 64");
        return NULL;
    }
    Py_buffer ov;
    if (PyObject_GetBuffer(args[2], &ov, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    uint64_t count = 1;
    for (long i = 0; i < k; i++) count = count * (uint64_t)(m - i) / (uint64_t)(i + 1);
    if ((uint64_t)ov.len != count * (uint64_t)k) {
        PyBuffer_Release(&ov);
        PyErr_SetString(PyExc_ValueError, "out must hold C(m, k) x k bytes");
        return NULL;
    }
    uint8_t *out = (uint8_t *)ov.buf;
    Py_BEGIN_ALLOW_THREADS
    uint8_t c[64];
    for (long i = 0; i < k; i++) c[i] = (uint8_t)i;
    for (;;) {
        memcpy(out, c, (size_t)k);
        out += k;
        long i = k - 1;
        while (i >= 0 && c[i] == m - k + i) i--;
        if (i < 0) break;
        c[i]++;
        for (long j = i + 1; j < k; j++) c[j] = (uint8_t)(c[j - 1] + 1);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&ov);
    Py_RETURN_NONE;
}

/* deal_all(pool, known, k, rows, hands) -> None: every k-subset of the pool in lexicographic order,
 * written twice: as pool positions into rows (C(m, k) x k bytes) and, after the known cards, as cards
 * into hands (C(m, k) x (len(known) + k) bytes), ready for the batch evaluators. */
static PyObject *deal_all(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "deal_all(pool, known, k, rows, hands)");
        return NULL;
    }
    long k = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer pv, kv, rv, hv;
    if (PyObject_GetBuffer(args[0], &pv, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(args[1], &kv, PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&pv);
        return NULL;
    }
    if (PyObject_GetBuffer(args[3], &rv, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&pv);
        PyBuffer_Release(&kv);
        return NULL;
    }
    if (PyObject_GetBuffer(args[4], &hv, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&pv);
        PyBuffer_Release(&kv);
        PyBuffer_Release(&rv);
        return NULL;
    }
    PyObject *result = NULL;
    const Py_ssize_t m = pv.len, nk = kv.len, width = nk + k;
    uint64_t count = 1;
    for (long i = 0; i < k && i < m; i++) count = count * (uint64_t)(m - i) / (uint64_t)(i + 1);
    if (m > 52 || k < 1 || k > m || width > 8) {
        PyErr_SetString(PyExc_ValueError, "a pool of at most 52 cards, 1 <= k <= its size, at most 8 cards a hand");
    } else if ((uint64_t)rv.len != count * (uint64_t)k || (uint64_t)hv.len != count * (uint64_t)width) {
        PyErr_SetString(PyExc_ValueError, "rows must hold C(m, k) x k bytes and hands C(m, k) x (known + k)");
    } else {
        const uint8_t *pool = pv.buf, *known = kv.buf;
        uint8_t *rows = rv.buf, *hands = hv.buf;
        Py_BEGIN_ALLOW_THREADS
        uint8_t c[64], hand[8];
        memcpy(hand, known, (size_t)nk);
        for (long i = 0; i < k; i++) c[i] = (uint8_t)i;
        for (;;) {
            for (long i = 0; i < k; i++) {
                rows[i] = c[i];
                hand[nk + i] = pool[c[i]];
            }
            memcpy(hands, hand, (size_t)width);
            rows += k;
            hands += width;
            long i = k - 1;
            while (i >= 0 && c[i] == m - k + i) i--;
            if (i < 0) break;
            c[i]++;
            for (long j = i + 1; j < k; j++) c[j] = (uint8_t)(c[j - 1] + 1);
        }
        Py_END_ALLOW_THREADS
        result = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&pv);
    PyBuffer_Release(&kv);
    PyBuffer_Release(&rv);
    PyBuffer_Release(&hv);
    return result;
}

/* ---- the heads-up sweep (exact) -------------------------------------------------------------- */

#define MAX_K 8
static uint32_t binom[65][MAX_K + 1]; /* C(t, i), filled when the module loads */

static void set_binomials(void) {
    for (int t = 0; t <= 64; t++)
        for (int i = 0; i <= MAX_K; i++) {
            uint64_t v = i > t ? 0 : 1;
            for (int j = 0; j < i && i <= t; j++) v = v * (uint64_t)(t - j) / (uint64_t)(j + 1);
            binom[t][i] = (uint32_t)v;
        }
}

/* offset[j]: where the colex ids of the j-subsets of a pool of m cards start (as exact._Counter.offset). */
static void set_offsets(int m, uint32_t *offset) {
    offset[0] = 0;
    for (int j = 0; j <= MAX_K; j++) offset[j + 1] = offset[j] + binom[m][j];
}

/* add_subsets: one more in the counter of every subset of row c (k ascending pool positions) of at
 * most s cards (a subset's counter is at offset[size] + its colex id). disjoint_count: the rows
 * counted so far that share no card with c, by inclusion-exclusion: the sum of the counters of c's
 * subsets, each with the sign (-1)^size (a counted row has at most s cards in common with c). */
static inline void add_subsets(const uint8_t *c, int k, int s, const uint32_t *offset, int32_t *cnt) {
    cnt[0]++;
    for (int a = 0; a < k; a++) {
        const uint32_t ia = offset[1] + binom[c[a]][1];
        cnt[ia]++;
        if (s < 2) continue;
        for (int b = a + 1; b < k; b++) {
            const uint32_t ib = binom[c[a]][1] + binom[c[b]][2];
            cnt[offset[2] + ib]++;
            if (s < 3) continue;
            for (int d = b + 1; d < k; d++) {
                const uint32_t id = ib + binom[c[d]][3];
                cnt[offset[3] + id]++;
                if (s < 4) continue;
                for (int e = d + 1; e < k; e++) cnt[offset[4] + id + binom[c[e]][4]]++;
            }
        }
    }
}

static inline int64_t disjoint_count(const uint8_t *c, int k, int s, const uint32_t *offset, const int32_t *cnt) {
    int64_t total = cnt[0];
    for (int a = 0; a < k; a++) {
        total -= cnt[offset[1] + binom[c[a]][1]];
        if (s < 2) continue;
        for (int b = a + 1; b < k; b++) {
            const uint32_t ib = binom[c[a]][1] + binom[c[b]][2];
            total += cnt[offset[2] + ib];
            if (s < 3) continue;
            for (int d = b + 1; d < k; d++) {
                const uint32_t id = ib + binom[c[d]][3];
                total -= cnt[offset[3] + id];
                if (s < 4) continue;
                for (int e = d + 1; e < k; e++) total += cnt[offset[4] + id + binom[c[e]][4]];
            }
        }
    }
    return total;
}

/* Indices 0..n-1 ordered by value (a counting sort: values are below VALUES). */
static int32_t *order_by_value(const int32_t *values, Py_ssize_t n) {
    int32_t *order = PyMem_RawMalloc((size_t)(n ? n : 1) * sizeof(int32_t));
    Py_ssize_t *start = PyMem_RawCalloc(VALUES + 1, sizeof(Py_ssize_t));
    if (order == NULL || start == NULL) {
        PyMem_RawFree(order);
        PyMem_RawFree(start);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) start[values[i] + 1]++;
    for (int v = 0; v < VALUES; v++) start[v + 1] += start[v];
    for (Py_ssize_t i = 0; i < n; i++) order[start[values[i]]++] = (int32_t)i;
    PyMem_RawFree(start);
    return order;
}

/* sweep(m, q_rows, q_k, q_values, i_rows, i_k, i_values) -> (below, upto)
 * Heads-up and exact: Q's completions (rows of q_k pool positions, ascending, with values) against
 * I's. Returns the sums over Q's completions of how many of I's completions share no card with it
 * and are worth less (below) and at most as much (upto). I's completions are added in order of value
 * into counters of every subset of their cards of at most s = min(q_k, i_k) cards; Q's completions,
 * in the same order, read off the disjoint ones by inclusion-exclusion over their own subsets. */
static PyObject *sweep(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "sweep(m, q_rows, q_k, q_values, i_rows, i_k, i_values)");
        return NULL;
    }
    long m = PyLong_AsLong(args[0]), qk = PyLong_AsLong(args[2]), ik = PyLong_AsLong(args[5]);
    if (PyErr_Occurred()) return NULL;
    if (m < 1 || m > 52 || qk < 1 || ik < 1 || qk > 7 || ik > 7) {
        PyErr_SetString(PyExc_ValueError, "1 <= cards <= 7 and a pool of at most 52");
        return NULL;
    }
    const int s = (int)(qk < ik ? qk : ik);
    if (s > MAX_SUBSET) {
        PyErr_SetString(PyExc_ValueError, "the sweep counts subsets of at most 4 cards");
        return NULL;
    }
    Py_buffer v[4];
    int got = 0;
    PyObject *result = NULL;
    int32_t *cnt = NULL, *q_order = NULL, *i_order = NULL;
    const int which[4] = {1, 3, 4, 6};
    for (; got < 4; got++)
        if (PyObject_GetBuffer(args[which[got]], &v[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
    Py_ssize_t nq = v[1].len / 4, ni = v[3].len / 4;
    if (v[0].len != nq * qk || v[2].len != ni * ik) {
        PyErr_SetString(PyExc_ValueError, "rows must be k bytes per completion, values one int32 each");
        goto done;
    }
    const uint8_t *qr = (const uint8_t *)v[0].buf, *ir = (const uint8_t *)v[2].buf;
    const int32_t *qv = (const int32_t *)v[1].buf, *iv = (const int32_t *)v[3].buf;
    for (Py_ssize_t i = 0; i < nq; i++)
        if (qv[i] < 0 || qv[i] >= VALUES) goto bad_value;
    for (Py_ssize_t i = 0; i < ni; i++)
        if (iv[i] < 0 || iv[i] >= VALUES) goto bad_value;
    for (Py_ssize_t i = 0; i < nq * qk; i++)
        if (qr[i] >= m) goto bad_row;
    for (Py_ssize_t i = 0; i < ni * ik; i++)
        if (ir[i] >= m) goto bad_row;
    uint32_t offset[MAX_K + 2];
    set_offsets((int)m, offset);
    cnt = PyMem_RawCalloc(offset[s + 1], sizeof(int32_t));
    q_order = order_by_value(qv, nq);
    i_order = order_by_value(iv, ni);
    if (cnt == NULL || q_order == NULL || i_order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t lt = 0, le = 0;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t a = 0, b = 0;
    while (a < nq) {
        const int32_t value = qv[q_order[a]];
        while (b < ni && iv[i_order[b]] < value) {
            add_subsets(ir + (Py_ssize_t)i_order[b] * ik, (int)ik, s, offset, cnt);
            b++;
        }
        Py_ssize_t end = a;
        while (end < nq && qv[q_order[end]] == value) {
            lt += disjoint_count(qr + (Py_ssize_t)q_order[end] * qk, (int)qk, s, offset, cnt);
            end++;
        }
        while (b < ni && iv[i_order[b]] == value) {
            add_subsets(ir + (Py_ssize_t)i_order[b] * ik, (int)ik, s, offset, cnt);
            b++;
        }
        for (Py_ssize_t j = a; j < end; j++)
            le += disjoint_count(qr + (Py_ssize_t)q_order[j] * qk, (int)qk, s, offset, cnt);
        a = end;
    }
    Py_END_ALLOW_THREADS
    result = Py_BuildValue("(LL)", (long long)lt, (long long)le);
    goto done;
bad_value:
    PyErr_SetString(PyExc_ValueError, "values must be 0..8191");
    goto done;
bad_row:
    PyErr_SetString(PyExc_ValueError, "a row holds a position outside the pool");
done:
    for (int j = 0; j < got; j++) PyBuffer_Release(&v[j]);
    PyMem_RawFree(cnt);
    PyMem_RawFree(q_order);
    PyMem_RawFree(i_order);
    return result;
}

/* ---- the heads-up sweep for stud hi/lo ------------------------------------------------------ */

#define LOW_CLASSES 57 /* eight-or-better lows 0 (none) .. 56 */
#define FEN (LOW_CLASSES + 1)

/* Per subset, a Fenwick tree over the inserted rows' lows: how many have a low at most x. */
static inline void fen_add(int32_t *tree, uint32_t id, int low) {
    int32_t *t = tree + (size_t)id * FEN;
    for (int i = low + 1; i <= LOW_CLASSES; i += i & -i) t[i]++;
}

static inline int64_t fen_upto(const int32_t *tree, uint32_t id, int x) {
    const int32_t *t = tree + (size_t)id * FEN;
    int64_t sum = 0;
    for (int i = x + 1; i > 0; i -= i & -i) sum += t[i];
    return sum;
}

/* One subset's rows with a low below / equal to / above `low`, added with `sign` into out[3]. */
static inline void fen_split(const int32_t *tree, uint32_t id, int low, int64_t sign, int64_t *out) {
    const int64_t below = low > 0 ? fen_upto(tree, id, low - 1) : 0;
    const int64_t upto = fen_upto(tree, id, low), all = fen_upto(tree, id, LOW_CLASSES - 1);
    out[0] += sign * below;
    out[1] += sign * (upto - below);
    out[2] += sign * (all - upto);
}

static inline void add_subsets_low(const uint8_t *c, int k, int s, const uint32_t *offset, int32_t *tree,
                                   int low) {
    fen_add(tree, 0, low);
    for (int a = 0; a < k; a++) {
        fen_add(tree, offset[1] + binom[c[a]][1], low);
        if (s < 2) continue;
        for (int b = a + 1; b < k; b++) {
            const uint32_t ib = binom[c[a]][1] + binom[c[b]][2];
            fen_add(tree, offset[2] + ib, low);
            if (s < 3) continue;
            for (int d = b + 1; d < k; d++) {
                const uint32_t id = ib + binom[c[d]][3];
                fen_add(tree, offset[3] + id, low);
                if (s < 4) continue;
                for (int e = d + 1; e < k; e++) fen_add(tree, offset[4] + id + binom[c[e]][4], low);
            }
        }
    }
}

/* The rows counted so far that share no card with c, split by their low against `low` (out[3]). */
static inline void disjoint_split(const uint8_t *c, int k, int s, const uint32_t *offset, const int32_t *tree,
                                  int low, int64_t *out) {
    fen_split(tree, 0, low, 1, out);
    for (int a = 0; a < k; a++) {
        fen_split(tree, offset[1] + binom[c[a]][1], low, -1, out);
        if (s < 2) continue;
        for (int b = a + 1; b < k; b++) {
            const uint32_t ib = binom[c[a]][1] + binom[c[b]][2];
            fen_split(tree, offset[2] + ib, low, 1, out);
            if (s < 3) continue;
            for (int d = b + 1; d < k; d++) {
                const uint32_t id = ib + binom[c[d]][3];
                fen_split(tree, offset[3] + id, low, -1, out);
                if (s < 4) continue;
                for (int e = d + 1; e < k; e++) fen_split(tree, offset[4] + id + binom[c[e]][4], low, 1, out);
            }
        }
    }
}

/* sweep_hilo(m, q_rows, q_k, q_values, q_lows, i_rows, i_k, i_values, i_lows) -> 18 ints
 * The sweep of sweep() for stud hi/lo: I's completions go into a Fenwick tree over their lows, one per
 * subset, so each read splits the disjoint ones by how their low compares with the Q completion's. Returns
 * ways[has_low][high][low] flattened (2 x 3 x 3): summed over Q's completions without (0) or with (1) a low,
 * the disjoint I completions whose high and low are below (0), equal to (1) or above (2) Q's. */
static PyObject *sweep_hilo(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "sweep_hilo(m, q_rows, q_k, q_values, q_lows, i_rows, i_k, i_values, i_lows)");
        return NULL;
    }
    long m = PyLong_AsLong(args[0]), qk = PyLong_AsLong(args[2]), ik = PyLong_AsLong(args[6]);
    if (PyErr_Occurred()) return NULL;
    if (m < 1 || m > 52 || qk < 1 || ik < 1 || qk > 7 || ik > 7) {
        PyErr_SetString(PyExc_ValueError, "1 <= cards <= 7 and a pool of at most 52");
        return NULL;
    }
    const int s = (int)(qk < ik ? qk : ik);
    if (s > MAX_SUBSET) {
        PyErr_SetString(PyExc_ValueError, "the sweep counts subsets of at most 4 cards");
        return NULL;
    }
    Py_buffer v[6];
    int got = 0;
    PyObject *result = NULL;
    int32_t *tree = NULL, *q_order = NULL, *i_order = NULL;
    const int which[6] = {1, 3, 4, 5, 7, 8};
    for (; got < 6; got++)
        if (PyObject_GetBuffer(args[which[got]], &v[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
    Py_ssize_t nq = v[1].len / 4, ni = v[4].len / 4;
    if (v[0].len != nq * qk || v[2].len != nq * 4 || v[3].len != ni * ik || v[5].len != ni * 4) {
        PyErr_SetString(PyExc_ValueError, "rows must be k bytes per completion, values and lows one int32 each");
        goto done;
    }
    const uint8_t *qr = v[0].buf, *ir = v[3].buf;
    const int32_t *qv = v[1].buf, *ql = v[2].buf, *iv = v[4].buf, *il = v[5].buf;
    for (Py_ssize_t i = 0; i < nq; i++)
        if (qv[i] < 0 || qv[i] >= VALUES || ql[i] < 0 || ql[i] >= LOW_CLASSES) goto bad_value;
    for (Py_ssize_t i = 0; i < ni; i++)
        if (iv[i] < 0 || iv[i] >= VALUES || il[i] < 0 || il[i] >= LOW_CLASSES) goto bad_value;
    for (Py_ssize_t i = 0; i < nq * qk; i++)
        if (qr[i] >= m) goto bad_row;
    for (Py_ssize_t i = 0; i < ni * ik; i++)
        if (ir[i] >= m) goto bad_row;
    uint32_t offset[MAX_K + 2];
    set_offsets((int)m, offset);
    tree = PyMem_RawCalloc((size_t)offset[s + 1] * FEN, sizeof(int32_t));
    q_order = order_by_value(qv, nq);
    i_order = order_by_value(iv, ni);
    if (tree == NULL || q_order == NULL || i_order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t ways[2][3][3];
    memset(ways, 0, sizeof ways);
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t a = 0, b = 0;
    while (a < nq) { /* high below: read before the equal highs go in; at most: after */
        const int32_t value = qv[q_order[a]];
        while (b < ni && iv[i_order[b]] < value) {
            add_subsets_low(ir + (Py_ssize_t)i_order[b] * ik, (int)ik, s, offset, tree, il[i_order[b]]);
            b++;
        }
        Py_ssize_t end = a;
        for (; end < nq && qv[q_order[end]] == value; end++) {
            const int32_t q = q_order[end];
            disjoint_split(qr + (Py_ssize_t)q * qk, (int)qk, s, offset, tree, ql[q], ways[ql[q] > 0][0]);
        }
        while (b < ni && iv[i_order[b]] == value) {
            add_subsets_low(ir + (Py_ssize_t)i_order[b] * ik, (int)ik, s, offset, tree, il[i_order[b]]);
            b++;
        }
        for (Py_ssize_t j = a; j < end; j++) { /* equal = at most - below, kept in row 1 for now */
            const int32_t q = q_order[j];
            disjoint_split(qr + (Py_ssize_t)q * qk, (int)qk, s, offset, tree, ql[q], ways[ql[q] > 0][1]);
        }
        a = end;
    }
    while (b < ni) {
        add_subsets_low(ir + (Py_ssize_t)i_order[b] * ik, (int)ik, s, offset, tree, il[i_order[b]]);
        b++;
    }
    for (Py_ssize_t q = 0; q < nq; q++) /* every disjoint one, in row 2 for now */
        disjoint_split(qr + q * qk, (int)qk, s, offset, tree, ql[q], ways[ql[q] > 0][2]);
    for (int h = 0; h < 2; h++)
        for (int l = 0; l < 3; l++) {
            const int64_t below = ways[h][0][l], upto = ways[h][1][l], all = ways[h][2][l];
            ways[h][1][l] = upto - below;
            ways[h][2][l] = all - upto;
        }
    Py_END_ALLOW_THREADS
    result = PyTuple_New(18);
    if (result != NULL)
        for (int j = 0; j < 18; j++) {
            PyObject *x = PyLong_FromLongLong((long long)((int64_t *)ways)[j]);
            if (x == NULL) {
                Py_CLEAR(result);
                break;
            }
            PyTuple_SET_ITEM(result, j, x);
        }
    goto done;
bad_value:
    PyErr_SetString(PyExc_ValueError, "values must be 0..8191 and lows 0..56");
    goto done;
bad_row:
    PyErr_SetString(PyExc_ValueError, "a row holds a position outside the pool");
done:
    for (int j = 0; j < got; j++) PyBuffer_Release(&v[j]);
    PyMem_RawFree(tree);
    PyMem_RawFree(q_order);
    PyMem_RawFree(i_order);
    return result;
}

/* ---- the tuple counter (exact, any number of players) ----------------------------------------- */

typedef struct {
    const uint8_t *rows; /* completions as pool positions, k bytes each, ascending */
    const uint64_t *masks;
    const int32_t *values;
    const int32_t *lows; /* hi/lo: each completion's eight-or-better low (0: none) */
    Py_ssize_t n;
    int k;
} side_t;

#define LOWS 58 /* eight-or-better low values are 0..56; prefix counts for thresholds 0..57 */

/* The eight counts of the last player's completions that hi/lo needs per tuple (see exact._hilo):
 * high below / at most the best, crossed with low below / at most the best explicit low, and the lows alone. */
enum { H_LT, H_LE, H_LT_L_LT, H_LT_L_LE, H_LE_L_LT, H_LE_L_LE, L_LT, L_LE, COUNTS };

typedef struct {
    side_t side[MAX_PLAYERS];
    int explicit;             /* explicit players (side[0..explicit-1]); the last player is counted */
    const int64_t *keys;      /* the last player's keys, id * VALUES + value, sorted */
    const int64_t *starts;    /* where each id's keys start */
    int k;                    /* cards the last player needs */
    int64_t disjoint;         /* the last player's completions beside any tuple */
    int64_t scale;
    uint32_t offset[MAX_K + 2];
    /* per tuple */
    uint8_t held[64];
    int nheld;
    int32_t best;
    int64_t below, upto;
    int32_t vals[MAX_PLAYERS], low_vals[MAX_PLAYERS];
    /* hi/lo */
    int hilo;
    const int32_t *prefix; /* (keys + 1) x LOWS: keys before each position with a low below each threshold */
    int32_t top_low;
    int64_t c[COUNTS];
    /* totals: explicit players 0..explicit-1, then the last player */
    int64_t share[MAX_PLAYERS + 1], win[MAX_PLAYERS + 1], tie[MAX_PLAYERS + 1];
    int64_t high[MAX_PLAYERS + 1], low[MAX_PLAYERS + 1];
    int64_t tuples, no_low;
} tuples_t;

static inline Py_ssize_t lower_bound(const int64_t *keys, Py_ssize_t lo, Py_ssize_t hi, int64_t key) {
    while (lo < hi) {
        Py_ssize_t mid = lo + ((hi - lo) >> 1);
        if (keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Every subset of the tuple's held cards with at most k cards, from position `from` on: its count of the
 * last player's completions below and up to the tuple's best, signed by its size. */
static void terms(tuples_t *t, int from, int size, uint32_t partial) {
    const uint32_t id = t->offset[size] + partial;
    const Py_ssize_t lo = (Py_ssize_t)t->starts[id], hi = (Py_ssize_t)t->starts[id + 1];
    const int64_t base = (int64_t)id * VALUES + t->best;
    const Py_ssize_t lt = lower_bound(t->keys, lo, hi, base), le = lower_bound(t->keys, lt, hi, base + 1);
    const int64_t sign = size & 1 ? -1 : 1;
    if (t->hilo) {
        const int32_t *p = t->prefix;
        const int q = t->top_low; /* "low below": below q; "at most": below q + 1 */
        const int64_t b0 = p[lo * LOWS + q], u0 = p[lo * LOWS + q + 1];
        t->c[H_LT] += sign * (lt - lo);
        t->c[H_LE] += sign * (le - lo);
        t->c[H_LT_L_LT] += sign * (p[lt * LOWS + q] - b0);
        t->c[H_LT_L_LE] += sign * (p[lt * LOWS + q + 1] - u0);
        t->c[H_LE_L_LT] += sign * (p[le * LOWS + q] - b0);
        t->c[H_LE_L_LE] += sign * (p[le * LOWS + q + 1] - u0);
        t->c[L_LT] += sign * (p[hi * LOWS + q] - b0);
        t->c[L_LE] += sign * (p[hi * LOWS + q + 1] - u0);
    } else {
        t->below += sign * (lt - lo);
        t->upto += sign * (le - lo);
    }
    if (size == t->k) return;
    for (int j = from; j < t->nheld; j++) terms(t, j + 1, size + 1, partial + binom[t->held[j]][size + 1]);
}

/* Share one tuple's outcomes out in hi/lo: the nine classes of the last player's completions (his high
 * below / equal to / above the tuple's best, crossed with his low), as exact._hilo and exact._class do. */
static void leaf_hilo(tuples_t *t, int at) {
    const int64_t *c = t->c, total = t->disjoint;
    enum { LT, EQ, GT };
    int64_t ways[3][3];
    const int64_t h[3] = {c[H_LT], c[H_LE] - c[H_LT], total - c[H_LE]};
    ways[LT][LT] = c[H_LT_L_LT];
    ways[LT][EQ] = c[H_LT_L_LE] - c[H_LT_L_LT];
    ways[EQ][LT] = c[H_LE_L_LT] - c[H_LT_L_LT];
    ways[EQ][EQ] = (c[H_LE_L_LE] - c[H_LE_L_LT]) - (c[H_LT_L_LE] - c[H_LT_L_LT]);
    ways[LT][GT] = h[LT] - ways[LT][LT] - ways[LT][EQ];
    ways[EQ][GT] = h[EQ] - ways[EQ][LT] - ways[EQ][EQ];
    ways[GT][LT] = c[L_LT] - ways[LT][LT] - ways[EQ][LT];
    ways[GT][EQ] = (c[L_LE] - c[L_LT]) - ways[LT][EQ] - ways[EQ][EQ];
    ways[GT][GT] = h[GT] - ways[GT][LT] - ways[GT][EQ];
    const int32_t q = t->top_low;
    int lows_at = 0;
    for (int e = 0; e < t->explicit; e++) lows_at += q > 0 && t->low_vals[e] == q;
    const int last = t->explicit;
    const int64_t scale = t->scale;
    for (int rh = LT; rh <= GT; rh++)
        for (int rl = LT; rl <= GT; rl++) {
            const int64_t w = ways[rh][rl];
            if (w == 0) continue;
            const int64_t high_count = rh == LT ? at : rh == EQ ? at + 1 : 1;
            const int64_t low_count = rl == LT ? lows_at : rl == EQ ? lows_at + 1 : 1;
            const int nobody = rl == EQ && q == 0; /* nobody has a low: the high hands take the whole pot */
            const int64_t high_each = (nobody ? scale : scale / 2) / (high_count > 1 ? high_count : 1);
            const int64_t low_each = nobody ? 0 : (scale / 2) / (low_count > 1 ? low_count : 1);
            if (nobody) t->no_low += w;
            for (int e = 0; e < t->explicit; e++) {
                const int gets_high = rh != GT && t->vals[e] == t->best;
                const int gets_low = rl != GT && q > 0 && t->low_vals[e] == q;
                const int64_t hp = gets_high ? high_each * w : 0, lp = gets_low ? low_each * w : 0;
                t->high[e] += hp;
                t->low[e] += lp;
                t->share[e] += hp + lp;
                if (gets_high && high_count == 1 && (nobody || (gets_low && low_count == 1))) t->win[e] += w;
            }
            if (rh != LT) {
                t->high[last] += high_each * w;
                t->share[last] += high_each * w;
            }
            if (rl != LT) {
                t->low[last] += low_each * w;
                t->share[last] += low_each * w;
            }
            if (rh != LT) {
                const int last_low_alone = rl != LT && low_count == 1 && !nobody;
                if (high_count == 1 && (nobody || last_low_alone)) t->win[last] += w;
            }
        }
}

static void leaf(tuples_t *t) {
    int32_t best = t->vals[0];
    for (int e = 1; e < t->explicit; e++)
        if (t->vals[e] > best) best = t->vals[e];
    int at = 0;
    for (int e = 0; e < t->explicit; e++) at += t->vals[e] == best;
    /* the held cards in ascending order, for the colex ids */
    uint8_t sorted[64];
    int n = t->nheld;
    memcpy(sorted, t->held, (size_t)n);
    for (int i = 1; i < n; i++) {
        uint8_t c = sorted[i];
        int j = i - 1;
        while (j >= 0 && sorted[j] > c) {
            sorted[j + 1] = sorted[j];
            j--;
        }
        sorted[j + 1] = c;
    }
    uint8_t saved[64];
    memcpy(saved, t->held, (size_t)n);
    memcpy(t->held, sorted, (size_t)n);
    t->best = best;
    t->below = t->upto = 0;
    if (t->hilo) {
        int32_t q = 0;
        for (int e = 0; e < t->explicit; e++)
            if (t->low_vals[e] > q) q = t->low_vals[e];
        t->top_low = q;
        memset(t->c, 0, sizeof t->c);
    }
    terms(t, 0, 0, 0);
    memcpy(t->held, saved, (size_t)n);
    if (t->hilo) {
        leaf_hilo(t, at);
        t->tuples++;
        return;
    }
    const int64_t below = t->below, equal = t->upto - t->below, above = t->disjoint - t->upto;
    const int64_t per_below = t->scale / at, per_equal = t->scale / (at + 1);
    for (int e = 0; e < t->explicit; e++) {
        if (t->vals[e] != best) continue;
        t->share[e] += below * per_below + equal * per_equal;
        if (at == 1) t->win[e] += below;
        else t->tie[e] += below;
        t->tie[e] += equal;
    }
    const int last = t->explicit;
    t->share[last] += above * t->scale + equal * per_equal;
    t->win[last] += above;
    t->tie[last] += equal;
    t->tuples++;
}

static void walk(tuples_t *t, int e, uint64_t mask, Py_ssize_t start, Py_ssize_t stop) {
    if (e == t->explicit) {
        leaf(t);
        return;
    }
    const side_t *p = &t->side[e];
    for (Py_ssize_t i = start; i < stop; i++) {
        if (p->masks[i] & mask) continue;
        memcpy(t->held + t->nheld, p->rows + i * p->k, (size_t)p->k);
        t->nheld += p->k;
        t->vals[e] = p->values[i];
        if (t->hilo) t->low_vals[e] = p->lows[i];
        walk(t, e + 1, mask | p->masks[i], 0, e + 1 < t->explicit ? t->side[e + 1].n : 0);
        t->nheld -= p->k;
    }
}

/* tuples(m, start, stop, players, keys, starts, k, disjoint, scale, prefix, out) -> (tuples, no_low)
 * The exact counter's inner loop (see exact.py): every tuple of the explicit players' completions
 * (players: a tuple of (rows, k, masks, values, lows or None)) whose first completion is in start..stop-1,
 * the last player's completions counted by inclusion-exclusion on his sorted keys. prefix: None for the
 * high games; in hi/lo the int32 table (keys + 1) x 58 of keys before each position with a low below each
 * threshold. Adds into out (int64, 5 x (explicit + 1): shares in 1/scale pots, wins, ties, high and low
 * shares; the last player in the last column) and returns the tuples and the outcomes with no low. */
static PyObject *tuples(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError,
                        "tuples(m, start, stop, players, keys, starts, k, disjoint, scale, prefix, out)");
        return NULL;
    }
    long m = PyLong_AsLong(args[0]), k = PyLong_AsLong(args[6]);
    Py_ssize_t start = PyLong_AsSsize_t(args[1]), stop = PyLong_AsSsize_t(args[2]);
    long long disjoint = PyLong_AsLongLong(args[7]), scale = PyLong_AsLongLong(args[8]);
    if (PyErr_Occurred()) return NULL;
    PyObject *players = args[3];
    if (!PyTuple_Check(players) || PyTuple_GET_SIZE(players) < 1 || PyTuple_GET_SIZE(players) >= MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "players: a tuple of 1..9 (rows, k, masks, values, lows)");
        return NULL;
    }
    if (m < 1 || m > 52 || k < 0 || k > MAX_K || scale < 1 || disjoint < 0) {
        PyErr_SetString(PyExc_ValueError, "a pool of 1..52 cards, k 0..8, scale >= 1");
        return NULL;
    }
    tuples_t *t = PyMem_RawCalloc(1, sizeof(tuples_t));
    if (t == NULL) return PyErr_NoMemory();
    Py_buffer views[4 * MAX_PLAYERS + 4];
    int got = 0, held = 0;
    PyObject *result = NULL;
    t->explicit = (int)PyTuple_GET_SIZE(players);
    t->hilo = args[9] != Py_None;
    for (int e = 0; e < t->explicit; e++) {
        PyObject *item = PyTuple_GET_ITEM(players, e);
        PyObject *rows, *masks, *values, *lows;
        int pk;
        if (!PyTuple_Check(item) || !PyArg_ParseTuple(item, "OiOOO", &rows, &pk, &masks, &values, &lows)) goto done;
        if (PyObject_GetBuffer(rows, &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
        Py_ssize_t row_bytes = views[got].len;
        t->side[e].rows = views[got++].buf;
        if (PyObject_GetBuffer(masks, &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
        t->side[e].masks = views[got].buf;
        Py_ssize_t n = views[got++].len / 8;
        if (PyObject_GetBuffer(values, &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
        t->side[e].values = views[got].buf;
        Py_ssize_t value_bytes = views[got++].len, low_bytes = n * 4;
        if (t->hilo) {
            if (PyObject_GetBuffer(lows, &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
            t->side[e].lows = views[got].buf;
            low_bytes = views[got++].len;
        }
        if (pk < 0 || pk > 7 || value_bytes != n * 4 || low_bytes != n * 4 || row_bytes != n * pk) {
            PyErr_SetString(PyExc_ValueError,
                            "each player: k bytes, one uint64 mask, one int32 value (and low) a row");
            goto done;
        }
        t->side[e].n = n;
        t->side[e].k = pk;
        held += pk;
    }
    if (held > 64 || start < 0 || stop > t->side[0].n || start > stop) {
        PyErr_SetString(PyExc_ValueError, "at most 64 held cards and start..stop within the first player's rows");
        goto done;
    }
    if (PyObject_GetBuffer(args[4], &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
    t->keys = views[got].buf;
    Py_ssize_t nkeys = views[got++].len / 8;
    if (PyObject_GetBuffer(args[5], &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
    t->starts = views[got].buf;
    Py_ssize_t nstarts = views[got++].len / 8;
    set_offsets((int)m, t->offset);
    if (nstarts < (Py_ssize_t)t->offset[k + 1] + 1) {
        PyErr_SetString(PyExc_ValueError, "starts must have one entry per subset id and one more");
        goto done;
    }
    for (Py_ssize_t i = 0; i < nstarts; i++)
        if (t->starts[i] < 0 || t->starts[i] > nkeys || (i && t->starts[i] < t->starts[i - 1])) {
            PyErr_SetString(PyExc_ValueError, "starts must rise within the keys");
            goto done;
        }
    if (t->hilo) {
        if (PyObject_GetBuffer(args[9], &views[got], PyBUF_C_CONTIGUOUS) < 0) goto done;
        t->prefix = views[got].buf;
        if (views[got++].len != (nkeys + 1) * LOWS * 4) {
            PyErr_SetString(PyExc_ValueError, "prefix must hold (keys + 1) x 58 int32");
            goto done;
        }
        for (int e = 0; e < t->explicit; e++)
            for (Py_ssize_t i = 0; i < t->side[e].n; i++)
                if (t->side[e].lows[i] < 0 || t->side[e].lows[i] > LOWS - 2) {
                    PyErr_SetString(PyExc_ValueError, "lows must be 0..56");
                    goto done;
                }
    }
    if (PyObject_GetBuffer(args[10], &views[got], PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) goto done;
    int64_t *out = views[got].buf;
    if (views[got++].len != 8 * 5 * (t->explicit + 1)) {
        PyErr_SetString(PyExc_ValueError, "out must hold 5 x (players) int64");
        goto done;
    }
    for (int e = 0; e < t->explicit; e++)
        for (Py_ssize_t i = 0; i < t->side[e].n * t->side[e].k; i++)
            if (t->side[e].rows[i] >= m) {
                PyErr_SetString(PyExc_ValueError, "a row holds a position outside the pool");
                goto done;
            }
    t->k = (int)k;
    t->disjoint = disjoint;
    t->scale = scale;
    Py_BEGIN_ALLOW_THREADS
    walk(t, 0, 0, start, stop);
    Py_END_ALLOW_THREADS
    const int n = t->explicit + 1;
    for (int p = 0; p < n; p++) {
        out[p] += t->share[p];
        out[n + p] += t->win[p];
        out[2 * n + p] += t->tie[p];
        out[3 * n + p] += t->high[p];
        out[4 * n + p] += t->low[p];
    }
    result = Py_BuildValue("(LL)", (long long)t->tuples, (long long)t->no_low);
done:
    for (int j = 0; j < got; j++) PyBuffer_Release(&views[j]);
    PyMem_RawFree(t);
    return result;
}

static PyMethodDef methods[] = {
    {"completions", (PyCFunction)(void (*)(void))completions, METH_FASTCALL,
     "completions(tables, state, trials, drop, hilo, counts)"},
    {"deal", (PyCFunction)(void (*)(void))deal, METH_FASTCALL,
     "deal(pool, hands, needs, community, state, trials, width, out)"},
    {"tally", (PyCFunction)(void (*)(void))tally, METH_FASTCALL, "tally(values, players, hilo, counts)"},
    {"deal_all", (PyCFunction)(void (*)(void))deal_all, METH_FASTCALL, "deal_all(pool, known, k, rows, hands)"},
    {"combinations", (PyCFunction)(void (*)(void))combinations, METH_FASTCALL, "combinations(m, k, out)"},
    {"sweep", (PyCFunction)(void (*)(void))sweep, METH_FASTCALL,
     "sweep(m, q_rows, q_k, q_values, i_rows, i_k, i_values) -> (below, upto)"},
    {"sweep_hilo", (PyCFunction)(void (*)(void))sweep_hilo, METH_FASTCALL,
     "sweep_hilo(m, q_rows, q_k, q_values, q_lows, i_rows, i_k, i_values, i_lows) -> 18 ints"},
    {"tuples", (PyCFunction)(void (*)(void))tuples, METH_FASTCALL,
     "tuples(m, start, stop, players, keys, starts, k, disjoint, scale, prefix, out) -> (tuples, no_low)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "studpoker's compiled equity kernel", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    set_binomials();
    return PyModule_Create(&module);
}
