/* The simulation's share in C: simulation.py's _run_share, _deal and _Playout, the same steps in the
 * same order with the same arithmetic, so that both give the same statistics from the same seed (read
 * that module's docstrings for what a share does).
 */
#include "_search.h"
#include <math.h>
#include <string.h>

#define MAX_PLIES 64

typedef struct {
    long long points;
    Move move;
} Candidate;

typedef struct {
    SearchBoard board;
    Rack rack;                 /* the seat's */
    const unsigned char *unseen;
    int nunseen, opponent, plies;
    int ninferred;             /* leaves the opponent may have kept, and their weights */
    unsigned char (*inferred)[MAX_RACK + 1]; /* each: its size, then its tiles */
    long long *weights, total;
    Candidate *candidates;
    int ncandidates;
    unsigned char *tiles, *bag; /* the iteration's deal; the bag, MAX_RACK free places before it */
} Sim;

/* Make `move` with racks[turn]: the tiles it keeps in *kept, and the rack drawn from the end of the
 * bag (bag[*head] to bag[*tail - 1]); exchanged tiles go to its start (_Playout._apply). */
static void apply(Sim *sim, const Move *move, Rack *rack, Rack *kept, int *head, int *tail)
{
    if (move->kind == MOVE_PASS) {
        *kept = *rack;
        return;
    }
    if (move->kind == MOVE_PLAY) place_move(&sim->board, move);
    take_tiles(rack, move);
    *kept = *rack;
    int draw = move->n < *tail - *head ? move->n : *tail - *head;
    for (int k = 0; k < draw; k++) {
        rack->count[sim->bag[--*tail]]++;
        rack->n++;
    }
    if (move->kind == MOVE_EXCHANGE) {
        *head -= move->n;
        memcpy(sim->bag + *head, move->code, (size_t)move->n);
    }
}

/* The result of candidate `c` on the deal sim->tiles (_Playout.run); 0, or -1: out of memory. */
static int playout(Sim *sim, const Candidate *c, double *result)
{
    SearchBoard *b = &sim->board;
    int head = MAX_RACK, tail = head, status = 0;
    for (int i = sim->opponent; i < sim->nunseen; i++) sim->bag[tail++] = sim->tiles[i];
    Rack racks[2], kept[2];
    racks[0] = sim->rack;
    memset(&racks[1], 0, sizeof racks[1]);
    for (int i = 0; i < sim->opponent; i++) racks[1].count[sim->tiles[i]]++;
    racks[1].n = sim->opponent;
    memset(kept, 0, sizeof kept);
    Move placed[MAX_PLIES + 1], move = c->move;
    int nplaced = 0;
    double spread = (double)c->points;
    for (int ply = 0; ply <= sim->plies; ply++) {
        int turn = ply % 2, sign = turn ? -1 : 1;
        if (ply) {
            if (best_play(b, &racks[turn], tail > head ? LEAVES_MODEL : LEAVES_ENDGAME, &racks[1 - turn], -INFINITY,
                          &move) < 0) {
                status = -1;
                goto done;
            }
            spread += (double)(sign * move.score);
        }
        if (move.kind == MOVE_PLAY) placed[nplaced++] = move;
        apply(sim, &move, &racks[turn], &kept[turn], &head, &tail);
        if (!racks[turn].n && tail == head) { /* went out: the game ends */
            *result = spread + (double)(sign * 2 * rack_points(b, &racks[1 - turn]));
            goto done;
        }
    }
    double ours = tail > head ? rack_leave_value(b, &kept[0]) : -2.0 * rack_points(b, &racks[0]);
    double theirs = tail > head ? rack_leave_value(b, &kept[1]) : -2.0 * rack_points(b, &racks[1]);
    *result = spread + ours - theirs;
done:
    while (nplaced) remove_move(b, &placed[--nplaced]);
    return status;
}

/* The iteration's unseen tiles in sim->tiles, the opponent's rack first (simulation.py's _deal):
 * shuffled; with inferred leaves, one drawn by weight, then the other tiles shuffled. */
static void deal(Sim *sim, uint64_t *state)
{
    if (!sim->ninferred) {
        memcpy(sim->tiles, sim->unseen, (size_t)sim->nunseen);
        draw_shuffle(state, sim->tiles, sim->nunseen);
        return;
    }
    long long pick = (long long)draw_below(state, (uint64_t)sim->total);
    int index = 0;
    while (pick >= sim->weights[index]) pick -= sim->weights[index++];
    const unsigned char *leave = sim->inferred[index];
    int kept = leave[0], rest = sim->nunseen;
    unsigned char *others = sim->tiles + kept;
    memcpy(others, sim->unseen, (size_t)sim->nunseen);
    for (int k = 0; k < kept; k++) { /* take out the leave's tiles, the first copy of each */
        int at = 0;
        while (others[at] != leave[1 + k]) at++;
        memmove(others + at, others + at + 1, (size_t)(rest - at - 1));
        rest--;
    }
    draw_shuffle(state, others, rest);
    memcpy(sim->tiles, leave + 1, (size_t)kept);
}

/* simulation.py's _survivors: the indexes of `active` kept, written over it; their number. */
static int survivors(const double *sums, const double *products, int n, int *active, int nactive, int iterations,
                     double confidence)
{
    int leader = active[0];
    for (int k = 1; k < nactive; k++)
        if (sums[active[k]] > sums[leader]) leader = active[k];
    int kept = 0;
    for (int k = 0; k < nactive; k++) {
        int index = active[k];
        if (index != leader) {
            int low = leader < index ? leader : index, high = leader < index ? index : leader;
            double total = sums[leader] - sums[index];
            double squares = products[leader * n + leader] - 2 * products[low * n + high] + products[index * n + index];
            double mean = total / iterations;
            double spread = (squares - total * mean) / (iterations - 1);
            if (spread < 0.0) spread = 0.0;
            if (mean > confidence * sqrt(spread / iterations)) continue;
        }
        active[kept++] = index;
    }
    return kept;
}

/* Read the candidates (simulation.py's _native_share specs) into sim; 0, or -1 with an exception set. */
static int read_candidates(Sim *sim, PyObject *specs)
{
    Py_ssize_t n = PyList_GET_SIZE(specs);
    sim->candidates = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Candidate));
    if (!sim->candidates) {
        PyErr_NoMemory();
        return -1;
    }
    sim->ncandidates = (int)n;
    const SearchBoard *b = &sim->board;
    for (Py_ssize_t i = 0; i < n; i++) {
        int kind;
        long long points;
        const unsigned char *data;
        Py_ssize_t length;
        if (!PyArg_ParseTuple(PyList_GET_ITEM(specs, i), "iLy#", &kind, &points, &data, &length)) return -1;
        Candidate *c = &sim->candidates[i];
        c->points = points;
        c->move.kind = kind;
        Rack used = {0};
        if (kind == MOVE_PLAY) {
            if (length % 3 || length / 3 > MAX_RACK) goto bad;
            c->move.n = (int)(length / 3);
            for (int k = 0; k < c->move.n; k++) {
                int square = data[3 * k] << 8 | data[3 * k + 1], code = data[3 * k + 2];
                if (square >= b->geo.rows * b->geo.cols || b->squares[square] != CODE_EMPTY ||
                    code % CODE_BLANK >= b->w.size || code >= 2 * CODE_BLANK)
                    goto bad;
                c->move.square[k] = (short)square;
                c->move.code[k] = (unsigned char)code;
                used.count[rack_tile(code)]++;
            }
        } else if (kind == MOVE_EXCHANGE) {
            if (length > MAX_RACK) goto bad;
            c->move.n = (int)length;
            for (int k = 0; k < c->move.n; k++) {
                if (data[k] != CODE_BLANK && data[k] >= b->w.size) goto bad;
                c->move.code[k] = data[k];
                used.count[data[k]]++;
            }
        } else if (kind != MOVE_PASS || length) {
            goto bad;
        }
        for (int tile = 0; tile < TILE_KINDS; tile++)
            if (used.count[tile] > sim->rack.count[tile]) goto bad;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "a candidate that is not a move of the rack on the board");
    return -1;
}

/* clock(): 0 and the reading in *value, or -1 with an exception set. */
static int read_clock(PyObject *clock, double *value)
{
    PyObject *reading = PyObject_CallNoArgs(clock);
    if (!reading) return -1;
    *value = PyFloat_AsDouble(reading);
    Py_DECREF(reading);
    return *value == -1.0 && PyErr_Occurred() ? -1 : 0;
}

/* Read the inferred leaves and their weights into sim (each leave's tiles among the unseen ones); 0, or
 * -1 with an exception set. */
static int read_inferred(Sim *sim, PyObject *leaves, PyObject *weights)
{
    Py_ssize_t n = PyList_GET_SIZE(leaves);
    if (PyList_GET_SIZE(weights) != n) {
        PyErr_SetString(PyExc_ValueError, "one weight per inferred leave");
        return -1;
    }
    sim->ninferred = (int)n;
    sim->inferred = PyMem_Calloc((size_t)(n ? n : 1), MAX_RACK + 1);
    sim->weights = PyMem_Calloc((size_t)(n ? n : 1), sizeof(long long));
    if (!sim->inferred || !sim->weights) {
        PyErr_NoMemory();
        return -1;
    }
    Rack unseen = {0};
    for (int i = 0; i < sim->nunseen; i++) unseen.count[sim->unseen[i]]++;
    for (Py_ssize_t i = 0; i < n; i++) {
        char *data;
        Py_ssize_t length;
        if (PyBytes_AsStringAndSize(PyList_GET_ITEM(leaves, i), &data, &length) < 0) return -1;
        long long weight = PyLong_AsLongLong(PyList_GET_ITEM(weights, i));
        if (weight == -1 && PyErr_Occurred()) return -1;
        Rack leave = {0};
        int fits = length <= sim->opponent && weight >= 1 && weight < (1LL << 40);
        for (Py_ssize_t k = 0; fits && k < length; k++) {
            int tile = (unsigned char)data[k];
            fits = tile < TILE_KINDS && ++leave.count[tile] <= unseen.count[tile];
        }
        if (!fits) {
            PyErr_SetString(PyExc_ValueError, "an inferred leave that is not among the unseen tiles");
            return -1;
        }
        sim->inferred[i][0] = (unsigned char)length;
        memcpy(sim->inferred[i] + 1, data, (size_t)length);
        sim->weights[i] = weight;
        sim->total += weight;
    }
    return 0;
}

/* simulate(): see _movegen.pyi. */
static PyObject *simulate(PyObject *module, PyObject *args)
{
    PyObject *graph, *geometry, *table, *specs, *deadline, *clock, *inferred, *weights, *result = NULL;
    Py_buffer squares, rack, unseen;
    int opponent, plies, prune_after;
    unsigned long long seed;
    long long max_iterations;
    double confidence;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!y*O!y*y*iO!iKLOOidO!O!", &GraphType, &graph, &PyTuple_Type, &geometry, &squares,
                          &PyTuple_Type, &table, &rack, &unseen, &opponent, &PyList_Type, &specs, &plies, &seed,
                          &max_iterations, &deadline, &clock, &prune_after, &confidence, &PyList_Type, &inferred,
                          &PyList_Type, &weights))
        return NULL;
    Sim sim;
    memset(&sim, 0, sizeof sim);
    LeaveTable leaves;
    int have_leaves = 0, have_board = 0;
    double *sums = NULL, *products = NULL;
    long long *counts = NULL;
    int *active = NULL;
    if (leave_table_read(&leaves, table) < 0) goto done;
    have_leaves = 1;
    if (board_init(&sim.board, (Graph *)graph, geometry, &squares, &leaves) < 0) goto done;
    have_board = 1;
    double limit = 0.0;
    if (deadline != Py_None) {
        limit = PyFloat_AsDouble(deadline);
        if (limit == -1.0 && PyErr_Occurred()) goto done;
    }
    if (!PyCallable_Check(clock) || plies < 0 || plies > MAX_PLIES || prune_after < 2 || opponent < 0 ||
        opponent > MAX_RACK || opponent > unseen.len) {
        PyErr_SetString(PyExc_ValueError, "simulate: an argument out of its range");
        goto done;
    }
    if (read_rack(&sim.board, rack.buf, rack.len, &sim.rack) < 0) goto done;
    for (Py_ssize_t i = 0; i < unseen.len; i++) {
        int code = ((const unsigned char *)unseen.buf)[i];
        if (code != CODE_BLANK && code >= sim.board.w.size) {
            PyErr_SetString(PyExc_ValueError, "an unseen tile that is not a letter of the alphabet or a blank");
            goto done;
        }
    }
    sim.unseen = unseen.buf;
    sim.nunseen = (int)unseen.len;
    sim.opponent = opponent;
    sim.plies = plies;
    if (read_candidates(&sim, specs) < 0 || read_inferred(&sim, inferred, weights) < 0) goto done;
    int n = sim.ncandidates;
    sim.tiles = PyMem_Malloc((size_t)sim.nunseen + MAX_RACK + 1); /* deal() lays a leave out before the tiles */
    sim.bag = PyMem_Malloc((size_t)sim.nunseen + MAX_RACK + 1);
    sums = PyMem_Calloc((size_t)n + 1, sizeof(double));
    products = PyMem_Calloc((size_t)n * n + 1, sizeof(double));
    counts = PyMem_Calloc((size_t)n + 1, sizeof(long long));
    active = PyMem_Malloc(sizeof(int) * ((size_t)n + 1));
    double *results = PyMem_Malloc(sizeof(double) * ((size_t)n + 1));
    if (!sim.tiles || !sim.bag || !sums || !products || !counts || !active || !results) {
        PyMem_Free(results);
        PyErr_NoMemory();
        goto done;
    }
    int nactive = n;
    for (int i = 0; i < n; i++) active[i] = i;
    uint64_t state = seed;
    long long iterations = 0;
    double last = 0.0;
    while (max_iterations < 0 || iterations < max_iterations) {
        double started, ended;
        if (read_clock(clock, &started) < 0) break;
        if (deadline != Py_None && started + last >= limit) break;
        deal(&sim, &state);
        int failed = 0;
        for (int k = 0; k < nactive && !failed; k++) failed = playout(&sim, &sim.candidates[active[k]], &results[k]);
        if (failed) {
            PyErr_NoMemory();
            break;
        }
        for (int k = 0; k < nactive; k++) {
            int index = active[k];
            counts[index]++;
            sums[index] += results[k];
            for (int other = k; other < nactive; other++) products[index * n + active[other]] += results[k] * results[other];
        }
        iterations++;
        if (iterations >= prune_after) nactive = survivors(sums, products, n, active, nactive, (int)iterations, confidence);
        if (read_clock(clock, &ended) < 0) break;
        last = ended - started;
        if (nactive == 1) break; /* every other candidate is clearly worse */
    }
    PyMem_Free(results);
    if (PyErr_Occurred()) goto done;
    PyObject *count_list = PyList_New(n), *sum_list = PyList_New(n), *square_list = PyList_New(n);
    PyObject *active_list = PyList_New(nactive);
    for (int i = 0; count_list && sum_list && square_list && i < n; i++) {
        PyList_SET_ITEM(count_list, i, PyLong_FromLongLong(counts[i]));
        PyList_SET_ITEM(sum_list, i, PyFloat_FromDouble(sums[i]));
        PyList_SET_ITEM(square_list, i, PyFloat_FromDouble(products[i * n + i]));
    }
    for (int k = 0; active_list && k < nactive; k++) PyList_SET_ITEM(active_list, k, PyLong_FromLong(active[k]));
    if (count_list && sum_list && square_list && active_list && !PyErr_Occurred())
        result = Py_BuildValue("LOOOO", iterations, count_list, sum_list, square_list, active_list);
    Py_XDECREF(count_list);
    Py_XDECREF(sum_list);
    Py_XDECREF(square_list);
    Py_XDECREF(active_list);
done:
    if (have_board) board_free(&sim.board);
    if (have_leaves) leave_table_free(&leaves);
    PyMem_Free(sim.candidates);
    PyMem_Free(sim.inferred);
    PyMem_Free(sim.weights);
    PyMem_Free(sim.tiles);
    PyMem_Free(sim.bag);
    PyMem_Free(sums);
    PyMem_Free(products);
    PyMem_Free(counts);
    PyMem_Free(active);
    PyBuffer_Release(&squares);
    PyBuffer_Release(&rack);
    PyBuffer_Release(&unseen);
    return result;
}

/* infer_weights(): see _movegen.pyi and inference.py's _weight (the same numbers). */
static PyObject *infer_weights(PyObject *module, PyObject *args)
{
    PyObject *graph, *geometry, *table, *leaves, *result = NULL;
    Py_buffer squares, played;
    long long points;
    int top;
    double temperature;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!y*O!y*LO!id", &GraphType, &graph, &PyTuple_Type, &geometry, &squares,
                          &PyTuple_Type, &table, &played, &points, &PyList_Type, &leaves, &top, &temperature))
        return NULL;
    LeaveTable model;
    SearchBoard board;
    int have_model = 0, have_board = 0;
    if (leave_table_read(&model, table) < 0) goto done;
    have_model = 1;
    if (board_init(&board, (Graph *)graph, geometry, &squares, &model) < 0) goto done;
    have_board = 1;
    if (top < 1 || !(temperature > 0.0) || played.len > MAX_RACK) {
        PyErr_SetString(PyExc_ValueError, "infer_weights: an argument out of its range");
        goto done;
    }
    Py_ssize_t n = PyList_GET_SIZE(leaves);
    result = PyList_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        char *data;
        Py_ssize_t length;
        unsigned char tiles[2 * MAX_RACK];
        Rack rack, leave;
        Move best;
        if (PyBytes_AsStringAndSize(PyList_GET_ITEM(leaves, i), &data, &length) < 0 || length > MAX_RACK) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a leave of more than 64 tiles");
            Py_CLEAR(result);
            break;
        }
        memcpy(tiles, played.buf, (size_t)played.len);
        memcpy(tiles + played.len, data, (size_t)length);
        if (read_rack(&board, tiles, played.len + length, &rack) < 0 ||
            read_rack(&board, (unsigned char *)data, length, &leave) < 0) {
            Py_CLEAR(result);
            break;
        }
        if (best_play(&board, &rack, LEAVES_MODEL, NULL, -INFINITY, &best) < 0) {
            PyErr_NoMemory();
            Py_CLEAR(result);
            break;
        }
        double made = (double)points + rack_leave_value(&board, &leave), shortfall = 0.0;
        if (best.kind == MOVE_PLAY) {
            take_tiles(&rack, &best);
            shortfall = (double)best.score + rack_leave_value(&board, &rack) - made;
            if (shortfall < 0.0) shortfall = 0.0;
        }
        double weight = nearbyint(top * exp(-shortfall / temperature));
        PyList_SET_ITEM(result, i, PyLong_FromLong(weight < 1.0 ? 1 : (long)weight));
    }
done:
    if (have_board) board_free(&board);
    if (have_model) leave_table_free(&model);
    PyBuffer_Release(&squares);
    PyBuffer_Release(&played);
    return result;
}

static PyMethodDef simulate_methods[] = {
    {"simulate", simulate, METH_VARARGS, "One share of the expert's simulation: see _movegen.pyi."},
    {"infer_weights", infer_weights, METH_VARARGS, "The inference's weight of each leave: see _movegen.pyi."},
    {NULL, NULL, 0, NULL},
};

int add_simulate_functions(PyObject *module) { return PyModule_AddFunctions(module, simulate_methods); }
