/* _juke.c: the CPython extension under the juke package: a thin layer over
 * include/juke.h. Handles travel as PyCapsules; the Python side
 * (juke/__init__.py) holds the objects, the conversions and the checks that
 * read best in Python.
 *
 * It is written against CPython's limited API (3.8), so one binary
 * (_juke.abi3.so) imports into every CPython from 3.8 on: the one built here
 * runs on a machine whose Python differs, as the H200's does.
 *
 * Errors: a failed juke call raises the class registered for its status with
 * _set_errors (juke.CompileError, juke.KernelException, ...), its one
 * argument the message of juke_errmsg. */
#define Py_LIMITED_API 0x03080000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdlib.h>
#include <string.h>

#include "juke.h"

/* status -> exception class, set once by juke/__init__.py; the extension's
 * only state (CPython serialises access through the GIL) */
static PyObject *error_classes;

static PyObject *raise_status(juke_context *ctx, juke_status st)
{
    PyObject *key = PyLong_FromLong(st);
    PyObject *cls = key && error_classes ? PyDict_GetItem(error_classes, key) : NULL;
    Py_XDECREF(key);
    PyErr_SetString(cls ? cls : PyExc_RuntimeError, ctx ? juke_errmsg(ctx) : juke_status_name(st));
    return NULL;
}

static const char CAP_CTX[] = "juke.context", CAP_DEV[] = "juke.device", CAP_MOD[] = "juke.module",
                  CAP_ARR[] = "juke.array";

static void *cap(PyObject *o, const char *name)
{
    return PyCapsule_GetPointer(o, name);
}

/* An array capsule frees its handle; wrapped memory stays the host's. The
 * context is never destroyed (juke/__init__.py keeps one per process), so
 * the handle is valid whenever the capsule dies. */
static void array_capsule_free(PyObject *o)
{
    juke_array_free(PyCapsule_GetPointer(o, CAP_ARR));
}

static PyObject *py_set_errors(PyObject *self, PyObject *args)
{
    PyObject *d;
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &d))
        return NULL;
    Py_XDECREF(error_classes);
    Py_INCREF(d);
    error_classes = d;
    Py_RETURN_NONE;
}

static PyObject *py_context_create(PyObject *self, PyObject *args)
{
    juke_context *ctx = juke_context_create();
    if (!ctx)
        return PyErr_NoMemory();
    return PyCapsule_New(ctx, CAP_CTX, NULL);
}

/* context_set_target(ctx, cache_dir or None): options the package sets once */
static PyObject *py_context_set_cache(PyObject *self, PyObject *args)
{
    PyObject *c;
    const char *dir = NULL;
    if (!PyArg_ParseTuple(args, "Oz", &c, &dir))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    if (!ctx)
        return NULL;
    juke_options o;
    juke_options_default(&o);
    o.cache_dir = dir;
    juke_status st = juke_set_options(ctx, &o);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    Py_RETURN_NONE;
}

static PyObject *py_device_open(PyObject *self, PyObject *args)
{
    PyObject *c;
    const char *spec;
    if (!PyArg_ParseTuple(args, "Os", &c, &spec))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    if (!ctx)
        return NULL;
    juke_device *dev;
    juke_status st = juke_device_open(ctx, spec, &dev);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    return Py_BuildValue("(Ns)", PyCapsule_New(dev, CAP_DEV, NULL), juke_device_name(dev));
}

static PyObject *py_device_synchronize(PyObject *self, PyObject *args)
{
    PyObject *c, *d;
    if (!PyArg_ParseTuple(args, "OO", &c, &d))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    if (!ctx || !dev)
        return NULL;
    juke_status st;
    PyThreadState *ts = PyEval_SaveThread();
    st = juke_device_synchronize(dev);
    PyEval_RestoreThread(ts);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    Py_RETURN_NONE;
}

static PyObject *py_module_load(PyObject *self, PyObject *args)
{
    PyObject *c;
    const char *name, *src;
    if (!PyArg_ParseTuple(args, "Oss", &c, &name, &src))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    if (!ctx)
        return NULL;
    juke_module *m;
    juke_status st = juke_module_load_string(ctx, name, src, &m);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    /* modules live as long as the context: kernels compiled from them are cached there */
    PyObject *names = PyList_New(0);
    for (int i = 0; names && i < juke_module_function_count(m); i++) {
        PyObject *s = PyUnicode_FromString(juke_module_function_name(m, i));
        if (!s || PyList_Append(names, s) != 0) {
            Py_XDECREF(s);
            Py_CLEAR(names);
            break;
        }
        Py_DECREF(s);
    }
    if (!names)
        return NULL;
    return Py_BuildValue("(NN)", PyCapsule_New(m, CAP_MOD, NULL), names);
}

/* A sequence of str as a C array of strings, borrowed from the objects kept in *keep. */
static const char **str_array(PyObject *seq, int *n, PyObject **keep)
{
    PyObject *fast = PySequence_Tuple(seq);
    if (!fast)
        return NULL;
    Py_ssize_t len = PyTuple_Size(fast);
    const char **out = calloc((size_t)len + 1, sizeof *out);
    PyObject *bytes = PyList_New(0);
    if (!out || !bytes) {
        free(out);
        Py_XDECREF(bytes);
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *b = PyUnicode_AsUTF8String(PyTuple_GetItem(fast, i));
        if (!b || PyList_Append(bytes, b) != 0) {
            Py_XDECREF(b);
            free(out);
            Py_DECREF(bytes);
            Py_DECREF(fast);
            return NULL;
        }
        out[i] = PyBytes_AsString(b);
        Py_DECREF(b);
    }
    Py_DECREF(fast);
    *n = (int)len;
    *keep = bytes;
    return out;
}

/* dump(ctx, module, function, types or None, which, target or None, opt_level[, index_bits]):
 * which 0 lowered, 1 typed (of the front end), else the juke_dump `which` of the kernel compiled for target */
static PyObject *py_dump(PyObject *self, PyObject *args)
{
    PyObject *c, *mo, *types;
    const char *fn, *target;
    int which, opt, index_bits = 0;
    if (!PyArg_ParseTuple(args, "OOsOizi|i", &c, &mo, &fn, &types, &which, &target, &opt, &index_bits))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_module *m = cap(mo, CAP_MOD);
    if (!ctx || !m)
        return NULL;
    int n = 0;
    PyObject *keep = NULL;
    const char **argv = NULL;
    if (types != Py_None && !(argv = str_array(types, &n, &keep)))
        return NULL;
    juke_status st;
    PyObject *r = NULL;
    if (which == 0 || which == 1) {
        char *out = NULL;
        st = which == 0 ? juke_lowered(m, fn, argv, n, &out) : juke_typed(m, fn, argv, n, &out);
        if (st == JUKE_OK) {
            r = PyUnicode_FromString(out);
            juke_free(out);
        }
    } else {
        juke_options o;
        juke_options_default(&o);
        if (target)
            o.target = target;
        o.opt_level = opt;
        o.index_bits = index_bits;
        juke_kernel *k;
        PyThreadState *ts = PyEval_SaveThread();
        st = juke_compile(m, fn, argv, n, &o, &k);
        PyEval_RestoreThread(ts);
        if (st == JUKE_OK) {
            const char *d = juke_kernel_dump(k, (juke_dump)which);
            r = PyUnicode_FromString(d ? d : "");
        }
    }
    free(argv);
    Py_XDECREF(keep);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    return r;
}

static PyObject *new_array(juke_array *a)
{
    PyObject *r = PyCapsule_New(a, CAP_ARR, array_capsule_free);
    if (!r)
        juke_array_free(a);
    return r;
}

static int dims_of(PyObject *seq, int64_t *dims, int *nd)
{
    PyObject *t = PySequence_Tuple(seq);
    if (!t)
        return -1;
    Py_ssize_t n = PyTuple_Size(t);
    if (n < 1 || n > 8) {
        Py_DECREF(t);
        PyErr_SetString(PyExc_ValueError, "an array has 1 to 8 dimensions");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        dims[i] = PyLong_AsLongLong(PyTuple_GetItem(t, i));
    Py_DECREF(t);
    *nd = (int)n;
    return PyErr_Occurred() ? -1 : 0;
}

/* array_wrap(ctx, dev, pointer, elem, dims) / array_create(ctx, dev, elem, dims): dims column-major */
static PyObject *py_array_wrap(PyObject *self, PyObject *args)
{
    PyObject *c, *d, *dimseq;
    unsigned long long ptr;
    int elem, nd;
    int64_t dims[8];
    if (!PyArg_ParseTuple(args, "OOKiO", &c, &d, &ptr, &elem, &dimseq))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    if (!ctx || !dev || dims_of(dimseq, dims, &nd) != 0)
        return NULL;
    juke_array *a;
    juke_status st = juke_array_wrap(dev, (void *)(uintptr_t)ptr, (juke_type)elem, nd, dims, &a);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    return new_array(a);
}

static PyObject *py_array_create(PyObject *self, PyObject *args)
{
    PyObject *c, *d, *dimseq;
    int elem, nd;
    int64_t dims[8];
    if (!PyArg_ParseTuple(args, "OOiO", &c, &d, &elem, &dimseq))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    if (!ctx || !dev || dims_of(dimseq, dims, &nd) != 0)
        return NULL;
    juke_array *a;
    juke_status st = juke_array_create(dev, (juke_type)elem, nd, dims, &a);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    return new_array(a);
}

/* array_pointer(arr) -> int: the device pointer (a host pointer on the CPU) */
static PyObject *py_array_pointer(PyObject *self, PyObject *args)
{
    PyObject *o;
    if (!PyArg_ParseTuple(args, "O", &o))
        return NULL;
    juke_array *a = cap(o, CAP_ARR);
    if (!a)
        return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)juke_array_pointer(a));
}

/* array_copy(ctx, arr, host pointer, bytes, to_host) */
static PyObject *py_array_copy(PyObject *self, PyObject *args)
{
    PyObject *c, *o;
    unsigned long long ptr, bytes;
    int to_host;
    if (!PyArg_ParseTuple(args, "OOKKp", &c, &o, &ptr, &bytes, &to_host))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_array *a = cap(o, CAP_ARR);
    if (!ctx || !a)
        return NULL;
    juke_status st;
    void *host = (void *)(uintptr_t)ptr;
    PyThreadState *ts = PyEval_SaveThread();
    st = to_host ? juke_array_download(a, host, bytes) : juke_array_upload(a, host, bytes);
    PyEval_RestoreThread(ts);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    Py_RETURN_NONE;
}

/* One launch argument from its Python description:
 *   ("a", array capsule) | ("s", juke_type, number) | ("t", julia type, [fields]) | ("v", julia type) (no bits)
 * A tuple's bytes are packed by juke_value_pack into *storage (freed by the caller). */
static int arg_of(juke_module *m, juke_context *ctx, PyObject *desc, juke_arg *out, PyObject *keep, void **storage)
{
    const char *kind;
    PyObject *a, *b = NULL;
    if (!PyArg_ParseTuple(desc, "sO|O", &kind, &a, &b))
        return -1;
    switch (kind[0]) {
    case 'a': {
        juke_array *arr = cap(a, CAP_ARR);
        if (!arr)
            return -1;
        *out = juke_arg_array(arr);
        return 0;
    }
    case 's': {
        int t = (int)PyLong_AsLong(a);
        memset(out, 0, sizeof *out);
        out->type = (juke_type)t;
        if (t == JUKE_FLOAT32)
            out->v.f32 = (float)PyFloat_AsDouble(b);
        else if (t == JUKE_FLOAT64)
            out->v.f64 = PyFloat_AsDouble(b);
        else if (t == JUKE_FLOAT16)
            out->v.f16 = (uint16_t)PyLong_AsUnsignedLong(b);
        else if (t >= JUKE_UINT8 && t <= JUKE_UINT64)
            out->v.u = PyLong_AsUnsignedLongLongMask(b);
        else
            out->v.i = PyLong_AsLongLong(b);
        return PyErr_Occurred() ? -1 : 0;
    }
    case 'v': {
        PyObject *s = PyUnicode_AsUTF8String(a);
        if (!s || PyList_Append(keep, s) != 0) {
            Py_XDECREF(s);
            return -1;
        }
        Py_DECREF(s);
        *out = juke_arg_type(PyBytes_AsString(s));
        return 0;
    }
    case 't': {
        PyObject *s = PyUnicode_AsUTF8String(a);
        if (!s || PyList_Append(keep, s) != 0) {
            Py_XDECREF(s);
            return -1;
        }
        Py_DECREF(s);
        const char *type = PyBytes_AsString(s);
        PyObject *fields = PySequence_Tuple(b);
        if (!fields)
            return -1;
        Py_ssize_t nf = PyTuple_Size(fields);
        juke_arg *fa = calloc((size_t)nf + 1, sizeof *fa);
        void **fstore = calloc((size_t)nf + 1, sizeof *fstore);
        int rc = fa && fstore ? 0 : -1;
        for (Py_ssize_t i = 0; rc == 0 && i < nf; i++)
            rc = arg_of(m, ctx, PyTuple_GetItem(fields, i), &fa[i], keep, &fstore[i]);
        size_t size = 0;
        if (rc == 0 && juke_value_layout(m, type, &size, NULL, NULL, NULL, 0) != JUKE_OK) {
            raise_status(ctx, JUKE_ERR_ARGUMENT);
            rc = -1;
        }
        void *bytes = rc == 0 ? calloc(1, size ? size : 1) : NULL;
        if (rc == 0 && juke_value_pack(m, type, fa, (int)nf, bytes, size) != JUKE_OK) {
            raise_status(ctx, JUKE_ERR_ARGUMENT);
            rc = -1;
        }
        for (Py_ssize_t i = 0; fstore && i < nf; i++)
            free(fstore[i]);
        free(fstore);
        free(fa);
        Py_DECREF(fields);
        if (rc != 0) {
            free(bytes);
            return -1;
        }
        *storage = bytes;
        *out = juke_arg_value(type, bytes, size);
        return 0;
    }
    }
    PyErr_Format(PyExc_ValueError, "unknown argument kind %s", kind);
    return -1;
}

/* launch(ctx, dev, module, function, [arg descriptions], groupsize(3), gridsize(3), shmem,
 *        ndrange (tuple, maybe empty), seed or None, cooperative) */
static PyObject *py_launch(PyObject *self, PyObject *args)
{
    PyObject *c, *d, *mo, *argl, *seed;
    const char *fn;
    unsigned g0, g1, g2, n0, n1, n2, shmem;
    unsigned long long r[8]; /* the ndrange: JUKE_NDRANGE_MAX sizes */
    int nr, coop;
    if (!PyArg_ParseTuple(args, "OOOsO(III)(III)I(iKKKKKKKK)Op", &c, &d, &mo, &fn, &argl, &g0, &g1, &g2, &n0, &n1, &n2,
                          &shmem, &nr, &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7], &seed, &coop))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    juke_module *m = cap(mo, CAP_MOD);
    if (!ctx || !dev || !m)
        return NULL;
    PyObject *descs = PySequence_Tuple(argl);
    if (!descs)
        return NULL;
    Py_ssize_t n = PyTuple_Size(descs);
    juke_arg *jargs = calloc((size_t)n + 1, sizeof *jargs);
    void **storage = calloc((size_t)n + 1, sizeof *storage);
    PyObject *keep = PyList_New(0);
    int rc = jargs && storage && keep ? 0 : -1;
    if (rc != 0)
        PyErr_NoMemory();
    for (Py_ssize_t i = 0; rc == 0 && i < n; i++)
        rc = arg_of(m, ctx, PyTuple_GetItem(descs, i), &jargs[i], keep, &storage[i]);
    PyObject *result = NULL;
    if (rc == 0) {
        juke_launch_config cfg = { .groupsize = { g0, g1, g2 }, .gridsize = { n0, n1, n2 }, .shmem = shmem };
        cfg.ndims = (uint32_t)nr;
        for (int d = 0; d < JUKE_NDRANGE_MAX && d < 8; d++)
            cfg.ndrange[d] = r[d];
        if (seed != Py_None) {
            cfg.seeded = true;
            cfg.seed = PyLong_AsUnsignedLongLongMask(seed);
        }
        cfg.cooperative = coop;
        juke_status st;
        PyThreadState *ts = PyEval_SaveThread();
        st = juke_launch(dev, m, fn, jargs, (int)n, &cfg);
        PyEval_RestoreThread(ts);
        if (st != JUKE_OK)
            raise_status(ctx, st);
        else {
            Py_INCREF(Py_None);
            result = Py_None;
        }
    }
    for (Py_ssize_t i = 0; storage && i < n; i++)
        free(storage[i]);
    free(storage);
    free(jargs);
    Py_XDECREF(keep);
    Py_DECREF(descs);
    return result;
}

/* array_make(ctx, dev, kind, elem, dims, extra): kind "zeros", "ones", "full" (extra: the value's
 * bytes), "rand", "randn" (extra: the seed) */
static PyObject *py_array_make(PyObject *self, PyObject *args)
{
    PyObject *c, *d, *dimseq, *extra;
    const char *kind;
    int elem, nd;
    int64_t dims[8];
    if (!PyArg_ParseTuple(args, "OOsiOO", &c, &d, &kind, &elem, &dimseq, &extra))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    if (!ctx || !dev || dims_of(dimseq, dims, &nd) != 0)
        return NULL;
    juke_array *a = NULL;
    juke_status st;
    PyThreadState *ts;
    if (strcmp(kind, "full") == 0) {
        char *bytes;
        Py_ssize_t len;
        if (PyBytes_AsStringAndSize(extra, &bytes, &len) != 0)
            return NULL;
        if ((size_t)len != juke_sizeof((juke_type)elem)) {
            PyErr_SetString(PyExc_ValueError, "fill value of the wrong size");
            return NULL;
        }
        ts = PyEval_SaveThread();
        st = juke_array_full(dev, (juke_type)elem, nd, dims, bytes, &a);
        PyEval_RestoreThread(ts);
    } else {
        unsigned long long seed = extra == Py_None ? 0 : PyLong_AsUnsignedLongLongMask(extra);
        if (PyErr_Occurred())
            return NULL;
        ts = PyEval_SaveThread();
        if (strcmp(kind, "zeros") == 0)
            st = juke_array_zeros(dev, (juke_type)elem, nd, dims, &a);
        else if (strcmp(kind, "ones") == 0)
            st = juke_array_ones(dev, (juke_type)elem, nd, dims, &a);
        else if (strcmp(kind, "rand") == 0)
            st = juke_array_rand(dev, (juke_type)elem, nd, dims, seed, &a);
        else
            st = juke_array_randn(dev, (juke_type)elem, nd, dims, seed, &a);
        PyEval_RestoreThread(ts);
    }
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    return new_array(a);
}

/* Operands [(name, description)] as juke_named_arg; *jargs and *storage freed by the caller. */
static int named_args(juke_context *ctx, PyObject *ops, juke_named_arg **out, void ***storage, Py_ssize_t *n,
                      PyObject *keep)
{
    PyObject *t = PySequence_Tuple(ops);
    if (!t)
        return -1;
    *n = PyTuple_Size(t);
    *out = calloc((size_t)*n + 1, sizeof **out);
    *storage = calloc((size_t)*n + 1, sizeof **storage);
    int rc = *out && *storage ? 0 : -1;
    for (Py_ssize_t i = 0; rc == 0 && i < *n; i++) {
        PyObject *name, *desc;
        if (!PyArg_ParseTuple(PyTuple_GetItem(t, i), "OO", &name, &desc)) {
            rc = -1;
            break;
        }
        PyObject *b = PyUnicode_AsUTF8String(name);
        if (!b || PyList_Append(keep, b) != 0) {
            Py_XDECREF(b);
            rc = -1;
            break;
        }
        Py_DECREF(b);
        (*out)[i].name = PyBytes_AsString(b);
        rc = arg_of(NULL, ctx, desc, &(*out)[i].value, keep, &(*storage)[i]);
    }
    Py_DECREF(t);
    return rc;
}

/* broadcast(ctx, dev, expr, [(name, description)], source_only) -> None or the generated source */
static PyObject *py_broadcast(PyObject *self, PyObject *args)
{
    PyObject *c, *d, *ops;
    const char *expr;
    int source_only;
    if (!PyArg_ParseTuple(args, "OOsOp", &c, &d, &expr, &ops, &source_only))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    if (!ctx || !dev)
        return NULL;
    juke_named_arg *nargs = NULL;
    void **storage = NULL;
    Py_ssize_t n = 0;
    PyObject *keep = PyList_New(0), *result = NULL;
    if (keep && named_args(ctx, ops, &nargs, &storage, &n, keep) == 0) {
        juke_status st;
        char *src = NULL;
        PyThreadState *ts = PyEval_SaveThread();
        st = source_only ? juke_broadcast_source(ctx, expr, nargs, (int)n, &src)
                         : juke_broadcast(ctx, dev, expr, nargs, (int)n);
        PyEval_RestoreThread(ts);
        if (st != JUKE_OK)
            raise_status(ctx, st);
        else if (src)
            result = PyUnicode_FromString(src);
        else
            result = Py_None, Py_INCREF(Py_None);
        juke_free(src);
    }
    for (Py_ssize_t i = 0; storage && i < n; i++)
        free(storage[i]);
    free(storage);
    free(nargs);
    Py_XDECREF(keep);
    return result;
}

static PyObject *scalar_value(const juke_arg *r)
{
    switch (r->type) {
    case JUKE_FLOAT32: return PyFloat_FromDouble(r->v.f32);
    case JUKE_FLOAT64: return PyFloat_FromDouble(r->v.f64);
    case JUKE_FLOAT16: return Py_BuildValue("(si)", "f16", (int)r->v.f16);
    case JUKE_BOOL: return PyBool_FromLong((long)r->v.i);
    case JUKE_UINT8:
    case JUKE_UINT16:
    case JUKE_UINT32:
    case JUKE_UINT64: return PyLong_FromUnsignedLongLong(r->v.u);
    default: return PyLong_FromLongLong(r->v.i);
    }
}

/* mapreduce(ctx, dev, f, op, array, init description or None) -> (juke_type, value) */
static PyObject *py_mapreduce(PyObject *self, PyObject *args)
{
    PyObject *c, *d, *ao, *init;
    const char *f, *op;
    if (!PyArg_ParseTuple(args, "OOzsOO", &c, &d, &f, &op, &ao, &init))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    juke_array *a = cap(ao, CAP_ARR);
    if (!ctx || !dev || !a)
        return NULL;
    juke_arg iarg, r;
    void *store = NULL;
    PyObject *keep = PyList_New(0);
    if (!keep)
        return NULL;
    if (init != Py_None && arg_of(NULL, ctx, init, &iarg, keep, &store) != 0) {
        Py_DECREF(keep);
        return NULL;
    }
    PyThreadState *ts = PyEval_SaveThread();
    juke_status st = juke_mapreduce(dev, f, op, a, init == Py_None ? NULL : &iarg, &r);
    PyEval_RestoreThread(ts);
    free(store);
    Py_DECREF(keep);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    return Py_BuildValue("(iN)", (int)r.type, scalar_value(&r));
}

/* matmul(ctx, dev, c, a, b, flags) -> what ran */
static PyObject *py_matmul(PyObject *self, PyObject *args)
{
    PyObject *c, *d, *co, *ao, *bo;
    int flags;
    if (!PyArg_ParseTuple(args, "OOOOOi", &c, &d, &co, &ao, &bo, &flags))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    juke_device *dev = cap(d, CAP_DEV);
    juke_array *ca = cap(co, CAP_ARR), *aa = cap(ao, CAP_ARR), *ba = cap(bo, CAP_ARR);
    if (!ctx || !dev || !ca || !aa || !ba)
        return NULL;
    const char *which = NULL;
    PyThreadState *ts = PyEval_SaveThread();
    juke_status st = juke_matmul(dev, ca, aa, ba, flags, &which);
    PyEval_RestoreThread(ts);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    return PyUnicode_FromString(which ? which : "");
}

/* ---- DLPack (dlpack.h v0.8, its ABI written out: the header is not a dependency) ---- */
typedef struct {
    int32_t device_type; /* kDLCPU 1, kDLCUDA 2, kDLCUDAHost 3, kDLROCM 10 */
    int32_t device_id;
} DLDevice;
typedef struct {
    uint8_t code; /* kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBool 6 */
    uint8_t bits;
    uint16_t lanes;
} DLDataType;
typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides; /* in elements; NULL: compact row-major */
    uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

/* What an exported tensor owns: its shape and strides, and a reference to the juke.Array whose memory it is. */
typedef struct {
    DLManagedTensor t;
    int64_t shape[8], strides[8];
    PyObject *owner;
} Export;

static void export_deleter(DLManagedTensor *t)
{
    Export *e = (Export *)t;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_XDECREF(e->owner);
    PyGILState_Release(g);
    free(e);
}

/* A "dltensor" capsule nobody consumed frees its tensor. */
static void dltensor_capsule_free(PyObject *o)
{
    if (PyCapsule_IsValid(o, "dltensor")) {
        DLManagedTensor *t = PyCapsule_GetPointer(o, "dltensor");
        if (t && t->deleter)
            t->deleter(t);
    } else {
        PyErr_Clear();
    }
}

/* dlpack_export(array capsule, owner, device_type, device_id, dtype code, bits) -> "dltensor" capsule:
 * the array's dims as the shape, column-major strides */
static PyObject *py_dlpack_export(PyObject *self, PyObject *args)
{
    PyObject *ao, *owner;
    int dt, did, code, bits;
    if (!PyArg_ParseTuple(args, "OOiiii", &ao, &owner, &dt, &did, &code, &bits))
        return NULL;
    juke_array *a = cap(ao, CAP_ARR);
    if (!a)
        return NULL;
    Export *e = calloc(1, sizeof *e);
    if (!e)
        return PyErr_NoMemory();
    int nd = juke_array_ndims(a);
    int64_t stride = 1;
    for (int i = 0; i < nd; i++) {
        e->shape[i] = juke_array_size(a, i + 1);
        e->strides[i] = stride;
        stride *= e->shape[i];
    }
    e->t.dl_tensor = (DLTensor){
        juke_array_pointer(a), { dt, did }, nd, { (uint8_t)code, (uint8_t)bits, 1 }, e->shape, e->strides, 0
    };
    e->t.manager_ctx = e;
    e->t.deleter = export_deleter;
    Py_INCREF(owner);
    e->owner = owner;
    PyObject *c = PyCapsule_New(&e->t, "dltensor", dltensor_capsule_free);
    if (!c)
        export_deleter(&e->t);
    return c;
}

/* The consumed tensor's deleter runs when the juke.Array made of it goes. */
static void imported_free(PyObject *o)
{
    DLManagedTensor *t = PyCapsule_GetPointer(o, "juke.dlpack_import");
    if (t && t->deleter)
        t->deleter(t);
}

/* dlpack_import(dltensor capsule) -> (keeper, pointer, device_type, device_id, code, bits, lanes, shape,
 * strides or None): consumes the capsule (renamed "used_dltensor"); keeper frees the tensor */
static PyObject *py_dlpack_import(PyObject *self, PyObject *args)
{
    PyObject *c;
    if (!PyArg_ParseTuple(args, "O", &c))
        return NULL;
    DLManagedTensor *t = PyCapsule_GetPointer(c, "dltensor");
    if (!t)
        return NULL;
    DLTensor *x = &t->dl_tensor;
    PyObject *shape = PyTuple_New(x->ndim),
             *strides = x->strides ? PyTuple_New(x->ndim) : (Py_INCREF(Py_None), Py_None);
    if (!shape || !strides) {
        Py_XDECREF(shape);
        Py_XDECREF(strides);
        return NULL;
    }
    for (int i = 0; i < x->ndim; i++) {
        PyTuple_SetItem(shape, i, PyLong_FromLongLong(x->shape[i]));
        if (x->strides)
            PyTuple_SetItem(strides, i, PyLong_FromLongLong(x->strides[i]));
    }
    if (PyCapsule_SetName(c, "used_dltensor") != 0) {
        Py_DECREF(shape);
        Py_DECREF(strides);
        return NULL;
    }
    PyObject *keeper = PyCapsule_New(t, "juke.dlpack_import", imported_free);
    if (!keeper) {
        Py_DECREF(shape);
        Py_DECREF(strides);
        return NULL;
    }
    return Py_BuildValue("(NKiiiiiNN)", keeper, (unsigned long long)(uintptr_t)((char *)x->data + x->byte_offset),
                         x->device.device_type, x->device.device_id, x->dtype.code, x->dtype.bits, x->dtype.lanes,
                         shape, strides);
}

/* op_source(ctx, "mapreduce", f, op) / op_source(ctx, "matmul", None, None) -> the generated source */
static PyObject *py_op_source(PyObject *self, PyObject *args)
{
    PyObject *c;
    const char *which, *f, *op;
    if (!PyArg_ParseTuple(args, "Oszz", &c, &which, &f, &op))
        return NULL;
    juke_context *ctx = cap(c, CAP_CTX);
    if (!ctx)
        return NULL;
    char *src = NULL;
    juke_status st = strcmp(which, "matmul") == 0 ? juke_matmul_source(ctx, &src)
                                                  : juke_mapreduce_source(ctx, f, op ? op : "+", &src);
    if (st != JUKE_OK)
        return raise_status(ctx, st);
    PyObject *r = PyUnicode_FromString(src);
    juke_free(src);
    return r;
}

static PyMethodDef methods[] = {
    { "_set_errors", py_set_errors, METH_VARARGS, "register the exception class of each juke_status" },
    { "context_create", py_context_create, METH_NOARGS, "a juke_context (never destroyed)" },
    { "context_set_cache", py_context_set_cache, METH_VARARGS, "the on-disk kernel cache directory" },
    { "device_open", py_device_open, METH_VARARGS, "open a device: (capsule, name)" },
    { "device_synchronize", py_device_synchronize, METH_VARARGS, "wait for a device" },
    { "module_load", py_module_load, METH_VARARGS, "load source: (capsule, function names)" },
    { "dump", py_dump, METH_VARARGS, "a dump of a function or its compiled kernel" },
    { "array_wrap", py_array_wrap, METH_VARARGS, "an array over device memory the caller owns" },
    { "array_create", py_array_create, METH_VARARGS, "an uninitialised device array" },
    { "array_pointer", py_array_pointer, METH_VARARGS, "an array's device pointer" },
    { "array_copy", py_array_copy, METH_VARARGS, "copy an array's bytes from or to host memory" },
    { "launch", py_launch, METH_VARARGS, "specialise, compile (cached) and launch a kernel" },
    { "array_make", py_array_make, METH_VARARGS, "zeros, ones, full, rand, randn on a device" },
    { "broadcast", py_broadcast, METH_VARARGS, "run a fused broadcast, or return its generated source" },
    { "mapreduce", py_mapreduce, METH_VARARGS, "mapreduce(f, op, A; init) on the device" },
    { "dlpack_export", py_dlpack_export, METH_VARARGS, "a DLPack capsule over a juke array" },
    { "dlpack_import", py_dlpack_import, METH_VARARGS, "consume a DLPack capsule" },
    { "op_source", py_op_source, METH_VARARGS, "the source of a reduction's or matmul's kernels" },
    { "matmul", py_matmul, METH_VARARGS, "C = A * B: the vendor BLAS or juke's tiled kernel; what ran" },
    { NULL, NULL, 0, NULL },
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_juke", "juke's C API for Python", -1, methods, NULL, NULL, NULL, NULL
};

PyMODINIT_FUNC PyInit__juke(void)
{
    return PyModule_Create(&module);
}
