/* The native core of go_core's Monte Carlo search: go_core/playout.py and go_core/tree.py in C.
 *
 * It mirrors those two modules function for function (PlayoutBoard's play, is_legal, is_eye,
 * liberties_after, atari_moves, pattern_moves, policy_move, playout, owners; PySearch's _iterate,
 * _select, _expand, _prior), so that one seed gives the same playouts, the same tree and the same
 * numbers; read their docstrings for the algorithm. The random generator is go_core/prng.py's
 * xorshift64*, the position keys its SplitMix64 from the same seed. Floating-point expressions are
 * written in the same order as in Python (and contraction into fused multiply-adds is off), so the
 * tree's values are the same doubles.
 *
 * The search runs without the GIL: one Search must not be used by two threads at once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

#define EMPTY 0
#define BLACK 1
#define WHITE 2
#define EDGE 3
#define PASS 0
#define MIN_SIZE 2
#define MAX_SIZE 25
#define MAX_WIDTH (MAX_SIZE + 2)
#define MAX_POINTS (MAX_WIDTH * MAX_WIDTH)
#define TABLE_SIZE 65536
#define ATARI_CHANCE 3865470566u
#define PATTERN_CHANCE 4080218931u
#define ZOBRIST_SEED 0x5EED0F60ull
#define MAX_MOVES_FACTOR 3
#define EXPAND_VISITS 8
#define RAVE_EQUIVALENCE 3500.0
#define PRIOR_EVEN 10.0
#define PRIOR_PASS_WINS 1.0
#define PRIOR_CAPTURE_ONE 15.0
#define PRIOR_CAPTURE_MANY 30.0
#define PRIOR_ESCAPE 15.0
#define PRIOR_SELF_ATARI 10.0
#define PRIOR_PATTERN 10.0
#define PRIOR_EMPTY_AREA 10.0
#define EMPTY_AREA_REACH 3
static const double PRIOR_NEAR[4] = {0.0, 24.0, 22.0, 8.0};

/* --- the generator (go_core/prng.py) ------------------------------------------------------------ */

static inline uint32_t rng_next(uint64_t *state) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (uint32_t)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

static inline int rng_below(uint64_t *state, int n) {
    return (int)(((uint64_t)rng_next(state) * (uint64_t)n) >> 32);
}

static void splitmix64(uint64_t seed, int count, uint64_t *out) {
    uint64_t state = seed;
    for (int i = 0; i < count; i++) {
        state += 0x9E3779B97F4A7C15ull;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        out[i] = z ^ (z >> 31);
    }
}

/* --- the board (go_core/playout.py) ------------------------------------------------------------- */

typedef struct {
    int size, width, points;
    double komi;
    const unsigned char *patterns;
    const uint64_t *keys; /* black stones' keys, then white ones' */
    unsigned char color[MAX_POINTS];
    int group[MAX_POINTS], next_stone[MAX_POINTS], libs[MAX_POINTS], gsize[MAX_POINTS];
    int empty_at[MAX_POINTS], empties[MAX_POINTS];
    int nempty;
    uint64_t hash;
    int to_move, ko, passes, last;
} Board;

static void board_copy(Board *to, const Board *from) {
    int n = from->points;
    to->size = from->size;
    to->width = from->width;
    to->points = n;
    to->komi = from->komi;
    to->patterns = from->patterns;
    to->keys = from->keys;
    memcpy(to->color, from->color, (size_t)n);
    memcpy(to->group, from->group, sizeof(int) * (size_t)n);
    memcpy(to->next_stone, from->next_stone, sizeof(int) * (size_t)n);
    memcpy(to->libs, from->libs, sizeof(int) * (size_t)n);
    memcpy(to->gsize, from->gsize, sizeof(int) * (size_t)n);
    memcpy(to->empty_at, from->empty_at, sizeof(int) * (size_t)n);
    memcpy(to->empties, from->empties, sizeof(int) * (size_t)from->nempty);
    to->nempty = from->nempty;
    to->hash = from->hash;
    to->to_move = from->to_move;
    to->ko = from->ko;
    to->passes = from->passes;
    to->last = from->last;
}

#define NEIGHBOURS(b, p) {(p) - (b)->width, (p) - 1, (p) + 1, (p) + (b)->width}
#define IS_STONE(c) ((c) == BLACK || (c) == WHITE)

/* Adds `head` to the `count` groups in `seen` (at most four: a point's neighbours'); whether it is new. */
static int first_time(int *seen, int *count, int head) {
    for (int j = 0; j < *count; j++)
        if (seen[j] == head) return 0;
    seen[(*count)++] = head;
    return 1;
}

static int count_libs(const Board *b, int head) {
    unsigned char seen[MAX_POINTS];
    memset(seen, 0, (size_t)b->points);
    int count = 0, stone = head;
    do {
        int around[4] = NEIGHBOURS(b, stone);
        for (int i = 0; i < 4; i++) {
            int near = around[i];
            if (b->color[near] == EMPTY && !seen[near]) {
                seen[near] = 1;
                count++;
            }
        }
        stone = b->next_stone[stone];
    } while (stone != head);
    return count;
}

static int liberty(const Board *b, int head) {
    int stone = head;
    do {
        int around[4] = NEIGHBOURS(b, stone);
        for (int i = 0; i < 4; i++)
            if (b->color[around[i]] == EMPTY) return around[i];
        stone = b->next_stone[stone];
    } while (stone != head);
    return 0;
}

static int is_legal(const Board *b, int point, int color) {
    if (b->color[point] != EMPTY || point == b->ko) return 0;
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++) {
        int near_color = b->color[around[i]];
        if (near_color == EMPTY) return 1;
        if (near_color == color) {
            if (b->libs[b->group[around[i]]] > 1) return 1;
        } else if (near_color != EDGE && b->libs[b->group[around[i]]] == 1) {
            return 1;
        }
    }
    return 0;
}

static int is_eye(const Board *b, int point, int color) {
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++)
        if (b->color[around[i]] != color && b->color[around[i]] != EDGE) return 0;
    int w = b->width;
    int corners[4] = {point - w - 1, point - w + 1, point + w - 1, point + w + 1};
    int enemies = 0, edge = 0;
    for (int i = 0; i < 4; i++) {
        int c = b->color[corners[i]];
        if (c == EDGE)
            edge = 1;
        else if (c != color && c != EMPTY)
            enemies++;
    }
    return edge ? enemies == 0 : enemies < 2;
}

static int captures(const Board *b, int point, int color) {
    int opponent = 3 - color;
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++)
        if (b->color[around[i]] == opponent && b->libs[b->group[around[i]]] == 1) return 1;
    return 0;
}

static int liberties_after(const Board *b, int point, int color) {
    int found = 0;
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++) {
        if (b->color[around[i]] == EMPTY) {
            if (found == 0)
                found = around[i];
            else if (around[i] != found)
                return 2;
        }
    }
    int heads[4], nheads = 0;
    for (int i = 0; i < 4; i++) {
        int near = around[i];
        int head = b->group[near];
        if (b->color[near] != color || !first_time(heads, &nheads, head)) continue;
        int stone = head;
        do {
            int next[4] = NEIGHBOURS(b, stone);
            for (int k = 0; k < 4; k++) {
                int e = next[k];
                if (b->color[e] == EMPTY && e != point) {
                    if (found == 0)
                        found = e;
                    else if (e != found)
                        return 2;
                }
            }
            stone = b->next_stone[stone];
        } while (stone != head);
    }
    return found ? 1 : 0;
}

static int is_bad_self_atari(const Board *b, int point, int color) {
    if (captures(b, point, color)) return 0;
    int joins = 0;
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++)
        if (b->color[around[i]] == color) joins = 1;
    return joins && liberties_after(b, point, color) < 2;
}

static int pattern_at(const Board *b, int point) {
    int w = b->width;
    const unsigned char *c = b->color;
    int code = c[point + w - 1] | c[point + w] << 2 | c[point + w + 1] << 4 | c[point - 1] << 6 |
               c[point + 1] << 8 | c[point - w - 1] << 10 | c[point - w] << 12 | c[point - w + 1] << 14;
    return b->patterns[code] == 1;
}

static uint64_t capture_hash(const Board *b, int point, int color) {
    int points = b->points, opponent = 3 - color;
    uint64_t value = b->hash ^ b->keys[(color - 1) * points + point];
    int heads[4], nheads = 0;
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++) {
        int near = around[i];
        int head = b->group[near];
        if (b->color[near] != opponent || b->libs[head] != 1 || !first_time(heads, &nheads, head)) continue;
        int stone = head;
        do {
            value ^= b->keys[(opponent - 1) * points + stone];
            stone = b->next_stone[stone];
        } while (stone != head);
    }
    return value;
}

static void take_empty(Board *b, int point) {
    int place = b->empty_at[point];
    int moved = b->empties[--b->nempty];
    if (moved != point) {
        b->empties[place] = moved;
        b->empty_at[moved] = place;
    }
    b->empty_at[point] = -1;
}

static void join(Board *b, int head, int point) {
    b->group[point] = head;
    b->next_stone[point] = b->next_stone[head];
    b->next_stone[head] = point;
    b->gsize[head] += 1;
}

static void merge(Board *b, int head, int other) {
    int stone = other;
    do {
        b->group[stone] = head;
        stone = b->next_stone[stone];
    } while (stone != other);
    int swap = b->next_stone[head];
    b->next_stone[head] = b->next_stone[other];
    b->next_stone[other] = swap;
    b->gsize[head] += b->gsize[other];
}

static int touches(const Board *b, int empty, int head, int skip) {
    int around[4] = NEIGHBOURS(b, empty);
    for (int i = 0; i < 4; i++) {
        int near = around[i];
        if (near != skip && b->group[near] == head && b->color[near] != EMPTY) return 1;
    }
    return 0;
}

static void remove_group(Board *b, int head) {
    int color = b->color[head];
    int key_base = (color - 1) * b->points;
    int stone = head;
    do {
        int following = b->next_stone[stone];
        b->color[stone] = EMPTY;
        b->group[stone] = 0;
        b->hash ^= b->keys[key_base + stone];
        b->empty_at[stone] = b->nempty;
        b->empties[b->nempty++] = stone;
        stone = following;
    } while (stone != head);
    stone = head;
    do {
        int following = b->next_stone[stone];
        int seen[4], nseen = 0;
        int around[4] = NEIGHBOURS(b, stone);
        for (int i = 0; i < 4; i++) {
            int near = around[i];
            if (IS_STONE(b->color[near]) && first_time(seen, &nseen, b->group[near]))
                b->libs[b->group[near]] += 1;
        }
        stone = following;
    } while (stone != head);
}

static void board_play(Board *b, int point) {
    int color = b->to_move;
    b->to_move = 3 - color;
    b->last = point;
    if (point == PASS) {
        b->passes += 1;
        b->ko = 0;
        return;
    }
    b->passes = 0;
    int opponent = 3 - color;
    take_empty(b, point);
    b->color[point] = (unsigned char)color;
    b->hash ^= b->keys[(color - 1) * b->points + point];
    b->group[point] = point;
    b->next_stone[point] = point;
    b->gsize[point] = 1;
    int heads[4], nheads = 0, own[4], nown = 0;
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++) {
        int near = around[i];
        int near_color = b->color[near];
        int head = b->group[near];
        if (!IS_STONE(near_color) || !first_time(heads, &nheads, head)) continue;
        b->libs[head] -= 1;
        if (near_color == color) own[nown++] = head;
    }
    int head;
    if (nown == 0) {
        int libs = 0;
        for (int i = 0; i < 4; i++)
            if (b->color[around[i]] == EMPTY) libs++;
        b->libs[point] = libs;
        head = point;
    } else if (nown == 1) {
        head = own[0];
        join(b, head, point);
        for (int i = 0; i < 4; i++)
            if (b->color[around[i]] == EMPTY && !touches(b, around[i], head, point)) b->libs[head] += 1;
    } else {
        head = own[0];
        join(b, head, point);
        for (int i = 1; i < nown; i++) merge(b, head, own[i]);
        b->libs[head] = count_libs(b, head);
    }
    int captured = 0, taken = 0;
    for (int i = 0; i < nheads; i++) {
        int other = heads[i];
        if (b->color[other] == opponent && b->libs[other] == 0) {
            captured += b->gsize[other];
            taken = other;
            remove_group(b, other);
        }
    }
    b->ko = (captured == 1 && b->gsize[head] == 1 && b->libs[head] == 1) ? taken : 0;
}

static int board_setup(Board *b, int size, double komi, const unsigned char *cells, int to_move, int ko,
                       int passes, const unsigned char *patterns, const uint64_t *keys) {
    int width = size + 2;
    b->size = size;
    b->width = width;
    b->points = width * width;
    b->komi = komi;
    b->patterns = patterns;
    b->keys = keys;
    b->nempty = 0;
    b->hash = 0;
    b->to_move = to_move;
    b->ko = ko;
    b->passes = passes;
    b->last = PASS;
    for (int p = 0; p < b->points; p++) {
        b->color[p] = EDGE;
        b->group[p] = b->next_stone[p] = b->libs[p] = b->gsize[p] = 0;
        b->empty_at[p] = -1;
    }
    for (int row = 0; row < size; row++)
        for (int col = 0; col < size; col++) {
            int point = (row + 1) * width + col + 1;
            b->color[point] = EMPTY;
            b->empty_at[point] = b->nempty;
            b->empties[b->nempty++] = point;
        }
    int heads[MAX_POINTS], nheads = 0;
    for (int index = 0; index < size * size; index++) {
        int cell = cells[index];
        if (!cell) continue;
        if (cell != BLACK && cell != WHITE) return -1;
        int point = (index / size + 1) * width + index % size + 1;
        take_empty(b, point);
        b->color[point] = (unsigned char)cell;
        b->hash ^= keys[(cell - 1) * b->points + point];
        b->group[point] = point;
        b->next_stone[point] = point;
        b->gsize[point] = 1;
        heads[nheads++] = point;
        int around[4] = NEIGHBOURS(b, point);
        for (int i = 0; i < 4; i++) {
            int near = around[i];
            if (b->color[near] == cell && b->group[near] != b->group[point])
                merge(b, b->group[near], b->group[point]);
        }
    }
    for (int i = 0; i < nheads; i++)
        if (b->group[heads[i]] == heads[i]) b->libs[heads[i]] = count_libs(b, heads[i]);
    return 0;
}

/* --- the playout policy ------------------------------------------------------------------------- */

static int fits(const Board *b, int point, int color) {
    return is_legal(b, point, color) && !is_eye(b, point, color) && !is_bad_self_atari(b, point, color);
}

/* Step 1: the candidates go to `moves` (room for 4 * points + 8), filtered; returns how many. */
static int atari_moves(const Board *b, int color, int *moves) {
    int n = 0, last = b->last;
    if (last == PASS || b->color[last] != 3 - color) return 0;
    int head = b->group[last];
    if (b->libs[head] == 1) moves[n++] = liberty(b, head);
    int saved[4], nsaved = 0;
    int around[4] = NEIGHBOURS(b, last);
    for (int i = 0; i < 4; i++) {
        int near = around[i];
        int own = b->group[near];
        if (b->color[near] != color || b->libs[own] != 1 || !first_time(saved, &nsaved, own)) continue;
        int stone = own;
        do {
            int next[4] = NEIGHBOURS(b, stone);
            for (int k = 0; k < 4; k++) {
                int other = next[k];
                if (b->color[other] == 3 - color && b->libs[b->group[other]] == 1)
                    moves[n++] = liberty(b, b->group[other]);
            }
            stone = b->next_stone[stone];
        } while (stone != own);
        int escape = liberty(b, own);
        if (captures(b, escape, color) || liberties_after(b, escape, color) >= 2) moves[n++] = escape;
    }
    int kept = 0;
    for (int i = 0; i < n; i++)
        if (fits(b, moves[i], color)) moves[kept++] = moves[i];
    return kept;
}

static int pattern_moves(const Board *b, int color, int *moves) {
    int last = b->last, w = b->width, n = 0;
    if (last == PASS) return 0;
    int around[8] = {last + w - 1, last + w, last + w + 1, last - 1,
                     last + 1,     last - w - 1, last - w, last - w + 1};
    for (int i = 0; i < 8; i++) {
        int point = around[i];
        if (b->color[point] == EMPTY && pattern_at(b, point) && fits(b, point, color)) moves[n++] = point;
    }
    return n;
}

static int policy_move(const Board *b, uint64_t *rng, int *scratch) {
    int color = b->to_move;
    if (rng_next(rng) < ATARI_CHANCE) {
        int n = atari_moves(b, color, scratch);
        if (n) return scratch[rng_below(rng, n)];
    }
    if (rng_next(rng) < PATTERN_CHANCE) {
        int n = pattern_moves(b, color, scratch);
        if (n) return scratch[rng_below(rng, n)];
    }
    int count = b->nempty;
    if (count) {
        int start = rng_below(rng, count);
        for (int offset = 0; offset < count; offset++) {
            int point = b->empties[(start + offset) % count];
            if (fits(b, point, color)) return point;
        }
    }
    return PASS;
}

/* Plays to the end; the moves go to `moves` (room for MAX_MOVES_FACTOR * size² more) if not NULL. */
static int playout(Board *b, uint64_t *rng, int *scratch, int *moves) {
    int limit = MAX_MOVES_FACTOR * b->size * b->size, played = 0;
    while (b->passes < 2 && played < limit) {
        int point = policy_move(b, rng, scratch);
        board_play(b, point);
        if (moves) moves[played] = point;
        played++;
    }
    return played;
}

/* Each point's owner (row 0 first) into `owners`; returns the score. */
static double board_owners(const Board *b, unsigned char *owners) {
    int w = b->width, black = 0, white = 0, index = 0;
    for (int row = 0; row < b->size; row++)
        for (int col = 0; col < b->size; col++) {
            int point = (row + 1) * w + col + 1;
            int color = b->color[point];
            if (color == EMPTY) {
                int around_colors = 0;
                int around[4] = NEIGHBOURS(b, point);
                for (int i = 0; i < 4; i++)
                    if (b->color[around[i]] != EDGE) around_colors |= b->color[around[i]];
                color = (around_colors == BLACK || around_colors == WHITE) ? around_colors : EMPTY;
            }
            owners[index++] = (unsigned char)color;
            if (color == BLACK)
                black++;
            else if (color == WHITE)
                white++;
        }
    return (double)(black - white) - b->komi;
}

/* --- the history of positions: an open-addressing set of hashes --------------------------------- */

typedef struct {
    uint64_t *slots;
    size_t capacity, count;
    int has_zero;
} HashSet;

static int hashset_add(HashSet *set, uint64_t value);

static int hashset_grow(HashSet *set) {
    size_t capacity = set->capacity ? set->capacity * 2 : 64;
    uint64_t *old = set->slots;
    size_t old_capacity = set->capacity;
    set->slots = calloc(capacity, sizeof(uint64_t));
    if (!set->slots) {
        set->slots = old;
        return -1;
    }
    set->capacity = capacity;
    set->count = 0;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i]) hashset_add(set, old[i]);
    free(old);
    return 0;
}

static int hashset_add(HashSet *set, uint64_t value) {
    if (value == 0) {
        set->has_zero = 1;
        return 0;
    }
    if ((set->count + 1) * 2 > set->capacity && hashset_grow(set) < 0) return -1;
    size_t mask = set->capacity - 1, i = (size_t)(value ^ (value >> 29)) & mask;
    while (set->slots[i]) {
        if (set->slots[i] == value) return 0;
        i = (i + 1) & mask;
    }
    set->slots[i] = value;
    set->count++;
    return 0;
}

static int hashset_has(const HashSet *set, uint64_t value) {
    if (value == 0) return set->has_zero;
    if (!set->capacity) return 0;
    size_t mask = set->capacity - 1, i = (size_t)(value ^ (value >> 29)) & mask;
    while (set->slots[i]) {
        if (set->slots[i] == value) return 1;
        i = (i + 1) & mask;
    }
    return 0;
}

/* --- the tree (go_core/tree.py) ----------------------------------------------------------------- */

typedef struct {
    int move, first_child, child_count, visits, amaf_visits;
    double wins, prior_visits, prior_wins, amaf_wins;
} Node;

typedef struct {
    PyObject_HEAD
    int size;
    Board root_board;
    HashSet history;
    uint64_t rng;
    Node *nodes;
    Py_ssize_t nnodes, capacity, max_nodes;
    int root;
    long long playouts;
    long long *black_owned, *white_owned;
    unsigned char patterns[TABLE_SIZE];
    uint64_t keys[2 * MAX_POINTS];
    /* An iteration's buffers. */
    int *path, *moves, *scratch, *first;
    uint64_t *hashes;
    Py_ssize_t path_capacity;
    unsigned char owners[MAX_SIZE * MAX_SIZE];
    Board board;
} Search;

static int inside(const Search *s, int move) {
    if (move < 0) return PASS;
    return (move / s->size + 1) * (s->size + 2) + move % s->size + 1;
}

static int outside(const Search *s, int point) {
    if (point == PASS) return -1;
    int width = s->size + 2;
    return (point / width - 1) * s->size + point % width - 1;
}

static int new_node(Search *s, int move, double prior_visits, double prior_wins) {
    if (s->nnodes == s->capacity) {
        Py_ssize_t capacity = s->capacity * 2;
        if (capacity > s->max_nodes) capacity = s->max_nodes;
        Node *grown = realloc(s->nodes, sizeof(Node) * (size_t)capacity);
        if (!grown) return -1;
        s->nodes = grown;
        s->capacity = capacity;
    }
    Node *node = &s->nodes[s->nnodes];
    node->move = move;
    node->first_child = node->child_count = node->visits = node->amaf_visits = 0;
    node->wins = node->amaf_wins = 0.0;
    node->prior_visits = prior_visits;
    node->prior_wins = prior_wins;
    return (int)s->nnodes++;
}

static int empty_area(const Board *b, int row, int col) {
    int size = b->size, w = b->width;
    for (int dr = -EMPTY_AREA_REACH; dr <= EMPTY_AREA_REACH; dr++) {
        int reach = EMPTY_AREA_REACH - abs(dr), r = row + dr;
        if (r < 1 || r > size) continue;
        int from = col - reach < 1 ? 1 : col - reach, to = col + reach > size ? size : col + reach;
        for (int c = from; c <= to; c++)
            if (b->color[r * w + c] != EMPTY) return 0;
    }
    return 1;
}

static void prior(const Board *b, int point, int color, double *prior_visits, double *prior_wins) {
    double visits = PRIOR_EVEN, wins = PRIOR_EVEN / 2;
    int size = b->size, w = b->width, captured = 0;
    int heads[4], nheads = 0;
    int around[4] = NEIGHBOURS(b, point);
    for (int i = 0; i < 4; i++) {
        int near = around[i];
        int head = b->group[near];
        if (b->color[near] == 3 - color && b->libs[head] == 1 && first_time(heads, &nheads, head))
            captured += b->gsize[head];
    }
    if (captured) {
        double bonus = captured == 1 ? PRIOR_CAPTURE_ONE : PRIOR_CAPTURE_MANY;
        visits = visits + bonus;
        wins = wins + bonus;
    }
    if (is_bad_self_atari(b, point, color)) {
        visits += PRIOR_SELF_ATARI;
    } else {
        for (int i = 0; i < 4; i++) {
            int near = around[i];
            if (b->color[near] == color && b->libs[b->group[near]] == 1) {
                if (liberties_after(b, point, color) >= 2) {
                    visits = visits + PRIOR_ESCAPE;
                    wins = wins + PRIOR_ESCAPE;
                }
                break;
            }
        }
    }
    if (pattern_at(b, point)) {
        visits = visits + PRIOR_PATTERN;
        wins = wins + PRIOR_PATTERN;
    }
    int row = point / w, col = point % w, last = b->last;
    if (last != PASS) {
        int steps = abs(row - last / w) + abs(col - last % w);
        if (steps < 4) {
            visits = visits + PRIOR_NEAR[steps];
            wins = wins + PRIOR_NEAR[steps];
        }
    }
    if (empty_area(b, row, col)) {
        int line = row;
        if (col < line) line = col;
        if (size + 1 - row < line) line = size + 1 - row;
        if (size + 1 - col < line) line = size + 1 - col;
        if (line <= 2) {
            visits += PRIOR_EMPTY_AREA;
        } else if (line == 3) {
            visits = visits + PRIOR_EMPTY_AREA;
            wins = wins + PRIOR_EMPTY_AREA;
        }
    }
    *prior_visits = visits;
    *prior_wins = wins;
}

/* Returns 1 if expanded, 0 if the children do not fit, -1 on a memory error. */
static int expand(Search *s, int node, const Board *b, int depth) {
    int size = s->size, w = size + 2;
    if (s->nnodes + size * size + 1 > s->max_nodes) return 0;
    int color = b->to_move;
    int start = (int)s->nnodes;
    for (int row = 1; row <= size; row++)
        for (int point = row * w + 1; point < row * w + size + 1; point++) {
            if (b->color[point] != EMPTY || !is_legal(b, point, color)) continue;
            if (is_eye(b, point, color)) continue;
            uint64_t position = capture_hash(b, point, color);
            if (hashset_has(&s->history, position)) continue;
            int repeated = 0;
            for (int i = 0; i < depth; i++)
                if (s->hashes[i] == position) repeated = 1;
            if (repeated) continue;
            double prior_visits, prior_wins;
            prior(b, point, color, &prior_visits, &prior_wins);
            if (new_node(s, point, prior_visits, prior_wins) < 0) return -1;
        }
    if (new_node(s, PASS, PRIOR_EVEN, PRIOR_PASS_WINS) < 0) return -1;
    s->nodes[node].first_child = start;
    s->nodes[node].child_count = (int)s->nnodes - start;
    return 1;
}

static int select_child(const Search *s, int node) {
    int best = -1;
    double best_value = -1.0;
    const Node *parent = &s->nodes[node];
    for (int child = parent->first_child; child < parent->first_child + parent->child_count; child++) {
        const Node *c = &s->nodes[child];
        double visits = (double)c->visits + c->prior_visits;
        double wins = c->wins + c->prior_wins;
        int rave_visits = c->amaf_visits;
        double value;
        if (rave_visits > 0) {
            double rv = (double)rave_visits;
            double beta = rv / (rv + visits + visits * rv / RAVE_EQUIVALENCE);
            value = beta * (c->amaf_wins / rv) + (1.0 - beta) * (wins / visits);
        } else {
            value = wins / visits;
        }
        if (value > best_value) {
            best = child;
            best_value = value;
        }
    }
    return best;
}

static int grow_path(Search *s, Py_ssize_t need) {
    if (need <= s->path_capacity) return 0;
    Py_ssize_t capacity = s->path_capacity * 2;
    if (capacity < need) capacity = need;
    int *path = realloc(s->path, sizeof(int) * (size_t)capacity);
    if (!path) return -1;
    s->path = path;
    uint64_t *hashes = realloc(s->hashes, sizeof(uint64_t) * (size_t)capacity);
    if (!hashes) return -1;
    s->hashes = hashes;
    int *moves = realloc(s->moves, sizeof(int) * (size_t)(capacity + MAX_MOVES_FACTOR * s->size * s->size));
    if (!moves) return -1;
    s->moves = moves;
    s->path_capacity = capacity;
    return 0;
}

/* One iteration; -1 on a memory error. */
static int iterate(Search *s) {
    Board *board = &s->board;
    board_copy(board, &s->root_board);
    int root_color = board->to_move;
    int node = s->root, depth = 0;
    s->path[0] = node;
    while (board->passes < 2) {
        Node *n = &s->nodes[node];
        if (n->child_count == 0) {
            if (node != s->root && n->visits < EXPAND_VISITS) break;
            int expanded = expand(s, node, board, depth);
            if (expanded < 0) return -1;
            if (!expanded) break;
        }
        node = select_child(s, node);
        board_play(board, s->nodes[node].move);
        if (grow_path(s, depth + 2) < 0) return -1;
        s->hashes[depth] = board->hash;
        depth++;
        s->path[depth] = node;
    }
    int nmoves = depth;
    for (int i = 0; i < depth; i++) s->moves[i] = s->nodes[s->path[i + 1]].move;
    if (board->passes < 2) nmoves += playout(board, &s->rng, s->scratch, s->moves + depth);
    double score = board_owners(board, s->owners);
    for (int i = 0; i < s->size * s->size; i++) {
        if (s->owners[i] == BLACK)
            s->black_owned[i]++;
        else if (s->owners[i] == WHITE)
            s->white_owned[i]++;
    }
    double black_result = score > 0 ? 1.0 : score < 0 ? 0.0 : 0.5;
    int *first = s->first;
    for (int i = 0; i < board->points; i++) first[i] = -1;
    for (int step = 0; step < nmoves; step++) {
        int move = s->moves[step];
        if (move != PASS && first[move] < 0) first[move] = step;
    }
    for (int d = 0; d <= depth; d++) {
        Node *n = &s->nodes[s->path[d]];
        n->visits += 1;
        if (d > 0) {
            int mover = d % 2 == 1 ? root_color : 3 - root_color;
            n->wins += mover == BLACK ? black_result : 1.0 - black_result;
        }
        if (d == depth) continue;
        int to_move = d % 2 == 0 ? root_color : 3 - root_color;
        double result = to_move == BLACK ? black_result : 1.0 - black_result;
        for (int child = n->first_child; child < n->first_child + n->child_count; child++) {
            Node *c = &s->nodes[child];
            int step = c->move == PASS ? -1 : first[c->move];
            if (step >= d && step % 2 == d % 2) {
                c->amaf_visits += 1;
                c->amaf_wins += result;
            }
        }
    }
    return 0;
}

/* --- the Python type ---------------------------------------------------------------------------- */

static void Search_dealloc(Search *s) {
    free(s->nodes);
    free(s->history.slots);
    free(s->black_owned);
    free(s->white_owned);
    free(s->path);
    free(s->moves);
    free(s->scratch);
    free(s->first);
    free(s->hashes);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static int Search_init(Search *s, PyObject *args, PyObject *kwds) {
    static char *names[] = {"size", "komi", "cells", "to_move", "ko", "last", "passes",
                            "history", "seed", "patterns", "max_nodes", NULL};
    int size, to_move, ko, last, passes;
    double komi;
    Py_buffer cells, patterns;
    PyObject *history;
    unsigned long long seed;
    Py_ssize_t max_nodes;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "idy*iiiiOKy*n", names, &size, &komi, &cells, &to_move,
                                     &ko, &last, &passes, &history, &seed, &patterns, &max_nodes))
        return -1;
    int ok = 0;
    if (size < MIN_SIZE || size > MAX_SIZE)
        PyErr_Format(PyExc_ValueError, "a board is %d to %d points wide, not %d", MIN_SIZE, MAX_SIZE, size);
    else if (cells.len != (Py_ssize_t)size * size)
        PyErr_SetString(PyExc_ValueError, "cells must have one byte a point");
    else if (patterns.len != TABLE_SIZE)
        PyErr_SetString(PyExc_ValueError, "patterns must be the 65536-byte table");
    else if (to_move != BLACK && to_move != WHITE)
        PyErr_SetString(PyExc_ValueError, "to_move must be 1 (black) or 2 (white)");
    else if (ko < -1 || ko >= size * size || last < -1 || last >= size * size || passes < 0)
        PyErr_SetString(PyExc_ValueError, "ko, last or passes out of range");
    else if (max_nodes < 1)
        PyErr_SetString(PyExc_ValueError, "max_nodes must be at least 1 (the root)");
    else
        ok = 1;
    if (ok) {
        s->size = size;
        memcpy(s->patterns, patterns.buf, TABLE_SIZE);
        int points = (size + 2) * (size + 2);
        splitmix64(ZOBRIST_SEED + (uint64_t)size, 2 * points, s->keys);
        if (board_setup(&s->root_board, size, komi, cells.buf, to_move, inside(s, ko), passes, s->patterns,
                        s->keys) < 0) {
            PyErr_SetString(PyExc_ValueError, "cells must be 0 (empty), 1 (black) or 2 (white)");
            ok = 0;
        }
        s->root_board.last = inside(s, last);
    }
    PyBuffer_Release(&cells);
    PyBuffer_Release(&patterns);
    if (!ok) return -1;
    free(s->history.slots);
    memset(&s->history, 0, sizeof(HashSet));
    PyObject *iterator = PyObject_GetIter(history);
    if (!iterator) return -1;
    PyObject *item;
    while ((item = PyIter_Next(iterator))) {
        unsigned long long value = PyLong_AsUnsignedLongLong(item);
        Py_DECREF(item);
        if (PyErr_Occurred()) break;
        if (hashset_add(&s->history, value) < 0) {
            PyErr_NoMemory();
            break;
        }
    }
    Py_DECREF(iterator);
    if (PyErr_Occurred()) return -1;
    if (hashset_add(&s->history, s->root_board.hash) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->rng = seed ? (uint64_t)seed : 0x9E3779B97F4A7C15ull;
    s->max_nodes = max_nodes;
    s->capacity = max_nodes < 1024 ? max_nodes : 1024;
    free(s->nodes);
    free(s->black_owned);
    free(s->white_owned);
    free(s->scratch);
    free(s->first);
    s->nodes = malloc(sizeof(Node) * (size_t)s->capacity);
    s->black_owned = calloc((size_t)size * size, sizeof(long long));
    s->white_owned = calloc((size_t)size * size, sizeof(long long));
    s->scratch = malloc(sizeof(int) * (4 * MAX_POINTS + 8));
    s->first = malloc(sizeof(int) * MAX_POINTS);
    s->path_capacity = 0;
    if (!s->nodes || !s->black_owned || !s->white_owned || !s->scratch || !s->first || grow_path(s, 64) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    s->nnodes = 0;
    s->root = new_node(s, PASS, 0.0, 0.0);
    s->playouts = 0;
    return 0;
}

static PyObject *Search_run(Search *s, PyObject *arg) {
    long count = PyLong_AsLong(arg);
    if (count == -1 && PyErr_Occurred()) return NULL;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count; i++) {
        if (iterate(s) < 0) {
            failed = 1;
            break;
        }
        s->playouts++;
    }
    Py_END_ALLOW_THREADS
    if (failed) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *Search_children(Search *s, PyObject *Py_UNUSED(ignored)) {
    const Node *root = &s->nodes[s->root];
    PyObject *list = PyList_New(root->child_count);
    if (!list) return NULL;
    for (int i = 0; i < root->child_count; i++) {
        const Node *c = &s->nodes[root->first_child + i];
        PyObject *item = Py_BuildValue("(iid)", outside(s, c->move), c->visits, c->wins);
        if (!item) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

static PyObject *Search_advance(Search *s, PyObject *arg) {
    int move = (int)PyLong_AsLong(arg);
    if (move == -1 && PyErr_Occurred()) return NULL;
    if (move < -1 || move >= s->size * s->size) {
        PyErr_SetString(PyExc_ValueError, "not a move of this board");
        return NULL;
    }
    const Node *root = &s->nodes[s->root];
    int point = inside(s, move);
    for (int child = root->first_child; child < root->first_child + root->child_count; child++) {
        if (s->nodes[child].move != point) continue;
        board_play(&s->root_board, point);
        if (hashset_add(&s->history, s->root_board.hash) < 0) return PyErr_NoMemory();
        s->root = child;
        memset(s->black_owned, 0, sizeof(long long) * (size_t)(s->size * s->size));
        memset(s->white_owned, 0, sizeof(long long) * (size_t)(s->size * s->size));
        s->playouts = 0;
        Py_RETURN_TRUE;
    }
    Py_RETURN_FALSE;
}

static PyObject *owned_list(const Search *s, const long long *owned) {
    int n = s->size * s->size;
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *value = PyLong_FromLongLong(owned[i]);
        if (!value) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, value);
    }
    return list;
}

static PyObject *Search_ownership(Search *s, PyObject *Py_UNUSED(ignored)) {
    PyObject *black = owned_list(s, s->black_owned);
    if (!black) return NULL;
    PyObject *white = owned_list(s, s->white_owned);
    if (!white) {
        Py_DECREF(black);
        return NULL;
    }
    return Py_BuildValue("(NN)", black, white);
}

static PyObject *Search_playout_trace(Search *s, PyObject *Py_UNUSED(ignored)) {
    Board *board = &s->board;
    board_copy(board, &s->root_board);
    int *moves = malloc(sizeof(int) * (size_t)(MAX_MOVES_FACTOR * s->size * s->size + 1));
    if (!moves) return PyErr_NoMemory();
    int n = playout(board, &s->rng, s->scratch, moves);
    double score = board_owners(board, s->owners);
    PyObject *list = PyList_New(n);
    if (!list) {
        free(moves);
        return NULL;
    }
    for (int i = 0; i < n; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(outside(s, moves[i])));
    free(moves);
    return Py_BuildValue("(Nd)", list, score);
}

static PyObject *Search_get_nodes(Search *s, void *Py_UNUSED(closure)) { return PyLong_FromSsize_t(s->nnodes); }
static PyObject *Search_get_playouts(Search *s, void *Py_UNUSED(closure)) {
    return PyLong_FromLongLong(s->playouts);
}
static PyObject *Search_get_hash(Search *s, void *Py_UNUSED(closure)) {
    return PyLong_FromUnsignedLongLong(s->root_board.hash);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)Search_run, METH_O, "Run that many iterations."},
    {"children", (PyCFunction)Search_children, METH_NOARGS, "The root's children: (move, visits, wins)."},
    {"advance", (PyCFunction)Search_advance, METH_O, "Make the root's child for the move the root."},
    {"ownership", (PyCFunction)Search_ownership, METH_NOARGS, "Black's and White's ownership tallies."},
    {"playout_trace", (PyCFunction)Search_playout_trace, METH_NOARGS, "One playout: moves and score."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "The nodes made so far.", NULL},
    {"playouts", (getter)Search_get_playouts, NULL, "The iterations since the root was set.", NULL},
    {"hash", (getter)Search_get_hash, NULL, "The root position's hash.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "go_core._search.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A Monte Carlo search tree over one position (see go_core.tree.PySearch).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_search", "The native Monte Carlo search of go_core (see go_core.tree).", -1,
    NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__search(void) {
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
