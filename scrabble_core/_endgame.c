/* The endgame solver in C: endgame.py's search (read its docstring for the rules and the values), on
 * a board of _search.c.
 *
 * Negamax with alpha-beta pruning and iterative deepening (depths 1 to endgame.py's DEEPENING, then
 * the greatest), as endgame.py's _Search: a node one turn from the horizon takes the static endgame
 * rule's best play, a deeper node every play of the mover (find_plays), best first by that rule, then
 * the pass, less the moves that the other player's plays that go out bound at alpha or below (EG_OUTS
 * of them, endgame.py's OUT_PLAYS). Beyond endgame.py:
 *
 * - the transposition table keeps each position's best move itself, which is tried before the plays are
 *   listed: a position that it cuts off is never listed. Its key is a Zobrist hash: a random 64-bit
 *   number per (square, tile) placed since the root, per (tile, count) of each rack, per count of
 *   scoreless turns, all XORed (mixed from their coordinates, not drawn: nothing to store);
 * - the moves after the first are searched with a null window (principal variation search) and again
 *   with the whole window when one turns out better;
 * - a node one turn from the horizon whose rack holds a blank searches only the plays worth more than
 *   alpha (fail-low nodes cost a bounded search that finds nothing);
 * - the plays of a (board, rack) are kept from one depth to the next (at most EG_MAX_CACHED in all;
 *   beyond that they are listed again);
 * - the board's analysis for the move generator follows the tiles put on and taken off lazily, when
 *   the generator next reads it.
 *
 * Values are exact where endgame.py's are: a depth with no position valued at the horizon is exact.
 * Which of several equally good moves it returns, and the estimates of a depth cut short, can differ
 * from endgame.py's.
 */
#include "_search.h"
#include <math.h>
#include <string.h>
#include <time.h>

#define EG_MAX_TILES 8
#define EG_EXACT 0
#define EG_LOWER 1
#define EG_UPPER 2
#define EG_INFINITY 1000000
#define EG_TABLE_BITS 19 /* at most: a small node budget takes a smaller table */
#define EG_LIST_BITS 16
#define EG_MAX_CACHED (1 << 20)
#define EG_NONE 255 /* a Tiny that is no move */
#define EG_MAX_PENDING 1024
#define EG_OUTS 8 /* the other's plays that go out kept to bound a node's moves */

typedef struct {
    short square[EG_MAX_TILES];
    unsigned char code[EG_MAX_TILES];
    unsigned char n, out;
    int score, order, seq; /* order: the static endgame rule's value; seq: the order found */
} EgMove;

/* A move as the table keeps it: its first new tile's square, the line, the tiles (n 0: the pass). */
typedef struct {
    short first, score;
    unsigned char across, n;
    unsigned char code[EG_MAX_TILES];
} Tiny;

typedef struct {
    uint64_t key;
    int start, n; /* its moves: arena[start] to arena[start + n - 1] */
} MoveList;

typedef struct {
    uint64_t key;
    int value;
    Tiny best;
    signed char depth;
    unsigned char flag, complete, used;
} Entry;

typedef struct {
    SearchBoard board;
    int table_bits, list_bits, max_cached; /* the sizes of the table, the lists' index and the arena */
    int limit;     /* scoreless turns that end the game */
    uint64_t hash; /* of the tiles placed since the root */
    Entry *table;
    MoveList *lists;
    int nlists;
    EgMove *arena;
    int narena;
    long long nodes, max_nodes, horizons;
    int has_deadline, c_clock, stopped;
    int bounded; /* whether the budget applies: once depth 1 has finished (it finishes whatever the budget) */
    double deadline;
    PyObject *clock;
    int ply, deepest; /* turns from the root to the node searched; the most of a node this depth */
    short pending[EG_MAX_PENDING]; /* the squares changed since the board was last analysed */
    int npending;
    /* the best of the root's moves the current depth has searched */
    int partial, partial_value;
    Tiny partial_move;
} Solver;

static inline uint64_t mix(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t square_key(int square, int code) { return mix((1ULL << 48) | (uint64_t)square << 8 | code); }

static uint64_t rack_key(const Rack *rack, uint64_t who)
{
    uint64_t key = 0;
    for (int kind = 0; kind < TILE_KINDS; kind++)
        if (rack->count[kind]) key ^= mix(who << 40 | (uint64_t)kind << 8 | rack->count[kind]);
    return key;
}

static uint64_t node_key(const Solver *s, const Rack *mover, const Rack *other, int scoreless)
{
    return s->hash ^ rack_key(mover, 2) ^ rack_key(other, 3) ^ mix((4ULL << 40) | (uint64_t)scoreless);
}

static const Tiny NO_MOVE = {0, 0, 0, EG_NONE, {0}};
static const Tiny PASS = {0, 0, 0, 0, {0}};

static Tiny tiny_of(const EgMove *move, int cols)
{
    Tiny tiny = {move->square[0], (short)move->score, 1, move->n, {0}};
    if (move->n > 1) tiny.across = move->square[1] - move->square[0] < cols;
    memcpy(tiny.code, move->code, move->n);
    return tiny;
}

static int same_move(const Tiny *a, const Tiny *b)
{
    return a->n == b->n && (a->n == 0 || a->n == EG_NONE ||
                            (a->first == b->first && a->across == b->across && !memcmp(a->code, b->code, a->n)));
}

/* The play `tiny` of this position (the board it was found on) as an EgMove; 0 if it does not fit the
 * board and the rack (a hash collision: the table's key was another position's). */
static int move_of(const Solver *s, const Tiny *tiny, const Rack *mover, EgMove *move)
{
    const SearchBoard *b = &s->board;
    int step = tiny->across ? 1 : b->geo.cols, square = tiny->first, size = b->geo.rows * b->geo.cols;
    Rack left = *mover;
    move->n = tiny->n;
    move->score = tiny->score;
    move->out = tiny->n == mover->n;
    for (int k = 0; k < tiny->n; k++) {
        if (k)
            for (square += step; square < size && b->squares[square] != CODE_EMPTY; square += step) {}
        if (square < 0 || square >= size || b->squares[square] != CODE_EMPTY || !left.count[rack_tile(tiny->code[k])]--)
            return 0;
        move->square[k] = (short)square;
        move->code[k] = tiny->code[k];
    }
    return 1;
}

/* Put a play's tiles on the board or take them off. The board's analysis is brought up to date only
 * when the move generator next reads it (catch_up): the squares changed since are kept in `pending`,
 * and a play taken off before that cancels its own entries, so a line the table answers costs no
 * analysis at all. */
static void change(Solver *s, const EgMove *move, int on)
{
    SearchBoard *b = &s->board;
    for (int i = 0; i < move->n; i++) {
        s->hash ^= square_key(move->square[i], move->code[i]);
        b->squares[move->square[i]] = on ? move->code[i] : CODE_EMPTY;
    }
    b->tiles += on ? move->n : -move->n;
    if (!b->tiles || (on && b->tiles == move->n)) /* from or to an empty board: every square can change */
        b->analysed = 0;
    if (!b->analysed) {
        s->npending = 0;
        return;
    }
    if (!on && s->npending >= move->n &&
        !memcmp(s->pending + s->npending - move->n, move->square, sizeof(short) * move->n)) {
        s->npending -= move->n;
        return;
    }
    if (s->npending + move->n > EG_MAX_PENDING) {
        b->analysed = 0; /* analysed afresh when next read */
        s->npending = 0;
        return;
    }
    memcpy(s->pending + s->npending, move->square, sizeof(short) * move->n);
    s->npending += move->n;
}

static void place(Solver *s, const EgMove *move) { change(s, move, 1); }

static void unplace(Solver *s, const EgMove *move) { change(s, move, 0); }

/* The board's analysis up to date, before the move generator reads it. */
static void catch_up(Solver *s)
{
    SearchBoard *b = &s->board;
    if (b->analysed && s->npending) reanalyse(&b->w, &b->geo, s->pending, s->npending);
    s->npending = 0;
}

static void take(Rack *rack, const EgMove *move)
{
    for (int i = 0; i < move->n; i++) rack->count[rack_tile(move->code[i])]--;
    rack->n -= move->n;
}

/* The budget: one more position; whether it is spent (then the search unwinds). */
static int spent(Solver *s)
{
    s->nodes++;
    if (!s->bounded) return 0;
    if (s->max_nodes >= 0 && s->nodes > s->max_nodes) return s->stopped = 1;
    if (!s->has_deadline) return 0;
    double now;
    if (s->c_clock) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        now = (double)ts.tv_sec + ts.tv_nsec * 1e-9;
    } else {
        PyObject *reading = PyObject_CallNoArgs(s->clock);
        if (!reading) return s->stopped = -1;
        now = PyFloat_AsDouble(reading);
        Py_DECREF(reading);
        if (now == -1.0 && PyErr_Occurred()) return s->stopped = -1;
    }
    if (now >= s->deadline) s->stopped = 1;
    return s->stopped;
}

static int by_order(const void *a, const void *b) /* best first, then in the order found */
{
    const EgMove *x = a, *y = b;
    if (x->order != y->order) return x->order < y->order ? 1 : -1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static uint64_t list_key(const Solver *s, const Rack *mover) { return s->hash ^ rack_key(mover, 5); }

/* The slot of the lists' index holding `key`, or the free one where it goes. */
static uint64_t list_slot(const Solver *s, uint64_t key)
{
    uint64_t mask = (1ULL << s->list_bits) - 1, slot = key & mask;
    while (s->lists[slot].n >= 0 && s->lists[slot].key != key) slot = (slot + 1) & mask;
    return slot;
}

/* The plays of `mover` on the board if they are kept (see plays), else NULL. */
static const EgMove *listed(const Solver *s, const Rack *mover, int *n)
{
    const MoveList *list = &s->lists[list_slot(s, list_key(s, mover))];
    *n = list->n;
    return list->n >= 0 ? s->arena + list->start : NULL;
}

/* The board analysed and `rack` set for the move generator (set_rack's results); 0, or -1: a rack it
 * cannot take. */
static int ready(Solver *s, const Rack *rack, uint64_t *rack_mask, int *blanks, long long *leaves)
{
    SearchBoard *b = &s->board;
    unsigned char codes[MAX_RACK];
    int ntiles = 0;
    for (int kind = 0; kind < TILE_KINDS; kind++)
        for (int k = 0; k < rack->count[kind]; k++) codes[ntiles++] = (unsigned char)kind;
    if (set_rack(&b->w, codes, ntiles, rack_mask, blanks, leaves)) return -1;
    catch_up(s);
    if (!b->analysed) {
        analyse(&b->w, &b->geo);
        b->analysed = 1;
    }
    return 0;
}

/* The play the generator found as `record`: its new tiles and score. */
static void record_move(const SearchBoard *b, const Record *record, EgMove *move)
{
    const Position *p = b->s;
    int row = p->row[record->origin], col = p->col[record->origin], across = p->across[record->origin];
    int cols = b->geo.cols;
    move->n = 0;
    for (int k = 0; k < record->length; k++) {
        int code = b->w.arena[record->word + k];
        if (code == CODE_THROUGH) continue;
        move->square[move->n] = (short)((across ? row : row + k) * cols + (across ? col + k : col));
        move->code[move->n++] = (unsigned char)code;
    }
    move->score = (int)record->score;
}

/* The plays of `mover` on the board, best first by the static endgame rule (going out earns twice the
 * points of `other`, tiles kept cost twice theirs; equal ones in the order the search found them), in
 * the cache or, when it is full, in *owned (the caller frees it). NULL: out of memory. */
static EgMove *plays(Solver *s, const Rack *mover, const Rack *other, int *n, EgMove **owned)
{
    *owned = NULL;
    uint64_t key = list_key(s, mover), slot = list_slot(s, key);
    if (s->lists[slot].n >= 0) {
        *n = s->lists[slot].n;
        return s->arena + s->lists[slot].start;
    }
    SearchBoard *b = &s->board;
    uint64_t rack_mask;
    int blanks;
    long long leaves;
    if (ready(s, mover, &rack_mask, &blanks, &leaves) < 0) return NULL;
    int found = find_plays(&b->w, -1, NULL, leaves, rack_mask, blanks, -INFINITY);
    if (found < 0) return NULL;
    int cache = s->narena + found <= s->max_cached && s->nlists * 2 < (1 << s->list_bits);
    EgMove *moves = cache ? s->arena + s->narena : (*owned = PyMem_Malloc(sizeof(EgMove) * ((size_t)found + 1)));
    if (!moves) return NULL;
    int out = 2 * rack_points(b, other), points = rack_points(b, mover);
    for (int i = 0; i < found; i++) {
        EgMove *move = &moves[i];
        record_move(b, &b->w.records[b->w.found[i]], move);
        int kept = points;
        for (int k = 0; k < move->n; k++)
            if (move->code[k] < CODE_BLANK) kept -= b->w.values[move->code[k]];
        move->out = move->n == mover->n;
        move->order = move->score + (move->out ? out : -2 * kept);
        move->seq = i;
    }
    if (found > 32) {
        qsort(moves, (size_t)found, sizeof(EgMove), by_order);
    } else { /* an insertion sort of a few */
        for (int i = 1; i < found; i++) {
            EgMove move = moves[i];
            int at = i;
            for (; at > 0 && by_order(&moves[at - 1], &move) > 0; at--) moves[at] = moves[at - 1];
            moves[at] = move;
        }
    }
    if (cache) {
        s->lists[slot] = (MoveList){key, s->narena, found};
        s->narena += found;
        s->nlists++;
    }
    *n = found;
    return moves;
}

/* The table is in buckets of two entries: the first keeps the entry of most work (a complete one, else
 * the deepest), the second the latest that the first did not take. */
static Entry *bucket(const Solver *s, uint64_t key) { return &s->table[key & ((1ULL << s->table_bits) - 2)]; }

static Entry *probe(Solver *s, uint64_t key)
{
    Entry *pair = bucket(s, key);
    for (int i = 0; i < 2; i++)
        if (pair[i].used && pair[i].key == key) return &pair[i];
    return NULL;
}

static inline int work(const Entry *entry) { return entry->complete ? 128 : entry->depth; }

static void store(Solver *s, uint64_t key, int depth, int value, int flag, int complete, const Tiny *best)
{
    Entry *pair = bucket(s, key);
    Entry entry = {key, value, *best, (signed char)(depth > 127 ? 127 : depth), (unsigned char)flag,
                   (unsigned char)complete, 1};
    if (pair[1].used && pair[1].key == key) pair[1].used = 0; /* one entry per key */
    if (!pair[0].used || pair[0].key == key || work(&entry) >= work(&pair[0])) {
        if (pair[0].used && pair[0].key != key) pair[1] = pair[0];
        pair[0] = entry;
    } else {
        pair[1] = entry;
    }
}

static int negamax(Solver *s, const Rack *mover, const Rack *other, int scoreless, int depth, int alpha, int beta,
                   int root);

/* A play that goes out, with the squares whose filling would change it (its own, and the one beyond
 * each end of every word it forms): while none of them is filled, it stays on the board with its
 * score. */
typedef struct {
    int score, n;
    short square[EG_MAX_TILES * 5];
} OutPlay;

/* `out` for the play `move` that goes out (see OutPlay). */
static void out_play(SearchBoard *b, const EgMove *move, OutPlay *out)
{
    static const int steps[4][2] = {{-1, 0}, {1, 0}, {0, -1}, {0, 1}};
    int rows = b->geo.rows, cols = b->geo.cols;
    out->score = move->score;
    out->n = 0;
    for (int k = 0; k < move->n; k++) b->squares[move->square[k]] = move->code[k];
    for (int k = 0; k < move->n; k++) {
        int r = move->square[k] / cols, c = move->square[k] % cols;
        out->square[out->n++] = move->square[k];
        for (int d = 0; d < 4; d++) {
            int rr = r + steps[d][0], cc = c + steps[d][1];
            while (rr >= 0 && cc >= 0 && rr < rows && cc < cols && b->squares[rr * cols + cc] != CODE_EMPTY) {
                rr += steps[d][0];
                cc += steps[d][1];
            }
            if (rr >= 0 && cc >= 0 && rr < rows && cc < cols) out->square[out->n++] = (short)(rr * cols + cc);
        }
    }
    for (int k = 0; k < move->n; k++) b->squares[move->square[k]] = CODE_EMPTY;
}

/* The best plays (at most EG_OUTS) with which `player` goes out on the board, best first, in `outs`:
 * from their plays where they are listed, else from the generator's bounded search for the plays that
 * use every tile. How many, or -1: out of memory. */
static int outs_of(Solver *s, const Rack *player, OutPlay *outs)
{
    SearchBoard *b = &s->board;
    int n, nouts = 0;
    const EgMove *moves = listed(s, player, &n);
    if (moves) {
        for (int i = 0; i < n && nouts < EG_OUTS; i++) /* the plays that go out come by score */
            if (moves[i].out) out_play(b, &moves[i], &outs[nouts++]);
        return nouts;
    }
    uint64_t rack_mask;
    int blanks;
    long long leaves;
    if (ready(s, player, &rack_mask, &blanks, &leaves) < 0) return -1;
    double bonus[1 << EG_MAX_TILES]; /* the last leave index uses every tile */
    for (long long i = 0; i < leaves; i++) bonus[i] = i == leaves - 1 ? 0.0 : -INFINITY;
    int found = find_plays(&b->w, EG_OUTS, bonus, leaves, rack_mask, blanks, -INFINITY);
    if (found < 0) return -1;
    for (int i = 0; i < found; i++) {
        EgMove move;
        record_move(b, &b->w.records[b->w.found[i]], &move);
        out_play(b, &move, &outs[nouts++]);
    }
    return nouts;
}

/* An upper bound on the mover's value of `move` (NULL: the pass) from the other's best play in `outs`
 * that it leaves on the board: they go out next turn, earning it and twice what the mover keeps
 * (move->order is the score less that); EG_INFINITY when it leaves none. */
static int going_out_bound(const Solver *s, const EgMove *move, const Rack *mover, const OutPlay *outs, int nouts)
{
    for (int i = 0; i < nouts; i++) {
        int blocked = 0;
        for (int k = 0; move && k < move->n && !blocked; k++)
            for (int j = 0; j < outs[i].n && !blocked; j++) blocked = outs[i].square[j] == move->square[k];
        if (!blocked) return (move ? move->order : -2 * rack_points(&s->board, mover)) - outs[i].score;
    }
    return EG_INFINITY;
}

/* Depth 1 (endgame.py's last_turn): the static endgame rule's best move and its value, or alpha (*flag
 * EG_UPPER) when nothing is worth more; *horizon whether the value rests on the horizon (not when a
 * play that goes out reaches beta, then a lower bound). The best move is the first of the mover's plays
 * where they are listed (a play that goes out first among equals); a rack with a blank, whose plays are
 * many, takes it from the bounded search (best_play) above alpha instead. */
static int last_turn(Solver *s, const Rack *mover, const Rack *other, int scoreless, int alpha, int beta,
                     int *horizon, int *flag, Tiny *best)
{
    const SearchBoard *b = &s->board;
    int mover_points = rack_points(b, mover), other_points = rack_points(b, other);
    int value = scoreless + 1 >= s->limit ? other_points - mover_points : -2 * mover_points;
    *best = PASS;
    *horizon = 1;
    *flag = EG_EXACT;
    int n, out = 0;
    EgMove *owned = NULL;
    const EgMove *moves = listed(s, mover, &n);
    /* a rack without a blank has few plays: listed, they serve the next depth too */
    if (!moves && !mover->count[CODE_BLANK] && !(moves = plays(s, mover, other, &n, &owned)))
        return s->stopped = -1, 0;
    Move found;
    if (moves) { /* best first */
        if (n && moves[0].order > value) {
            const EgMove *top = &moves[0];
            for (int i = 1; i < n && moves[i].order == top->order && !top->out; i++) top = &moves[i];
            value = top->order;
            *best = tiny_of(top, b->geo.cols);
            out = top->out;
        }
        PyMem_Free(owned);
    } else {
        double floor = value > alpha ? value : alpha;
        catch_up(s);
        if (best_play(&s->board, mover, LEAVES_ENDGAME, other, floor, &found) < 0) return s->stopped = -1, 0;
        if (found.kind == MOVE_PLAY) {
            int points = mover_points;
            for (int i = 0; i < found.n; i++)
                if (found.code[i] < CODE_BLANK) points -= b->w.values[found.code[i]];
            out = found.n == mover->n;
            value = (int)found.score + (out ? 2 * other_points : -2 * points);
            EgMove move;
            move.n = (unsigned char)found.n;
            move.score = (int)found.score;
            memcpy(move.square, found.square, sizeof(short) * (size_t)found.n);
            memcpy(move.code, found.code, (size_t)found.n);
            *best = tiny_of(&move, b->geo.cols);
        }
    }
    if (best->n) {
        if (out && value >= beta) {
            *horizon = 0;
            *flag = EG_LOWER;
        }
    } else if (value <= alpha) {
        value = alpha;
        *flag = EG_UPPER;
    }
    return value;
}

/* The value for the mover of making `move` (NULL: passing), searched `depth` turns ahead within
 * alpha/beta. */
static int child(Solver *s, const Rack *mover, const Rack *other, int scoreless, int depth, int alpha, int beta,
                 const EgMove *move)
{
    if (!move) {
        if (scoreless + 1 >= s->limit) return rack_points(&s->board, other) - rack_points(&s->board, mover);
        s->ply++;
        int value = -negamax(s, other, mover, scoreless + 1, depth - 1, -beta, -alpha, 0);
        s->ply--;
        return value;
    }
    if (move->out) return move->score + 2 * rack_points(&s->board, other);
    Rack kept = *mover;
    take(&kept, move);
    place(s, move);
    s->ply++;
    int value = move->score - negamax(s, other, &kept, 0, depth - 1, move->score - beta, move->score - alpha, 0);
    s->ply--;
    unplace(s, move);
    return value;
}

static int negamax(Solver *s, const Rack *mover, const Rack *other, int scoreless, int depth, int alpha, int beta,
                   int root)
{
    if (s->ply > s->deepest) s->deepest = s->ply;
    if (depth == 0) {
        s->horizons++;
        return 2 * rack_points(&s->board, other);
    }
    uint64_t key = node_key(s, mover, other, scoreless);
    Entry *entry = probe(s, key);
    Tiny first = NO_MOVE;
    if (entry) {
        if ((entry->complete || entry->depth >= depth) &&
            (entry->flag == EG_EXACT || (entry->flag == EG_LOWER && entry->value >= beta) ||
             (entry->flag == EG_UPPER && entry->value <= alpha))) {
            if (!entry->complete) s->horizons++;
            if (root) {
                s->partial = 1;
                s->partial_value = entry->value;
                s->partial_move = entry->best;
            }
            return entry->value;
        }
        first = entry->best;
    }
    if (spent(s)) return 0;
    if (depth == 1) {
        int horizon, flag;
        Tiny move;
        int value = last_turn(s, mover, other, scoreless, alpha, beta, &horizon, &flag, &move);
        if (s->stopped) return 0;
        s->horizons += horizon;
        store(s, key, 1, value, flag, !horizon, &move);
        if (root) {
            s->partial = 1;
            s->partial_value = value;
            s->partial_move = move;
        }
        return value;
    }
    long long horizons = s->horizons;
    int original_alpha = alpha, best_value = -EG_INFINITY, searched = 0;
    Tiny best = NO_MOVE;
    EgMove *owned = NULL, *moves = NULL, tried;
    int n = 0, nouts = -1; /* nouts -1: not listed yet */
    OutPlay outs[EG_OUTS];
    /* the table's move first, before the plays are listed; then the plays and the pass */
    for (int k = first.n == EG_NONE ? 0 : -1; k <= n; k++) {
        const EgMove *move;
        Tiny tiny;
        if (k < 0) {
            if (first.n && !move_of(s, &first, mover, &tried)) {
                first = NO_MOVE;
                continue;
            }
            move = first.n ? &tried : NULL;
            tiny = first;
        } else {
            if (!moves) {
                moves = plays(s, mover, other, &n, &owned);
                if (!moves) {
                    s->stopped = -1;
                    break;
                }
            }
            move = k < n ? &moves[k] : NULL;
            tiny = move ? tiny_of(move, s->board.geo.cols) : PASS;
            if (first.n != EG_NONE && same_move(&tiny, &first)) continue;
        }
        int value;
        if (k >= 0 && (move ? !move->out : scoreless + 1 < s->limit)) {
            if (nouts < 0 && (nouts = outs_of(s, other, outs)) < 0) {
                s->stopped = -1;
                break;
            }
            int bound = going_out_bound(s, move, mover, outs, nouts);
            if (bound <= alpha) { /* the other goes out after it: no better than alpha (fail-soft) */
                if (bound > best_value) {
                    best_value = bound;
                    best = tiny;
                }
                searched++;
                continue;
            }
        }
        if (!searched) {
            value = child(s, mover, other, scoreless, depth, alpha, beta, move);
        } else { /* a null window first: does it beat alpha? */
            value = child(s, mover, other, scoreless, depth, alpha, alpha + 1, move);
            if (!s->stopped && value > alpha && value < beta)
                value = child(s, mover, other, scoreless, depth, alpha, beta, move);
        }
        searched++;
        if (s->stopped) break;
        if (value > best_value) {
            best_value = value;
            best = tiny;
            if (root) {
                s->partial = 1;
                s->partial_value = value;
                s->partial_move = tiny;
            }
        }
        if (value > alpha) alpha = value;
        if (alpha >= beta) break;
    }
    PyMem_Free(owned);
    if (s->stopped) return 0;
    int flag = best_value <= original_alpha ? EG_UPPER : best_value >= beta ? EG_LOWER : EG_EXACT;
    store(s, key, depth, best_value, flag, s->horizons == horizons, &best);
    return best_value;
}

/* The root's move `tiny` as (kind, placements): three bytes per tile. */
static PyObject *move_spec(const Solver *s, const Tiny *tiny, const Rack *rack)
{
    if (tiny->n == 0 || tiny->n == EG_NONE) return Py_BuildValue("(iy#)", MOVE_PASS, "", (Py_ssize_t)0);
    EgMove move;
    if (!move_of(s, tiny, rack, &move)) return Py_BuildValue("(iy#)", MOVE_PASS, "", (Py_ssize_t)0);
    unsigned char data[3 * EG_MAX_TILES];
    for (int i = 0; i < move.n; i++) {
        data[3 * i] = (unsigned char)(move.square[i] >> 8);
        data[3 * i + 1] = (unsigned char)(move.square[i] & 0xFF);
        data[3 * i + 2] = move.code[i];
    }
    return Py_BuildValue("(iy#)", MOVE_PLAY, data, (Py_ssize_t)(3 * move.n));
}

/* solve_endgame(): see _movegen.pyi. */
static PyObject *solve_endgame(PyObject *module, PyObject *args)
{
    PyObject *graph, *geometry, *deadline, *clock, *monotonic, *result = NULL;
    Py_buffer squares, rack_codes, other_codes;
    int scoreless, limit, max_depth, deepening;
    long long max_nodes;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!y*y*y*iiiiLOOO", &GraphType, &graph, &PyTuple_Type, &geometry, &squares,
                          &rack_codes, &other_codes, &scoreless, &limit, &max_depth, &deepening, &max_nodes,
                          &deadline, &clock, &monotonic))
        return NULL;
    Solver *s = PyMem_Calloc(1, sizeof(Solver));
    int have_board = 0;
    if (!s) {
        PyErr_NoMemory();
        goto done;
    }
    if (board_init(&s->board, (Graph *)graph, geometry, &squares, NULL) < 0) goto done;
    have_board = 1;
    Rack rack, other;
    if (read_rack(&s->board, rack_codes.buf, rack_codes.len, &rack) < 0 ||
        read_rack(&s->board, other_codes.buf, other_codes.len, &other) < 0)
        goto done;
    if (rack.n > EG_MAX_TILES || other.n > EG_MAX_TILES || limit < 1 || scoreless < 0 || scoreless >= limit ||
        max_depth < 1 || deepening < 1 || !PyCallable_Check(clock)) {
        PyErr_SetString(PyExc_ValueError, "solve_endgame: an argument out of its range");
        goto done;
    }
    s->limit = limit;
    s->max_nodes = max_nodes;
    s->clock = clock;
    s->c_clock = clock == monotonic;
    s->has_deadline = deadline != Py_None;
    if (s->has_deadline) {
        s->deadline = PyFloat_AsDouble(deadline);
        if (s->deadline == -1.0 && PyErr_Occurred()) goto done;
    }
    /* a node budget needs no more room than it can fill */
    s->table_bits = EG_TABLE_BITS;
    s->list_bits = EG_LIST_BITS;
    s->max_cached = EG_MAX_CACHED;
    if (max_nodes >= 0) {
        int bits = 8;
        while (bits < EG_TABLE_BITS && (1LL << bits) < 4 * max_nodes) bits++;
        s->table_bits = bits;
        s->list_bits = bits < EG_LIST_BITS ? bits : EG_LIST_BITS;
        s->max_cached = max_nodes * 64 < EG_MAX_CACHED ? (int)(max_nodes * 64) + 4096 : EG_MAX_CACHED;
    }
    s->table = PyMem_Calloc((size_t)1 << s->table_bits, sizeof(Entry));
    s->lists = PyMem_Malloc(sizeof(MoveList) << s->list_bits);
    s->arena = PyMem_Malloc(sizeof(EgMove) * (size_t)s->max_cached);
    if (!s->table || !s->lists || !s->arena) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < 1 << s->list_bits; i++) s->lists[i].n = -1;
    int best_value = 0, exact = 0, finished = 0;
    Tiny best = PASS;
    uint64_t root_key = node_key(s, &rack, &other, scoreless);
    for (int depth = 1; depth <= max_depth; depth++) {
        if (depth > deepening) depth = max_depth; /* see endgame.py's DEEPENING */
        s->horizons = 0;
        s->partial = 0;
        s->ply = s->deepest = 0;
        int value = negamax(s, &rack, &other, scoreless, depth, -EG_INFINITY, EG_INFINITY, 1);
        if (s->stopped < 0 || PyErr_Occurred()) {
            if (!PyErr_Occurred()) PyErr_NoMemory();
            goto done;
        }
        if (s->stopped) {
            if (s->partial) { /* the best of the root moves this depth finished */
                best = s->partial_move;
                best_value = s->partial_value;
            }
            exact = 0;
            break;
        }
        s->bounded = 1;
        finished = depth < s->deepest + 1 ? depth : s->deepest + 1;
        const Entry *entry = probe(s, root_key);
        best = entry ? entry->best : s->partial_move;
        best_value = value;
        exact = s->horizons == 0;
        if (exact) break;
    }
    PyObject *move = move_spec(s, &best, &rack);
    if (move) result = Py_BuildValue("(NiiiL)", move, best_value, exact, finished, s->nodes);
done:
    if (s) {
        if (have_board) board_free(&s->board);
        PyMem_Free(s->table);
        PyMem_Free(s->lists);
        PyMem_Free(s->arena);
        PyMem_Free(s);
    }
    PyBuffer_Release(&squares);
    PyBuffer_Release(&rack_codes);
    PyBuffer_Release(&other_codes);
    return result;
}

static PyMethodDef endgame_methods[] = {
    {"solve_endgame", solve_endgame, METH_VARARGS, "The endgame solver: see _movegen.pyi."},
    {NULL, NULL, 0, NULL},
};

int add_endgame_functions(PyObject *module) { return PyModule_AddFunctions(module, endgame_methods); }
