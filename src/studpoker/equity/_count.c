/* Compiled exact counting for studpoker.equity (optional; see docs/performance.md and docs/equity.md).
 *
 * Every completion of a hand (combinations, deal_all), the heads-up sweep in order of value
 * (sweep, sweep_hilo: used by equity/sweep.py) and the tuple counter's loop (tuples: exact.py).
 * No hand is evaluated here: Python hands over each completion's value, computed by the
 * evaluation kernel or NumPy. Counts are exact 64-bit integers.
 *
 * Only the CPython C API and the buffer protocol are used (no NumPy headers).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_PLAYERS 10
#define VALUES 8192  /* every value of every game is below this */
#define MAX_SUBSET 4 /* the sweep counts subsets of at most this many cards */

/* ---- combinations ---------------------------------------------------------------------------- */

/* Whether each of the n rows of k pool positions is strictly ascending and below m: the subset ids
 * of the counters are computed from rows in that form. */
static int rows_ok(const uint8_t *rows, Py_ssize_t n, long k, long m) {
    for (Py_ssize_t i = 0; i < n; i++, rows += k)
        for (long j = 0; j < k; j++)
            if (rows[j] >= m || (j && rows[j] <= rows[j - 1])) return 0;
    return 1;
}

/* The k-subset of range(m) after c (ascending) in lexicographic order, in place; 0 after the last one. */
static inline int next_subset(uint8_t *c, long k, long m) {
    long i = k - 1;
    while (i >= 0 && c[i] == m - k + i) i--;
    if (i < 0) return 0;
    c[i]++;
    for (long j = i + 1; j < k; j++) c[j] = (uint8_t)(c[j - 1] + 1);
    return 1;
}

/* combinations(m, k, out) -> None: every k-subset of range(m) in lexicographic order (as
 * itertools.combinations), k bytes a row, into the writable buffer out (C(m, k) x k bytes). */
static PyObject *combinations(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "combinations(m, k, out)");
        return NULL;
    }
    long m = PyLong_AsLong(args[0]), k = PyLong_AsLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    if (m < 0 || m > 52 || k < 1 || k > m) {
        PyErr_SetString(PyExc_ValueError, "need 1 <= k <= m <= 52");
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
        if (!next_subset(c, k, m)) break;
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
            if (!next_subset(c, k, m)) break;
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

/* ---- subsets of cards as counter ids --------------------------------------------------------- */

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

/* FOR_SUBSETS(c, k, s, offset, BODY): BODY once for every subset of row c (k ascending pool positions)
 * of at most s <= 4 cards, with `id` the subset's counter (offset[size] + its colex id) and `sign`
 * (-1)^size, the subset's sign in inclusion-exclusion. */
#define SUBSET(ID, SIGN, BODY)            \
    {                                     \
        const uint32_t id = (ID);         \
        const int64_t sign = (SIGN);      \
        (void)sign;                       \
        BODY                              \
    }
#define FOR_SUBSETS(c, k, s, offset, BODY)                                                    \
    do {                                                                                      \
        SUBSET(0, 1, BODY)                                                                    \
        for (int a_ = 0; a_ < (k); a_++) {                                                    \
            const uint32_t i1_ = binom[(c)[a_]][1];                                           \
            SUBSET((offset)[1] + i1_, -1, BODY)                                               \
            if ((s) < 2) continue;                                                            \
            for (int b_ = a_ + 1; b_ < (k); b_++) {                                           \
                const uint32_t i2_ = i1_ + binom[(c)[b_]][2];                                 \
                SUBSET((offset)[2] + i2_, 1, BODY)                                            \
                if ((s) < 3) continue;                                                        \
                for (int d_ = b_ + 1; d_ < (k); d_++) {                                       \
                    const uint32_t i3_ = i2_ + binom[(c)[d_]][3];                             \
                    SUBSET((offset)[3] + i3_, -1, BODY)                                       \
                    if ((s) < 4) continue;                                                    \
                    for (int e_ = d_ + 1; e_ < (k); e_++)                                     \
                        SUBSET((offset)[4] + i3_ + binom[(c)[e_]][4], 1, BODY)                \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
    } while (0)

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

#define LOW_CLASSES 57 /* eight-or-better lows 0 (none) .. 56 */

/* What both sweeps read from their arguments: the two players' completions (rows of pool positions,
 * values, and in hi/lo lows), checked, and each list's order by value. */
typedef struct {
    long m, qk, ik;
    int s, got;
    Py_buffer v[6];
    const uint8_t *qr, *ir;
    const int32_t *qv, *iv, *ql, *il; /* ql, il: NULL for the high games */
    Py_ssize_t nq, ni;
    uint32_t offset[MAX_K + 2];
    int32_t *q_order, *i_order;
} sweep_t;

static void sweep_close(sweep_t *w) {
    for (int j = 0; j < w->got; j++) PyBuffer_Release(&w->v[j]);
    w->got = 0;
    PyMem_RawFree(w->q_order);
    PyMem_RawFree(w->i_order);
    w->q_order = w->i_order = NULL;
}

/* Arguments (m, q_rows, q_k, q_values, [q_lows,] i_rows, i_k, i_values[, i_lows]); 0, or -1 with an
 * exception set and everything released. */
static int sweep_open(sweep_t *w, PyObject *const *args, Py_ssize_t nargs, int hilo) {
    memset(w, 0, sizeof *w);
    const int ik_at = hilo ? 6 : 5;
    if (nargs != (hilo ? 9 : 7)) {
        PyErr_SetString(PyExc_TypeError, hilo ? "sweep_hilo(m, q_rows, q_k, q_values, q_lows, i_rows, i_k, i_values, i_lows)"
                                              : "sweep(m, q_rows, q_k, q_values, i_rows, i_k, i_values)");
        return -1;
    }
    w->m = PyLong_AsLong(args[0]);
    w->qk = PyLong_AsLong(args[2]);
    w->ik = PyLong_AsLong(args[ik_at]);
    if (PyErr_Occurred()) return -1;
    if (w->m < 1 || w->m > 52 || w->qk < 1 || w->ik < 1 || w->qk > 7 || w->ik > 7) {
        PyErr_SetString(PyExc_ValueError, "1 <= cards <= 7 and a pool of at most 52");
        return -1;
    }
    w->s = (int)(w->qk < w->ik ? w->qk : w->ik);
    if (w->s > MAX_SUBSET) {
        PyErr_SetString(PyExc_ValueError, "the sweep counts subsets of at most 4 cards");
        return -1;
    }
    const int high_args[4] = {1, 3, 4, 6}, hilo_args[6] = {1, 3, 4, 5, 7, 8};
    const int *which = hilo ? hilo_args : high_args, n = hilo ? 6 : 4;
    for (; w->got < n; w->got++)
        if (PyObject_GetBuffer(args[which[w->got]], &w->v[w->got], PyBUF_C_CONTIGUOUS) < 0) goto fail;
    /* buffers: q rows, q values, [q lows,] i rows, i values[, i lows] */
    const Py_buffer *qrv = &w->v[0], *qvv = &w->v[1], *irv = &w->v[hilo ? 3 : 2], *ivv = &w->v[hilo ? 4 : 3];
    w->nq = qvv->len / 4;
    w->ni = ivv->len / 4;
    if (qrv->len != w->nq * w->qk || irv->len != w->ni * w->ik || qvv->len % 4 || ivv->len % 4 ||
        (hilo && (w->v[2].len != w->nq * 4 || w->v[5].len != w->ni * 4))) {
        PyErr_SetString(PyExc_ValueError, "rows must be k bytes per completion, values (and lows) one int32 each");
        goto fail;
    }
    w->qr = qrv->buf;
    w->ir = irv->buf;
    w->qv = qvv->buf;
    w->iv = ivv->buf;
    w->ql = hilo ? w->v[2].buf : NULL;
    w->il = hilo ? w->v[5].buf : NULL;
    for (Py_ssize_t i = 0; i < w->nq; i++)
        if (w->qv[i] < 0 || w->qv[i] >= VALUES || (hilo && (w->ql[i] < 0 || w->ql[i] >= LOW_CLASSES))) goto bad_value;
    for (Py_ssize_t i = 0; i < w->ni; i++)
        if (w->iv[i] < 0 || w->iv[i] >= VALUES || (hilo && (w->il[i] < 0 || w->il[i] >= LOW_CLASSES))) goto bad_value;
    if (!rows_ok(w->qr, w->nq, w->qk, w->m) || !rows_ok(w->ir, w->ni, w->ik, w->m)) goto bad_row;
    set_offsets((int)w->m, w->offset);
    w->q_order = order_by_value(w->qv, w->nq);
    w->i_order = order_by_value(w->iv, w->ni);
    if (w->q_order == NULL || w->i_order == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    return 0;
bad_value:
    PyErr_SetString(PyExc_ValueError, hilo ? "values must be 0..8191 and lows 0..56" : "values must be 0..8191");
    goto fail;
bad_row:
    PyErr_SetString(PyExc_ValueError, "each row must hold ascending, distinct positions in the pool");
fail:
    sweep_close(w);
    return -1;
}

/* ---- the heads-up sweep (exact) -------------------------------------------------------------- */

/* sweep(m, q_rows, q_k, q_values, i_rows, i_k, i_values) -> (below, upto)
 * Heads-up and exact: Q's completions (rows of q_k pool positions, ascending, with values) against
 * I's. Returns the sums over Q's completions of how many of I's completions share no card with it
 * and are worth less (below) and at most as much (upto). I's completions are added in order of value
 * into counters of every subset of their cards of at most s = min(q_k, i_k) cards; Q's completions,
 * in the same order, read off the disjoint ones by inclusion-exclusion over their own subsets (a
 * counted row shares at most s cards with them). */
static PyObject *sweep(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    sweep_t w;
    if (sweep_open(&w, args, nargs, 0) < 0) return NULL;
    int32_t *cnt = PyMem_RawCalloc(w.offset[w.s + 1], sizeof(int32_t));
    if (cnt == NULL) {
        sweep_close(&w);
        return PyErr_NoMemory();
    }
    int64_t lt = 0, le = 0;
    Py_BEGIN_ALLOW_THREADS
    const int s = w.s, qk = (int)w.qk, ik = (int)w.ik;
    const uint32_t *offset = w.offset;
#define INSERT(row) FOR_SUBSETS(w.ir + (Py_ssize_t)(row) * ik, ik, s, offset, cnt[id]++;)
#define READ(row, total) FOR_SUBSETS(w.qr + (Py_ssize_t)(row) * qk, qk, s, offset, (total) += sign * cnt[id];)
    Py_ssize_t a = 0, b = 0;
    while (a < w.nq) {
        const int32_t value = w.qv[w.q_order[a]];
        for (; b < w.ni && w.iv[w.i_order[b]] < value; b++) INSERT(w.i_order[b]);
        Py_ssize_t end = a;
        for (; end < w.nq && w.qv[w.q_order[end]] == value; end++) READ(w.q_order[end], lt);
        for (; b < w.ni && w.iv[w.i_order[b]] == value; b++) INSERT(w.i_order[b]);
        for (Py_ssize_t j = a; j < end; j++) READ(w.q_order[j], le);
        a = end;
    }
#undef INSERT
#undef READ
    Py_END_ALLOW_THREADS
    PyMem_RawFree(cnt);
    sweep_close(&w);
    return Py_BuildValue("(LL)", (long long)lt, (long long)le);
}

/* ---- the heads-up sweep for stud hi/lo ------------------------------------------------------ */

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

/* sweep_hilo(m, q_rows, q_k, q_values, q_lows, i_rows, i_k, i_values, i_lows) -> 18 ints
 * The sweep of sweep() for stud hi/lo: I's completions go into a Fenwick tree over their lows, one per
 * subset, so each read splits the disjoint ones by how their low compares with the Q completion's. Returns
 * ways[has_low][high][low] flattened (2 x 3 x 3): summed over Q's completions without (0) or with (1) a low,
 * the disjoint I completions whose high and low are below (0), equal to (1) or above (2) Q's. */
static PyObject *sweep_hilo(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    sweep_t w;
    if (sweep_open(&w, args, nargs, 1) < 0) return NULL;
    int32_t *tree = PyMem_RawCalloc((size_t)w.offset[w.s + 1] * FEN, sizeof(int32_t));
    if (tree == NULL) {
        sweep_close(&w);
        return PyErr_NoMemory();
    }
    int64_t ways[2][3][3];
    memset(ways, 0, sizeof ways);
    Py_BEGIN_ALLOW_THREADS
    const int s = w.s, qk = (int)w.qk, ik = (int)w.ik;
    const uint32_t *offset = w.offset;
    const int32_t *ql = w.ql, *il = w.il;
#define INSERT(row) FOR_SUBSETS(w.ir + (Py_ssize_t)(row) * ik, ik, s, offset, fen_add(tree, id, il[row]);)
#define READ(row, part) \
    FOR_SUBSETS(w.qr + (Py_ssize_t)(row) * qk, qk, s, offset, fen_split(tree, id, ql[row], sign, ways[ql[row] > 0][part]);)
    Py_ssize_t a = 0, b = 0;
    while (a < w.nq) { /* high below: read before the equal highs go in; at most: after */
        const int32_t value = w.qv[w.q_order[a]];
        for (; b < w.ni && w.iv[w.i_order[b]] < value; b++) INSERT(w.i_order[b]);
        Py_ssize_t end = a;
        for (; end < w.nq && w.qv[w.q_order[end]] == value; end++) READ(w.q_order[end], 0);
        for (; b < w.ni && w.iv[w.i_order[b]] == value; b++) INSERT(w.i_order[b]);
        for (Py_ssize_t j = a; j < end; j++) READ(w.q_order[j], 1); /* at most, kept in row 1 for now */
        a = end;
    }
    for (; b < w.ni; b++) INSERT(w.i_order[b]);
    for (Py_ssize_t q = 0; q < w.nq; q++) READ(q, 2); /* every disjoint one, in row 2 for now */
#undef INSERT
#undef READ
    for (int h = 0; h < 2; h++)
        for (int l = 0; l < 3; l++) {
            const int64_t below = ways[h][0][l], upto = ways[h][1][l], all = ways[h][2][l];
            ways[h][1][l] = upto - below;
            ways[h][2][l] = all - upto;
        }
    Py_END_ALLOW_THREADS
    PyMem_RawFree(tree);
    sweep_close(&w);
    PyObject *result = PyTuple_New(18);
    if (result != NULL)
        for (int j = 0; j < 18; j++) {
            PyObject *x = PyLong_FromLongLong((long long)((int64_t *)ways)[j]);
            if (x == NULL) {
                Py_CLEAR(result);
                break;
            }
            PyTuple_SET_ITEM(result, j, x);
        }
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
    if (m < 0 || m > 52 || k < 0 || k > MAX_K || scale < 1 || disjoint < 0) {
        PyErr_SetString(PyExc_ValueError, "a pool of 0..52 cards, k 0..8, scale >= 1");
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
    for (int e = 0; e < t->explicit; e++) {
        const side_t *p = &t->side[e];
        int ok = rows_ok(p->rows, p->n, p->k, m);
        for (Py_ssize_t i = 0; ok && i < p->n; i++) { /* the masks must be the rows' cards: disjointness rests on them */
            uint64_t mask = 0;
            for (int j = 0; j < p->k; j++) mask |= (uint64_t)1 << p->rows[i * p->k + j];
            ok = mask == p->masks[i];
        }
        if (!ok) {
            PyErr_SetString(PyExc_ValueError, "each row must hold ascending, distinct positions in the pool, "
                                              "and each mask the bits of its row");
            goto done;
        }
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
    PyModuleDef_HEAD_INIT, "_count", "studpoker's compiled exact counting", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__count(void) {
    set_binomials();
    return PyModule_Create(&module);
}
