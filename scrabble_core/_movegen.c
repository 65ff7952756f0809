/* The native core of scrabble_core.movegen: the same search as the pure-Python generator, in C.
 *
 * It mirrors movegen.py function for function (_analyse, _add_start, _windows, _bounded_starts,
 * _walk's place and lead, top's heap), so that it finds the same plays in the same order with the
 * same scores; read that module's docstrings for the algorithm. Only the data layout differs:
 *
 * - Graph wraps a copy of the DAWG's flat table (see dawg.py), checked once when it is made: every
 *   child is 0 or the base of a node, so every read table[node + i] with i < stride is in bounds.
 * - Board squares arrive as one byte each (row by row): a letter index, 64 + the index for a blank,
 *   255 for an empty square; holes come from the geometry (word multiplier 0).
 * - The tiles a play uses are a mixed-radix index into the rack's leaves (the order of
 *   itertools.product over the counts of its distinct tiles), so leaves are a list, not a dict.
 *
 * Scores are 64-bit: movegen.py only sends the variants whose highest score fits well within that.
 */
#include "_movegen.h"
#include <structmember.h>
#include <math.h>
#include <string.h>

static PyObject *s_row, *s_col, *s_across, *s_letters, *s_play, *s_score, *s_leave;

/* ---- what a search finds ---- */

static int new_record(Walk *w, int q, long long score, int used)
{
    int length = q - w->origin;
    if (w->nrecords == w->cap_records) {
        int cap = w->cap_records ? 2 * w->cap_records : 1024;
        Record *grown = PyMem_Realloc(w->records, (size_t)cap * sizeof(Record));
        if (!grown) return -1;
        w->records = grown;
        w->cap_records = cap;
    }
    if (w->narena + length > w->cap_arena) {
        int cap = w->cap_arena ? 2 * w->cap_arena : 16384;
        while (cap < w->narena + length) cap *= 2;
        unsigned char *grown = PyMem_Realloc(w->arena, (size_t)cap);
        if (!grown) return -1;
        w->arena = grown;
        w->cap_arena = cap;
    }
    memcpy(w->arena + w->narena, w->word, (size_t)length);
    w->records[w->nrecords] = (Record){w->origin, length, w->narena, used, score};
    w->narena += length;
    return w->nrecords++;
}

static inline int kept_less(const Kept *a, const Kept *b)
{
    return a->value < b->value || (a->value == b->value && a->seq > b->seq);
}

static void heap_push(Walk *w, Kept item)
{
    int i = w->nheap++;
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!kept_less(&item, &w->heap[parent])) break;
        w->heap[i] = w->heap[parent];
        i = parent;
    }
    w->heap[i] = item;
}

static void heap_pop(Walk *w)
{
    Kept last = w->heap[--w->nheap];
    int i = 0;
    for (;;) {
        int child = 2 * i + 1;
        if (child >= w->nheap) break;
        if (child + 1 < w->nheap && kept_less(&w->heap[child + 1], &w->heap[child])) child++;
        if (!kept_less(&w->heap[child], &last)) break;
        w->heap[i] = w->heap[child];
        i = child;
    }
    if (w->nheap) w->heap[i] = last;
}

/* A play ends just before position q: keep it (movegen.py's found.append, or top's keep). */
static void emit(Walk *w, int q, long long score, int used)
{
    if (w->failed) return;
    if (!w->top) {
        if (new_record(w, q, score, used) < 0) w->failed = 1;
        return;
    }
    double value = (double)score + w->bonus[used];
    if (!(value > w->limit)) return;
    int record = new_record(w, q, score, used);
    if (record < 0) {
        w->failed = 1;
        return;
    }
    if (w->nheap == w->cap_heap) {
        int cap = w->cap_heap ? 2 * w->cap_heap : 64;
        Kept *grown = PyMem_Realloc(w->heap, (size_t)cap * sizeof(Kept));
        if (!grown) {
            w->failed = 1;
            return;
        }
        w->heap = grown;
        w->cap_heap = cap;
    }
    heap_push(w, (Kept){value, w->seq++, record});
    if (w->nheap > w->top) heap_pop(w);
    if (w->nheap == w->top) w->limit = w->heap[0].value;
}

/* ---- the search (movegen.py's _walk) ---- */

/* The node after reading the run of tiles from position p (0 if it leaves the graph), writing '.'
 * for them in the play's letters. */
static int64_t follow_run(Walk *w, int64_t node, int p)
{
    const Position *s = w->s;
    for (int r = p; r < s->run_end[p]; r++) {
        node = T(w, node + s->tile[r]);
        if (!node) return 0;
        w->word[r - w->origin] = CODE_THROUGH;
    }
    return node;
}

static void place(Walk *w, int p, int64_t node, int left, uint64_t mask, int blanks, long long main,
                  long long multiplier, long long crosses, int used)
{
    const Position *s = w->s;
    uint64_t allowed = s->xmask[p] & (uint64_t)T(w, node + w->children);
    int lm = s->lm[p], wm = s->wm[p];
    long long new_multiplier = multiplier * wm;
    int crossing = s->cross[p];
    long long base = s->cross_base[p];
    int placed = w->tiles - left + 1;
    int skip = placed == 1 && s->skip[p];
    int bonus = placed == w->rack_size ? w->bingo : 0;
    int deeper = left > 1 && w->bounds[placed] > w->limit;
    int run = s->tile[p + 1] >= 0; /* p is empty, so a run of tiles starts at p + 1 */
    uint64_t spare = blanks ? w->everything : 0;
    uint64_t candidates = allowed & mask;
    while (candidates) {
        uint64_t bit = candidates & -candidates;
        candidates ^= bit;
        int letter = letter_of(bit);
        long long points = (long long)w->values[letter] * lm;
        int64_t child = T(w, node + letter);
        long long new_main = main + points;
        long long new_crosses = crossing ? crosses + (base + points) * wm : crosses;
        int q = p + 1;
        w->word[p - w->origin] = (unsigned char)letter;
        if (run) {
            child = follow_run(w, child, p + 1);
            if (!child) continue;
            new_main += s->run_points[p + 1];
            q = s->run_end[p + 1];
        }
        if (q > w->reach && T(w, child + w->is_word) && !skip)
            emit(w, q, new_main * new_multiplier + new_crosses + bonus, used + w->weights[letter]);
        if (deeper) {
            int count = w->counts[letter] - 1;
            uint64_t new_mask = count ? mask : mask ^ bit;
            if (s->xmask[q] & (uint64_t)T(w, child + w->children) & (new_mask | spare)) {
                w->counts[letter] = count;
                place(w, q, child, left - 1, new_mask, blanks, new_main, new_multiplier, new_crosses,
                      used + w->weights[letter]);
                w->counts[letter] = count + 1;
            }
        }
    }
    if (!blanks) return;
    long long new_crosses = crossing ? crosses + base * wm : crosses;
    uint64_t after = mask | (blanks > 1 ? w->everything : 0);
    candidates = allowed;
    while (candidates) {
        uint64_t bit = candidates & -candidates;
        candidates ^= bit;
        int letter = letter_of(bit);
        int64_t child = T(w, node + letter);
        long long new_main = main;
        int q = p + 1;
        w->word[p - w->origin] = (unsigned char)(CODE_BLANK + letter);
        if (run) {
            child = follow_run(w, child, p + 1);
            if (!child) continue;
            new_main += s->run_points[p + 1];
            q = s->run_end[p + 1];
        }
        if (q > w->reach && T(w, child + w->is_word) && !skip)
            emit(w, q, new_main * new_multiplier + new_crosses + bonus, used + w->blank_weight);
        if (deeper && s->xmask[q] & (uint64_t)T(w, child + w->children) & after)
            place(w, q, child, left - 1, mask, blanks - 1, new_main, new_multiplier, new_crosses,
                  used + w->blank_weight);
    }
}

static void lead(Walk *w, int p, int64_t node, int left, uint64_t mask, int blanks, long long main,
                 long long multiplier, int used)
{
    const Position *s = w->s;
    if (!(w->bounds[w->tiles - left + 1] > w->limit)) return;
    int lm = s->lm[p];
    long long new_multiplier = multiplier * s->wm[p];
    int q = p + 1;
    int distance = w->anchor - q;
    uint64_t spare = blanks ? w->everything : 0;
    uint64_t target;
    if (distance > LOOKAHEAD)
        target = w->everything;
    else if (w->anchor_free) /* the anchor's tile comes from what is left on the rack */
        target = w->anchor_mask & (mask | spare);
    else
        target = w->anchor_mask;
    int ahead = w->children + (distance <= LOOKAHEAD ? distance : LOOKAHEAD);
    int near = distance == 1;
    uint64_t allowed = (uint64_t)T(w, node + w->children) & w->everything;
    uint64_t candidates = allowed & mask;
    while (candidates) {
        uint64_t bit = candidates & -candidates;
        candidates ^= bit;
        int letter = letter_of(bit);
        int64_t child = T(w, node + letter);
        if (!((uint64_t)T(w, child + ahead) & target)) continue;
        int count = w->counts[letter] - 1;
        uint64_t new_mask = count ? mask : mask ^ bit;
        if (!((uint64_t)T(w, child + w->children) & (new_mask | spare))) continue;
        w->counts[letter] = count;
        long long new_main = main + (long long)w->values[letter] * lm;
        w->word[p - w->origin] = (unsigned char)letter;
        if (near)
            place(w, q, child, left - 1, new_mask, blanks, new_main, new_multiplier, 0,
                  used + w->weights[letter]);
        else
            lead(w, q, child, left - 1, new_mask, blanks, new_main, new_multiplier, used + w->weights[letter]);
        w->counts[letter] = count + 1;
    }
    if (!blanks) return;
    uint64_t after = mask | (blanks > 1 ? w->everything : 0);
    candidates = allowed;
    while (candidates) {
        uint64_t bit = candidates & -candidates;
        candidates ^= bit;
        int letter = letter_of(bit);
        int64_t child = T(w, node + letter);
        if (!((uint64_t)T(w, child + ahead) & target && (uint64_t)T(w, child + w->children) & after)) continue;
        w->word[p - w->origin] = (unsigned char)(CODE_BLANK + letter);
        if (near)
            place(w, q, child, left - 1, mask, blanks - 1, main, new_multiplier, 0, used + w->blank_weight);
        else
            lead(w, q, child, left - 1, mask, blanks - 1, main, new_multiplier, used + w->blank_weight);
    }
}

static void walk(Walk *w, Start **order, int nstarts, uint64_t rack_mask, int blanks)
{
    const Position *s = w->s;
    uint64_t playable = rack_mask | (blanks ? w->everything : 0);
    for (int i = 0; i < nstarts && !w->failed; i++) {
        const Start *start = order[i];
        w->bounds = start->bounds;
        if (!(w->bounds[0] > w->limit)) break;
        w->origin = start->origin;
        w->reach = start->reach;
        w->anchor = start->anchor;
        w->anchor_mask = start->mask;
        w->anchor_free = s->tile[start->anchor] == EMPTY;
        int origin = start->origin;
        if (s->tile[origin] >= 0) {
            int64_t node = follow_run(w, 0, origin);
            int p = s->run_end[origin];
            if (node && s->xmask[p] & (uint64_t)T(w, node + w->children) & playable)
                place(w, p, node, w->tiles, rack_mask, blanks, s->run_points[origin], 1, 0, 0);
        } else if (start->anchor - origin <= 1) {
            if (s->xmask[origin] & (uint64_t)T(w, w->children) & playable)
                place(w, origin, 0, w->tiles, rack_mask, blanks, 0, 1, 0, 0);
        } else if (start->anchor - origin > LOOKAHEAD ||
                   (uint64_t)T(w, w->children + start->anchor - origin) & start->mask) {
            lead(w, origin, 0, w->tiles, rack_mask, blanks, 0, 1, 0);
        }
    }
}

/* ---- the board (movegen.py's _analyse and _add_start) ---- */

static inline int is_hole(const Geometry *geo, int r, int c) { return geo->premiums[2 * (r * geo->cols + c) + 1] == 0; }
static inline int code_at(const Geometry *geo, int r, int c)
{
    return is_hole(geo, r, c) ? CODE_EMPTY : geo->board[r * geo->cols + c];
}

/* The tile at k squares from (r, c) along (dr, dc), CODE_EMPTY off the board or on a hole. */
static inline int code_along(const Geometry *geo, int r, int c, int dr, int dc, int k)
{
    r += k * dr;
    c += k * dc;
    return r < 0 || c < 0 || r >= geo->rows || c >= geo->cols ? CODE_EMPTY : code_at(geo, r, c);
}

/* The empty square (r, c) and the tiles next to it along (dr, dc), across the line being laid out:
 * sets *crossing if there are any and *points to their value, and returns the letters x such that
 * `before x after` is a word (movegen.py's _perpendicular and _cross_mask). */
static uint64_t cross_mask(Walk *w, const Geometry *geo, int r, int c, int dr, int dc, int *crossing,
                           int *points)
{
    int before = 0, after = 0;
    while (code_along(geo, r, c, dr, dc, -(before + 1)) != CODE_EMPTY) before++;
    while (code_along(geo, r, c, dr, dc, after + 1) != CODE_EMPTY) after++;
    *crossing = before || after;
    *points = 0;
    if (!*crossing) return 0; /* no cross-word: the mask is not read */
    for (int k = -before; k <= after; k++) {
        int code = k ? code_along(geo, r, c, dr, dc, k) : CODE_BLANK;
        if (code < CODE_BLANK) *points += w->values[code];
    }
    int64_t node = 0;
    for (int k = -before; k < 0; k++) {
        node = T(w, node + code_along(geo, r, c, dr, dc, k) % CODE_BLANK);
        if (!node) return 0;
    }
    uint64_t mask = 0, candidates = (uint64_t)T(w, node + w->children) & w->everything;
    while (candidates) {
        uint64_t bit = candidates & -candidates;
        candidates ^= bit;
        int64_t child = T(w, node + letter_of(bit));
        for (int k = 1; k <= after && child; k++) child = T(w, child + code_along(geo, r, c, dr, dc, k) % CODE_BLANK);
        if (child && T(w, child + w->is_word)) mask |= bit;
    }
    return mask;
}

static void add_square(Position *s, int tile, int value, uint64_t xmask, int cross, int cross_base, int lm,
                       int wm, int skip, int anchor, int row, int col, int across)
{
    int p = s->n++;
    s->tile[p] = tile;
    s->value[p] = value;
    s->xmask[p] = xmask;
    s->cross[p] = (char)cross;
    s->cross_base[p] = cross_base;
    s->lm[p] = lm;
    s->wm[p] = wm;
    s->skip[p] = (char)skip;
    s->anchor[p] = (char)anchor;
    s->row[p] = (signed char)row;
    s->col[p] = (signed char)col;
    s->across[p] = (signed char)across;
    s->run_end[p] = 0;
    s->run_points[p] = 0;
}

static void add_start(Position *s, int start, int min_tiles)
{
    int first = start, need = 0;
    while (!s->anchor[first]) {
        if (s->tile[first] == SENTINEL) return;
        need++;
        first++;
    }
    if (s->tile[first] == EMPTY) need++;
    Start *entry = &s->starts[s->nstarts++];
    entry->origin = start;
    entry->reach = first > start + 1 ? first : start + 1;
    entry->anchor = first;
    entry->mask = s->tile[first] == EMPTY ? s->xmask[first] : (uint64_t)1 << s->tile[first];
    entry->need = need > min_tiles ? need : min_tiles;
    entry->bounds = NULL;
}

/* The position of square (r, c) in the line layout: on its row (across) or its column. */
static inline int position_of(const Geometry *geo, int across, int r, int c)
{
    return across ? 1 + r * (geo->cols + 1) + c : 1 + geo->rows * (geo->cols + 1) + c * (geo->rows + 1) + r;
}

/* Lay out square (r, c) of an across or down line at the next position (analyse's inner step). */
static void add_board_square(Walk *w, const Geometry *geo, int across, int r, int c, int empty_board)
{
    Position *s = w->s;
    int lm = geo->premiums[2 * (r * geo->cols + c)], wm = geo->premiums[2 * (r * geo->cols + c) + 1];
    int code = code_at(geo, r, c);
    if (is_hole(geo, r, c)) {
        add_square(s, SENTINEL, 0, 0, 0, 0, 1, 1, 0, 0, r, c, across);
    } else if (code != CODE_EMPTY) {
        int letter = code % CODE_BLANK;
        add_square(s, letter, code < CODE_BLANK ? w->values[letter] : 0, 0, 0, 0, lm, wm, 0, 1, r, c, across);
    } else {
        int crossing, points;
        /* the cross-word runs across the line: down for an across line */
        uint64_t found = cross_mask(w, geo, r, c, across, !across, &crossing, &points);
        add_square(s, EMPTY, 0, crossing ? geo->allowed & found : geo->allowed, crossing, points, lm, wm,
                   crossing && !across, crossing || (empty_board && r * geo->cols + c == geo->start), r, c, across);
    }
}

/* The runs of tiles and the starts of the laid-out board (analyse's last pass). */
static void find_starts(Position *s, int empty_board)
{
    s->nstarts = 0;
    for (int p = 1; p < s->n; p++) {
        if (s->tile[p] >= 0 && s->tile[p - 1] < 0) {
            int end = p, points = 0;
            while (s->tile[end] >= 0) points += s->value[end++];
            s->run_end[p] = end;
            s->run_points[p] = points;
        }
        if (s->tile[p] != SENTINEL && s->tile[p - 1] < 0) add_start(s, p, empty_board ? 2 : 1);
    }
}

void analyse(Walk *w, const Geometry *geo)
{
    Position *s = w->s;
    int empty_board = 1;
    for (int r = 0; r < geo->rows; r++)
        for (int c = 0; c < geo->cols; c++)
            if (code_at(geo, r, c) != CODE_EMPTY) empty_board = 0;
    s->n = 0;
    add_square(s, SENTINEL, 0, 0, 0, 0, 1, 1, 0, 0, -1, -1, 1);
    for (int across = 1; across >= 0; across--) {
        int lines = across ? geo->rows : geo->cols, length = across ? geo->cols : geo->rows;
        for (int i = 0; i < lines; i++) {
            for (int j = 0; j < length; j++) add_board_square(w, geo, across, across ? i : j, across ? j : i, empty_board);
            add_square(s, SENTINEL, 0, 0, 0, 0, 1, 1, 0, 0, -1, -1, across);
        }
    }
    find_starts(s, empty_board);
}

/* Lay out square (r, c) again in the line of `across`, at its position. */
static void relay(Walk *w, const Geometry *geo, int across, int r, int c)
{
    Position *s = w->s;
    int end = s->n;
    s->n = position_of(geo, across, r, c);
    add_board_square(w, geo, across, r, c, 0);
    s->n = end;
}

void reanalyse(Walk *w, const Geometry *geo, const short *changed, int n)
{
    static const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    for (int i = 0; i < n; i++) {
        int r = changed[i] / geo->cols, c = changed[i] % geo->cols;
        relay(w, geo, 1, r, c);
        relay(w, geo, 0, r, c);
        /* the empty square each run of tiles through (r, c) ends at: its cross-word changed */
        for (int d = 0; d < 4; d++) {
            int dr = steps[d][0], dc = steps[d][1], k = 1;
            while (code_along(geo, r, c, dr, dc, k) != CODE_EMPTY) k++;
            int er = r + k * dr, ec = c + k * dc;
            if (er < 0 || ec < 0 || er >= geo->rows || ec >= geo->cols || is_hole(geo, er, ec)) continue;
            relay(w, geo, dc == 0, er, ec); /* a vertical run crosses the square's row: its across line */
        }
    }
    find_starts(w->s, 0);
}

/* ---- bounds for top (movegen.py's _windows and _bounded_starts) ---- */

static int descending(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x < y) - (x > y);
}

/* Give each start its bounds, tiles + 1 of them in `store`: bounds[j] caps the value of its plays of
 * more than j tiles. */
static void bound_starts(Walk *w, const long long *tile_values, const double *best_leave, double *store)
{
    const Position *s = w->s;
    int tiles = w->tiles;
    for (int i = 0; i < s->nstarts; i++) {
        Start *start = &w->s->starts[i];
        double *bounds = start->bounds = store + (size_t)i * (tiles + 1);
        for (int k = 0; k <= tiles; k++) bounds[k] = -INFINITY;
        long long factors[MAX_RACK], word_mult = 1, fixed_tiles = 0, cross_points = 0;
        int lms[MAX_RACK], crossings[MAX_RACK];
        int p = start->origin, placed = 0;
        while (placed < tiles && s->tile[p] != SENTINEL) {
            if (s->tile[p] >= 0) {
                fixed_tiles += s->value[p++];
                continue;
            }
            if (!s->xmask[p]) break;
            word_mult *= s->wm[p];
            lms[placed] = s->lm[p];
            crossings[placed] = s->cross[p] ? s->wm[p] : 0;
            cross_points += (long long)s->cross_base[p] * crossings[placed];
            placed++;
            int end = ++p;
            long long trailing = 0;
            while (s->tile[end] >= 0) trailing += s->value[end++];
            if (placed >= start->need) {
                for (int k = 0; k < placed; k++) { /* highest first: an insertion sort of a few */
                    long long factor = lms[k] * (word_mult + crossings[k]);
                    int at = k;
                    for (; at > 0 && factors[at - 1] < factor; at--) factors[at] = factors[at - 1];
                    factors[at] = factor;
                }
                long long total = (fixed_tiles + trailing) * word_mult + cross_points;
                for (int k = 0; k < placed; k++) total += factors[k] * tile_values[k];
                if (placed == w->rack_size) total += w->bingo;
                bounds[placed - 1] = (double)total + best_leave[placed];
            }
        }
        for (int k = tiles - 2; k >= 0; k--)
            if (bounds[k + 1] > bounds[k]) bounds[k] = bounds[k + 1];
    }
}

/* ---- the results as Python objects ---- */

static int ranked_order(const void *a, const void *b) /* highest first, then in search order */
{
    const Ranked *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? 1 : -1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The classes of the results, Play and GeneratedMove: slotted (frozen) dataclasses. They are built
 * as their __init__ would, without running Python code: a fresh instance (all slots NULL) has each
 * slot filled at the offset its member descriptor gives. */
typedef struct {
    PyTypeObject *type;
    int n;
    Py_ssize_t offsets[4];
} Maker;

static int maker(Maker *m, PyObject *cls, PyObject **names, int n)
{
    if (!PyType_Check(cls) || ((PyTypeObject *)cls)->tp_new != PyBaseObject_Type.tp_new) {
        PyErr_SetString(PyExc_TypeError, "the result classes must be plain slotted dataclasses");
        return -1;
    }
    m->type = (PyTypeObject *)cls;
    m->n = n;
    for (int i = 0; i < n; i++) {
        PyObject *descr = PyObject_GetAttr(cls, names[i]);
        if (!descr) PyErr_Clear();
        int ok = descr && Py_IS_TYPE(descr, &PyMemberDescr_Type) &&
                 ((PyMemberDescrObject *)descr)->d_member->type == T_OBJECT_EX &&
                 PyType_IsSubtype(m->type, ((PyDescrObject *)descr)->d_type);
        m->offsets[i] = ok ? ((PyMemberDescrObject *)descr)->d_member->offset : 0;
        Py_XDECREF(descr);
        if (!ok) {
            PyErr_Format(PyExc_TypeError, "the result classes must be plain slotted dataclasses (%U)", names[i]);
            return -1;
        }
    }
    return 0;
}

/* A new instance holding `values` (references stolen, released on failure): only ever called with
 * strings, numbers, booleans and Play objects. */
static PyObject *make(const Maker *m, PyObject **values)
{
    PyObject *obj = NULL;
    int complete = 1;
    for (int i = 0; i < m->n; i++) complete = complete && values[i];
    if (complete) obj = m->type->tp_alloc(m->type, 0);
    if (!obj) {
        for (int i = 0; i < m->n; i++) Py_XDECREF(values[i]);
        return NULL;
    }
    for (int i = 0; i < m->n; i++) *(PyObject **)((char *)obj + m->offsets[i]) = values[i];
    /* Frozen and holding only strings, numbers and another such object, it can never be part of a
     * reference cycle: the garbage collector need not scan it (as CPython does for such tuples). */
    if (PyObject_GC_IsTracked(obj)) PyObject_GC_UnTrack(obj);
    return obj;
}

static PyObject *move_object(const Walk *w, const Record *record, PyObject *leaves, const Maker *play,
                             const Maker *move)
{
    const Position *s = w->s;
    Py_UCS4 letters[MAX_POS], widest = 0;
    for (int i = 0; i < record->length; i++) {
        int code = w->arena[record->word + i];
        letters[i] = code == CODE_THROUGH ? '.' : code >= CODE_BLANK ? w->g->lower[code - CODE_BLANK] : w->g->upper[code];
        if (letters[i] > widest) widest = letters[i];
    }
    PyObject *text = PyUnicode_New(record->length, widest);
    if (text) {
        for (int i = 0; i < record->length; i++) PyUnicode_WRITE(PyUnicode_KIND(text), PyUnicode_DATA(text), i, letters[i]);
    }
    PyObject *play_values[] = {
        PyLong_FromLong(s->row[record->origin]),
        PyLong_FromLong(s->col[record->origin]),
        PyBool_FromLong(s->across[record->origin]),
        text,
    };
    PyObject *leave = PyList_GET_ITEM(leaves, record->used);
    Py_INCREF(leave);
    PyObject *move_values[] = {make(play, play_values), PyLong_FromLongLong(record->score), leave};
    return make(move, move_values);
}

static PyObject *move_list(const Walk *w, const int *found, int n, PyObject *leaves, const Maker *play,
                           const Maker *move)
{
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = move_object(w, &w->records[found[i]], leaves, play, move);
        if (!item) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* ---- the Python interface ---- */

void walk_init(Walk *w, const Graph *g, Position *s)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->s = s;
    w->size = g->size;
    w->is_word = g->size;
    w->children = g->size + 1;
    w->everything = g->size == 64 ? ~(uint64_t)0 : ((uint64_t)1 << g->size) - 1;
}

void walk_free(Walk *w)
{
    PyMem_Free(w->records);
    PyMem_Free(w->arena);
    PyMem_Free(w->heap);
    PyMem_Free(w->bound_store);
    PyMem_Free(w->ranked);
    PyMem_Free(w->found);
}

int read_geometry(Walk *w, Geometry *geo, PyObject *geometry)
{
    const char *premiums;
    Py_ssize_t npremiums;
    PyObject *values;
    unsigned long long allowed;
    if (!PyTuple_Check(geometry)) {
        PyErr_SetString(PyExc_TypeError, "a geometry must be a tuple");
        return -1;
    }
    if (!PyArg_ParseTuple(geometry, "iiy#O!Kiii", &geo->rows, &geo->cols, &premiums, &npremiums, &PyTuple_Type, &values,
                          &allowed, &geo->start, &geo->bingo, &geo->rack_size))
        return -1;
    if (geo->rows < 1 || geo->rows > MAX_SIDE || geo->cols < 1 || geo->cols > MAX_SIDE ||
        npremiums != 2 * geo->rows * geo->cols || geo->start < -1 || geo->start >= geo->rows * geo->cols ||
        PyTuple_GET_SIZE(values) != w->size || geo->bingo < 0 || geo->bingo > 1000000 || geo->rack_size < 0) {
        PyErr_SetString(PyExc_ValueError, "a geometry of the wrong shape");
        return -1;
    }
    for (Py_ssize_t i = 0; i < npremiums; i++) {
        if ((unsigned char)premiums[i] > 4) {
            PyErr_SetString(PyExc_ValueError, "a premium multiplier above 4");
            return -1;
        }
    }
    for (int i = 0; i < w->size; i++) {
        long value = PyLong_AsLong(PyTuple_GET_ITEM(values, i));
        if (value == -1 && PyErr_Occurred()) return -1;
        if (value < 0 || value > 1000) {
            PyErr_SetString(PyExc_ValueError, "a letter value outside 0 to 1000");
            return -1;
        }
        w->values[i] = (int)value;
    }
    geo->premiums = (const unsigned char *)premiums;
    geo->allowed = allowed & w->everything;
    geo->board = NULL;
    w->bingo = geo->bingo;
    w->rack_size = geo->rack_size;
    return 0;
}

/* Whether every square of `board` (rows * cols bytes) is empty or a letter of the alphabet: 0, or -1
 * with an exception set. */
static int check_board(const Walk *w, const Geometry *geo, const Py_buffer *board)
{
    if (board->len != (Py_ssize_t)geo->rows * geo->cols) {
        PyErr_SetString(PyExc_ValueError, "the board does not match the geometry");
        return -1;
    }
    for (Py_ssize_t i = 0; i < board->len; i++) {
        int code = ((const unsigned char *)board->buf)[i];
        if (code != CODE_EMPTY && code % CODE_BLANK >= w->size) {
            PyErr_SetString(PyExc_ValueError, "a board square that is not a letter of the alphabet");
            return -1;
        }
    }
    return 0;
}

const char *set_rack(Walk *w, const unsigned char *codes, Py_ssize_t n, uint64_t *rack_mask, int *blanks,
                     long long *leaves)
{
    if (n > MAX_RACK) return "a rack of more than 64 tiles";
    memset(w->counts, 0, sizeof w->counts);
    memset(w->weights, 0, sizeof w->weights);
    w->blank_weight = 0;
    w->tiles = (int)n;
    *rack_mask = 0;
    *blanks = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int code = codes[i];
        if (code == CODE_BLANK) {
            ++*blanks;
        } else if (code < w->size) {
            w->counts[code]++;
            *rack_mask |= (uint64_t)1 << code;
        } else {
            return "a rack tile that is not a letter of the alphabet or a blank";
        }
    }
    /* The leave index: the counts used of the distinct tiles (letters in order, then the blank) as
     * digits, the last one the least significant, as itertools.product enumerates them. */
    long long radix = 1;
    if (*blanks) {
        w->blank_weight = 1;
        radix = *blanks + 1;
    }
    for (int letter = w->size - 1; letter >= 0; letter--) {
        if (!w->counts[letter]) continue;
        w->weights[letter] = (int)radix;
        radix *= w->counts[letter] + 1;
        if (radix > MAX_LEAVES) return "a rack of more than 2**20 leaves";
    }
    *leaves = radix;
    return NULL;
}

/* Sort `n` ranked items as ranked_order does: an insertion sort for the few starts of a board, qsort for
 * longer lists. */
static void rank(Ranked *items, int n)
{
    if (n > 256) {
        qsort(items, (size_t)n, sizeof(Ranked), ranked_order);
        return;
    }
    for (int i = 1; i < n; i++) {
        Ranked item = items[i];
        int at = i;
        for (; at > 0 && (items[at - 1].value < item.value ||
                          (items[at - 1].value == item.value && items[at - 1].index > item.index));
             at--)
            items[at] = items[at - 1];
        items[at] = item;
    }
}

int find_plays(Walk *w, int count, const double *bonus, long long leaves, uint64_t rack_mask, int blanks,
               double floor)
{
    Position *s = w->s;
    Start *order[MAX_POS];
    int nstarts = 0;
    w->nrecords = w->narena = w->nheap = 0;
    w->seq = 0;
    w->failed = 0;
    w->top = count > 0 ? count : 0;
    w->bonus = bonus;
    w->limit = count > 0 ? floor : -INFINITY;
    if (s->nstarts + 1 > w->cap_ranked) {
        Ranked *grown = PyMem_Realloc(w->ranked, sizeof(Ranked) * ((size_t)s->nstarts + 1));
        if (!grown) return -1;
        w->ranked = grown;
        w->cap_ranked = s->nstarts + 1;
    }
    if (count <= 0) {
        /* every play: no bound, every start that can be reached with the rack's tiles */
        static double unbounded[MAX_RACK + 1];
        for (int k = 0; k <= MAX_RACK; k++) unbounded[k] = INFINITY;
        for (int i = 0; i < s->nstarts; i++) {
            if (s->starts[i].need > w->tiles) continue;
            s->starts[i].bounds = (double *)unbounded;
            order[nstarts++] = &s->starts[i];
        }
    } else {
        /* the rack's tile values, highest first, and the best leave of each number of tiles used */
        long long tile_values[MAX_RACK];
        double best_leave[MAX_RACK + 1];
        int k = 0;
        for (int letter = 0; letter < w->size; letter++)
            for (int n = 0; n < w->counts[letter]; n++) tile_values[k++] = w->values[letter];
        for (int n = 0; n < blanks; n++) tile_values[k++] = 0;
        qsort(tile_values, (size_t)k, sizeof tile_values[0], descending);
        for (int n = 0; n <= w->tiles; n++) best_leave[n] = -INFINITY;
        for (long long index = 0; index < leaves; index++) {
            int used = 0;
            long long rest = index;
            if (blanks) {
                used += (int)(rest % (blanks + 1));
                rest /= blanks + 1;
            }
            for (int letter = w->size - 1; letter >= 0; letter--) {
                if (!w->counts[letter]) continue;
                used += (int)(rest % (w->counts[letter] + 1));
                rest /= w->counts[letter] + 1;
            }
            if (bonus[index] > best_leave[used]) best_leave[used] = bonus[index];
        }
        size_t need = (size_t)s->nstarts * (w->tiles + 1) + 1;
        if (need > w->cap_bounds) {
            double *grown = PyMem_Realloc(w->bound_store, sizeof(double) * need);
            if (!grown) return -1;
            w->bound_store = grown;
            w->cap_bounds = need;
        }
        bound_starts(w, tile_values, best_leave, w->bound_store);
        for (int i = 0; i < s->nstarts; i++) {
            if (!(s->starts[i].bounds[0] > w->limit)) continue; /* never walked: not above the floor */
            w->ranked[nstarts] = (Ranked){0, s->starts[i].bounds[0], i};
            nstarts++;
        }
        rank(w->ranked, nstarts);
        for (int i = 0; i < nstarts; i++) order[i] = &s->starts[w->ranked[i].index];
    }
    walk(w, order, nstarts, rack_mask, blanks);
    if (w->failed) return -1;

    /* the plays, highest first: by score then in search order, or (top) by value then keeping order;
     * count < 0: every play, in search order */
    int n = count > 0 ? w->nheap : w->nrecords;
    if (n + 1 > w->cap_ranked) {
        Ranked *grown = PyMem_Realloc(w->ranked, sizeof(Ranked) * ((size_t)n + 1));
        if (!grown) return -1;
        w->ranked = grown;
        w->cap_ranked = n + 1;
    }
    int *found = PyMem_Realloc(w->found, sizeof(int) * ((size_t)n + 1));
    if (!found) return -1;
    w->found = found;
    if (count < 0) {
        for (int i = 0; i < n; i++) found[i] = i;
        return n;
    }
    for (int i = 0; i < n; i++)
        w->ranked[i] = count ? (Ranked){0, w->heap[i].value, w->heap[i].record}
                             : (Ranked){0, (double)w->records[i].score, i};
    qsort(w->ranked, (size_t)n, sizeof(Ranked), ranked_order);
    for (int i = 0; i < n; i++) found[i] = w->ranked[i].index;
    return n;
}

/* ---- the Python interface ---- */

/* Graph.search(): see the docstring in _movegen.pyi. */
static PyObject *Graph_search(Graph *g, PyObject *args)
{
    PyObject *geometry, *leaves, *bonus, *play_type, *move_type;
    Py_buffer board, rack;
    int count;
    if (!PyArg_ParseTuple(args, "O!y*y*OiOOO", &PyTuple_Type, &geometry, &board, &rack, &leaves, &count, &bonus,
                          &play_type, &move_type))
        return NULL;
    PyObject *result = NULL;
    double *bonus_values = NULL;
    Geometry geo;
    uint64_t rack_mask;
    int blanks;
    long long nleaves;
    Walk *w = PyMem_Malloc(sizeof(Walk));
    Position *s = PyMem_Malloc(sizeof(Position));
    if (!w || !s) {
        PyErr_NoMemory();
        goto done;
    }
    walk_init(w, g, s);
    Maker play, move;
    PyObject *play_names[] = {s_row, s_col, s_across, s_letters}, *move_names[] = {s_play, s_score, s_leave};
    if (maker(&play, play_type, play_names, 4) < 0 || maker(&move, move_type, move_names, 3) < 0 ||
        read_geometry(w, &geo, geometry) < 0 || check_board(w, &geo, &board) < 0)
        goto done;
    geo.board = board.buf;
    const char *problem = set_rack(w, rack.buf, rack.len, &rack_mask, &blanks, &nleaves);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        goto done;
    }
    if (!PyList_Check(leaves) || PyList_GET_SIZE(leaves) != nleaves) {
        PyErr_SetString(PyExc_ValueError, "leaves must be a list of one leave per sub-rack");
        goto done;
    }
    if (count < 0) {
        PyErr_SetString(PyExc_ValueError, "count must be at least 0");
        goto done;
    }
    if (bonus != Py_None && (!PyList_Check(bonus) || PyList_GET_SIZE(bonus) != nleaves)) {
        PyErr_SetString(PyExc_ValueError, "bonus must be None or a list of one value per leave");
        goto done;
    }
    bonus_values = PyMem_Calloc((size_t)nleaves, sizeof(double));
    if (!bonus_values) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; bonus != Py_None && i < nleaves; i++) {
        bonus_values[i] = PyFloat_AsDouble(PyList_GET_ITEM(bonus, i));
        if (bonus_values[i] == -1.0 && PyErr_Occurred()) goto done;
    }
    analyse(w, &geo);
    int n = find_plays(w, count, bonus_values, nleaves, rack_mask, blanks, -INFINITY);
    if (n < 0) {
        PyErr_NoMemory();
        goto done;
    }
    result = move_list(w, w->found, n, leaves, &play, &move);

done:
    if (w) walk_free(w);
    PyMem_Free(w);
    PyMem_Free(s);
    PyMem_Free(bonus_values);
    PyBuffer_Release(&board);
    PyBuffer_Release(&rack);
    return result;
}

static PyObject *Graph_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"table", "alphabet", NULL};
    Py_buffer table;
    PyObject *alphabet;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*U", keywords, &table, &alphabet)) return NULL;
    Py_ssize_t size = PyUnicode_GET_LENGTH(alphabet);
    Py_ssize_t stride = size + 2 + LOOKAHEAD;
    Py_ssize_t width = table.itemsize;
    Py_ssize_t length = table.len / (width ? width : 1);
    Graph *g = NULL;
    if (size < 1 || size > MAX_LETTERS || (width != 4 && width != 8) || (width == 4 && size > 31) ||
        length < stride || length % stride || length > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError,
                        "table must be the DAWG of an alphabet of 1 to 63 letters: array 'i' (up to 31 "
                        "letters) or 'q', a whole number of nodes");
        goto done;
    }
    g = (Graph *)type->tp_alloc(type, 0);
    if (!g) goto done;
    g->table = PyMem_Malloc((size_t)table.len);
    if (!g->table) {
        PyErr_NoMemory();
        Py_CLEAR(g);
        goto done;
    }
    memcpy(g->table, table.buf, (size_t)table.len);
    g->wide = width == 8;
    g->length = length;
    g->size = (int)size;
    /* Every child must be 0 or the base of a node: then every read stays in the table. */
    for (Py_ssize_t node = 0; node < length; node += stride) {
        for (Py_ssize_t i = 0; i < size; i++) {
            int64_t child = g->wide ? ((int64_t *)g->table)[node + i] : ((int32_t *)g->table)[node + i];
            if (child < 0 || child >= length || child % stride) {
                PyErr_Format(PyExc_ValueError, "entry %zd of the table is not a node", node + i);
                Py_CLEAR(g);
                goto done;
            }
        }
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *letter = PyUnicode_Substring(alphabet, i, i + 1);
        PyObject *lower = letter ? PyObject_CallMethod(letter, "lower", NULL) : NULL;
        Py_XDECREF(letter);
        g->upper[i] = PyUnicode_READ_CHAR(alphabet, i);
        if (!lower || PyUnicode_GET_LENGTH(lower) != 1) {
            Py_XDECREF(lower);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a letter whose lowercase is not one character");
            Py_CLEAR(g);
            goto done;
        }
        g->lower[i] = PyUnicode_READ_CHAR(lower, 0);
        Py_DECREF(lower);
    }
done:
    PyBuffer_Release(&table);
    return (PyObject *)g;
}

static void Graph_dealloc(Graph *g)
{
    PyMem_Free(g->table);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static PyMethodDef Graph_methods[] = {
    {"search", (PyCFunction)Graph_search, METH_VARARGS, "Every play, or the best ones: see _movegen.pyi."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject GraphType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "scrabble_core._movegen.Graph",
    .tp_doc = "A DAWG's flat table, checked and copied, for the native move search.",
    .tp_basicsize = sizeof(Graph),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Graph_new,
    .tp_dealloc = (destructor)Graph_dealloc,
    .tp_methods = Graph_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_movegen", "The native core of scrabble_core: move generation and the searches.", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__movegen(void)
{
    if (PyType_Ready(&GraphType) < 0) return NULL;
    const char *names[] = {"row", "col", "across", "letters", "play", "score", "leave"};
    PyObject **slots[] = {&s_row, &s_col, &s_across, &s_letters, &s_play, &s_score, &s_leave};
    for (int i = 0; i < 7; i++)
        if (!(*slots[i] = PyUnicode_InternFromString(names[i]))) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&GraphType);
    if (PyModule_AddObject(m, "Graph", (PyObject *)&GraphType) < 0) {
        Py_DECREF(&GraphType);
        Py_DECREF(m);
        return NULL;
    }
    if (add_leave_functions(m) < 0 || add_search_functions(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
