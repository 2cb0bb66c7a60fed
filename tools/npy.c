/* npy.c: NumPy .npy files as Julia (column-major) arrays; see npy.h.
 * Input is untrusted (fuzzed): the header is parsed by a small tokenizer of
 * the Python literal subset NumPy writes, and every size is checked.
 *
 * File layout:
 *   "\x93NUMPY" major minor
 *   header length: u16 LE (version 1.0) or u32 LE (2.0 and 3.0)
 *   header: a Python dict literal {'descr': '<f4', 'fortran_order': False,
 *           'shape': (3, 4), } padded with spaces, ending in '\n'
 *   data: the elements, C order (last index fastest) unless fortran_order */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "common.h"
#include "dumps.h"
#include "npy.h"

static const struct {
    JukeTypeCode type;
    char kind;
    int size;
    const char *julia;
} npy_types[] = {
    { JUKE_T_BOOL, 'b', 1, "Bool" },
    { JUKE_T_INT8, 'i', 1, "Int8" },
    { JUKE_T_INT16, 'i', 2, "Int16" },
    { JUKE_T_INT32, 'i', 4, "Int32" },
    { JUKE_T_INT64, 'i', 8, "Int64" },
    { JUKE_T_UINT8, 'u', 1, "UInt8" },
    { JUKE_T_UINT16, 'u', 2, "UInt16" },
    { JUKE_T_UINT32, 'u', 4, "UInt32" },
    { JUKE_T_UINT64, 'u', 8, "UInt64" },
    { JUKE_T_FLOAT16, 'f', 2, "Float16" },
    { JUKE_T_FLOAT32, 'f', 4, "Float32" },
    { JUKE_T_FLOAT64, 'f', 8, "Float64" },
    { JUKE_T_COMPLEXF32, 'c', 8, "ComplexF32" },
    { JUKE_T_COMPLEXF64, 'c', 16, "ComplexF64" },
};
#define NPY_NTYPES (sizeof npy_types / sizeof npy_types[0])

const char *npy_julia_type_name(JukeTypeCode t)
{
    for (size_t i = 0; i < NPY_NTYPES; i++)
        if (npy_types[i].type == t)
            return npy_types[i].julia;
    return "?";
}

/* ---- the header dict ------------------------------------------------------
 *   dict  := '{' [entry {',' entry} [',']] '}'
 *   entry := STRING ':' value
 *   value := STRING | 'True' | 'False' | tuple
 *   tuple := '(' [INT {',' INT} [',']] ')' */
typedef struct NpyLex {
    const char *p, *end;
} NpyLex;

static void npy_ws(NpyLex *lx)
{
    while (lx->p < lx->end && (*lx->p == ' ' || *lx->p == '\t' || *lx->p == '\n' || *lx->p == '\r'))
        lx->p++;
}

static bool npy_eat(NpyLex *lx, char c)
{
    npy_ws(lx);
    if (lx->p < lx->end && *lx->p == c) {
        lx->p++;
        return true;
    }
    return false;
}

/* A quoted string without escapes (NumPy never writes any); false if absent. */
static bool npy_string(NpyLex *lx, const char **s, size_t *n)
{
    npy_ws(lx);
    if (lx->p >= lx->end || (*lx->p != '\'' && *lx->p != '"'))
        return false;
    char q = *lx->p++;
    const char *start = lx->p;
    while (lx->p < lx->end && *lx->p != q) {
        if (*lx->p == '\\' || *lx->p == '\n')
            return false;
        lx->p++;
    }
    if (lx->p >= lx->end)
        return false;
    *s = start;
    *n = (size_t)(lx->p - start);
    lx->p++;
    return true;
}

static bool npy_word(NpyLex *lx, const char *w)
{
    npy_ws(lx);
    size_t n = strlen(w);
    if ((size_t)(lx->end - lx->p) >= n && memcmp(lx->p, w, n) == 0) {
        const char *after = lx->p + n;
        if (after < lx->end && ((*after >= 'a' && *after <= 'z') || (*after >= 'A' && *after <= 'Z') ||
                                (*after >= '0' && *after <= '9') || *after == '_'))
            return false;
        lx->p = after;
        return true;
    }
    return false;
}

static int npy_shape(NpyLex *lx, NpyArray *out, char **err)
{
    if (!npy_eat(lx, '('))
        return rt_fail(err, "malformed .npy header: 'shape' is not a tuple");
    out->ndims = 0;
    for (;;) {
        if (npy_eat(lx, ')'))
            return 0;
        npy_ws(lx);
        if (lx->p < lx->end && *lx->p == '-')
            return rt_fail(err, "malformed .npy header: negative dimension in 'shape'");
        if (lx->p >= lx->end || *lx->p < '0' || *lx->p > '9')
            return rt_fail(err, "malformed .npy header: 'shape' holds something other than integers");
        int64_t v = 0;
        while (lx->p < lx->end && *lx->p >= '0' && *lx->p <= '9') {
            if (v > (INT64_MAX - 9) / 10)
                return rt_fail(err, "malformed .npy header: dimension too large in 'shape'");
            v = v * 10 + (*lx->p++ - '0');
        }
        if (lx->p < lx->end && *lx->p == 'L') /* written by Python 2 */
            lx->p++;
        if (out->ndims >= NPY_MAXDIMS)
            return rt_fail(err, "unsupported .npy array: more than %d dimensions", NPY_MAXDIMS);
        out->dims[out->ndims++] = v;
        if (npy_eat(lx, ','))
            continue;
        if (npy_eat(lx, ')'))
            return 0;
        return rt_fail(err, "malformed .npy header: expected ',' or ')' in 'shape'");
    }
}

static int npy_descr(const char *s, size_t n, NpyArray *out, char **err)
{
    char shown[40];
    snprintf(shown, sizeof shown, "%.*s", (int)(n < 32 ? n : 32), s);
    char order = '=';
    if (n > 0 && (s[0] == '<' || s[0] == '>' || s[0] == '|' || s[0] == '=')) {
        order = s[0];
        s++;
        n--;
    }
    int kind = 0, size = 0;
    if (n == 1 && s[0] == '?') {
        kind = 'b';
        size = 1;
    } else if (n == 2 && s[1] >= '1' && s[1] <= '8') {
        kind = s[0];
        size = s[1] - '0';
    } else if (n == 3 && s[0] == 'c' && s[1] == '1' && s[2] == '6') {
        kind = 'c';
        size = 16;
    }
    for (size_t i = 0; i < NPY_NTYPES; i++) {
        if (npy_types[i].kind == kind && npy_types[i].size == size) {
            if (order == '>' && size > 1)
                return rt_fail(err, "unsupported .npy dtype '%s': big-endian data", shown);
            out->type = npy_types[i].type;
            out->elsize = (size_t)size;
            return 0;
        }
    }
    return rt_fail(err, "unsupported .npy dtype '%s' (juke reads b1, i1-i8, u1-u8, f2, f4, f8, c8, c16)", shown);
}

static int npy_header(const char *h, size_t len, NpyArray *out, bool *fortran, char **err)
{
    NpyLex lx = { h, h + len };
    bool have_descr = false, have_order = false, have_shape = false;
    if (!npy_eat(&lx, '{'))
        return rt_fail(err, "malformed .npy header: it is not a dict");
    for (;;) {
        if (npy_eat(&lx, '}'))
            break;
        const char *key;
        size_t kn;
        if (!npy_string(&lx, &key, &kn))
            return rt_fail(err, "malformed .npy header: expected a quoted key");
        if (!npy_eat(&lx, ':'))
            return rt_fail(err, "malformed .npy header: expected ':' after a key");
        if (kn == 5 && memcmp(key, "descr", 5) == 0) {
            const char *s;
            size_t sn;
            if (!npy_string(&lx, &s, &sn))
                return rt_fail(err,
                               "malformed .npy header: 'descr' is not a string (structured dtypes are not supported)");
            if (npy_descr(s, sn, out, err) != 0)
                return -1;
            have_descr = true;
        } else if (kn == 13 && memcmp(key, "fortran_order", 13) == 0) {
            if (npy_word(&lx, "True"))
                *fortran = true;
            else if (npy_word(&lx, "False"))
                *fortran = false;
            else
                return rt_fail(err, "malformed .npy header: 'fortran_order' is neither True nor False");
            have_order = true;
        } else if (kn == 5 && memcmp(key, "shape", 5) == 0) {
            if (npy_shape(&lx, out, err) != 0)
                return -1;
            have_shape = true;
        } else {
            return rt_fail(err, "malformed .npy header: unknown key '%.*s'", (int)(kn < 32 ? kn : 32), key);
        }
        if (npy_eat(&lx, ','))
            continue;
        if (npy_eat(&lx, '}'))
            break;
        return rt_fail(err, "malformed .npy header: expected ',' or '}'");
    }
    npy_ws(&lx);
    if (lx.p < lx.end && *lx.p != '\0')
        return rt_fail(err, "malformed .npy header: text after the dict");
    if (!have_descr || !have_order || !have_shape)
        return rt_fail(err, "malformed .npy header: no '%s'",
                       !have_descr   ? "descr"
                       : !have_order ? "fortran_order"
                                     : "shape");
    return 0;
}

/* Copy C-order data (last index fastest) into column-major order: walk the
 * source sequentially with an odometer over the indices and keep the
 * destination offset in step. */
static void npy_c_to_f(const uint8_t *src, uint8_t *dst, const NpyArray *a)
{
    int k = a->ndims;
    int64_t idx[NPY_MAXDIMS] = { 0 };
    size_t fstride[NPY_MAXDIMS];
    size_t s = 1;
    for (int j = 0; j < k; j++) {
        fstride[j] = s;
        s *= (size_t)a->dims[j];
    }
    size_t es = a->elsize, off = 0;
    for (size_t n = 0; n < a->length; n++) {
        memcpy(dst + off * es, src + n * es, es);
        for (int j = k - 1; j >= 0; j--) {
            if (++idx[j] < a->dims[j]) {
                off += fstride[j];
                break;
            }
            idx[j] = 0;
            off -= fstride[j] * (size_t)(a->dims[j] - 1);
        }
    }
}

int npy_parse(const void *buf, size_t size, NpyArray *out, char **err)
{
    memset(out, 0, sizeof *out);
    const uint8_t *b = buf;
    if (err)
        *err = NULL;
    if (!buf || size < 10)
        return rt_fail(err, "truncated .npy file: %zu bytes, the preamble alone takes 10", buf ? size : 0);
    if (memcmp(b, "\x93NUMPY", 6) != 0)
        return rt_fail(err, "not a .npy file: bad magic (expected \\x93NUMPY)");
    uint8_t major = b[6], minor = b[7];
    size_t hstart, hlen;
    if (major == 1) {
        hlen = (size_t)b[8] | (size_t)b[9] << 8;
        hstart = 10;
    } else if (major == 2 || major == 3) {
        if (size < 12)
            return rt_fail(err, "truncated .npy file: %zu bytes, the preamble alone takes 12", size);
        hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
        hstart = 12;
    } else {
        return rt_fail(err, "unsupported .npy format version %u.%u", major, minor);
    }
    if (hlen > size - hstart)
        return rt_fail(err, "truncated .npy file: the header takes %zu bytes, only %zu follow the preamble", hlen,
                       size - hstart);
    bool fortran = false;
    if (npy_header((const char *)b + hstart, hlen, out, &fortran, err) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    size_t length = 1;
    for (int j = 0; j < out->ndims; j++)
        if (__builtin_mul_overflow(length, (size_t)out->dims[j], &length)) {
            memset(out, 0, sizeof *out);
            return rt_fail(err, "unsupported .npy array: too many elements");
        }
    size_t bytes;
    if (__builtin_mul_overflow(length, out->elsize, &bytes)) {
        memset(out, 0, sizeof *out);
        return rt_fail(err, "unsupported .npy array: too many elements");
    }
    out->length = length;
    size_t have = size - hstart - hlen;
    if (bytes > have) {
        char shape[256];
        size_t sl = 0;
        shape[0] = '\0';
        for (int j = 0; j < out->ndims && sl + 24 < sizeof shape; j++)
            sl += (size_t)snprintf(shape + sl, sizeof shape - sl, "%s%lld", j ? "×" : "", (long long)out->dims[j]);
        rt_fail(err, "truncated .npy data: a %s%s%s array needs %zu bytes, the file holds %zu", shape,
                out->ndims == 0   ? "scalar "
                : out->ndims == 1 ? "-element "
                                  : " ",
                npy_julia_type_name(out->type), bytes, have);
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->data = malloc(bytes ? bytes : 1);
    if (!out->data) {
        memset(out, 0, sizeof *out);
        return rt_fail(err, "out of memory reading a .npy array of %zu bytes", bytes);
    }
    const uint8_t *src = b + hstart + hlen;
    if (fortran || out->ndims < 2)
        memcpy(out->data, src, bytes);
    else
        npy_c_to_f(src, out->data, out);
    if (out->type == JUKE_T_BOOL) /* any non-zero byte is true; Julia's Bool is 0 or 1 */
        for (size_t i = 0; i < length; i++)
            ((uint8_t *)out->data)[i] = ((uint8_t *)out->data)[i] != 0;
    return 0;
}

int npy_read_file(const char *path, NpyArray *out, char **err)
{
    memset(out, 0, sizeof *out);
    char *buf;
    size_t len;
    StrBuf why = { 0 };
    JkReadStatus rs = jk_read_file(path, JK_MAX_NPY_BYTES, &buf, &len, &why);
    if (rs != JK_READ_OK) {
        rt_fail(err, "%s: %s%s", path, rs == JK_READ_OPEN ? "cannot open: " : "", why.data ? why.data : "read error");
        sb_free(&why);
        return -1;
    }
    char *e = NULL;
    int rc = npy_parse(buf, len, out, &e);
    free(buf);
    if (rc != 0) {
        rt_fail(err, "%s: %s", path, e ? e : "cannot read");
        free(e);
    }
    return rc;
}

int npy_write_file(const char *path, const NpyArray *a, char **err)
{
    const char *descr = NULL;
    static const char *const descrs[] = {
        [JUKE_T_BOOL] = "|b1",       [JUKE_T_INT8] = "|i1",        [JUKE_T_INT16] = "<i2",   [JUKE_T_INT32] = "<i4",
        [JUKE_T_INT64] = "<i8",      [JUKE_T_UINT8] = "|u1",       [JUKE_T_UINT16] = "<u2",  [JUKE_T_UINT32] = "<u4",
        [JUKE_T_UINT64] = "<u8",     [JUKE_T_FLOAT16] = "<f2",     [JUKE_T_FLOAT32] = "<f4", [JUKE_T_FLOAT64] = "<f8",
        [JUKE_T_COMPLEXF32] = "<c8", [JUKE_T_COMPLEXF64] = "<c16",
    };
    if ((int)a->type >= JUKE_T_BOOL && (int)a->type <= JUKE_T_COMPLEXF64)
        descr = descrs[a->type];
    if (!descr)
        return rt_fail(err, "%s: cannot write element type %d as .npy", path, (int)a->type);
    if (a->ndims < 0 || a->ndims > NPY_MAXDIMS)
        return rt_fail(err, "%s: cannot write a %d-dimensional array as .npy", path, a->ndims);
    size_t elsize = 0;
    for (size_t i = 0; i < NPY_NTYPES; i++)
        if (npy_types[i].type == a->type)
            elsize = (size_t)npy_types[i].size;
    size_t length = 1;
    char shape[NPY_MAXDIMS * 24 + 8];
    size_t sl = (size_t)snprintf(shape, sizeof shape, "(");
    for (int j = 0; j < a->ndims; j++) {
        if (a->dims[j] < 0 || __builtin_mul_overflow(length, (size_t)a->dims[j], &length))
            return rt_fail(err, "%s: bad dims for .npy", path);
        sl += (size_t)snprintf(shape + sl, sizeof shape - sl, "%s%lld", j ? ", " : "", (long long)a->dims[j]);
    }
    snprintf(shape + sl, sizeof shape - sl, "%s)", a->ndims == 1 ? "," : "");
    if (length != a->length)
        return rt_fail(err, "%s: the array's length %zu is not the product of its dims (%zu)", path, a->length, length);
    char header[512];
    int hl = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': True, 'shape': %s, }", descr, shape);
    /* Pad with spaces so the data starts at a multiple of 64, then '\n'. */
    size_t total = 10 + (size_t)hl + 1;
    size_t padded = (total + 63) & ~(size_t)63;
    size_t hlen = padded - 10;
    if (hlen >= sizeof header)
        return rt_fail(err, "%s: .npy header too long", path);
    memset(header + hl, ' ', hlen - (size_t)hl - 1);
    header[hlen - 1] = '\n';
    uint8_t pre[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (uint8_t)(hlen & 0xff), (uint8_t)(hlen >> 8) };
    /* through the one file writer: a failed write keeps the old file whole */
    DumpPart parts[3] = { { pre, 10 }, { header, hlen }, { a->data, length * elsize } };
    char *why = NULL;
    if (dumps_write_file_parts(path, parts, 3, &why) != 0) {
        const char *msg = why ? why : "cannot write the file";
        rt_fail(err, "%s", strncmp(msg, "juke: ", 6) == 0 ? msg + 6 : msg);
        free(why);
        return -1;
    }
    return 0;
}

void npy_free(NpyArray *a)
{
    if (!a)
        return;
    free(a->data);
    a->data = NULL;
}
