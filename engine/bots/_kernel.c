/* The play-outs' hot path in C: the same functions as engine/bots/playout.py, card for card.
 *
 * Optional: setup.py builds it when a compiler is there, and playout.py falls back on its pure-Python
 * functions when it is not.  tests/engine/bots/test_kernel.py checks that both give the same card in
 * every position of many sampled deals.  Cards are 0..51, suit = card / 13 (spades are suit 0), a hand
 * is a bit mask; every function below mirrors the Python one of the same name, ties broken the same way.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

typedef uint64_t mask;

#define SUIT(s) ((mask)0x1FFF << (13 * (s)))
#define SPADES SUIT(0)
#define NON_SPADES (SUIT(1) | SUIT(2) | SUIT(3))

static mask ABOVE[52];
/* A bid this high or higher marks a greedy trick-taker in knowledge_limited_card: it always wants the trick
 * (playout.GREEDY_BID). */
#define GREEDY_BID 64

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

/* A deal part-way through its play, engine/rules.py's DealInPlay: the hands, the n cards on the table, the seat
 * that led them, the tricks won and whether the trick is the deal's first.  deal_play is the one trick step of
 * every loop below, as DealInPlay.play is of the Python ones. */
typedef struct { mask hands[4]; int trick[4], n, leader, won[4], first; } deal_in_play;

static void deal_start(deal_in_play *d, const mask *hands, int leader, const int *trick, int n, const int *won,
                       int first) {
    for (int q = 0; q < 4; q++) { d->hands[q] = hands[q]; d->won[q] = won[q]; }
    for (int i = 0; i < n; i++) d->trick[i] = trick[i];
    d->n = n;
    d->leader = leader;
    d->first = first;
}

static inline int deal_to_play(const deal_in_play *d) { return (d->leader + d->n) & 3; }
static inline int deal_over(const deal_in_play *d) { return d->n == 0 && !d->hands[d->leader]; }
static inline mask deal_legal(const deal_in_play *d) {
    return legal_mask(d->hands[deal_to_play(d)], d->trick, d->n, d->first);
}

/* The seat to play plays card; the fourth card closes the trick: its winner takes it and leads the next. */
static inline void deal_play(deal_in_play *d, int card) {
    d->hands[deal_to_play(d)] ^= (mask)1 << card;
    d->trick[d->n++] = card;
    if (d->n == 4) {
        d->leader = (d->leader + trick_winner_index(d->trick, 4)) & 3;
        d->won[d->leader]++;
        d->n = 0;
        d->first = 0;
    }
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

static int knowledge_limited_card(const mask *hands, const mask *pub, int seat, int leader, const int *trick, int n,
                                  const int *won, const int *bids, int first) {
    mask hand = hands[seat];
    mask legal = legal_mask(hand, trick, n, first);
    if (!(legal & (legal - 1))) return high(legal);
    int left = popcount(hand);
    mask others = 0;
    for (int q = 0; q < 4; q++)
        if (q != seat) others |= hands[q];
    int need = bids[seat] - won[seat];
    int want = (0 < need && need <= left) || bids[seat] >= GREEDY_BID;
    int needy = 0;
    for (int q = 0; q < 4; q++) {
        int nq = bids[q] - won[q];
        if (q != seat && ((0 < nq && nq <= left) || bids[q] >= GREEDY_BID)) needy |= 1 << q;
    }
    if (n == 0) {
        if (want || needy) {
            mask osp = others & SPADES;
            mask sp = legal & SPADES;
            if (sp && !first) {
                int top = high(sp);
                if (!osp || !(others & ABOVE[top])) return top;
            }
            int best = -1, bk0 = -1, bk1 = -1;
            for (int s = 1; s < 4; s++) {
                mask b = legal & SUIT(s);
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
        mask side = legal & NON_SPADES;
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
        return !(want || needy) ? low(legal) : high(legal);
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
        for (mask m = legal; m; m &= m - 1) {
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
        for (mask m = legal; m; m &= m - 1) {
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
    for (mask m = legal; m; m &= m - 1) {  /* the highest-strength card that loses, the first of equals */
        int c = low(m);
        if (!beats(c, best_card) && (best < 0 || strength(c) > strength(best))) best = c;
    }
    if (best >= 0) return best;
    for (mask m = legal; m; m &= m - 1) {
        int c = low(m);
        if (best < 0 || (nl == 0 ? strength(c) > strength(best) : strength(c) < strength(best))) best = c;
    }
    return best;
}

/* --- The rule styles' cards (playout.py's py_rule_card, spar_rules.py's cheap_choice, bid_choice, greedy_choice) -- */

/* A policy bid of RULE_POLICY * k + b: the seat plays rule style k's card at its real bid b (playout.RULE_POLICY). */
#define RULE_POLICY 256
#define CHEAP_RULE 1
#define OVERTAKE_RULE 3
#define SIDE_ACES (((mask)1 << 25) | ((mask)1 << 38) | ((mask)1 << 51))

/* The lowest-strength card of m (the lowest card of equals), and the highest-strength one. */
static int first_min(mask m) {
    int best = -1, bs = 99;
    for (; m; m &= m - 1) {
        int c = low(m);
        if (strength(c) < bs) { best = c; bs = strength(c); }
    }
    return best;
}

static int first_max(mask m) {
    int best = -1, bs = -1;
    for (; m; m &= m - 1) {
        int c = low(m);
        if (strength(c) > bs) { best = c; bs = strength(c); }
    }
    return best;
}

/* spar-cautious's card (CHEAP_RULE), spar-greedy's (OVERTAKE_RULE), else spar-length's, at real bid bid; the cards
 * the seat has not seen are the other hands of the world. */
static int rule_card(const mask *hands, int seat, const int *trick, int n, const int *won, int bid, int first,
                     int rule) {
    mask hand = hands[seat];
    mask legal = legal_mask(hand, trick, n, first);
    if (!(legal & (legal - 1))) return high(legal);
    int need = won[seat] < bid;
    mask winners = 0;
    if (n) {
        int best = trick[trick_winner_index(trick, n)];
        for (mask m = legal; m; m &= m - 1)
            if (beats(low(m), best)) winners |= m & -m;
    }
    if (rule == CHEAP_RULE) {
        if (!n) {
            if (need && (legal & SIDE_ACES)) return low(legal & SIDE_ACES);
            return first_min((legal & NON_SPADES) ? legal & NON_SPADES : legal);
        }
        return first_min(need && winners ? winners : legal);
    }
    if (rule == OVERTAKE_RULE) {
        if (!n) return first_max(legal);
        if (winners) return n == 3 ? first_min(winners) : first_max(winners);
        return first_min(legal);
    }
    if (need) {
        if (!n) {
            mask unseen = (hands[0] | hands[1] | hands[2] | hands[3]) & ~hand, masters = 0;
            for (mask m = legal; m; m &= m - 1)
                if (!(unseen & ABOVE[low(m)])) masters |= m & -m;
            return first_max(masters ? masters : legal);
        }
        if (winners) return n == 3 ? first_min(winners) : first_max(winners);
        return first_min(legal);
    }
    if (!n) return first_min(legal);
    mask losers = legal & ~winners;
    return losers ? first_max(losers) : first_min(legal);
}

/* A seat's card in the play-outs (playout.py's py_policy_card): its rule style's when its policy bid names one, else
 * knowledge_limited_card; every policy reads the others' real bids. */
static int policy_card(const mask *hands, const mask *pub, int seat, int leader, const int *trick, int n,
                       const int *won, const int *bids, int first) {
    int rule = bids[seat] / RULE_POLICY;
    if (!rule && bids[0] < RULE_POLICY && bids[1] < RULE_POLICY && bids[2] < RULE_POLICY && bids[3] < RULE_POLICY)
        return knowledge_limited_card(hands, pub, seat, leader, trick, n, won, bids, first);
    int plain[4];
    for (int q = 0; q < 4; q++) plain[q] = bids[q] >= RULE_POLICY ? bids[q] % RULE_POLICY : bids[q];
    if (rule) return rule_card(hands, seat, trick, n, won, plain[seat], first, rule);
    return knowledge_limited_card(hands, pub, seat, leader, trick, n, won, plain, first);
}

/* --- The belief's Markov chain (engine/bots/posterior.py, py_refine and SeatModel.factor) --------- */

static inline int rank_bits(mask hand, int suit) { return (int)((hand >> (13 * suit)) & 8191); }

/* evaluation.estimate_tricks, the same additions in the same order (so the same double). */
static double estimate_tricks(mask hand) {
    double est = 0.0;
    int sp = rank_bits(hand, 0), ns = __builtin_popcount(sp), honours = 0;
    if (sp >> 12 & 1) { est += 1.0; honours++; }
    if (sp >> 11 & 1) { est += ns >= 2 ? 1.0 : 0.3; honours++; }
    if (sp >> 10 & 1) { est += ns >= 3 ? 1.0 : 0.4; honours++; }
    if ((sp >> 9 & 1) && ns >= 4) est += 0.3;
    if (ns > 4) est += 0.5 * (ns - 4);
    int spare = ns - honours - (ns > 4 ? ns - 4 : 0);
    if (spare < 0) spare = 0;
    for (int s = 1; s < 4; s++) {
        int bits = rank_bits(hand, s), n = __builtin_popcount(bits);
        int ace = bits >> 12 & 1, king = bits >> 11 & 1, queen = bits >> 10 & 1;
        if (ace) est += n <= 6 ? 1.0 : 0.7;
        if (king) {
            if (ace) est += n <= 5 ? 0.8 : 0.4;
            else if (n >= 2) est += n <= 5 ? 0.5 : 0.3;
            else est += 0.1;
        }
        if (queen) {
            if (ace || king) est += (n >= 3 && n <= 5) ? 0.5 : 0.2;
            else if (n >= 3) est += 0.25;
        }
        if (spare > 0 && n <= 2) {
            static const double ruffs[3] = {1.0, 0.7, 0.5};
            double ruff = ruffs[n];
            int use = spare < 3 - n ? spare : 3 - n;
            if (n < 2) {
                double part = (double)use / (3 - n);
                est += ruff * (part < 1.0 ? part : 1.0);
            } else {
                est += ruff;
            }
            spare -= use;
        }
    }
    return est;
}

#define BID_FACTOR 0.88

/* heuristic.bid_for on top of evaluation.careful_bid. */
static int bid_for(double est, int me, const int *totals, int deal_number) {
    int bid = (int)(est * BID_FACTOR + 0.1);
    if (bid < 1) bid = 1;
    if (bid > 13) bid = 13;
    if (deal_number == 5) {
        int mine = totals[me], best_other = 0, seen = 0;
        for (int s = 0; s < 4; s++)
            if (s != me && (!seen || totals[s] > best_other)) { best_other = totals[s]; seen = 1; }
        int deficit = best_other - mine;
        if (deficit > 0) {
            int need = (deficit + 10 + 9) / 10;
            if (need > bid) {
                int cap = (int)est + 2, m = need < cap ? need : cap;
                bid = m > bid ? m : bid;
                if (bid > 13) bid = 13;
            }
        } else if (-deficit >= 30) {
            int low_bid = (int)(est * 0.8);
            if (low_bid < bid) bid = low_bid;
            if (bid < 1) bid = 1;
        }
    }
    return bid;
}

#define STEP_INTS 18
#define MAX_STEPS 52

typedef struct {
    int seat, card, leader, n, trick[3], won[4], first;
    mask pub[4], left, since;
} step;

typedef struct {
    int me, deal_number, bids[4], evidence_bids[4], totals[4], nsteps;
    mask allowed[4], played_by[4];
    double sigma, bid_miss, play_miss;
    /* the fitted style of each seat (opponents.py), when has_style: bid shift, bid miss, heuristic and greedy
     * shares of its play (the rest is uniform over its legal cards) */
    int has_style;
    double shift[4], style_bid_miss[4], heuristic_share[4], greedy_share[4];
    step steps[MAX_STEPS];
} seat_model;

/* The card knowledge_limited_card plays at an earlier step of the deal from hands, with bids. */
static inline int step_card(const step *st, const mask *hands, int seat, const int *bids) {
    return knowledge_limited_card(hands, st->pub, seat, st->leader, st->trick, st->n, st->won, bids, st->first);
}

static double styled_factor(const seat_model *m, int seat, mask hand) {
    double weight = 1.0;
    int bid = m->bids[seat];
    if (bid >= 0) {
        double est = estimate_tricks(hand | m->played_by[seat]);
        double diff = bid + 0.4 - est * BID_FACTOR - m->shift[seat];
        weight = exp(-diff * diff / (2 * m->sigma * m->sigma)) + 0.02;
        int shifted_bid = bid_for(est, seat, m->totals, m->deal_number) + (int)lround(m->shift[seat]);
        if (m->style_bid_miss[seat] < 1.0 && shifted_bid != bid)
            weight *= m->style_bid_miss[seat];
    }
    int greedy_bids[4];
    for (int q = 0; q < 4; q++) greedy_bids[q] = m->evidence_bids[q];
    greedy_bids[seat] = GREEDY_BID;
    for (int i = 0; i < m->nsteps; i++) {
        const step *st = &m->steps[i];
        if (st->seat != seat) continue;
        mask then = hand | st->since;
        mask legal = legal_mask(then, st->trick, st->n, st->first);
        if (!(legal & (legal - 1))) continue;
        mask hands[4] = {0, 0, 0, 0};
        hands[seat] = then;
        hands[(seat + 1) & 3] = st->left & ~then;
        double likelihood = (1.0 - m->heuristic_share[seat] - m->greedy_share[seat]) / popcount(legal);
        if (step_card(st, hands, seat, m->evidence_bids) == st->card)
            likelihood += m->heuristic_share[seat];
        if (step_card(st, hands, seat, greedy_bids) == st->card)
            likelihood += m->greedy_share[seat];
        weight *= likelihood;
    }
    return weight;
}

static double seat_factor_of(const seat_model *m, int seat, mask hand) {
    if (m->has_style) return styled_factor(m, seat, hand);
    double weight = 1.0;
    int bid = m->bids[seat];
    if (bid >= 0) {
        double est = estimate_tricks(hand | m->played_by[seat]);
        double diff = bid + 0.4 - est * BID_FACTOR;
        weight = exp(-diff * diff / (2 * m->sigma * m->sigma)) + 0.02;
        if (m->bid_miss < 1.0 && bid_for(est, seat, m->totals, m->deal_number) != bid) weight *= m->bid_miss;
    }
    if (m->play_miss < 1.0) {
        for (int i = 0; i < m->nsteps; i++) {
            const step *st = &m->steps[i];
            if (st->seat != seat) continue;
            mask then = hand | st->since;
            mask legal = legal_mask(then, st->trick, st->n, st->first);
            if (!(legal & (legal - 1))) continue;
            mask hands[4] = {0, 0, 0, 0};
            hands[seat] = then;
            hands[(seat + 1) & 3] = st->left & ~then;
            if (step_card(st, hands, seat, m->evidence_bids) != st->card)
                weight *= m->play_miss;
        }
    }
    return weight;
}

/* A seat's factor depends on its hand alone, and a chain comes back to the same hands again and again (a swap
 * undone, the hands near the evidence's peak): refine keeps the factors it has computed, keyed by seat and hand. */
#define MEMO_BITS 15
typedef struct { mask hand; double f; } memo_slot;
typedef struct { memo_slot slot[4][1 << MEMO_BITS]; int used[4]; } factor_memo;

static double seat_factor(const seat_model *m, factor_memo *memo, int seat, mask hand) {
    if (!hand) return seat_factor_of(m, seat, hand);
    memo_slot *tab = memo->slot[seat];
    uint32_t i = (uint32_t)((hand * 0x9E3779B97F4A7C15ULL) >> (64 - MEMO_BITS));
    for (;; i = (i + 1) & ((1 << MEMO_BITS) - 1)) {
        if (tab[i].hand == hand) return tab[i].f;
        if (!tab[i].hand) break;
    }
    double f = seat_factor_of(m, seat, hand);
    if (memo->used[seat] < (1 << MEMO_BITS) / 2) {
        tab[i].hand = hand;
        tab[i].f = f;
        memo->used[seat]++;
    }
    return f;
}

typedef struct { uint64_t state; } splitmix;

static inline uint64_t sm_next(splitmix *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static inline int sm_below(splitmix *r, int n) { return (int)(((sm_next(r) >> 32) * (uint64_t)n) >> 32); }
static inline double sm_uniform(splitmix *r) { return (double)(sm_next(r) >> 11) * (1.0 / 9007199254740992.0); }

static inline int nth_card(mask hand, int i) {
    while (i-- > 0) hand &= hand - 1;
    return low(hand);
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
static int read_position(PyObject *ho, PyObject *po, PyObject *to, PyObject *wo, PyObject *bo, mask *hands,
                         mask *pub, int *trick, int *won, int *bids) {
    if (read_masks(ho, hands, "hands") < 0 || read_masks(po, pub, "pub") < 0) return -1;
    int n = read_ints(to, trick, 3, "trick");
    if (n < 0 || check_cards(trick, n) < 0) return -1;
    if (read_ints(wo, won, 4, "won") != 4 || read_ints(bo, bids, 4, "bids") != 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "won and bids: 4 values each");
        return -1;
    }
    return n;
}

static PyObject *py_knowledge_limited_card(PyObject *self, PyObject *args) {
    PyObject *ho, *po, *to, *wo, *bo;
    int seat, leader, first, trick[4], won[4], bids[4];
    mask hands[4], pub[4];
    if (!PyArg_ParseTuple(args, "OOiiOOOp", &ho, &po, &seat, &leader, &to, &wo, &bo, &first)) return NULL;
    int n = read_position(ho, po, to, wo, bo, hands, pub, trick, won, bids);
    if (n < 0) return NULL;
    if (seat < 0 || seat > 3 || leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    if (!legal_mask(hands[seat], trick, n, first)) { PyErr_SetString(PyExc_ValueError, "no card to play"); return NULL; }
    return PyLong_FromLong(knowledge_limited_card(hands, pub, seat, leader, trick, n, won, bids, first));
}

static PyObject *py_policy_card(PyObject *self, PyObject *args) {
    PyObject *ho, *po, *to, *wo, *bo;
    int seat, leader, first, trick[4], won[4], bids[4];
    mask hands[4], pub[4];
    if (!PyArg_ParseTuple(args, "OOiiOOOp", &ho, &po, &seat, &leader, &to, &wo, &bo, &first)) return NULL;
    int n = read_position(ho, po, to, wo, bo, hands, pub, trick, won, bids);
    if (n < 0) return NULL;
    if (seat < 0 || seat > 3 || leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    for (int q = 0; q < 4; q++)
        if (bids[q] < 0) { PyErr_SetString(PyExc_ValueError, "a policy bid is not negative"); return NULL; }
    if (!legal_mask(hands[seat], trick, n, first)) { PyErr_SetString(PyExc_ValueError, "no card to play"); return NULL; }
    return PyLong_FromLong(policy_card(hands, pub, seat, leader, trick, n, won, bids, first));
}

/* Finish the deal, every seat playing policy_card (knowledge_limited_card, or a rule style's card), or with probability noise[q] a uniformly random
 * legal card (noise NULL: never), pub narrowed by each card's reading; d->won becomes the tricks won.  -1 if the
 * hands are of unequal size. */
static int finish(deal_in_play *d, mask *pub, const int *bids, const double *noise, uint64_t seed) {
    splitmix rng = {seed};
    for (int guard = 0; guard < 52 && !deal_over(d); guard++) {
        int seat = deal_to_play(d);
        mask legal = deal_legal(d);
        if (!legal) return -1;
        int c;
        if (noise && noise[seat] > 0 && sm_uniform(&rng) < noise[seat])
            c = nth_card(legal, sm_below(&rng, popcount(legal)));
        else c = policy_card(d->hands, pub, seat, d->leader, d->trick, d->n, d->won, bids, d->first);
        pub[seat] &= ~forbidden_by_play(d->trick, d->n, c, d->first);
        deal_play(d, c);
    }
    return 0;
}

static PyObject *py_play_out(PyObject *self, PyObject *args) {
    PyObject *ho, *po, *to, *wo, *bo;
    int leader, first, trick[4], won[4], bids[4];
    mask hands[4], pub[4];
    if (!PyArg_ParseTuple(args, "OOiOOOp", &ho, &po, &leader, &to, &wo, &bo, &first)) return NULL;
    int n = read_position(ho, po, to, wo, bo, hands, pub, trick, won, bids);
    if (n < 0) return NULL;
    if (leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    deal_in_play d;
    deal_start(&d, hands, leader, trick, n, won, first);
    if (finish(&d, pub, bids, NULL, 0) < 0) {
        PyErr_SetString(PyExc_ValueError, "hands of unequal size");
        return NULL;
    }
    return Py_BuildValue("[iiii]", d.won[0], d.won[1], d.won[2], d.won[3]);
}

static int read_ints4(PyObject *seq, int *out, const char *what) {
    if (read_ints(seq, out, 4, what) != 4) {
        if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s: 4 values expected", what);
        return -1;
    }
    return 0;
}

/* refine(worlds, allowed, played_by, bids, totals, meta, sigma, bid_miss, play_miss, steps, seed) -> worlds */
static PyObject *py_refine(PyObject *self, PyObject *args) {
    PyObject *wo, *ao, *po, *bo, *to, *mo, *so = Py_None;
    int nprop;
    unsigned long long seed;
    seat_model m;
    if (!PyArg_ParseTuple(args, "OOOOOOdddiK|O", &wo, &ao, &po, &bo, &to, &mo, &m.sigma, &m.bid_miss, &m.play_miss,
                          &nprop, &seed, &so)) return NULL;
    m.has_style = so != Py_None;
    if (m.has_style) {
        PyObject *sf = PySequence_Fast(so, "style");
        if (!sf) return NULL;
        if (PySequence_Fast_GET_SIZE(sf) != 16) { Py_DECREF(sf); PyErr_SetString(PyExc_ValueError, "style: 16 numbers"); return NULL; }
        for (int q = 0; q < 4; q++) {
            m.shift[q] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sf, 4 * q));
            m.style_bid_miss[q] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sf, 4 * q + 1));
            m.heuristic_share[q] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sf, 4 * q + 2));
            m.greedy_share[q] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(sf, 4 * q + 3));
        }
        Py_DECREF(sf);
        if (PyErr_Occurred()) return NULL;
    }
    if (read_masks(ao, m.allowed, "allowed") < 0 || read_masks(po, m.played_by, "played_by") < 0) return NULL;
    if (read_ints4(bo, m.bids, "bids") < 0 || read_ints4(to, m.totals, "totals") < 0) return NULL;
    for (int q = 0; q < 4; q++) {
        if (m.bids[q] > 13) { PyErr_SetString(PyExc_ValueError, "a bid is 1..13 (or -1 for none)"); return NULL; }
        m.evidence_bids[q] = m.bids[q] < 0 ? 0 : m.bids[q];
    }
    if (m.sigma <= 0) { PyErr_SetString(PyExc_ValueError, "sigma must be positive"); return NULL; }
    PyObject *meta = PySequence_Fast(mo, "meta");
    if (!meta) return NULL;
    Py_ssize_t nm = PySequence_Fast_GET_SIZE(meta);
    if (nm < 2 || (nm - 2) % STEP_INTS || (nm - 2) / STEP_INTS > MAX_STEPS) {
        Py_DECREF(meta);
        PyErr_SetString(PyExc_ValueError, "meta: me, deal number, then 18 numbers a step");
        return NULL;
    }
    unsigned long long v[2 + STEP_INTS * MAX_STEPS];
    for (Py_ssize_t i = 0; i < nm; i++) {
        v[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(meta, i));
        if (v[i] == (unsigned long long)-1 && PyErr_Occurred()) { Py_DECREF(meta); return NULL; }
    }
    Py_DECREF(meta);
    m.me = (int)v[0];
    m.deal_number = (int)v[1];
    m.nsteps = (int)((nm - 2) / STEP_INTS);
    if (m.me > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    for (int i = 0; i < m.nsteps; i++) {
        const unsigned long long *x = v + 2 + STEP_INTS * i;
        step *st = &m.steps[i];
        st->seat = (int)x[0]; st->card = (int)x[1]; st->leader = (int)x[2]; st->n = (int)x[3];
        if (st->seat > 3 || st->leader > 3 || st->card > 51 || st->n > 3) {
            PyErr_SetString(PyExc_ValueError, "a step: seat and leader 0..3, a card 0..51, at most 3 on the table");
            return NULL;
        }
        for (int j = 0; j < 3; j++) {
            st->trick[j] = (int)x[4 + j];
            if (st->trick[j] > 51) { PyErr_SetString(PyExc_ValueError, "a card is 0..51"); return NULL; }
        }
        for (int j = 0; j < 4; j++) st->won[j] = (int)x[7 + j];
        st->first = x[11] != 0;
        for (int j = 0; j < 4; j++) st->pub[j] = x[12 + j];
        st->left = x[16];
        st->since = x[17];
    }
    int others[3], k = 0;
    for (int s = 0; s < 4; s++) if (s != m.me) others[k++] = s;
    const int pairs[3][2] = {{others[0], others[1]}, {others[0], others[2]}, {others[1], others[2]}};
    PyObject *worlds = PySequence_Fast(wo, "worlds");
    if (!worlds) return NULL;
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(worlds);
    PyObject *out = PyList_New(nw);
    if (!out) { Py_DECREF(worlds); return NULL; }
    factor_memo *memo = PyMem_Calloc(1, sizeof(factor_memo));
    if (!memo) { Py_DECREF(worlds); Py_DECREF(out); return PyErr_NoMemory(); }
    splitmix rng = {seed};
    for (Py_ssize_t wi = 0; wi < nw; wi++) {
        mask hands[4];
        if (read_masks(PySequence_Fast_GET_ITEM(worlds, wi), hands, "a world") < 0) {
            Py_DECREF(worlds); Py_DECREF(out); PyMem_Free(memo); return NULL;
        }
        double f[4] = {0, 0, 0, 0};
        for (int i = 0; i < 3; i++) f[others[i]] = seat_factor(&m, memo, others[i], hands[others[i]]);
        for (int it = 0; it < nprop; it++) {
            int p = sm_below(&rng, 3), a = pairs[p][0], b = pairs[p][1];
            mask ha = hands[a], hb = hands[b];
            int i = ha ? sm_below(&rng, popcount(ha)) : 0;
            int j = hb ? sm_below(&rng, popcount(hb)) : 0;
            double u = sm_uniform(&rng);
            if (!ha || !hb) continue;
            int x = nth_card(ha, i), y = nth_card(hb, j);
            if (!(m.allowed[b] >> x & 1) || !(m.allowed[a] >> y & 1)) continue;
            mask swap = ((mask)1 << x) ^ ((mask)1 << y);
            mask na = ha ^ swap, nb = hb ^ swap;
            double fa = seat_factor(&m, memo, a, na), fb = seat_factor(&m, memo, b, nb);
            if (u * (f[a] * f[b]) < fa * fb) { hands[a] = na; hands[b] = nb; f[a] = fa; f[b] = fb; }
        }
        PyObject *world = Py_BuildValue("[KKKK]", (unsigned long long)hands[0], (unsigned long long)hands[1],
                                        (unsigned long long)hands[2], (unsigned long long)hands[3]);
        if (!world) { Py_DECREF(worlds); Py_DECREF(out); PyMem_Free(memo); return NULL; }
        PyList_SET_ITEM(out, wi, world);
    }
    Py_DECREF(worlds);
    PyMem_Free(memo);
    return out;
}

/* estimate_tricks(hand) and bid_for(est, me, totals, deal_number), for the tests that compare them. */
static PyObject *py_estimate_tricks(PyObject *self, PyObject *args) {
    unsigned long long hand;
    if (!PyArg_ParseTuple(args, "K", &hand)) return NULL;
    return PyFloat_FromDouble(estimate_tricks(hand));
}

static PyObject *py_bid_for(PyObject *self, PyObject *args) {
    double est;
    int me, deal, totals[4];
    PyObject *to;
    if (!PyArg_ParseTuple(args, "diOi", &est, &me, &to, &deal)) return NULL;
    if (read_ints4(to, totals, "totals") < 0) return NULL;
    if (me < 0 || me > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    return PyLong_FromLong(bid_for(est, me, totals, deal));
}

/* ismcts(worlds, leader, trick, won, first, iterations, exploration, seed, bids=None) -> [(card, visits)] of the root:
 * engine/bots/ismcts.py's py_ismcts step for step (the same SplitMix64 draws, the same node order).  A node's reward
 * is the tricks of the seat that played its card over 13, or with ``bids`` that seat's deal score (tenths) plus 130,
 * over 260: every seat plays for its bid. */
typedef struct { int card, seat, child, sibling, visits, avail; double reward; } is_node;

static PyObject *py_ismcts(PyObject *self, PyObject *args) {
    PyObject *wo, *to, *wno, *bo = Py_None;
    int leader0, first0, iterations;
    double expl;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OiOOpidK|O", &wo, &leader0, &to, &wno, &first0, &iterations, &expl, &seed, &bo))
        return NULL;
    int trick0[4], won0[4], bids[4] = {0, 0, 0, 0};
    int for_bids = bo != Py_None;
    if (for_bids && read_ints4(bo, bids, "bids") < 0) return NULL;
    int n0 = read_ints(to, trick0, 3, "trick");
    if (n0 < 0 || check_cards(trick0, n0) < 0) return NULL;
    if (read_ints4(wno, won0, "won") < 0) return NULL;
    if (leader0 < 0 || leader0 > 3 || iterations < 0) { PyErr_SetString(PyExc_ValueError, "bad leader or iterations"); return NULL; }
    PyObject *wf = PySequence_Fast(wo, "worlds");
    if (!wf) return NULL;
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(wf);
    if (nw < 1) { Py_DECREF(wf); PyErr_SetString(PyExc_ValueError, "no world"); return NULL; }
    mask *worlds = PyMem_Malloc(sizeof(mask) * 4 * (size_t)nw);
    is_node *nodes = PyMem_Malloc(sizeof(is_node) * ((size_t)iterations + 1));
    if (!worlds || !nodes) { PyMem_Free(worlds); PyMem_Free(nodes); Py_DECREF(wf); return PyErr_NoMemory(); }
    for (Py_ssize_t i = 0; i < nw; i++) {
        if (read_masks(PySequence_Fast_GET_ITEM(wf, i), worlds + 4 * i, "world") < 0) {
            PyMem_Free(worlds); PyMem_Free(nodes); Py_DECREF(wf); return NULL;
        }
    }
    Py_DECREF(wf);
    splitmix rng = {seed};
    int count = 1;
    nodes[0] = (is_node){-1, -1, -1, -1, 0, 0, 0.0};
    int path[64];
    for (int it = 0; it < iterations; it++) {
        deal_in_play d;
        deal_start(&d, worlds + 4 * (it % nw), leader0, trick0, n0, won0, first0);
        int node = 0, np = 0, in_tree = 1, bad = 0;
        while (!deal_over(&d)) {
            int seat = deal_to_play(&d);
            mask legal = deal_legal(&d);
            if (!legal) { bad = 1; break; }
            int c;
            if (in_tree) {
                mask untried = legal;
                for (int ch = nodes[node].child; ch >= 0; ch = nodes[ch].sibling)
                    if (legal >> nodes[ch].card & 1) { untried &= ~((mask)1 << nodes[ch].card); nodes[ch].avail++; }
                if (untried) {
                    c = nth_card(untried, sm_below(&rng, popcount(untried)));
                    int nn = count++;
                    nodes[nn] = (is_node){c, seat, -1, nodes[node].child, 0, 1, 0.0};
                    nodes[node].child = nn;
                    path[np++] = nn;
                    in_tree = 0;
                } else {
                    int best = -1;
                    double best_v = -INFINITY;
                    for (int ch = nodes[node].child; ch >= 0; ch = nodes[ch].sibling) {
                        if (!(legal >> nodes[ch].card & 1)) continue;
                        double v = nodes[ch].reward / nodes[ch].visits
                                   + expl * sqrt(log((double)nodes[ch].avail) / nodes[ch].visits);
                        if (v > best_v) { best = ch; best_v = v; }
                    }
                    node = best;
                    path[np++] = node;
                    c = nodes[node].card;
                }
            } else {
                c = nth_card(legal, sm_below(&rng, popcount(legal)));
            }
            deal_play(&d, c);
        }
        if (bad) { PyMem_Free(worlds); PyMem_Free(nodes); PyErr_SetString(PyExc_ValueError, "hands of unequal size"); return NULL; }
        for (int i = 0; i < np; i++) {
            int q = nodes[path[i]].seat;
            nodes[path[i]].visits++;
            if (for_bids) {
                int score = d.won[q] >= bids[q] ? bids[q] * 10 + (d.won[q] - bids[q]) : -bids[q] * 10;
                nodes[path[i]].reward += (score + 130) / 260.0;
            } else {
                nodes[path[i]].reward += d.won[q] / 13.0;
            }
        }
    }
    PyObject *out = PyList_New(0);
    for (int ch = nodes[0].child; out && ch >= 0; ch = nodes[ch].sibling) {
        PyObject *item = Py_BuildValue("(ii)", nodes[ch].card, nodes[ch].visits);
        if (!item || PyList_Append(out, item) < 0) { Py_XDECREF(item); Py_DECREF(out); out = NULL; break; }
        Py_DECREF(item);
    }
    PyMem_Free(worlds);
    PyMem_Free(nodes);
    if (out && PyList_Sort(out) < 0) { Py_DECREF(out); return NULL; }
    return out;
}

/* play_out_mixed(hands, pub, leader, trick, won, bids, first, noise, seed) -> tricks won: play_out, but seat q
 * plays a uniformly random legal card with probability noise[q] (playout.py's py_play_out_mixed, draw for draw). */
static PyObject *py_play_out_mixed(PyObject *self, PyObject *args) {
    PyObject *ho, *po, *to, *wo, *bo, *no;
    int leader, first, trick[4], won[4], bids[4];
    unsigned long long seed;
    mask hands[4], pub[4];
    double noise[4];
    if (!PyArg_ParseTuple(args, "OOiOOOpOK", &ho, &po, &leader, &to, &wo, &bo, &first, &no, &seed)) return NULL;
    int n = read_position(ho, po, to, wo, bo, hands, pub, trick, won, bids);
    if (n < 0) return NULL;
    if (leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    PyObject *nf = PySequence_Fast(no, "noise");
    if (!nf) return NULL;
    if (PySequence_Fast_GET_SIZE(nf) != 4) { Py_DECREF(nf); PyErr_SetString(PyExc_ValueError, "noise: 4 values"); return NULL; }
    for (int q = 0; q < 4; q++) noise[q] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(nf, q));
    Py_DECREF(nf);
    if (PyErr_Occurred()) return NULL;
    deal_in_play d;
    deal_start(&d, hands, leader, trick, n, won, first);
    if (finish(&d, pub, bids, noise, seed) < 0) {
        PyErr_SetString(PyExc_ValueError, "hands of unequal size");
        return NULL;
    }
    return Py_BuildValue("[iiii]", d.won[0], d.won[1], d.won[2], d.won[3]);
}

/* search(worlds, weights, pub, leader, trick, won, first, legal, me, bids, totals, deal_number, depth,
 *        expand_after, exploration, policies[, rank]) -> [value per legal card]: engine/bots/search.py's loop of
 * _Search.simulate over every world and legal card, decision for decision (the same tree, the same
 * SplitMix64 draws, the same floating-point sums), each value the weighted sum of its rewards. */
#define NODE_KEY 24
typedef struct {
    uint8_t key[NODE_KEY];  /* own cards played since the root (length first), the trick, the tricks won */
    int visits, nstats;
    int card[13], n[13];
    double ws[13], rs[13];
} s_node;

typedef struct {
    int me, depth, expand_after, last, bids[4], totals[4];
    double c, weights[4], norm, rank;
    s_node *nodes;
    int count, cap;
    int32_t *table;
    uint32_t tmask;
} s_search;

static double deal_points(int bid, int won) { return won >= bid ? bid * 10 + (won - bid) : -bid * 10; }

/* playout.py's utility, the same operations in the same order (the weights depend on the standings only). */
static double s_utility(const s_search *s, const int *won) {
    int sc[4], sum = 0, me = s->me;
    for (int q = 0; q < 4; q++) { sc[q] = (int)deal_points(s->bids[q], won[q]); sum += sc[q]; }
    double margin = (double)sc[me] - (double)(sum - sc[me]) / 3.0;
    if (!s->last) {
        double acc = 0.0;
        for (int q = 0; q < 4; q++) acc += s->weights[q] * (double)sc[q];
        return (double)sc[me] - acc / s->norm;
    }
    int finals[4], top = INT32_MIN, count = 0;
    for (int q = 0; q < 4; q++) { finals[q] = s->totals[q] + sc[q]; if (finals[q] > top) top = finals[q]; }
    for (int q = 0; q < 4; q++) count += finals[q] == top;
    double placed = 0.0;
    if (s->rank != 0.0) {
        double beaten = 0.0;
        for (int q = 0; q < 4; q++)
            if (q != me) beaten += finals[me] > finals[q] ? 1.0 : finals[me] == finals[q] ? 0.5 : 0.0;
        placed = s->rank * beaten;
    }
    if (finals[me] == top) return 300.0 / count + 0.2 * margin + placed;
    return 0.01 * margin + placed;
}

/* strong.py's distinct_cards: of cards of one suit with no unseen card between them only the lowest. */
static int distinct(mask lg, mask unseen, int *out) {
    int k = 0, prev = -1;
    for (mask m = lg; m; m &= m - 1) {
        int c = low(m);
        if (prev >= 0 && prev / 13 == c / 13 && !(unseen & ((((mask)1 << c) - 1) & ~(((mask)1 << (prev + 1)) - 1)))) {
            prev = c;
            continue;
        }
        out[k++] = c;
        prev = c;
    }
    return k;
}

static int s_node_at(s_search *s, const uint8_t *key) {
    uint32_t hsh = 2166136261u;
    for (int i = 0; i < NODE_KEY; i++) hsh = (hsh ^ key[i]) * 16777619u;
    for (uint32_t i = hsh & s->tmask;; i = (i + 1) & s->tmask) {
        int32_t at = s->table[i];
        if (at < 0) {
            if (s->count == s->cap) return -1;
            at = s->table[i] = s->count++;
            s_node *nd = &s->nodes[at];
            memcpy(nd->key, key, NODE_KEY);
            nd->visits = nd->nstats = 0;
            return at;
        }
        if (!memcmp(s->nodes[at].key, key, NODE_KEY)) return at;
    }
}

static int stat_of(const s_node *nd, int card) {
    for (int i = 0; i < nd->nstats; i++) if (nd->card[i] == card) return i;
    return -1;
}

/* _Search._choose: the card to play at the node and the group (representative) it stands for. */
static int s_choose(const s_search *s, const s_node *nd, const int *reps, int k, int kl, int *rep) {
    int kl_rep = kl;
    for (int i = 0; i < k; i++) if (reps[i] / 13 == kl / 13 && reps[i] <= kl) kl_rep = reps[i];
    if (nd->visits < s->expand_after || k == 1) { *rep = kl_rep; return kl; }
    if (stat_of(nd, kl_rep) < 0) { *rep = kl_rep; return kl_rep; }
    int untried = -1;
    for (int i = 0; i < k; i++)
        if (stat_of(nd, reps[i]) < 0 && (untried < 0 || strength(reps[i]) < strength(untried))) untried = reps[i];
    if (untried >= 0) { *rep = untried; return untried; }
    double log_n = log((double)nd->visits), best_v = -INFINITY;
    int best = reps[0];
    for (int i = 0; i < k; i++) {
        int j = stat_of(nd, reps[i]);
        double v = nd->ws[j] > 0 ? nd->rs[j] / nd->ws[j] + s->c * sqrt(log_n / (double)nd->n[j]) : INFINITY;
        if (v > best_v) { best = reps[i]; best_v = v; }
    }
    *rep = best;
    return best;
}

/* _Search.simulate: play root in one world, then the rest of the deal; the reward, or NAN on bad input. */
static double s_simulate(s_search *s, const mask *hands, const mask *pub, int leader, const int *trick, int n,
                         const int *won, int first, int root, const int *pbids, const double *noise, uint64_t seed) {
    int me = s->me;
    deal_in_play d;
    deal_start(&d, hands, leader, trick, n, won, first);
    mask public[4];
    for (int q = 0; q < 4; q++) public[q] = pub[q];
    int path_node[14], path_rep[14], np = 0, mine[14], mlen = 1, decisions = 0;
    splitmix rng = {seed};
    const int *policy_bids = noise ? pbids : s->bids;
    mine[0] = root;
    int seat = me, c = root;
    for (int guard = 0; guard < 60; guard++) {
        public[seat] &= ~forbidden_by_play(d.trick, d.n, c, d.first);
        deal_play(&d, c);
        if (deal_over(&d)) break;
        seat = deal_to_play(&d);
        mask legal = deal_legal(&d);
        if (!legal) return NAN;
        if (seat != me) {
            if (noise && noise[seat] > 0 && sm_uniform(&rng) < noise[seat])
                c = nth_card(legal, sm_below(&rng, popcount(legal)));
            else c = policy_card(d.hands, public, seat, d.leader, d.trick, d.n, d.won, policy_bids, d.first);
            continue;
        }
        if (decisions >= s->depth) {
            if (finish(&d, public, policy_bids, noise, noise ? sm_next(&rng) : 0) < 0) return NAN;
            break;
        }
        decisions++;
        if (!(legal & (legal - 1))) { c = low(legal); continue; }
        uint8_t key[NODE_KEY] = {0};
        key[0] = (uint8_t)mlen;
        for (int i = 0; i < mlen; i++) key[1 + i] = (uint8_t)mine[i];
        key[15] = (uint8_t)d.n;
        for (int i = 0; i < d.n; i++) key[16 + i] = (uint8_t)d.trick[i];
        for (int q = 0; q < 4; q++) key[19 + q] = (uint8_t)d.won[q];
        int at = s_node_at(s, key);
        if (at < 0) return NAN;
        int reps[13], rep;
        int k = distinct(legal, (d.hands[0] | d.hands[1] | d.hands[2] | d.hands[3]) & ~d.hands[me], reps);
        c = s_choose(s, &s->nodes[at], reps, k,
                     knowledge_limited_card(d.hands, public, me, d.leader, d.trick, d.n, d.won, s->bids, d.first), &rep);
        path_node[np] = at;
        path_rep[np++] = rep;
        mine[mlen++] = c;
    }
    double reward = s_utility(s, d.won);
    for (int i = 0; i < np; i++) {
        s_node *nd = &s->nodes[path_node[i]];
        nd->visits++;
        int j = stat_of(nd, path_rep[i]);
        if (j < 0) {
            j = nd->nstats++;
            nd->card[j] = path_rep[i];
            nd->ws[j] = 1.0;
            nd->rs[j] = reward;
            nd->n[j] = 1;
        } else {
            nd->ws[j] += 1.0;
            nd->rs[j] += reward;
            nd->n[j]++;
        }
    }
    return reward;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *wo, *wto, *po, *to, *wno, *lo, *bo, *tto, *polo;
    int leader, first, me, deal_number, depth, expand_after, trick[4], won[4], legal[52];
    double expl, rank = 0.0;
    mask pub[4];
    if (!PyArg_ParseTuple(args, "OOOiOOpOiOOiiidO|d", &wo, &wto, &po, &leader, &to, &wno, &first, &lo, &me, &bo, &tto,
                          &deal_number, &depth, &expand_after, &expl, &polo, &rank)) return NULL;
    s_search s = {0};
    s.rank = rank;
    int n = read_ints(to, trick, 3, "trick");
    if (n < 0 || check_cards(trick, n) < 0) return NULL;
    int nl = read_ints(lo, legal, 52, "legal");
    if (nl < 0 || check_cards(legal, nl) < 0) return NULL;
    if (read_masks(po, pub, "pub") < 0 || read_ints4(wno, won, "won") < 0 || read_ints4(bo, s.bids, "bids") < 0
        || read_ints4(tto, s.totals, "totals") < 0) return NULL;
    if (leader < 0 || leader > 3 || me < 0 || me > 3 || depth < 0 || depth > 12 || nl < 1) {
        PyErr_SetString(PyExc_ValueError, "bad seat, depth or legal cards");
        return NULL;
    }
    s.me = me;
    s.depth = depth;
    s.expand_after = expand_after;
    s.last = deal_number == 5;
    s.c = expl;
    if (!s.last) {
        double scale = 30.0 * sqrt((double)(6 - deal_number));
        for (int q = 0; q < 4; q++)
            s.weights[q] = q != me ? exp((double)(s.totals[q] - s.totals[me]) / scale) : 0.0;
        s.norm = 0.0;
        for (int q = 0; q < 4; q++) s.norm += s.weights[q];
    }
    PyObject *wf = PySequence_Fast(wo, "worlds"), *wtf = PySequence_Fast(wto, "weights");
    PyObject *pf = polo == Py_None ? NULL : PySequence_Fast(polo, "policies");
    PyObject *out = NULL;
    mask *worlds = NULL;
    double *values = NULL, *wts = NULL, *noises = NULL;
    int *pbids = NULL;
    uint64_t *seeds = NULL;
    if (!wf || !wtf || (polo != Py_None && !pf)) goto done;
    Py_ssize_t nw = PySequence_Fast_GET_SIZE(wf);
    if (PySequence_Fast_GET_SIZE(wtf) != nw || (pf && PySequence_Fast_GET_SIZE(pf) != nw)) {
        PyErr_SetString(PyExc_ValueError, "worlds, weights and policies: one each per world");
        goto done;
    }
    worlds = PyMem_Malloc(sizeof(mask) * 4 * (size_t)(nw + 1));
    wts = PyMem_Malloc(sizeof(double) * (size_t)(nw + 1));
    values = PyMem_Calloc((size_t)nl, sizeof(double));
    pbids = PyMem_Malloc(sizeof(int) * 4 * (size_t)(nw + 1));
    noises = PyMem_Malloc(sizeof(double) * 4 * (size_t)(nw + 1));
    seeds = PyMem_Malloc(sizeof(uint64_t) * (size_t)(nw + 1));
    s.cap = (int)(nw * nl * (depth + 1)) + 1;
    s.nodes = PyMem_Malloc(sizeof(s_node) * (size_t)s.cap);
    uint32_t size = 64;
    while (size < 2u * (uint32_t)s.cap) size <<= 1;
    s.tmask = size - 1;
    s.table = PyMem_Malloc(sizeof(int32_t) * size);
    if (!worlds || !wts || !values || !pbids || !noises || !seeds || !s.nodes || !s.table) { PyErr_NoMemory(); goto done; }
    memset(s.table, 0xff, sizeof(int32_t) * size);
    for (Py_ssize_t i = 0; i < nw; i++) {
        if (read_masks(PySequence_Fast_GET_ITEM(wf, i), worlds + 4 * i, "world") < 0) goto done;
        wts[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(wtf, i));
        if (wts[i] == -1.0 && PyErr_Occurred()) goto done;
        if (pf) {
            PyObject *pol = PySequence_Fast(PySequence_Fast_GET_ITEM(pf, i), "policy");
            if (!pol) goto done;
            int ok = PySequence_Fast_GET_SIZE(pol) == 3;
            if (ok) ok = read_ints4(PySequence_Fast_GET_ITEM(pol, 0), pbids + 4 * i, "policy bids") == 0;
            if (ok) {
                PyObject *nf = PySequence_Fast(PySequence_Fast_GET_ITEM(pol, 1), "noise");
                ok = nf && PySequence_Fast_GET_SIZE(nf) == 4;
                for (int q = 0; ok && q < 4; q++) noises[4 * i + q] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(nf, q));
                Py_XDECREF(nf);
                if (ok) seeds[i] = PyLong_AsUnsignedLongLongMask(PySequence_Fast_GET_ITEM(pol, 2));
                ok = ok && !PyErr_Occurred();
            }
            Py_DECREF(pol);
            if (!ok) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a policy is (bids, noise, seed)");
                goto done;
            }
        }
    }
    for (Py_ssize_t i = 0; i < nw; i++) {
        const mask *hands = worlds + 4 * i;
        for (int j = 0; j < nl; j++) {
            if (!(hands[me] >> legal[j] & 1)) { PyErr_SetString(PyExc_ValueError, "a legal card not in the hand"); goto done; }
            double r = s_simulate(&s, hands, pub, leader, trick, n, won, first, legal[j],
                                  pf ? pbids + 4 * i : NULL, pf ? noises + 4 * i : NULL, pf ? seeds[i] : 0);
            if (isnan(r)) { PyErr_SetString(PyExc_ValueError, "a world that does not fit the position"); goto done; }
            values[j] += wts[i] * r;
        }
    }
    out = PyList_New(nl);
    for (int j = 0; out && j < nl; j++) {
        PyObject *v = PyFloat_FromDouble(values[j]);
        if (!v) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, j, v);
    }
done:
    Py_XDECREF(wf);
    Py_XDECREF(wtf);
    Py_XDECREF(pf);
    PyMem_Free(worlds);
    PyMem_Free(wts);
    PyMem_Free(values);
    PyMem_Free(pbids);
    PyMem_Free(noises);
    PyMem_Free(seeds);
    PyMem_Free(s.nodes);
    PyMem_Free(s.table);
    return out;
}

/* --- The sampler (engine/bots/sampler.py) with Python's own random.Random, draw for draw ------------------------
 * sample_worlds(...) and bid_worlds(...) take a Random's state (``getstate()``), deal ``n`` worlds exactly as the
 * Python functions do with that Random (MT19937, ``random()``, ``_randbelow``, ``shuffle``, ``gauss``; the same
 * draws in the same order, the same doubles), and give back the state after them, so the caller's Random goes on as
 * if Python had dealt.  tests/engine/bots/test_kernel.py compares worlds and states on many views. */
#define MT_N 624
#define MT_M 397

typedef struct { uint32_t mt[MT_N]; int index; int has_gauss; double gauss_next; } pyrandom;

static uint32_t pr_u32(pyrandom *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (r->mt[MT_N - 1] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
        r->mt[MT_N - 1] = r->mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = r->mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static double pr_random(pyrandom *r) {
    uint32_t a = pr_u32(r) >> 5, b = pr_u32(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* Random._randbelow_with_getrandbits(n), n >= 1: getrandbits(n.bit_length()) until below n. */
static int pr_below(pyrandom *r, int n) {
    int k = 32 - __builtin_clz((unsigned)n);
    uint32_t x = pr_u32(r) >> (32 - k);
    while (x >= (uint32_t)n) x = pr_u32(r) >> (32 - k);
    return (int)x;
}

static void pr_shuffle(pyrandom *r, int *x, int n) {
    for (int i = n - 1; i >= 1; i--) {
        int j = pr_below(r, i + 1), t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

static double pr_gauss(pyrandom *r, double mu, double sigma) {
    double z;
    if (r->has_gauss) {
        z = r->gauss_next;
        r->has_gauss = 0;
    } else {
        double x2pi = pr_random(r) * (2.0 * M_PI);
        double g2rad = sqrt(-2.0 * log(1.0 - pr_random(r)));
        z = cos(x2pi) * g2rad;
        r->gauss_next = sin(x2pi) * g2rad;
        r->has_gauss = 1;
    }
    return mu + z * sigma;
}

/* getstate() -> pyrandom; -1 with an exception if it is not a version-3 state. */
static int pr_read(PyObject *state, pyrandom *r) {
    if (!PyTuple_Check(state) || PyTuple_GET_SIZE(state) != 3) {
        PyErr_SetString(PyExc_ValueError, "state: a random.Random().getstate() tuple expected");
        return -1;
    }
    PyObject *words = PyTuple_GET_ITEM(state, 1), *gauss = PyTuple_GET_ITEM(state, 2);
    if (PyLong_AsLong(PyTuple_GET_ITEM(state, 0)) != 3 || !PyTuple_Check(words) || PyTuple_GET_SIZE(words) != MT_N + 1) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "state: version 3 with 625 words expected");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
        r->mt[i] = (uint32_t)v;
    }
    long index = PyLong_AsLong(PyTuple_GET_ITEM(words, MT_N));
    if (index == -1 && PyErr_Occurred()) return -1;
    if (index < 0 || index > MT_N) { PyErr_SetString(PyExc_ValueError, "state: index out of range"); return -1; }
    r->index = (int)index;
    r->has_gauss = gauss != Py_None;
    r->gauss_next = r->has_gauss ? PyFloat_AsDouble(gauss) : 0.0;
    return (r->has_gauss && r->gauss_next == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static PyObject *pr_write(const pyrandom *r) {
    PyObject *words = PyTuple_New(MT_N + 1);
    if (!words) return NULL;
    for (int i = 0; i < MT_N; i++) PyTuple_SET_ITEM(words, i, PyLong_FromUnsignedLong(r->mt[i]));
    PyTuple_SET_ITEM(words, MT_N, PyLong_FromLong(r->index));
    PyObject *gauss = r->has_gauss ? PyFloat_FromDouble(r->gauss_next) : Py_NewRef(Py_None);
    return Py_BuildValue("(iNN)", 3, words, gauss);
}

typedef struct { mask unions[7]; int members[7]; int n; } hall_sets;

static int hall_ok(mask rest, const hall_sets *h, const int *room) {
    for (int i = 0; i < h->n; i++) {
        int need = 0;
        for (int s = 0; s < 4; s++) if (h->members[i] >> s & 1) need += room[s];
        if (need && popcount(rest & h->unions[i]) < need) return 0;
    }
    return 1;
}

/* sampler.sample_hands: 0, or 1 (not as many places as cards), 2 (no deal), 3 (a dead end) without a draw made for 1
 * and 2. */
static int pr_sample_hands(pyrandom *r, mask unseen, const mask *allowed, const int *counts, const int *seats, int ns,
                           mask *hands) {
    int room[4] = {0, 0, 0, 0}, total = 0;
    for (int i = 0; i < ns; i++) { room[seats[i]] = counts[seats[i]]; total += counts[seats[i]]; }
    if (total != popcount(unseen)) return 1;
    mask common = unseen;
    for (int i = 0; i < ns; i++) common &= allowed[seats[i]];
    mask cons = unseen & ~common;
    hands[0] = hands[1] = hands[2] = hands[3] = 0;
    if (cons) {
        hall_sets h = {.n = 0};
        for (int sub = 1; sub < (1 << ns); sub++) {
            mask u = 0;
            int m = 0;
            for (int i = 0; i < ns; i++) if (sub >> i & 1) { u |= allowed[seats[i]] & unseen; m |= 1 << seats[i]; }
            h.unions[h.n] = u;
            h.members[h.n++] = m;
        }
        if (!hall_ok(unseen, &h, room)) return 2;
        int cards[52], keys[52], n = 0;
        for (mask m = cons; m; m &= m - 1) cards[n++] = low(m);
        pr_shuffle(r, cards, n);
        for (int i = 0; i < n; i++) {
            keys[i] = 0;
            for (int j = 0; j < ns; j++) keys[i] += (int)(allowed[seats[j]] >> cards[i] & 1);
        }
        for (int i = 1; i < n; i++) {  /* list.sort(key=...): stable */
            int c = cards[i], k = keys[i], j = i - 1;
            while (j >= 0 && keys[j] > k) { cards[j + 1] = cards[j]; keys[j + 1] = keys[j]; j--; }
            cards[j + 1] = c;
            keys[j + 1] = k;
        }
        mask rest = unseen;
        for (int i = 0; i < n; i++) {
            mask bit = (mask)1 << cards[i];
            rest ^= bit;
            int options[4], no = 0, placed = 0;
            for (int j = 0; j < ns; j++) if (room[seats[j]] && (allowed[seats[j]] & bit)) options[no++] = seats[j];
            while (no) {
                int sum = 0;
                for (int j = 0; j < no; j++) sum += room[options[j]];
                double x = pr_random(r) * sum;
                int pick = options[no - 1], at = no - 1;
                for (int j = 0; j < no; j++) {
                    x -= room[options[j]];
                    if (x < 0) { pick = options[j]; at = j; break; }
                }
                room[pick]--;
                if (hall_ok(rest, &h, room)) { hands[pick] |= bit; placed = 1; break; }
                room[pick]++;
                for (int j = at; j < no - 1; j++) options[j] = options[j + 1];
                no--;
            }
            if (!placed) return 3;
        }
    }
    int free_[52], n = 0, i = 0;
    for (mask m = common; m; m &= m - 1) free_[n++] = low(m);
    pr_shuffle(r, free_, n);
    for (int j = 0; j < ns; j++) {
        int s = seats[j];
        for (int k = 0; k < room[s] && i < n; k++) hands[s] |= (mask)1 << free_[i++];
    }
    return 0;
}

/* inference.bid_likelihood with evaluation.expected_bid (BID_FACTOR 0.88): the same operations in the same order. */
static double bid_likelihood(mask dealt, int bid, double sigma) {
    double diff = bid + 0.4 - estimate_tricks(dealt) * 0.88;
    return exp(-diff * diff / (2 * sigma * sigma)) + 0.02;
}

static const char *const SAMPLE_ERRORS[] = {"", "places", "no deal satisfies the constraints", "dead end"};

static PyObject *sample_error(int code, mask unseen, const int *counts, const int *seats, int ns) {
    PyObject *mod = PyImport_ImportModule("engine.bots.sampler");
    if (!mod) return NULL;
    PyObject *cls = PyObject_GetAttrString(mod, "Infeasible");
    Py_DECREF(mod);
    if (!cls) return NULL;
    if (code == 1) {
        int places = 0;
        for (int i = 0; i < ns; i++) places += counts[seats[i]];
        PyErr_Format(cls, "%d unseen cards for %d places", popcount(unseen), places);
    } else {
        PyErr_SetString(cls, SAMPLE_ERRORS[code]);
    }
    Py_DECREF(cls);
    return NULL;
}

static PyObject *hands_list(const mask *hands) {
    return Py_BuildValue("[KKKK]", (unsigned long long)hands[0], (unsigned long long)hands[1],
                         (unsigned long long)hands[2], (unsigned long long)hands[3]);
}

/* sample_worlds(state, me, hand, unseen, allowed, counts, played_by, bids, n, sigma) -> (state, [(hands, weight)]):
 * sampler.sample_worlds; ``bids`` has -1 for a seat that has not bid. */
static PyObject *py_sample_worlds(PyObject *self, PyObject *args) {
    PyObject *so, *ao, *co, *po, *bo;
    int me, n, counts[4], bids[4];
    unsigned long long hand, unseen;
    double sigma;
    mask allowed[4], played_by[4], hands[4];
    pyrandom *r;
    if (!PyArg_ParseTuple(args, "OiKKOOOOid", &so, &me, &hand, &unseen, &ao, &co, &po, &bo, &n, &sigma)) return NULL;
    if (me < 0 || me > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    if (read_masks(ao, allowed, "allowed") < 0 || read_ints4(co, counts, "counts") < 0 ||
        read_masks(po, played_by, "played_by") < 0 || read_ints4(bo, bids, "bids") < 0)
        return NULL;
    int seats[3], ns = 0;
    for (int s = 0; s < 4; s++) if (s != me) seats[ns++] = s;
    r = PyMem_Malloc(sizeof(pyrandom));
    if (!r) return PyErr_NoMemory();
    if (pr_read(so, r) < 0) { PyMem_Free(r); return NULL; }
    PyObject *out = PyList_New(0);
    if (!out) { PyMem_Free(r); return NULL; }
    for (int w = 0; w < n; w++) {
        int code = pr_sample_hands(r, unseen, allowed, counts, seats, ns, hands);
        if (code) { PyMem_Free(r); Py_DECREF(out); return sample_error(code, unseen, counts, seats, ns); }
        hands[me] = hand;
        double weight = 1.0;
        for (int i = 0; i < ns; i++) {
            int s = seats[i];
            if (bids[s] >= 0) weight *= bid_likelihood(hands[s] | played_by[s], bids[s], sigma);
        }
        PyObject *world = Py_BuildValue("(Nd)", hands_list(hands), weight);
        if (!world || PyList_Append(out, world) < 0) { Py_XDECREF(world); Py_DECREF(out); PyMem_Free(r); return NULL; }
        Py_DECREF(world);
    }
    PyObject *state = pr_write(r);
    PyMem_Free(r);
    if (!state) { Py_DECREF(out); return NULL; }
    return Py_BuildValue("(NN)", state, out);
}

/* bid_worlds(state, me, hand, bids, n, offset, sigma) -> (state, [(hands, bids, weight)]): the deals of
 * analysis.evaluate.value_bids.  Every other hand is dealt from the unseen cards; a seat that bid (``bids`` >= 0)
 * weighs the deal by bid_likelihood (``sigma``), a seat still to bid gets round(expected bid - offset + gauss(0, sigma)) in
 * 1..13. */
static PyObject *py_bid_worlds(PyObject *self, PyObject *args) {
    PyObject *so, *bo;
    int me, n, bids[4];
    unsigned long long hand;
    double offset, sigma;
    mask hands[4];
    if (!PyArg_ParseTuple(args, "OiKOidd", &so, &me, &hand, &bo, &n, &offset, &sigma)) return NULL;
    if (me < 0 || me > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    if (read_ints4(bo, bids, "bids") < 0) return NULL;
    mask unseen = (SPADES | NON_SPADES) & ~(mask)hand, allowed[4] = {unseen, unseen, unseen, unseen};
    int counts[4] = {13, 13, 13, 13}, seats[3], ns = 0;
    for (int s = 0; s < 4; s++) if (s != me) seats[ns++] = s;
    pyrandom *r = PyMem_Malloc(sizeof(pyrandom));
    if (!r) return PyErr_NoMemory();
    if (pr_read(so, r) < 0) { PyMem_Free(r); return NULL; }
    PyObject *out = PyList_New(0);
    if (!out) { PyMem_Free(r); return NULL; }
    for (int w = 0; w < n; w++) {
        int code = pr_sample_hands(r, unseen, allowed, counts, seats, ns, hands), dealt[4] = {0, 0, 0, 0};
        if (code) { PyMem_Free(r); Py_DECREF(out); return sample_error(code, unseen, counts, seats, ns); }
        hands[me] = hand;
        double weight = 1.0;
        for (int i = 0; i < ns; i++) {
            int s = seats[i];
            if (bids[s] >= 0) {
                weight *= bid_likelihood(hands[s], bids[s], sigma);
                dealt[s] = bids[s];
            } else {
                double b = nearbyint(estimate_tricks(hands[s]) * 0.88 - offset + pr_gauss(r, 0.0, sigma));
                dealt[s] = b < 1 ? 1 : b > 13 ? 13 : (int)b;
            }
        }
        PyObject *world = Py_BuildValue("(N[iiii]d)", hands_list(hands), dealt[0], dealt[1], dealt[2], dealt[3], weight);
        if (!world || PyList_Append(out, world) < 0) { Py_XDECREF(world); Py_DECREF(out); PyMem_Free(r); return NULL; }
        Py_DECREF(world);
    }
    PyObject *state = pr_write(r);
    PyMem_Free(r);
    if (!state) { Py_DECREF(out); return NULL; }
    return Py_BuildValue("(NN)", state, out);
}

/* The play-outs of a review (engine/analysis/evaluate.py) in one call: a flat list of tricks won, world by world,
 * choice by choice, seat by seat (4 ints each).  ``worlds`` are sample_worlds' (hands, weight) or bid_worlds'
 * (hands, bids, weight); only the hands (and the bids) are read. */
static int world_hands(PyObject *world, mask *hands, int *bids) {
    if (!PyTuple_Check(world) || PyTuple_GET_SIZE(world) < 2) {
        PyErr_SetString(PyExc_ValueError, "worlds: (hands, ...) tuples expected");
        return -1;
    }
    if (read_masks(PyTuple_GET_ITEM(world, 0), hands, "hands") < 0) return -1;
    return bids ? read_ints4(PyTuple_GET_ITEM(world, 1), bids, "bids") : 0;
}

/* A review's weighted means in the making (engine/analysis/evaluate.py's _Tally): per choice, the sum of weight ×
 * the deal's score in tenths, or in the fifth deal weight × the share of the match win; and the sum of the weights.
 * The same double operations in the same order as the Python, so the sums are the same to the last bit. */
typedef struct {
    int me, last, totals[4];
    double weight, sums[13];
} tally;

static void tally_add(tally *t, int choice, const int *bids, const int *won, double weight) {
    if (!t->last) {
        t->sums[choice] += weight * deal_points(bids[t->me], won[t->me]);
        return;
    }
    int finals[4], top = 0, count = 0;
    for (int q = 0; q < 4; q++) {
        finals[q] = t->totals[q] + (int)deal_points(bids[q], won[q]);
        if (q == 0 || finals[q] > top) top = finals[q];
    }
    for (int q = 0; q < 4; q++) count += finals[q] == top;
    t->sums[choice] += weight * (finals[t->me] == top ? 1.0 / count : 0.0);
}

/* Finish the deal (finish(), every seat by its policy), then append its tricks won to ``out`` or, with a tally, add
 * them to choice ``choice``'s sum; -1 with an exception. */
static int finish_into(PyObject *out, tally *t, int choice, double weight, deal_in_play *d, mask *pub,
                       const int *bids) {
    if (finish(d, pub, bids, NULL, 0) < 0) {
        PyErr_SetString(PyExc_ValueError, "hands of unequal size");
        return -1;
    }
    if (t) {
        tally_add(t, choice, bids, d->won, weight);
        return 0;
    }
    for (int q = 0; q < 4; q++) {
        PyObject *v = PyLong_FromLong(d->won[q]);
        if (!v || PyList_Append(out, v) < 0) { Py_XDECREF(v); return -1; }
        Py_DECREF(v);
    }
    return 0;
}

/* The tally's answer: (sum of the weights, [sum per choice]). */
static PyObject *tally_result(const tally *t, int n) {
    PyObject *sums = PyList_New(n);
    if (!sums) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyFloat_FromDouble(t->sums[i]);
        if (!v) { Py_DECREF(sums); return NULL; }
        PyList_SET_ITEM(sums, i, v);
    }
    return Py_BuildValue("(dN)", t->weight, sums);
}

/* ``totals`` of card_values/bid_values: None (deals 1 to 4: the deal's score) or the four totals before the
 * fifth deal (the share of the match win). */
static int tally_start(tally *t, int me, PyObject *totals) {
    memset(t, 0, sizeof *t);
    t->me = me;
    if (totals == Py_None) return 0;
    t->last = 1;
    return read_ints4(totals, t->totals, "totals");
}

/* A world's weight: the last item of sample_worlds' (hands, weight) and bid_worlds' (hands, bids, weight). */
static int world_weight(PyObject *world, double *weight) {
    *weight = PyFloat_AsDouble(PyTuple_GET_ITEM(world, PyTuple_GET_SIZE(world) - 1));
    return *weight == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* card_play_outs(worlds, me, cards, pub, leader, trick, won, bids, first): playout.play_out_after of every card in
 * every world; card_values(..., first, totals): the same play-outs summed as the review's tally sums them. */
static PyObject *card_outs(PyObject *args, int tallied) {
    PyObject *wo, *co, *po, *to, *wno, *bo, *totals = Py_None;
    int me, leader, first, cards[13], trick[4], won[4], bids[4];
    mask pub[4], hands[4];
    tally t, *tp = tallied ? &t : NULL;
    if (!PyArg_ParseTuple(args, tallied ? "OiOOiOOOpO" : "OiOOiOOOp", &wo, &me, &co, &po, &leader, &to, &wno, &bo,
                          &first, &totals))
        return NULL;
    int nc = read_ints(co, cards, 13, "cards");
    if (nc < 0 || check_cards(cards, nc) < 0 || read_masks(po, pub, "pub") < 0) return NULL;
    int n = read_ints(to, trick, 3, "trick");
    if (n < 0 || check_cards(trick, n) < 0 || read_ints4(wno, won, "won") < 0 || read_ints4(bo, bids, "bids") < 0)
        return NULL;
    if (me < 0 || me > 3 || leader < 0 || leader > 3 || ((leader + n) & 3) != me) {
        PyErr_SetString(PyExc_ValueError, "me must be the seat to play");
        return NULL;
    }
    if (tp && tally_start(tp, me, totals) < 0) return NULL;
    PyObject *fast = PySequence_Fast(wo, "worlds");
    if (!fast) return NULL;
    PyObject *out = tp ? NULL : PyList_New(0);
    if (!tp && !out) { Py_DECREF(fast); return NULL; }
    for (Py_ssize_t w = 0; w < PySequence_Fast_GET_SIZE(fast); w++) {
        PyObject *world = PySequence_Fast_GET_ITEM(fast, w);
        double weight = 0.0;
        if (world_hands(world, hands, NULL) < 0 || (tp && world_weight(world, &weight) < 0)) goto fail;
        if (tp) tp->weight += weight;
        for (int i = 0; i < nc; i++) {
            if (!(hands[me] >> cards[i] & 1)) { PyErr_SetString(PyExc_ValueError, "a card not in the hand"); goto fail; }
            mask p[4] = {pub[0], pub[1], pub[2], pub[3]};
            p[me] &= ~forbidden_by_play(trick, n, cards[i], first);
            deal_in_play d;
            deal_start(&d, hands, leader, trick, n, won, first);
            deal_play(&d, cards[i]);
            if (finish_into(out, tp, i, weight, &d, p, bids) < 0) goto fail;
        }
    }
    Py_DECREF(fast);
    return tp ? tally_result(tp, nc) : out;
fail:
    Py_DECREF(fast);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *py_card_play_outs(PyObject *self, PyObject *args) { return card_outs(args, 0); }
static PyObject *py_card_values(PyObject *self, PyObject *args) { return card_outs(args, 1); }

/* bid_play_outs(deals, me, bids, leader): playout.play_out of a deal from its first card (nothing read yet) for
 * each bid of ``me`` in every deal of bid_worlds, one by one (bid_values plays them together). */
static PyObject *py_bid_play_outs(PyObject *self, PyObject *args) {
    PyObject *wo, *co;
    int me, leader, cands[13], bids[4], zero[4] = {0, 0, 0, 0};
    mask hands[4];
    if (!PyArg_ParseTuple(args, "OiOi", &wo, &me, &co, &leader)) return NULL;
    int nc = read_ints(co, cands, 13, "bids");
    if (nc < 0) return NULL;
    if (me < 0 || me > 3 || leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    PyObject *fast = PySequence_Fast(wo, "deals");
    if (!fast) return NULL;
    PyObject *out = PyList_New(0);
    if (!out) { Py_DECREF(fast); return NULL; }
    for (Py_ssize_t w = 0; w < PySequence_Fast_GET_SIZE(fast); w++) {
        if (world_hands(PySequence_Fast_GET_ITEM(fast, w), hands, bids) < 0) goto fail;
        for (int i = 0; i < nc; i++) {
            mask p[4] = {SPADES | NON_SPADES, SPADES | NON_SPADES, SPADES | NON_SPADES, SPADES | NON_SPADES};
            bids[me] = cands[i];
            deal_in_play d;
            deal_start(&d, hands, leader, NULL, 0, zero, 1);
            if (finish_into(out, NULL, i, 0.0, &d, p, bids) < 0) goto fail;
        }
    }
    Py_DECREF(fast);
    return out;
fail:
    Py_DECREF(fast);
    Py_DECREF(out);
    return NULL;
}


/* bid_values' play-outs of one deal for the candidate bids of ``me`` in ``set`` (bits over ``cands``), played
 * together while they lead to the same cards.  knowledge_limited_card reads a seat's bid only as "still needs
 * tricks it can take": 0 < bid - won <= the cards in the deciding seat's hand (GREEDY_BID is above 13 and no
 * rule style plays in a review).  So at each step the candidates fall into at most two readings; where the two
 * readings lead to different cards the set forks, and each bid still ends with the tricks its own play-out
 * (bid_play_outs) gives.  Each bid's result goes to the tally under its own index. */
static int finish_bids(deal_in_play *d, mask *pub, int *bids, int me, const int *cands, unsigned set, tally *t,
                       double weight) {
    for (int guard = 0; guard < 52 && !deal_over(d); guard++) {
        int seat = deal_to_play(d);
        mask legal = deal_legal(d);
        if (!legal) {
            PyErr_SetString(PyExc_ValueError, "hands of unequal size");
            return -1;
        }
        int left = popcount(d->hands[seat]);
        unsigned needs = 0;
        for (unsigned rest = set; rest; rest &= rest - 1) {
            int i = __builtin_ctz(rest), need = cands[i] - d->won[me];
            if (0 < need && need <= left) needs |= 1u << i;
        }
        unsigned others = set & ~needs;
        bids[me] = cands[__builtin_ctz(needs ? needs : others)];
        int c = policy_card(d->hands, pub, seat, d->leader, d->trick, d->n, d->won, bids, d->first);
        if (needs && others) {
            bids[me] = cands[__builtin_ctz(others)];
            int c2 = policy_card(d->hands, pub, seat, d->leader, d->trick, d->n, d->won, bids, d->first);
            if (c2 != c) {  /* the bids that read "made or out of reach" go on apart, from a copy of the deal */
                deal_in_play d2 = *d;
                mask pub2[4] = {pub[0], pub[1], pub[2], pub[3]};
                pub2[seat] &= ~forbidden_by_play(d2.trick, d2.n, c2, d2.first);
                deal_play(&d2, c2);
                if (finish_bids(&d2, pub2, bids, me, cands, others, t, weight) < 0) return -1;
                set = needs;
            }
        }
        pub[seat] &= ~forbidden_by_play(d->trick, d->n, c, d->first);
        deal_play(d, c);
    }
    for (unsigned rest = set; rest; rest &= rest - 1) {
        int i = __builtin_ctz(rest);
        bids[me] = cands[i];
        tally_add(t, i, bids, d->won, weight);
    }
    return 0;
}

/* bid_values(deals, me, bids, leader, totals): bid_play_outs' tricks summed as the review's tally sums them, each
 * deal's bids played out together while they lead to the same cards (finish_bids). */
static PyObject *py_bid_values(PyObject *self, PyObject *args) {
    PyObject *wo, *co, *totals;
    int me, leader, cands[13], bids[4], zero[4] = {0, 0, 0, 0};
    mask hands[4];
    tally t;
    if (!PyArg_ParseTuple(args, "OiOiO", &wo, &me, &co, &leader, &totals)) return NULL;
    int nc = read_ints(co, cands, 13, "bids");
    if (nc < 0) return NULL;
    if (me < 0 || me > 3 || leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "a seat is 0..3"); return NULL; }
    for (int i = 0; i < nc; i++)
        if (cands[i] < 1 || cands[i] > 13) { PyErr_SetString(PyExc_ValueError, "a bid is 1..13"); return NULL; }
    if (tally_start(&t, me, totals) < 0) return NULL;
    PyObject *fast = PySequence_Fast(wo, "deals");
    if (!fast) return NULL;
    for (Py_ssize_t w = 0; w < PySequence_Fast_GET_SIZE(fast); w++) {
        PyObject *world = PySequence_Fast_GET_ITEM(fast, w);
        double weight;
        if (world_hands(world, hands, bids) < 0 || world_weight(world, &weight) < 0) goto fail;
        for (int q = 0; q < 4; q++)
            if (q != me && (bids[q] < 0 || bids[q] >= GREEDY_BID)) {
                PyErr_SetString(PyExc_ValueError, "a dealt bid is 0..13");
                goto fail;
            }
        t.weight += weight;
        mask p[4] = {SPADES | NON_SPADES, SPADES | NON_SPADES, SPADES | NON_SPADES, SPADES | NON_SPADES};
        deal_in_play d;
        deal_start(&d, hands, leader, NULL, 0, zero, 1);
        if (finish_bids(&d, p, bids, me, cands, nc ? (1u << nc) - 1 : 0, &t, weight) < 0) goto fail;
    }
    Py_DECREF(fast);
    return tally_result(&t, nc);
fail:
    Py_DECREF(fast);
    return NULL;
}


static PyMethodDef methods[] = {
    {"knowledge_limited_card", py_knowledge_limited_card, METH_VARARGS,
     "knowledge_limited_card(hands, pub, seat, leader, trick, won, bids, first) -> card"},
    {"policy_card", py_policy_card, METH_VARARGS,
     "policy_card(hands, pub, seat, leader, trick, won, bids, first) -> card (a rule style's for a coded bid)"},
    {"play_out", py_play_out, METH_VARARGS, "play_out(hands, pub, leader, trick, won, bids, first) -> tricks won"},
    {"refine", py_refine, METH_VARARGS,
     "refine(worlds, allowed, played_by, bids, totals, meta, sigma, bid_miss, play_miss, steps, seed, style=None) -> worlds"},
    {"estimate_tricks", py_estimate_tricks, METH_VARARGS, "estimate_tricks(hand) -> tricks"},
    {"ismcts", py_ismcts, METH_VARARGS,
     "ismcts(worlds, leader, trick, won, first, iterations, exploration, seed, bids=None) -> [(card, visits)]"},
    {"play_out_mixed", py_play_out_mixed, METH_VARARGS,
     "play_out_mixed(hands, pub, leader, trick, won, bids, first, noise, seed) -> tricks won"},
    {"bid_for", py_bid_for, METH_VARARGS, "bid_for(est, me, totals, deal_number) -> bid"},
    {"search", py_search, METH_VARARGS,
     "search(worlds, weights, pub, leader, trick, won, first, legal, me, bids, totals, deal_number, depth, "
     "expand_after, exploration, policies) -> values"},
    {"sample_worlds", py_sample_worlds, METH_VARARGS,
     "sample_worlds(state, me, hand, unseen, allowed, counts, played_by, bids, n, sigma) -> (state, [(hands, weight)])"},
    {"bid_worlds", py_bid_worlds, METH_VARARGS,
     "bid_worlds(state, me, hand, bids, n, offset, sigma) -> (state, [(hands, bids, weight)])"},
    {"card_play_outs", py_card_play_outs, METH_VARARGS,
     "card_play_outs(worlds, me, cards, pub, leader, trick, won, bids, first) -> [tricks won, 4 per world and card]"},
    {"bid_play_outs", py_bid_play_outs, METH_VARARGS,
     "bid_play_outs(deals, me, bids, leader) -> [tricks won, 4 per deal and bid]"},
    {"card_values", py_card_values, METH_VARARGS,
     "card_values(worlds, me, cards, pub, leader, trick, won, bids, first, totals) -> (weight, [sum per card])"},
    {"bid_values", py_bid_values, METH_VARARGS,
     "bid_values(deals, me, bids, leader, totals) -> (weight, [sum per bid])"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel", "The play-outs' hot path in C.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) {
    for (int c = 0; c < 52; c++) ABOVE[c] = SUIT(c / 13) & ~(((mask)1 << (c + 1)) - 1);
    return PyModule_Create(&module);
}
