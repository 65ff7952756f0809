/* The leave values of the native core: a leave model read once (LeaveModel.native_table) and summed
 * as leaves.py's _Tables.value sums it (same terms in the same order, so the same doubles).
 *
 * The table is (chars, tile weights, duplicate weights, kinds, balance, side, synergies): chars are
 * sorted by code point, the weights are doubles (one per char), kinds one byte per char (0 consonant,
 * 1 vowel, 2 neither), balance side * side doubles by (vowels, consonants), and each synergy is (char
 * indexes, counts needed, weight). A char not in chars weighs nothing and counts as a consonant.
 */
#include "_search.h"
#include <string.h>

int leave_index(const LeaveTable *t, Py_UCS4 ch)
{
    int low = 0, high = t->n - 1;
    while (low <= high) {
        int mid = (low + high) / 2;
        if (t->codes[mid] == ch) return mid;
        if (t->codes[mid] < ch) low = mid + 1;
        else high = mid - 1;
    }
    return -1;
}

int leave_table_read(LeaveTable *t, PyObject *table)
{
    PyObject *chars, *synergies;
    Py_buffer tiles, dups, kinds, balance;
    int result = -1;
    memset(t, 0, sizeof *t);
    if (!PyTuple_Check(table)) {
        PyErr_SetString(PyExc_TypeError, "leave table: a tuple (LeaveModel.native_table)");
        return -1;
    }
    if (!PyArg_ParseTuple(table, "Uy*y*y*y*iO!", &chars, &tiles, &dups, &kinds, &balance, &t->side, &PyTuple_Type,
                          &synergies))
        return -1;
    Py_ssize_t n = PyUnicode_GET_LENGTH(chars), nsyn = PyTuple_GET_SIZE(synergies);
    if (n > MAX_LEAVE_CHARS || t->side < 1 || t->side > 256 || tiles.len != n * (Py_ssize_t)sizeof(double) ||
        dups.len != tiles.len || kinds.len != n ||
        balance.len != (Py_ssize_t)t->side * t->side * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_ValueError, "leave table: sizes do not match");
        goto done;
    }
    t->n = (int)n;
    t->nsyn = (int)nsyn;
    t->syn = PyMem_Calloc((size_t)(nsyn ? nsyn : 1), sizeof(Synergy));
    t->balance = PyMem_Malloc((size_t)balance.len);
    if (!t->syn || !t->balance) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(t->tile_w, tiles.buf, (size_t)tiles.len);
    memcpy(t->dup_w, dups.buf, (size_t)dups.len);
    memcpy(t->kind, kinds.buf, (size_t)kinds.len);
    memcpy(t->balance, balance.buf, (size_t)balance.len);
    for (Py_ssize_t i = 0; i < n; i++) {
        t->codes[i] = PyUnicode_READ_CHAR(chars, i);
        if (i && t->codes[i] <= t->codes[i - 1]) {
            PyErr_SetString(PyExc_ValueError, "leave table: chars must be sorted and distinct");
            goto done;
        }
    }
    for (Py_ssize_t k = 0; k < nsyn; k++) {
        const char *index, *need;
        Py_ssize_t nindex, nneed;
        Synergy *syn = &t->syn[k];
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(synergies, k), "y#y#d", &index, &nindex, &need, &nneed, &syn->weight))
            goto done;
        if (nindex != nneed || nindex > MAX_SYNERGY) {
            PyErr_SetString(PyExc_ValueError, "leave table: a synergy's indexes and needs differ in length");
            goto done;
        }
        syn->n = (int)nindex;
        for (Py_ssize_t i = 0; i < nindex; i++) {
            syn->index[i] = (unsigned char)index[i];
            syn->need[i] = (unsigned char)need[i];
            if (syn->index[i] >= n) {
                PyErr_SetString(PyExc_ValueError, "leave table: a synergy's char is not in chars");
                goto done;
            }
        }
    }
    result = 0;
done:
    PyBuffer_Release(&tiles);
    PyBuffer_Release(&dups);
    PyBuffer_Release(&kinds);
    PyBuffer_Release(&balance);
    if (result < 0) leave_table_free(t);
    return result;
}

void leave_table_free(LeaveTable *t)
{
    PyMem_Free(t->syn);
    PyMem_Free(t->balance);
    t->syn = NULL;
    t->balance = NULL;
}

double leave_table_value(const LeaveTable *t, const long *counts, long others)
{
    long vowels = 0, consonants = others;
    double total = 0.0;
    for (int i = 0; i < t->n; i++) {
        long count = counts[i];
        if (!count) continue;
        total += t->tile_w[i] * (double)count;
        if (count > 1) total += t->dup_w[i] * (double)(count - 1);
        if (t->kind[i] == 1) vowels += count;
        else if (t->kind[i] == 0) consonants += count;
    }
    total += vowels < t->side && consonants < t->side ? t->balance[vowels * t->side + consonants] : 0.0;
    for (int k = 0; k < t->nsyn; k++) {
        const Synergy *syn = &t->syn[k];
        int all = 1;
        for (int i = 0; i < syn->n && all; i++) all = counts[syn->index[i]] >= syn->need[i];
        if (all) total += syn->weight;
    }
    return total;
}

/* leave_values(table, leaves): see _movegen.pyi. */
static PyObject *leave_values(PyObject *module, PyObject *args)
{
    PyObject *table, *leaves, *result = NULL;
    LeaveTable t;
    (void)module;
    if (!PyArg_ParseTuple(args, "O!O!", &PyTuple_Type, &table, &PyList_Type, &leaves)) return NULL;
    if (leave_table_read(&t, table) < 0) return NULL;
    Py_ssize_t nleaves = PyList_GET_SIZE(leaves);
    long counts[MAX_LEAVE_CHARS] = {0}; /* back to zeros after each leave */
    result = PyList_New(nleaves);
    for (Py_ssize_t j = 0; result && j < nleaves; j++) {
        PyObject *leave = PyList_GET_ITEM(leaves, j);
        if (!PyUnicode_Check(leave)) {
            PyErr_SetString(PyExc_TypeError, "leaves must be strings");
            Py_CLEAR(result);
            break;
        }
        long others = 0;
        Py_ssize_t length = PyUnicode_GET_LENGTH(leave);
        for (Py_ssize_t i = 0; i < length; i++) {
            int at = leave_index(&t, PyUnicode_READ_CHAR(leave, i));
            if (at < 0) others++;
            else counts[at]++;
        }
        double total = leave_table_value(&t, counts, others);
        for (Py_ssize_t i = 0; i < length; i++) {
            int at = leave_index(&t, PyUnicode_READ_CHAR(leave, i));
            if (at >= 0) counts[at] = 0;
        }
        PyObject *value = PyFloat_FromDouble(total);
        if (!value) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, j, value);
    }
    leave_table_free(&t);
    return result;
}

static PyMethodDef leave_methods[] = {
    {"leave_values", leave_values, METH_VARARGS, "The value of each leave under a leave model: see _movegen.pyi."},
    {NULL, NULL, 0, NULL},
};

int add_leave_functions(PyObject *module) { return PyModule_AddFunctions(module, leave_methods); }
