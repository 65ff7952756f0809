/* What the native searches share (_leaves.c, _search.c, _simulate.c, _endgame.c): the leave table, the
 * random stream, and a board to play moves on with the move generator of _movegen.c.
 */
#ifndef SCRABBLE_SEARCH_H
#define SCRABBLE_SEARCH_H

#include "_movegen.h"

/* ---- leave values (_leaves.c) ---- */

#define MAX_LEAVE_CHARS 255
#define MAX_SYNERGY 16

typedef struct {
    int n;
    unsigned char index[MAX_SYNERGY], need[MAX_SYNERGY];
    double weight;
} Synergy;

typedef struct {
    int n, side, nsyn;
    Py_UCS4 codes[MAX_LEAVE_CHARS];
    double tile_w[MAX_LEAVE_CHARS], dup_w[MAX_LEAVE_CHARS];
    unsigned char kind[MAX_LEAVE_CHARS];
    double *balance;
    Synergy *syn;
} LeaveTable;

/* Read LeaveModel.native_table into `t` (copied: it outlives the tuple); 0, or -1 with an exception
 * set. leave_table_free releases it. */
int leave_table_read(LeaveTable *t, PyObject *table);
void leave_table_free(LeaveTable *t);
/* The index of `ch` in the table's chars, -1 if it has none. */
int leave_index(const LeaveTable *t, Py_UCS4 ch);
/* The value of a leave holding counts[i] of each char i of the table and `others` tiles that are not. */
double leave_table_value(const LeaveTable *t, const long *counts, long others);

/* ---- the random stream of the simulation (scrabble_core/draws.py draws the same in Python) ---- */

/* SplitMix64: the state advances by a fixed odd constant and each output mixes it. */
static inline uint64_t draw_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* A number in [0, n) (n >= 1), without bias: outputs at or above the last whole multiple of n are
 * drawn again. */
static inline uint64_t draw_below(uint64_t *state, uint64_t n)
{
    uint64_t limit = (uint64_t)0 - ((uint64_t)0 - n) % n; /* 2**64 - (2**64 mod n), 0 meaning 2**64 */
    for (;;) {
        uint64_t x = draw_next(state);
        if (limit == 0 || x < limit) return x % n;
    }
}

/* Fisher-Yates, last position first. */
static inline void draw_shuffle(uint64_t *state, unsigned char *items, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)draw_below(state, (uint64_t)i + 1);
        unsigned char swap = items[i];
        items[i] = items[j];
        items[j] = swap;
    }
}

/* ---- racks and moves ---- */

#define TILE_KINDS (CODE_BLANK + 1) /* a rack counts letters by index, blanks at CODE_BLANK */
#define MAX_BOARD (MAX_SIDE * MAX_SIDE)

typedef struct {
    int n;
    unsigned char count[TILE_KINDS];
} Rack;

enum { MOVE_PASS, MOVE_PLAY, MOVE_EXCHANGE };

typedef struct {
    int kind;
    int n;                          /* tiles placed or exchanged */
    short square[MAX_RACK];         /* a play's new tiles: square (row * cols + col) */
    unsigned char code[MAX_RACK];   /* and tile (a letter index, CODE_BLANK + index for a blank);
                                       an exchange's tiles (a letter index or CODE_BLANK) */
    long long score;
} Move;

/* The rack tile a placed or exchanged code uses: the letter, or CODE_BLANK for a blank. */
static inline int rack_tile(int code) { return code > CODE_BLANK ? CODE_BLANK : code; }

/* ---- a board to search on (_search.c) ---- */

enum { LEAVES_MODEL, LEAVES_ENDGAME };

typedef struct {
    Walk w;
    Position *s;
    Geometry geo;
    unsigned char squares[MAX_BOARD];
    int tiles;    /* on the board */
    int analysed; /* whether s is the analysis of squares */
    const LeaveTable *leaves;
    int leave_of[TILE_KINDS]; /* a tile's index in the leave table's chars, -1 if none */
    double *bonus;            /* one leave value per leave of the rack searched */
    long long cap_bonus;
} SearchBoard;

/* A board for `g` with `geometry` (a movegen.py _Geometry) holding `squares` (rows * cols codes) and
 * valuing leaves with `leaves` (may be NULL: then only the endgame rule). 0, or -1 with an exception
 * set; board_free releases it. */
int board_init(SearchBoard *b, Graph *g, PyObject *geometry, const Py_buffer *squares, const LeaveTable *leaves);
void board_free(SearchBoard *b);

/* Read a rack (codes: a letter index or CODE_BLANK) into `rack`; 0, or -1 with an exception set. */
int read_rack(const SearchBoard *b, const unsigned char *codes, Py_ssize_t n, Rack *rack);
/* The sum of the letter values of `rack` (blanks are worth nothing). */
int rack_points(const SearchBoard *b, const Rack *rack);
/* The leave model's value of `rack`. */
double rack_leave_value(const SearchBoard *b, const Rack *rack);

/* The best play of `rack` by score plus the value of its leave: the leave model's (LEAVES_MODEL) or the
 * endgame rule's (LEAVES_ENDGAME: going out earns twice the points of `other`, tiles kept cost twice
 * theirs), the one MoveGenerator.best finds; a pass when no play is worth more than `floor`
 * (-INFINITY: when there is none). 0, or -1: out of memory. */
int best_play(SearchBoard *b, const Rack *rack, int leaves, const Rack *other, double floor, Move *move);

/* Put `n` tiles on the board: codes[i] on squares[i] (codes NULL: take them off); the analysis
 * follows. */
void set_tiles(SearchBoard *b, const short *squares, const unsigned char *codes, int n);

/* Put the tiles of the play `move` on the board / take them off again. */
void place_move(SearchBoard *b, const Move *move);
void remove_move(SearchBoard *b, const Move *move);

/* Take the tiles `move` uses (placed or exchanged) from `rack`. */
void take_tiles(Rack *rack, const Move *move);

/* Add the functions of _simulate.c and _endgame.c to the module; 0, or -1 with an exception set. */
int add_simulate_functions(PyObject *module);
int add_endgame_functions(PyObject *module);

#endif
