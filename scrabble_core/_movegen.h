/* What the C files of the extension scrabble_core._movegen share: the move generator's data (the
 * DAWG, an analysed board, a search's state) and the functions the other searches call it through.
 *
 * _movegen.c is the move generator (see its opening comment); _leaves.c the leave values; _search.c
 * the board the simulation and the endgame solver play on; _simulate.c and _endgame.c those searches.
 */
#ifndef SCRABBLE_MOVEGEN_H
#define SCRABBLE_MOVEGEN_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define LOOKAHEAD 7
#define MAX_LETTERS 63
#define MAX_SIDE 63
#define MAX_RACK 64
#define MAX_LEAVES (1 << 20)
/* Both directions end to end, a sentinel after each line, one before the first. */
#define MAX_POS (2 * MAX_SIDE * (MAX_SIDE + 1) + 1)

#define SENTINEL (-2)
#define EMPTY (-1)
#define CODE_BLANK 64
#define CODE_EMPTY 255
#define CODE_THROUGH 255 /* in a play's letters: a tile already on the board */

typedef struct {
    PyObject_HEAD
    void *table; /* int32_t or int64_t entries, as `wide` says */
    int wide;
    Py_ssize_t length;
    int size; /* letters in the alphabet */
    Py_UCS4 upper[MAX_LETTERS];
    Py_UCS4 lower[MAX_LETTERS];
} Graph;

typedef struct {
    int origin, reach, anchor, need;
    uint64_t mask;
    double *bounds; /* tiles + 1 entries (top only) */
} Start;

typedef struct {
    int n;
    int tile[MAX_POS], value[MAX_POS], lm[MAX_POS], wm[MAX_POS], cross_base[MAX_POS];
    int run_end[MAX_POS], run_points[MAX_POS]; /* for the first square of a run of tiles */
    uint64_t xmask[MAX_POS];
    char cross[MAX_POS], skip[MAX_POS], anchor[MAX_POS];
    signed char row[MAX_POS], col[MAX_POS], across[MAX_POS];
    int nstarts;
    Start starts[MAX_POS];
} Position;

typedef struct {
    int origin, length, word; /* word: offset of its codes in the arena */
    int used;
    long long score;
} Record;

typedef struct { /* an entry of top's heap: ordered by (value, -seq) as movegen.py's tuples */
    double value;
    long long seq;
    int record;
} Kept;

typedef struct {
    long long key;
    double value;
    int index;
} Ranked;

typedef struct {
    const Graph *g;
    Position *s;
    int size, is_word, children;
    uint64_t everything;
    /* the rack */
    int tiles, counts[MAX_LETTERS], values[MAX_LETTERS], weights[MAX_LETTERS], blank_weight;
    int bingo, rack_size;
    /* the start being searched */
    int origin, reach, anchor, anchor_free;
    uint64_t anchor_mask;
    const double *bounds;
    double limit;
    unsigned char word[MAX_POS];
    /* what was found */
    Record *records;
    int nrecords, cap_records;
    unsigned char *arena;
    int narena, cap_arena;
    int top; /* 0: keep everything; else the number of plays kept */
    const double *bonus;
    Kept *heap;
    int nheap, cap_heap;
    long long seq;
    int failed; /* out of memory */
    /* find_plays' working space, kept from one search to the next */
    double *bound_store;
    size_t cap_bounds;
    Ranked *ranked;
    int cap_ranked;
    int *found; /* the records found, highest first */
} Walk;

/* A variant's board for the search: its layout and rules, and the tiles on it. */
typedef struct {
    int rows, cols, start, bingo, rack_size;
    const unsigned char *premiums; /* letter then word multiplier per square; word 0: a hole */
    const unsigned char *board;
    uint64_t allowed;
} Geometry;

extern PyTypeObject GraphType;

static inline int64_t T(const Walk *w, int64_t i)
{
    return w->g->wide ? ((const int64_t *)w->g->table)[i] : ((const int32_t *)w->g->table)[i];
}

static inline int letter_of(uint64_t bit) { return __builtin_ctzll(bit); }

/* A search state over `g` analysing boards into `s` (both kept by the caller); walk_free releases
 * what the searches allocated. */
void walk_init(Walk *w, const Graph *g, Position *s);
void walk_free(Walk *w);

/* Read a geometry tuple (movegen.py's _Geometry) into `geo` and the letter values into `w`; the board
 * is set apart. 0, or -1 with an exception set. */
int read_geometry(Walk *w, Geometry *geo, PyObject *geometry);

/* Lay out the board `geo->board` for the search (movegen.py's _analyse). */
void analyse(Walk *w, const Geometry *geo);

/* The same layout after tiles were put on or taken off the board analysed, at the `n` squares `changed`
 * (row * cols + col), the board holding tiles before and after: only the squares that can differ are
 * laid out again. */
void reanalyse(Walk *w, const Geometry *geo, const short *changed, int n);

/* Set the rack to search: `n` codes (a letter index, CODE_BLANK for a blank). Sets the letters it holds
 * (*rack_mask), its blanks and its number of leaves (*leaves, the sub-racks: see _movegen.c); NULL, or
 * what is wrong with the rack. */
const char *set_rack(Walk *w, const unsigned char *codes, Py_ssize_t n, uint64_t *rack_mask, int *blanks,
                     long long *leaves);

/* The plays of the rack set on the board analysed: every play (count 0), highest score first, or the
 * `count` of highest score + bonus[leave index] above `floor` (-INFINITY: all), highest first, as
 * MoveGenerator.generate and top find them; count -1: every play in the order found. Their records are
 * w->records[w->found[i]] for i below the number returned; -1: out of memory. */
int find_plays(Walk *w, int count, const double *bonus, long long leaves, uint64_t rack_mask, int blanks,
               double floor);

/* Add the functions of _leaves.c and _search.c to the module; 0, or -1 with an exception set. */
int add_leave_functions(PyObject *module);
int add_search_functions(PyObject *module);

#endif
