/* Compiled evaluation kernel for studpoker.evaluation (optional; see docs/performance.md).
 *
 * One C loop per batch: range check, duplicate check (a 64-bit card mask per
 * row), key sums, one lookup in the dense value table of the hand size and
 * kind, and the flush path. The tables are not generated here: Python hands
 * over the ones that studpoker.evaluation._tables builds (set_common and
 * set_table), so the answers are those of the NumPy path by construction.
 *
 * Only the CPython C API and the buffer protocol are used (no NumPy headers).
 * Every function reports trouble as a return code and lets the Python caller
 * take the NumPy/Python path, which words the error exactly as it always has.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h> /* T_OBJECT_EX: reading Card.index from its slot */
#include <stdint.h>
#include <string.h>

#define HIGH 0
#define LOW8 1
#define RAZZ 2
#define KINDS 3
#define SUIT_SHIFT 23
#define RANK_MASK ((1u << SUIT_SHIFT) - 1)
#define BLOCK 256 /* rows summed, then looked up, at a time */

/* Results of batch() and value() besides a value or a good return. */
#define OK (-1)          /* batch: every row evaluated */
#define UNSUPPORTED (-2) /* this input form is not read here: use the Python path */
#define NOT_LOADED (-3)  /* the tables of this size and kind are not loaded yet */

#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define INLINE static inline
#define PREFETCH(p) ((void)0)
#endif

typedef struct {
    const uint16_t *values; /* indexed by rank-key sum; NULL until set_table */
    uint32_t len;
} table_t;

static table_t tables[8][KINDS];           /* [hand size][kind] */
static PyObject *suit_owner[8];            /* per hand size: suit part of a key -> flush suit or -1 */
static const int8_t *flush_suit[8];
static uint32_t card_key[256], rank_key[256]; /* 0 past 51: a bad index reads a harmless key */
static uint64_t suit_bit[256];                /* 1 << (16 * suit + rank) */
static uint64_t card_bit[256];                /* 1 << index, 1 << 63 past 51 */
static uint16_t flush_value[8192];            /* 13 rank bits of one suit -> best flush or 0 */
static uint8_t text_rank[128], text_suit[128]; /* ASCII card text: rank and suit of a character, 255 if none */
static PyObject *card_type;                   /* studpoker.cards.Card */
static PyObject *index_name;                  /* "index" */
static Py_ssize_t index_offset = -1;          /* where a Card keeps `index` (a __slots__ member), or -1 */
static int common_ready;

#define AHEAD 64   /* rows of wide integers prefetched ahead (the hardware alone fetches them too late) */
#define STAGE 2048 /* rows staged at a time as bytes, for the input forms not read in place */

/* Card j of the row at q: 0..51 as is, anything else as 255 (a byte is returned as it is: eval_rows
 * rejects 52..255 itself). The cards are integers in this machine's byte order; w, a constant in
 * every instantiation, is their width in bytes: positive when the cards of a row follow one another,
 * negative when they lie `cs` bytes apart (Fortran order, a column step, reversed columns). Signed
 * and unsigned integers read alike: a negative one reads as a large unsigned one. memcpy of one
 * item is one load, at any alignment. */
INLINE unsigned card_at(const uint8_t *q, int j, const int w, const Py_ssize_t cs) {
    if (w == 1) return q[j];
    const int width = w < 0 ? -w : w;
    const uint8_t *c = w < 0 ? q + j * cs : q + j * w;
    uint64_t v;
    if (width == 1) {
        return *c;
    } else if (width == 2) {
        uint16_t x;
        memcpy(&x, c, 2);
        v = x;
    } else if (width == 4) {
        uint32_t x;
        memcpy(&x, c, 4);
        v = x;
    } else {
        memcpy(&v, c, 8);
    }
    return v > 51 ? 255u : (unsigned)v;
}

INLINE int32_t flush_of(const uint8_t *p, const int k, const int w, const Py_ssize_t cs) {
    uint64_t held = 0;
    for (int j = 0; j < k; j++) held |= suit_bit[card_at(p, j, w, cs)];
    int32_t best = flush_value[held & 0x1FFF];
    for (int s = 1; s < 4; s++) {
        int32_t v = flush_value[(held >> (16 * s)) & 0x1FFF];
        if (v > best) best = v;
    }
    return best;
}

/* Evaluate n rows of k cards (read by card_at with w and cs), rows `rs` bytes apart; the index of
 * the first row that is out of range, holds a card twice (when checking) or falls outside the
 * table, or OK. k, kind, check and w are constants in every instantiation, so a uint8 row reads
 * its bytes as they are and a wider one each card straight from the caller's buffer, no copy.
 * Rows go in blocks: first the key sums and checks, then the table lookups, which
 * are then independent of each other and overlap their cache misses. */
INLINE Py_ssize_t eval_rows(const uint8_t *p, Py_ssize_t rs, Py_ssize_t cs, Py_ssize_t n, int32_t *out,
                            const int k, const int kind, const int check, const int w) {
    const table_t *t = &tables[k][kind];
    const uint16_t *values = t->values;
    const uint32_t len = t->len;
    const int8_t *suits = flush_suit[k];
    const uint32_t *keys = kind == HIGH ? card_key : rank_key;
    uint32_t sums[BLOCK];
    for (Py_ssize_t a = 0; a < n; a += BLOCK, p += BLOCK * rs, out += BLOCK) {
        const Py_ssize_t m = n - a < BLOCK ? n - a : BLOCK;
        const uint8_t *q = p;
        for (Py_ssize_t i = 0; i < m; i++, q += rs) {
            /* Wider cards: 2 to 8 times the bytes of uint8 rows to stream in while the lookups miss.
             * A prefetch past the end of the buffer is harmless (it never faults). */
            if (w > 1) PREFETCH(q + AHEAD * rs);
            /* Each card's bit from card_bit (bit 63 for an index past 51). Without a repeat the
             * bits never carry, so their sum equals their OR; a bad index shows above bit 51. */
            uint32_t s = 0;
            uint64_t any = 0, sum = 0;
            for (int j = 0; j < k; j++) {
                unsigned c = card_at(q, j, w, cs);
                uint64_t bit = card_bit[c];
                s += keys[c];
                any |= bit;
                if (check) sum += bit;
            }
            uint32_t r = kind == HIGH ? (s & RANK_MASK) : s;
            if ((any >> 52) | (check ? sum ^ any : 0) | (r >= len)) return a + i;
            sums[i] = s;
            PREFETCH(values + r); /* the lookup below then finds it in cache more often */
        }
        for (Py_ssize_t i = 0; i < m; i++) out[i] = values[kind == HIGH ? (sums[i] & RANK_MASK) : sums[i]];
        if (kind == HIGH) {
            for (Py_ssize_t i = 0; i < m; i++)
                if (suits[sums[i] >> SUIT_SHIFT] >= 0) out[i] = flush_of(p + i * rs, k, w, cs);
        }
    }
    return OK;
}

typedef Py_ssize_t (*rows_fn)(const uint8_t *, Py_ssize_t, Py_ssize_t, Py_ssize_t, int32_t *);

#define ROWS(K, KIND, CHECK, NAME, W)                                                              \
    static Py_ssize_t rows_##K##_##KIND##_##CHECK##_##NAME(const uint8_t *p, Py_ssize_t rs, Py_ssize_t cs, \
                                                           Py_ssize_t n, int32_t *out) {            \
        return eval_rows(p, rs, cs, n, out, K, KIND, CHECK, W);                                    \
    }
#define ROWS_W(K, KIND, CHECK)                                                                     \
    ROWS(K, KIND, CHECK, 1, 1) ROWS(K, KIND, CHECK, 2, 2) ROWS(K, KIND, CHECK, 4, 4) ROWS(K, KIND, CHECK, 8, 8) \
    ROWS(K, KIND, CHECK, s1, -1) ROWS(K, KIND, CHECK, s2, -2) ROWS(K, KIND, CHECK, s4, -4)                   \
    ROWS(K, KIND, CHECK, s8, -8)
#define ROWS_K(K) ROWS_W(K, 0, 0) ROWS_W(K, 0, 1) ROWS_W(K, 1, 0) ROWS_W(K, 1, 1) ROWS_W(K, 2, 0) ROWS_W(K, 2, 1)
ROWS_K(5)
ROWS_K(6)
ROWS_K(7)
#define F(K, KIND, CHECK, NAME) rows_##K##_##KIND##_##CHECK##_##NAME
#define WIDTHS(K, KIND, CHECK)                                                                     \
    {F(K, KIND, CHECK, 1),  F(K, KIND, CHECK, 2),  F(K, KIND, CHECK, 4), F(K, KIND, CHECK, 8), F(K, KIND, CHECK, s1), \
     F(K, KIND, CHECK, s2), F(K, KIND, CHECK, s4), F(K, KIND, CHECK, s8)}
#define KIND_FNS(K, KIND) {WIDTHS(K, KIND, 0), WIDTHS(K, KIND, 1)}
#define ENTRY(K) {KIND_FNS(K, 0), KIND_FNS(K, 1), KIND_FNS(K, 2)}
/* [hand size - 5][kind][check][form]: forms 0..3 read native integers of 1, 2, 4, 8 bytes that
 * follow one another in a row, forms 4..7 those with any step between the cards of a row. */
static const rows_fn ROW_FNS[3][KINDS][2][8] = {ENTRY(5), ENTRY(6), ENTRY(7)};

/* ---- Reading other input forms into rows of bytes ---------------------------------------- */

/* One card as a byte: 0..51 as is, anything out of range as 255 (reported by eval_rows);
 * -1 for an object that is neither an int nor a Card. */
static int card_byte(PyObject *item) {
    long v;
    if (PyLong_CheckExact(item)) {
        int overflow;
        v = PyLong_AsLongAndOverflow(item, &overflow);
        if (overflow) return 255;
    } else if (card_type != NULL && Py_TYPE(item) == (PyTypeObject *)card_type) {
        PyObject *index = index_offset >= 0 ? *(PyObject **)((char *)item + index_offset) : NULL; /* borrowed */
        if (index != NULL) {
            Py_INCREF(index);
        } else if ((index = PyObject_GetAttr(item, index_name)) == NULL) {
            PyErr_Clear();
            return -1;
        }
        v = PyLong_CheckExact(index) ? PyLong_AsLong(index) : -1;
        Py_DECREF(index);
    } else {
        return -1;
    }
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 255;
    }
    return (v < 0 || v > 51) ? 255 : (int)v;
}

/* Cards written as ASCII text, "As Kd 7c" or "AsKd7c" (commas count as spaces), into row:
 * their number, or -1 for anything else (more than `max` cards, "10h", other whitespace,
 * non-ASCII text...), which the Python parser then reads or rejects. */
static int parse_text(PyObject *text, uint8_t *row, int max) {
    if (!PyUnicode_IS_ASCII(text)) return -1;
    const unsigned char *p = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int count = 0;
    for (Py_ssize_t i = 0; i < n;) {
        if (p[i] == ' ' || p[i] == ',') {
            i++;
            continue;
        }
        if (i + 1 >= n || count == max) return -1;
        unsigned rank = text_rank[p[i]], suit = text_suit[p[i + 1]];
        if (rank > 12 || suit > 3) return -1;
        row[count++] = (uint8_t)(4 * rank + suit);
        i += 2;
    }
    return count;
}

/* Rows of a list or tuple of lists/tuples (or of card text), `first`.. up to STAGE of them, into stage. */
static int stage_list(PyObject *seq, Py_ssize_t first, Py_ssize_t m, int k, uint8_t *stage) {
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *row = PySequence_Fast_GET_ITEM(seq, first + i);
        if (PyUnicode_CheckExact(row)) {
            if (parse_text(row, stage + 8 * i, 7) != k) return -1;
            continue;
        }
        if (!(PyList_CheckExact(row) || PyTuple_CheckExact(row)) || PySequence_Fast_GET_SIZE(row) != k)
            return -1;
        PyObject **items = PySequence_Fast_ITEMS(row);
        for (int j = 0; j < k; j++) {
            int c = card_byte(items[j]);
            if (c < 0) return -1;
            stage[8 * i + j] = (uint8_t)c;
        }
    }
    return 0;
}

/* ---- Integer buffers in the other byte order than this machine's: staged as bytes -----------
 *
 * They are read STAGE rows at a time into rows of k bytes (a C-contiguous block in one flat loop,
 * which the compiler vectorises), then evaluated as uint8 rows. The value read natively holds the
 * card's low byte `shift` bits up, which is all that is kept; every value is also ORed into `seen`,
 * so one test per block, outside the loop, finds a card of 64 or more or a negative one (a bit
 * outside those six): only then is the block staged again, item by item, with 255 for each bad card
 * (52..63 are rejected by eval_rows like any index past 51). */

#define SWAPPED(T)                                                                                 \
    static void swapped_##T(const char *base, Py_ssize_t s0, Py_ssize_t s1, Py_ssize_t m, int k,  \
                            uint8_t *restrict stage) {                                              \
        const int shift = 8 * ((int)sizeof(T) - 1);                                                \
        const T outside = (T) ~((T)0x3F << shift);                                                 \
        T seen = 0, v;                                                                             \
        if (s1 == (Py_ssize_t)sizeof(T) && s0 == k * s1) {                                         \
            for (Py_ssize_t i = 0; i < m * k; i++) {                                               \
                memcpy(&v, base + i * (Py_ssize_t)sizeof(T), sizeof v);                            \
                seen |= v;                                                                         \
                stage[i] = (uint8_t)(v >> shift);                                                  \
            }                                                                                      \
        } else {                                                                                   \
            for (Py_ssize_t i = 0; i < m; i++)                                                     \
                for (int j = 0; j < k; j++) {                                                      \
                    memcpy(&v, base + i * s0 + j * s1, sizeof v);                                  \
                    seen |= v;                                                                     \
                    stage[i * k + j] = (uint8_t)(v >> shift);                                      \
                }                                                                                  \
        }                                                                                          \
        if (seen & outside) {                                                                      \
            for (Py_ssize_t i = 0; i < m; i++)                                                     \
                for (int j = 0; j < k; j++) {                                                      \
                    memcpy(&v, base + i * s0 + j * s1, sizeof v);                                  \
                    stage[i * k + j] = (v & outside) ? 255 : (uint8_t)(v >> shift);                \
                }                                                                                  \
        }                                                                                          \
    }

SWAPPED(uint16_t)
SWAPPED(uint32_t)
SWAPPED(uint64_t)

/* How a buffer's integer format is read: 0 in this machine's byte order (or one byte wide), 1 in
 * the other, -1 not at all (not a single integer code, or not 1, 2, 4 or 8 bytes). */
static int int_format(const char *format, Py_ssize_t itemsize) {
    if (format == NULL) return 0; /* "B" */
    char order = format[0];
    if (order == '@' || order == '=' || order == '<' || order == '>' || order == '!') format++;
    if (format[0] == '\0' || format[1] != '\0') return -1;
    if (itemsize != 1 && itemsize != 2 && itemsize != 4 && itemsize != 8) return -1;
    if (!strchr("bhilqnBHILQN", format[0])) return -1;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return order == '<' && itemsize > 1;
#else
    return (order == '>' || order == '!') && itemsize > 1;
#endif
}

/* ---- Module functions ---------------------------------------------------------------------- */

static int ensure_size_kind(int k, int kind) {
    if (k < 5 || k > 7 || kind < 0 || kind >= KINDS) {
        PyErr_SetString(PyExc_ValueError, "hand size must be 5..7 and kind 0..2");
        return -1;
    }
    return 0;
}

static int loaded(int k, int kind) {
    return common_ready && tables[k][kind].values != NULL && (kind != HIGH || suit_owner[k] != NULL);
}

static PyObject *set_common(PyObject *Py_UNUSED(self), PyObject *args) {
    Py_buffer ck, rk, fv, tr, ts;
    PyObject *card;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*O:set_common", &ck, &rk, &fv, &tr, &ts, &card)) return NULL;
    PyObject *result = NULL;
    if (common_ready) { /* set once: a batch may be reading the keys without the GIL */
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (ck.len != 52 * 4 || rk.len != 52 * 4 || fv.len != 8192 * 2 || tr.len != 128 || ts.len != 128) {
        PyErr_SetString(PyExc_ValueError,
                        "set_common needs 52 uint32 card keys, 52 rank keys, 8192 uint16, 2 x 128 bytes");
        goto done;
    }
    memset(card_key, 0, sizeof card_key);
    memset(rank_key, 0, sizeof rank_key);
    memset(suit_bit, 0, sizeof suit_bit);
    memcpy(card_key, ck.buf, 52 * 4);
    memcpy(rank_key, rk.buf, 52 * 4);
    memcpy(flush_value, fv.buf, 8192 * 2);
    memcpy(text_rank, tr.buf, 128);
    memcpy(text_suit, ts.buf, 128);
    for (int c = 0; c < 256; c++) card_bit[c] = (uint64_t)1 << (c < 52 ? c : 63);
    for (int c = 0; c < 52; c++) suit_bit[c] = (uint64_t)1 << (16 * (c & 3) + (c >> 2));
    if (!PyType_Check(card)) {
        PyErr_SetString(PyExc_TypeError, "card_type must be a class");
        goto done;
    }
    PyObject *descr = PyObject_GetAttr(card, index_name); /* Card.index: a member descriptor for a slot */
    if (descr == NULL) goto done;
    if (Py_IS_TYPE(descr, &PyMemberDescr_Type)) {
        PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
        if (member->type == T_OBJECT_EX) index_offset = member->offset;
    }
    Py_DECREF(descr); /* the class keeps it */
    Py_INCREF(card);
    Py_XSETREF(card_type, card);
    common_ready = 1;
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&ck);
    PyBuffer_Release(&rk);
    PyBuffer_Release(&fv);
    PyBuffer_Release(&tr);
    PyBuffer_Release(&ts);
    return result;
}

/* set_table(k, kind, keys, values, flush_suits): the value of every k-card rank multiset
 * (keys: uint32 rank-key sums, values: uint16), spread here into a table indexed by the
 * key, the layout of _tables.dense_table; flush_suits (512 bytes) for kind HIGH. */
static PyObject *set_table(PyObject *Py_UNUSED(self), PyObject *args) {
    int k, kind;
    Py_buffer kb, vb;
    PyObject *suits, *result = NULL;
    if (!PyArg_ParseTuple(args, "iiy*y*O:set_table", &k, &kind, &kb, &vb, &suits)) return NULL;
    if (ensure_size_kind(k, kind) < 0) goto done;
    Py_ssize_t n = kb.len / 4;
    if (kb.len % 4 || vb.len != 2 * n || n == 0) {
        PyErr_SetString(PyExc_ValueError, "set_table needs as many uint16 values as uint32 keys");
        goto done;
    }
    if (suits != Py_None && (!PyBytes_CheckExact(suits) || PyBytes_GET_SIZE(suits) != 1 << (32 - SUIT_SHIFT))) {
        PyErr_SetString(PyExc_ValueError, "flush suits must be 512 bytes");
        goto done;
    }
    /* Tables are set once and never replaced: a batch may be reading them without the GIL. */
    if (suits != Py_None && suit_owner[k] == NULL) {
        Py_INCREF(suits);
        suit_owner[k] = suits;
        flush_suit[k] = (const int8_t *)PyBytes_AS_STRING(suits);
    }
    table_t *t = &tables[k][kind];
    if (t->values == NULL) {
        const uint32_t *keys = (const uint32_t *)kb.buf;
        const uint16_t *values = (const uint16_t *)vb.buf;
        uint32_t top = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            if (keys[i] > top) top = keys[i];
        if (top >= RANK_MASK) {
            PyErr_SetString(PyExc_ValueError, "rank keys must be below 2**23");
            goto done;
        }
        uint16_t *dense = PyMem_RawCalloc((size_t)top + 1, sizeof *dense); /* kept for the process */
        if (dense == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t i = 0; i < n; i++) dense[keys[i]] = values[i];
        t->len = top + 1;
        t->values = dense;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&kb);
    PyBuffer_Release(&vb);
    return result;
}

static PyObject *is_loaded(PyObject *Py_UNUSED(self), PyObject *args) {
    int k, kind;
    if (!PyArg_ParseTuple(args, "ii:is_loaded", &k, &kind)) return NULL;
    if (ensure_size_kind(k, kind) < 0) return NULL;
    return PyBool_FromLong(loaded(k, kind));
}

/* batch(out, hands, k, kind, check) -> int
 * Fill the int32 buffer `out` (one item per row) from `hands`: a buffer of integers of 1, 2,
 * 4 or 8 bytes (signed or not, either byte order, any strides), 2-D (n, k) or 1-D (n * k), or
 * a list/tuple of n lists/tuples of k ints or Cards, or of n strings of k cards each.
 * Returns OK, UNSUPPORTED, NOT_LOADED, or the first row in error (>= 0). */
static PyObject *batch(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "batch(out, hands, k, kind, check)");
        return NULL;
    }
    int k = PyLong_AsLong(args[2]), kind = PyLong_AsLong(args[3]), check = PyObject_IsTrue(args[4]);
    if (PyErr_Occurred() || check < 0) return NULL;
    if (ensure_size_kind(k, kind) < 0) return NULL;
    if (!loaded(k, kind)) return PyLong_FromLong(NOT_LOADED);
    Py_buffer ob;
    if (PyObject_GetBuffer(args[0], &ob, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    int32_t *out = (int32_t *)ob.buf;
    Py_ssize_t n = ob.len / 4, result = OK;
    rows_fn fn = ROW_FNS[k - 5][kind][check ? 1 : 0][0]; /* for lists, read into stage */
    PyObject *hands = args[1];
    uint8_t stage[STAGE * 8];

    if (PyList_CheckExact(hands) || PyTuple_CheckExact(hands)) {
        if (PySequence_Fast_GET_SIZE(hands) != n) {
            result = UNSUPPORTED;
            goto done;
        }
        for (Py_ssize_t a = 0; a < n && result == OK; a += STAGE) {
            Py_ssize_t m = n - a < STAGE ? n - a : STAGE;
            if (stage_list(hands, a, m, k, stage) < 0) {
                result = UNSUPPORTED;
                break;
            }
            Py_ssize_t bad = fn(stage, 8, 1, m, out + a);
            if (bad >= 0) result = a + bad;
        }
        goto done;
    }
    Py_buffer hb;
    if (PyObject_GetBuffer(hands, &hb, PyBUF_STRIDES | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        result = UNSUPPORTED;
        goto done;
    }
    int swapped = int_format(hb.format, hb.itemsize);
    Py_ssize_t s0 = 0, s1 = 0;
    if (swapped < 0 || (hb.ndim != 1 && hb.ndim != 2)) {
        result = UNSUPPORTED;
    } else if (hb.ndim == 2) {
        if (hb.shape[0] != n || hb.shape[1] != k) result = UNSUPPORTED;
        s0 = hb.strides[0];
        s1 = hb.strides[1];
    } else {
        if (hb.shape[0] != n * k) result = UNSUPPORTED;
        s0 = k * hb.strides[0];
        s1 = hb.strides[0];
    }
    if (result == OK) {
        const char *base = (const char *)hb.buf;
        const Py_ssize_t w = hb.itemsize;
        const int c = check ? 1 : 0;
        Py_BEGIN_ALLOW_THREADS
        if (!swapped) { /* native items: read in place */
            const int form = (s1 == w ? 0 : 4) + (w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3);
            result = ROW_FNS[k - 5][kind][c][form]((const uint8_t *)base, s0, s1, n, out);
        } else { /* the other byte order: staged */
            for (Py_ssize_t a = 0; a < n && result == OK; a += STAGE) {
                Py_ssize_t m = n - a < STAGE ? n - a : STAGE;
                const char *rows = base + a * s0;
                if (w == 2) swapped_uint16_t(rows, s0, s1, m, k, stage);
                else if (w == 4) swapped_uint32_t(rows, s0, s1, m, k, stage);
                else swapped_uint64_t(rows, s0, s1, m, k, stage);
                Py_ssize_t bad = ROW_FNS[k - 5][kind][c][0](stage, k, 1, m, out + a);
                if (bad >= 0) result = a + bad;
            }
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&hb);
done:
    PyBuffer_Release(&ob);
    return PyLong_FromSsize_t(result);
}

/* value(cards, kind) -> int
 * The value of one hand given as a list or tuple of 5..7 ints or Cards, or as ASCII card
 * text; UNSUPPORTED for
 * anything else or any problem (the Python path then words the error), NOT_LOADED. */
static PyObject *value(PyObject *Py_UNUSED(self), PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "value(cards, kind)");
        return NULL;
    }
    PyObject *cards = args[0];
    long kind = PyLong_AsLong(args[1]);
    if (kind < 0 || kind >= KINDS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "kind must be 0..2");
        return NULL;
    }
    uint8_t row[8];
    Py_ssize_t k;
    if (PyList_CheckExact(cards) || PyTuple_CheckExact(cards)) {
        k = PySequence_Fast_GET_SIZE(cards);
        if (k < 5 || k > 7) return PyLong_FromLong(UNSUPPORTED);
        if (!loaded((int)k, (int)kind)) return PyLong_FromLong(NOT_LOADED);
        PyObject **items = PySequence_Fast_ITEMS(cards);
        for (Py_ssize_t j = 0; j < k; j++) {
            int c = card_byte(items[j]);
            if (c < 0 || c > 51) return PyLong_FromLong(UNSUPPORTED);
            row[j] = (uint8_t)c;
        }
    } else if (PyUnicode_CheckExact(cards)) {
        if (!common_ready) return PyLong_FromLong(NOT_LOADED); /* the caller loads by the number of cards */
        k = parse_text(cards, row, 7);
        if (k < 5) return PyLong_FromLong(UNSUPPORTED);
        if (!loaded((int)k, (int)kind)) return PyLong_FromLong(NOT_LOADED);
    } else {
        return PyLong_FromLong(UNSUPPORTED);
    }
    int32_t out;
    if (ROW_FNS[k - 5][kind][1][0](row, 8, 1, 1, &out) != OK) return PyLong_FromLong(UNSUPPORTED);
    return PyLong_FromLong(out);
}

static PyMethodDef methods[] = {
    {"set_common", set_common, METH_VARARGS,
     "set_common(card_keys, rank_keys, flush_values, text_ranks, text_suits, card_type)"},
    {"set_table", set_table, METH_VARARGS, "set_table(k, kind, keys_uint32, values_uint16, flush_suits_or_None)"},
    {"is_loaded", is_loaded, METH_VARARGS, "is_loaded(k, kind) -> bool"},
    {"batch", (PyCFunction)(void (*)(void))batch, METH_FASTCALL, "batch(out, hands, k, kind, check) -> int"},
    {"value", (PyCFunction)(void (*)(void))value, METH_FASTCALL, "value(cards, kind) -> int"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel", "studpoker's compiled evaluation kernel", -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    index_name = PyUnicode_InternFromString("index");
    if (index_name == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "OK", OK) < 0 || PyModule_AddIntConstant(m, "UNSUPPORTED", UNSUPPORTED) < 0 ||
        PyModule_AddIntConstant(m, "NOT_LOADED", NOT_LOADED) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
