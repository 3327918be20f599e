/* The play-outs' hot path in C: the same functions as engine/bots/playout.py, card for card.
 *
 * Optional: setup.py builds it when a compiler is there, and playout.py falls back on its pure-Python
 * functions when it is not.  tests/engine/bots/test_kernel.py checks that both give the same card in
 * every position of many sampled deals.  Cards are 0..51, suit = card / 13 (spades are suit 0), a hand
 * is a bit mask; every function below mirrors the Python one of the same name, ties broken the same way.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

typedef uint64_t mask;

#define SUIT(s) ((mask)0x1FFF << (13 * (s)))
#define SPADES SUIT(0)
#define NON_SPADES (SUIT(1) | SUIT(2) | SUIT(3))

static mask ABOVE[52];

static inline int popcount(mask m) { return __builtin_popcountll(m); }
static inline int high(mask m) { return 63 - __builtin_clzll(m); }
static inline int low(mask m) { return __builtin_ctzll(m); }
static inline int strength(int c) { return c % 13 + (c < 13 ? 13 : 0); }
static inline int beats(int c, int best) { return (c / 13 == best / 13 && c > best) || (c < 13 && best >= 13); }

/* The highest card of the led suit and the highest spade on the table (-1 when there is none). */
static void table_best(const int *trick, int n, int *best_led, int *best_spade) {
    int led = trick[0] / 13;
    *best_led = -1;
    *best_spade = -1;
    for (int i = 0; i < n; i++) {
        int c = trick[i];
        if (c < 13) {
            if (c > *best_spade) *best_spade = c;
        } else if (c / 13 == led && c > *best_led) {
            *best_led = c;
        }
    }
}

static mask legal_mask(mask hand, const int *trick, int n, int first) {
    if (n == 0) {
        if (first && (hand & NON_SPADES)) return hand & NON_SPADES;
        return hand;
    }
    int led = trick[0] / 13, best_led, best_spade;
    table_best(trick, n, &best_led, &best_spade);
    if (led == 0) best_led = best_spade;
    mask same = hand & SUIT(led);
    if (same) {
        if (led != 0 && best_spade >= 0) return same;
        mask up = same & ABOVE[best_led];
        return up ? up : same;
    }
    mask spades = hand & SPADES;
    if (!spades) return hand;
    if (best_spade < 0) return spades;
    mask up = spades & ABOVE[best_spade];
    return up ? up : hand;
}

static int trick_winner_index(const int *trick, int n) {
    int best = 0, win = trick[0];
    for (int i = 1; i < n; i++)
        if (beats(trick[i], win)) { best = i; win = trick[i]; }
    return best;
}

static mask forbidden_by_play(const int *trick, int n, int c, int first) {
    if (n == 0) return (first && c < 13) ? NON_SPADES : 0;
    int led = trick[0] / 13, best_led, best_spade;
    table_best(trick, n, &best_led, &best_spade);
    if (c / 13 != led) {
        mask no = SUIT(led);
        if (led) {
            if (best_spade < 0) {
                if (c >= 13) no |= SPADES;
            } else if (c >= 13 || c < best_spade) {
                no |= ABOVE[best_spade];
            }
        }
        return no;
    }
    if (led == 0) return c < best_spade ? ABOVE[best_spade] : 0;
    if (best_spade < 0 && c < best_led) return ABOVE[best_led];
    return 0;
}

static int may_trump(mask pq, mask others, int suit) {
    if (!(pq & SPADES)) return 0;
    if (!(pq & SUIT(suit))) return 1;
    return popcount(others & SUIT(suit)) <= 1;
}

/* Lexicographic comparison of two-int keys. */
#define LESS2(a0, a1, b0, b1) ((a0) < (b0) || ((a0) == (b0) && (a1) < (b1)))

static int kl_card(const mask *h, const mask *pub, int seat, int leader, const int *trick, int n,
                   const int *won, const int *bids, int first) {
    mask hand = h[seat];
    mask lg = legal_mask(hand, trick, n, first);
    if (!(lg & (lg - 1))) return high(lg);
    int left = popcount(hand);
    mask others = 0;
    for (int q = 0; q < 4; q++)
        if (q != seat) others |= h[q];
    int need = bids[seat] - won[seat];
    int want = 0 < need && need <= left;
    int needy = 0;
    for (int q = 0; q < 4; q++) {
        int nq = bids[q] - won[q];
        if (q != seat && 0 < nq && nq <= left) needy |= 1 << q;
    }
    if (n == 0) {
        if (want || needy) {
            mask osp = others & SPADES;
            mask sp = lg & SPADES;
            if (sp && !first) {
                int top = high(sp);
                if (!osp || !(others & ABOVE[top])) return top;
            }
            int best = -1, bk0 = -1, bk1 = -1;
            for (int s = 1; s < 4; s++) {
                mask b = lg & SUIT(s);
                if (!b) continue;
                int top = high(b);
                if (others & ABOVE[top]) continue;
                if (osp) {
                    int risky = 0;
                    for (int q = 0; q < 4; q++)
                        if (q != seat && may_trump(pub[q] & others, others, s)) { risky = 1; break; }
                    if (risky) continue;
                }
                int k0 = popcount(others & SUIT(s)), k1 = top % 13;
                if (LESS2(bk0, bk1, k0, k1)) { bk0 = k0; bk1 = k1; best = top; }
            }
            if (best >= 0) return best;
        }
        mask side = lg & NON_SPADES;
        if (side) {
            int best = -1, bk0 = 99, bk1 = 99;
            for (int s = 1; s < 4; s++) {
                mask b = side & SUIT(s);
                if (!b) continue;
                int lo = low(b), k0;
                if (want || needy) k0 = popcount(hand & SUIT(s));
                else k0 = -popcount(others & ABOVE[lo]);
                int k1 = lo % 13;
                if (LESS2(k0, k1, bk0, bk1)) { bk0 = k0; bk1 = k1; best = lo; }
            }
            return best;
        }
        return !(want || needy) ? low(lg) : high(lg);
    }
    int later[3], nl = 0;
    for (int i = 1; i < 4 - n; i++) later[nl++] = (seat + i) & 3;
    int bi = trick_winner_index(trick, n);
    int best_card = trick[bi];
    if (!want && needy) {
        if (needy >> ((leader + bi) & 3) & 1) {
            want = 1;
        } else {
            for (int i = 0; i < nl; i++)
                if (needy >> later[i] & 1) { want = 1; break; }
        }
    }
    int led = trick[0] / 13;
    if (want) {
        int best_c = -1, bk0 = 99, bk1 = 99, any_winning = 0;
        for (mask m = lg; m; m &= m - 1) {
            int c = low(m);
            if (!beats(c, best_card)) continue;
            any_winning = 1;
            int nb = 0;
            for (int i = 0; i < nl; i++) {
                mask pq = pub[later[i]] & others;
                if (c < 13) {
                    if ((pq & ABOVE[c]) && (led == 0 || !(pq & SUIT(led)) || may_trump(pq, others, led))) nb++;
                } else if ((pq & ABOVE[c]) || may_trump(pq, others, led)) {
                    nb++;
                }
            }
            int k1 = (nb == 0 || c < 13) ? strength(c) : -strength(c);
            if (LESS2(nb, k1, bk0, bk1)) { bk0 = nb; bk1 = k1; best_c = c; }
        }
        if (any_winning) return best_c;
        /* Discard: keep spades and masters, shorten the shortest side suit (the first minimal key). */
        int best = -1, k[4] = {0, 0, 0, 0};
        for (mask m = lg; m; m &= m - 1) {
            int c = low(m);
            int key[4] = {c < 13 ? 1 : 0, (others & ABOVE[c]) ? 0 : 1, popcount(hand & SUIT(c / 13)), c % 13};
            int less = best < 0;
            for (int j = 0; !less && j < 4; j++) {
                if (key[j] != k[j]) { less = key[j] < k[j]; break; }
            }
            if (less) { best = c; for (int j = 0; j < 4; j++) k[j] = key[j]; }
        }
        return best;
    }
    int best = -1;
    for (mask m = lg; m; m &= m - 1) {  /* the highest-strength card that loses, the first of equals */
        int c = low(m);
        if (!beats(c, best_card) && (best < 0 || strength(c) > strength(best))) best = c;
    }
    if (best >= 0) return best;
    for (mask m = lg; m; m &= m - 1) {
        int c = low(m);
        if (best < 0 || (nl == 0 ? strength(c) > strength(best) : strength(c) < strength(best))) best = c;
    }
    return best;
}

/* --- Python bindings ---------------------------------------------------------------------------- */

static int read_masks(PyObject *seq, mask *out, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != 4) {
        PyErr_Format(PyExc_ValueError, "%s: 4 values expected", what);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < 4; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == (mask)-1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
    }
    Py_DECREF(fast);
    return 0;
}

static int read_ints(PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        PyErr_Format(PyExc_ValueError, "%s: at most %d values expected", what, max);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) { Py_DECREF(fast); return -1; }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int check_cards(const int *cards, int n) {
    for (int i = 0; i < n; i++)
        if (cards[i] < 0 || cards[i] > 51) { PyErr_SetString(PyExc_ValueError, "a card is 0..51"); return -1; }
    return 0;
}

/* Hands, readings, the trick (returns its length, or -1 with an exception set), tricks won and bids. */
static int read_position(PyObject *ho, PyObject *po, PyObject *to, PyObject *wo, PyObject *bo, mask *h, mask *pub,
                         int *trick, int *won, int *bids) {
    if (read_masks(ho, h, "hands") < 0 || read_masks(po, pub, "pub") < 0) return -1;
    int n = read_ints(to, trick, 3, "trick");
    if (n < 0 || check_cards(trick, n) < 0) return -1;
    if (read_ints(wo, won, 4, "won") != 4 || read_ints(bo, bids, 4, "bids") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "won and bids: 4 values each");
        return -1;
    }
    return n;
}

static PyObject *py_kl_card(PyObject *self, PyObject *args) {
    PyObject *ho, *po, *to, *wo, *bo;
    int seat, leader, first, trick[4], won[4], bids[4];
    mask h[4], pub[4];
    if (!PyArg_ParseTuple(args, "OOiiOOOp", &ho, &po, &seat, &leader, &to, &wo, &bo, &first)) return NULL;
    int n = read_position(ho, po, to, wo, bo, h, pub, trick, won, bids);
    if (n < 0) return NULL;
    if (seat < 0 || seat > 3 || leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    if (!legal_mask(h[seat], trick, n, first)) { PyErr_SetString(PyExc_ValueError, "no card to play"); return NULL; }
    return PyLong_FromLong(kl_card(h, pub, seat, leader, trick, n, won, bids, first));
}

static PyObject *py_play_out(PyObject *self, PyObject *args) {
    PyObject *ho, *po, *to, *wo, *bo;
    int leader, first, t[4], w[4], bids[4];
    mask h[4], p[4];
    if (!PyArg_ParseTuple(args, "OOiOOOp", &ho, &po, &leader, &to, &wo, &bo, &first)) return NULL;
    int n = read_position(ho, po, to, wo, bo, h, p, t, w, bids);
    if (n < 0) return NULL;
    if (leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    int seat = (leader + n) & 3;
    for (int guard = 0; guard < 52; guard++) {
        if (n == 0 && !h[seat]) break;
        if (!legal_mask(h[seat], t, n, first)) { PyErr_SetString(PyExc_ValueError, "hands of unequal size"); return NULL; }
        int c = kl_card(h, p, seat, leader, t, n, w, bids, first);
        p[seat] &= ~forbidden_by_play(t, n, c, first);
        h[seat] ^= (mask)1 << c;
        t[n++] = c;
        if (n == 4) {
            int winner = (leader + trick_winner_index(t, 4)) & 3;
            w[winner]++;
            leader = seat = winner;
            n = 0;
            first = 0;
        } else {
            seat = (seat + 1) & 3;
        }
    }
    return Py_BuildValue("[iiii]", w[0], w[1], w[2], w[3]);
}

static PyMethodDef methods[] = {
    {"kl_card", py_kl_card, METH_VARARGS, "kl_card(h, pub, seat, leader, trick, won, bids, first) -> card"},
    {"play_out", py_play_out, METH_VARARGS, "play_out(hands, pub, leader, trick, won, bids, first) -> tricks won"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The play-outs' hot path in C.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int c = 0; c < 52; c++) ABOVE[c] = SUIT(c / 13) & ~(((mask)1 << (c + 1)) - 1);
    return PyModule_Create(&module);
}
