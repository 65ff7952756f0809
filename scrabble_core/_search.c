/* A board the native searches play moves on: the move generator of _movegen.c searches it, and a
 * play is put on and taken off it in place (the simulation's playouts, the endgame solver's lines).
 *
 * best_play is MoveGenerator.best with a leave valuation: the same search (analyse, then find_plays
 * keeping one play) with the same leave values per leave index, so it returns the same play among
 * equal ones, and the pure-Python searches built on MoveGenerator.best reach the same positions.
 */
#include "_search.h"
#include <string.h>

int board_init(SearchBoard *b, Graph *g, PyObject *geometry, const Py_buffer *squares, const LeaveTable *leaves)
{
    memset(b, 0, sizeof *b);
    b->s = PyMem_Malloc(sizeof(Position));
    if (!b->s) {
        PyErr_NoMemory();
        return -1;
    }
    walk_init(&b->w, g, b->s);
    if (read_geometry(&b->w, &b->geo, geometry) < 0) goto fail;
    if (squares->len != (Py_ssize_t)b->geo.rows * b->geo.cols) {
        PyErr_SetString(PyExc_ValueError, "the board does not match the geometry");
        goto fail;
    }
    for (Py_ssize_t i = 0; i < squares->len; i++) {
        int code = ((const unsigned char *)squares->buf)[i];
        if (code != CODE_EMPTY && code % CODE_BLANK >= g->size) {
            PyErr_SetString(PyExc_ValueError, "a board square that is not a letter of the alphabet");
            goto fail;
        }
        b->squares[i] = (unsigned char)code;
        b->tiles += code != CODE_EMPTY;
    }
    b->geo.board = b->squares;
    b->leaves = leaves;
    for (int kind = 0; kind < TILE_KINDS; kind++) {
        Py_UCS4 ch = kind == CODE_BLANK ? '?' : kind < g->size ? g->upper[kind] : 0;
        b->leave_of[kind] = leaves && ch ? leave_index(leaves, ch) : -1;
    }
    return 0;
fail:
    board_free(b);
    return -1;
}

void board_free(SearchBoard *b)
{
    walk_free(&b->w);
    PyMem_Free(b->s);
    PyMem_Free(b->bonus);
    b->s = NULL;
    b->bonus = NULL;
}

int read_rack(const SearchBoard *b, const unsigned char *codes, Py_ssize_t n, Rack *rack)
{
    memset(rack, 0, sizeof *rack);
    if (n > MAX_RACK) {
        PyErr_SetString(PyExc_ValueError, "a rack of more than 64 tiles");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int code = codes[i];
        if (code != CODE_BLANK && code >= b->w.size) {
            PyErr_SetString(PyExc_ValueError, "a tile that is not a letter of the alphabet or a blank");
            return -1;
        }
        rack->count[code]++;
    }
    rack->n = (int)n;
    return 0;
}

int rack_points(const SearchBoard *b, const Rack *rack)
{
    int points = 0;
    for (int kind = 0; kind < b->w.size; kind++) points += rack->count[kind] * b->w.values[kind];
    return points;
}

/* The leave model's value of `count[i]` tiles of each kind `kinds[i]` (nkinds of them). */
static double leave_value(const SearchBoard *b, const int *kinds, const int *count, int nkinds)
{
    const LeaveTable *t = b->leaves;
    long counts[MAX_LEAVE_CHARS];
    long others = 0;
    memset(counts, 0, sizeof(long) * (size_t)t->n);
    for (int i = 0; i < nkinds; i++) {
        int at = b->leave_of[kinds[i]];
        if (at < 0) others += count[i];
        else counts[at] += count[i];
    }
    return leave_table_value(t, counts, others);
}

double rack_leave_value(const SearchBoard *b, const Rack *rack)
{
    int kinds[TILE_KINDS], count[TILE_KINDS], n = 0;
    for (int kind = 0; kind < TILE_KINDS; kind++) {
        if (!rack->count[kind]) continue;
        kinds[n] = kind;
        count[n++] = rack->count[kind];
    }
    return leave_value(b, kinds, count, n);
}

/* b->bonus[i] for each leave index i of `rack` (set in b->w): its value by `leaves` (see best_play).
 * The index's digits are the tiles used of each kind, the blank's the least significant, then the
 * letters from the last of the alphabet to the first (set_rack's order). 0, or -1: out of memory. */
static int leave_bonuses(SearchBoard *b, const Rack *rack, long long nleaves, int leaves, const Rack *other)
{
    if (nleaves > b->cap_bonus) {
        double *grown = PyMem_Realloc(b->bonus, sizeof(double) * (size_t)nleaves);
        if (!grown) return -1;
        b->bonus = grown;
        b->cap_bonus = nleaves;
    }
    int kinds[TILE_KINDS], cap[TILE_KINDS], left[TILE_KINDS], n = 0;
    if (rack->count[CODE_BLANK]) {
        kinds[n] = CODE_BLANK;
        cap[n++] = rack->count[CODE_BLANK];
    }
    for (int letter = b->w.size - 1; letter >= 0; letter--) {
        if (!rack->count[letter]) continue;
        kinds[n] = letter;
        cap[n++] = rack->count[letter];
    }
    for (int i = 0; i < n; i++) left[i] = cap[i];
    double out = leaves == LEAVES_ENDGAME ? 2.0 * rack_points(b, other) : 0.0;
    for (long long index = 0; index < nleaves; index++) {
        if (leaves == LEAVES_MODEL) {
            b->bonus[index] = leave_value(b, kinds, left, n);
        } else {
            int kept = 0, points = 0;
            for (int i = 0; i < n; i++) {
                kept += left[i];
                if (kinds[i] != CODE_BLANK) points += left[i] * b->w.values[kinds[i]];
            }
            b->bonus[index] = kept ? -2.0 * points : out;
        }
        /* the next index: one more tile used of the least significant kind that has one left */
        for (int i = 0; i < n; i++) {
            if (left[i]) {
                left[i]--;
                break;
            }
            left[i] = cap[i];
        }
    }
    return 0;
}

int best_play(SearchBoard *b, const Rack *rack, int leaves, const Rack *other, double floor, Move *move)
{
    unsigned char codes[MAX_RACK];
    int n = 0;
    for (int kind = 0; kind < TILE_KINDS; kind++)
        for (int k = 0; k < rack->count[kind]; k++) codes[n++] = (unsigned char)kind;
    uint64_t mask;
    int blanks;
    long long nleaves;
    if (set_rack(&b->w, codes, n, &mask, &blanks, &nleaves)) return -1;
    if (leave_bonuses(b, rack, nleaves, leaves, other) < 0) return -1;
    if (!b->analysed) {
        analyse(&b->w, &b->geo);
        b->analysed = 1;
    }
    int found = find_plays(&b->w, 1, b->bonus, nleaves, mask, blanks, floor);
    if (found < 0) return -1;
    move->n = 0;
    move->score = 0;
    if (!found) {
        move->kind = MOVE_PASS;
        return 0;
    }
    const Record *record = &b->w.records[b->w.found[0]];
    const Position *s = b->s;
    int row = s->row[record->origin], col = s->col[record->origin], across = s->across[record->origin];
    move->kind = MOVE_PLAY;
    move->score = record->score;
    for (int i = 0; i < record->length; i++) {
        int code = b->w.arena[record->word + i];
        if (code == CODE_THROUGH) continue;
        move->square[move->n] = (short)((across ? row : row + i) * b->geo.cols + (across ? col + i : col));
        move->code[move->n++] = (unsigned char)code;
    }
    return 0;
}

void set_tiles(SearchBoard *b, const short *squares, const unsigned char *codes, int n)
{
    int before = b->tiles;
    for (int i = 0; i < n; i++) b->squares[squares[i]] = codes ? codes[i] : CODE_EMPTY;
    b->tiles += codes ? n : -n;
    /* from or to an empty board every square can change (the start square's anchor, the shortest play) */
    if (b->analysed && before && b->tiles) reanalyse(&b->w, &b->geo, squares, n);
    else b->analysed = 0;
}

void place_move(SearchBoard *b, const Move *move) { set_tiles(b, move->square, move->code, move->n); }

void remove_move(SearchBoard *b, const Move *move) { set_tiles(b, move->square, NULL, move->n); }

void take_tiles(Rack *rack, const Move *move)
{
    for (int i = 0; i < move->n; i++) rack->count[rack_tile(move->code[i])]--;
    rack->n -= move->n;
}

int add_search_functions(PyObject *module)
{
    return add_simulate_functions(module) < 0 || add_endgame_functions(module) < 0 ? -1 : 0;
}
