/* test_npy.c: .npy reading and writing (tools/npy.c): round trips of
 * random arrays, C-order files transposed into Julia order, header
 * variants, and malformed files with their exact messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"

static uint64_t rng_state = 0x6a09e667f3bcc909ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* A .npy image: preamble of `major`, the header text padded to 64 as NumPy
 * does, then `data`. The caller frees it. */
static uint8_t *make_npy(int major, const char *header, const void *data, size_t dlen, size_t *size)
{
    size_t pre = major == 1 ? 10 : 12;
    size_t hl = strlen(header);
    size_t total_h = ((pre + hl + 1 + 63) & ~(size_t)63) - pre;
    uint8_t *buf = calloc(1, pre + total_h + dlen + 1);
    memcpy(buf, "\x93NUMPY", 6);
    buf[6] = (uint8_t)major;
    buf[7] = 0;
    buf[8] = (uint8_t)(total_h & 0xff);
    buf[9] = (uint8_t)(total_h >> 8);
    memcpy(buf + pre, header, hl);
    memset(buf + pre + hl, ' ', total_h - hl - 1);
    buf[pre + total_h - 1] = '\n';
    if (dlen)
        memcpy(buf + pre + total_h, data, dlen);
    *size = pre + total_h + dlen;
    return buf;
}

static char tmpdir[256];

static int make_tmpdir(void **state)
{
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/juke-npy-XXXXXX", t && *t ? t : "/tmp");
    assert_non_null(mkdtemp(tmpdir));
    return 0;
}

static int remove_tmpdir(void **state)
{
    rmdir(tmpdir);
    return 0;
}

static const struct {
    JukeTypeCode t;
    size_t size;
} types[] = {
    { JUKE_T_BOOL, 1 },   { JUKE_T_INT8, 1 },    { JUKE_T_INT16, 2 },   { JUKE_T_INT32, 4 },
    { JUKE_T_INT64, 8 },  { JUKE_T_UINT8, 1 },   { JUKE_T_UINT16, 2 },  { JUKE_T_UINT32, 4 },
    { JUKE_T_UINT64, 8 }, { JUKE_T_FLOAT16, 2 }, { JUKE_T_FLOAT32, 4 }, { JUKE_T_FLOAT64, 8 },
};

static void test_round_trip(void **state)
{
    char path[300];
    snprintf(path, sizeof path, "%s/a.npy", tmpdir);
    for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ti++) {
        for (int ndims = 0; ndims <= 5; ndims++) {
            NpyArray a;
            memset(&a, 0, sizeof a);
            a.type = types[ti].t;
            a.ndims = ndims;
            a.elsize = types[ti].size;
            a.length = 1;
            for (int j = 0; j < ndims; j++) {
                a.dims[j] = (int64_t)(rnd() % 5 + 1);
                a.length *= (size_t)a.dims[j];
            }
            a.data = malloc(a.length * a.elsize);
            uint8_t *p = a.data;
            for (size_t i = 0; i < a.length * a.elsize; i++)
                p[i] = a.type == JUKE_T_BOOL ? (uint8_t)(rnd() & 1) : (uint8_t)(rnd() | 1);
            char *err = NULL;
            if (npy_write_file(path, &a, &err) != 0)
                fail_msg("%s", err);
            NpyArray b;
            if (npy_read_file(path, &b, &err) != 0)
                fail_msg("%s", err);
            assert_int_equal(b.type, a.type);
            assert_int_equal(b.ndims, ndims);
            assert_int_equal(b.elsize, a.elsize);
            assert_int_equal(b.length, a.length);
            for (int j = 0; j < ndims; j++)
                assert_int_equal(b.dims[j], a.dims[j]);
            assert_memory_equal(b.data, a.data, a.length * a.elsize);
            /* the file starts its data at a multiple of 64 */
            FILE *f = fopen(path, "rb");
            fseek(f, 0, SEEK_END);
            long sz = ftell(f);
            fclose(f);
            assert_int_equal((size_t)sz % 64, (a.length * a.elsize) % 64);
            npy_free(&a);
            npy_free(&b);
        }
    }
    /* an empty array */
    NpyArray e = { .type = JUKE_T_FLOAT32, .ndims = 2, .dims = { 0, 3 }, .elsize = 4, .length = 0, .data = NULL };
    char *err = NULL;
    assert_int_equal(npy_write_file(path, &e, &err), 0);
    NpyArray b;
    assert_int_equal(npy_read_file(path, &b, &err), 0);
    assert_int_equal(b.length, 0);
    assert_int_equal(b.dims[0], 0);
    assert_int_equal(b.dims[1], 3);
    npy_free(&b);
    unlink(path);
}

static void test_c_order(void **state)
{
    /* C (2, 3) int32 [[0 1 2] [3 4 5]]: Julia column-major 0 3 1 4 2 5 */
    int32_t c[6] = { 0, 1, 2, 3, 4, 5 };
    size_t size;
    uint8_t *img = make_npy(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", c, sizeof c, &size);
    NpyArray a;
    char *err = NULL;
    assert_int_equal(npy_parse(img, size, &a, &err), 0);
    assert_int_equal(a.ndims, 2);
    assert_int_equal(a.dims[0], 2);
    assert_int_equal(a.dims[1], 3);
    int32_t want[6] = { 0, 3, 1, 4, 2, 5 };
    assert_memory_equal(a.data, want, sizeof want);
    npy_free(&a);
    free(img);

    /* random 4-D float64, C order: A[i,j,k,l] (Julia) = C[i][j][k][l] */
    int64_t d[4];
    size_t n = 1;
    for (int j = 0; j < 4; j++) {
        d[j] = (int64_t)(rnd() % 4 + 2);
        n *= (size_t)d[j];
    }
    double *src = malloc(n * 8);
    for (size_t i = 0; i < n; i++)
        src[i] = (double)(rnd() % 100000) + 0.5;
    char header[200];
    snprintf(header, sizeof header, "{'descr': '<f8', 'fortran_order': False, 'shape': (%lld, %lld, %lld, %lld), }",
             (long long)d[0], (long long)d[1], (long long)d[2], (long long)d[3]);
    img = make_npy(2, header, src, n * 8, &size);
    assert_int_equal(npy_parse(img, size, &a, &err), 0);
    assert_int_equal(a.type, JUKE_T_FLOAT64);
    const double *out = a.data;
    for (int64_t i = 0; i < d[0]; i++)
        for (int64_t j = 0; j < d[1]; j++)
            for (int64_t k = 0; k < d[2]; k++)
                for (int64_t l = 0; l < d[3]; l++) {
                    size_t csrc = (size_t)(((i * d[1] + j) * d[2] + k) * d[3] + l);
                    size_t fdst = (size_t)(i + d[0] * (j + d[1] * (k + d[2] * l)));
                    assert_true(out[fdst] == src[csrc]);
                }
    npy_free(&a);
    free(img);

    /* the same bytes marked Fortran order are read as they are */
    snprintf(header, sizeof header, "{'descr': '<f8', 'fortran_order': True, 'shape': (%lld, %lld, %lld, %lld), }",
             (long long)d[0], (long long)d[1], (long long)d[2], (long long)d[3]);
    img = make_npy(3, header, src, n * 8, &size);
    assert_int_equal(npy_parse(img, size, &a, &err), 0);
    assert_memory_equal(a.data, src, n * 8);
    npy_free(&a);
    free(img);
    free(src);
}

static void test_header_variants(void **state)
{
    uint8_t data[16] = { 1, 0, 2, 0, 3, 0, 4, 0 };
    const char *ok[] = {
        "{\"descr\": \"<u2\", \"fortran_order\": False, \"shape\": (4,)}",
        "{'shape': (4L,), 'fortran_order': False, 'descr': '<u2'}",
        "{ 'descr' : '=u2' , 'fortran_order' : True , 'shape' : ( 4 , ) , }",
        "{'descr': 'u2', 'fortran_order': False, 'shape': (2, 2), }",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        size_t size;
        uint8_t *img = make_npy(1, ok[i], data, 8, &size);
        NpyArray a;
        char *err = NULL;
        if (npy_parse(img, size, &a, &err) != 0)
            fail_msg("%s: %s", ok[i], err);
        assert_int_equal(a.type, JUKE_T_UINT16);
        assert_int_equal(a.length, 4);
        npy_free(&a);
        free(img);
    }
    /* a scalar, and booleans normalised to 0/1 */
    uint8_t bools[3] = { 0, 7, 1 };
    size_t size;
    uint8_t *img = make_npy(1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", bools, 3, &size);
    NpyArray a;
    char *err = NULL;
    assert_int_equal(npy_parse(img, size, &a, &err), 0);
    assert_int_equal(a.type, JUKE_T_BOOL);
    assert_int_equal(((uint8_t *)a.data)[1], 1);
    npy_free(&a);
    free(img);
    double x = 2.5;
    img = make_npy(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", &x, 8, &size);
    assert_int_equal(npy_parse(img, size, &a, &err), 0);
    assert_int_equal(a.ndims, 0);
    assert_int_equal(a.length, 1);
    assert_true(*(double *)a.data == 2.5);
    npy_free(&a);
    free(img);
    assert_string_equal(npy_julia_type_name(JUKE_T_FLOAT16), "Float16");
    assert_string_equal(npy_julia_type_name(JUKE_T_UINT64), "UInt64");
}

static void expect_error(const uint8_t *img, size_t size, const char *want)
{
    NpyArray a;
    char *err = NULL;
    memset(&a, 0x5a, sizeof a);
    assert_int_equal(npy_parse(img, size, &a, &err), -1);
    assert_non_null(err);
    if (strcmp(err, want) != 0)
        fail_msg("got  \"%s\"\nwant \"%s\"", err, want);
    assert_null(a.data);
    free(err);
}

static void expect_header_error(int major, const char *header, size_t dlen, const char *want)
{
    uint8_t data[64] = { 0 };
    size_t size;
    uint8_t *img = make_npy(major, header, data, dlen, &size);
    expect_error(img, size, want);
    free(img);
}

static void test_malformed(void **state)
{
    expect_error((const uint8_t *)"\x93NUMP", 5, "truncated .npy file: 5 bytes, the preamble alone takes 10");
    expect_error((const uint8_t *)"PK\x03\x04 not an npy file", 22, "not a .npy file: bad magic (expected \\x93NUMPY)");
    uint8_t v4[16] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 4, 0, 0, 0 };
    expect_error(v4, sizeof v4, "unsupported .npy format version 4.0");
    uint8_t v2short[11] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0, 0, 0 };
    expect_error(v2short, sizeof v2short, "truncated .npy file: 11 bytes, the preamble alone takes 12");
    uint8_t longhdr[20] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0xff, 0x00, '{' };
    expect_error(longhdr, sizeof longhdr,
                 "truncated .npy file: the header takes 255 bytes, only 10 follow the preamble");

    expect_header_error(1, "['descr', '<f4']", 0, "malformed .npy header: it is not a dict");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False}", 0, "malformed .npy header: no 'shape'");
    expect_header_error(1, "{'descr': '<U16', 'fortran_order': False, 'shape': (2,), }", 32,
                        "unsupported .npy dtype '<U16' (juke reads b1, i1-i8, u1-u8, f2, f4, f8, c8, c16)");
    expect_header_error(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8,
                        "unsupported .npy dtype '>f4': big-endian data");
    expect_header_error(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", 8,
                        "malformed .npy header: 'descr' is not a string (structured dtypes are not supported)");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': maybe, 'shape': (2,), }", 8,
                        "malformed .npy header: 'fortran_order' is neither True nor False");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }", 8,
                        "malformed .npy header: negative dimension in 'shape'");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3], }", 8,
                        "malformed .npy header: 'shape' is not a tuple");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", 4,
                        "unsupported .npy array: more than 8 dimensions");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", 40,
                        "truncated .npy data: a 3×4 Float32 array needs 48 bytes, the file holds 40");
    expect_header_error(2, "{'descr': '<i8', 'fortran_order': False, 'shape': (5,), }", 39,
                        "truncated .npy data: a 5-element Int64 array needs 40 bytes, the file holds 39");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 16), }", 8,
                        "unsupported .npy array: too many elements");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", 8,
                        "malformed .npy header: unknown key 'extra'");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,) 'x'}", 8,
                        "malformed .npy header: expected ',' or '}'");
    expect_header_error(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk", 8,
                        "malformed .npy header: text after the dict");
    expect_header_error(1, "{'descr: '<f4', 'fortran_order': False, 'shape': (2,)}", 8,
                        "malformed .npy header: expected ':' after a key");

    char *err = NULL;
    NpyArray a;
    assert_int_equal(npy_read_file("/nonexistent/x.npy", &a, &err), -1);
    assert_string_equal(err, "/nonexistent/x.npy: cannot open: No such file or directory");
    free(err);
}

/* Random corruption of a valid file never crashes and never reads out of bounds. */
static void test_fuzz(void **state)
{
    float data[12];
    for (int i = 0; i < 12; i++)
        data[i] = (float)i;
    size_t size;
    uint8_t *img = make_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }", data, sizeof data, &size);
    for (int it = 0; it < 20000; it++) {
        size_t len = it % 4 == 0 ? rnd() % (size + 1) : size;
        uint8_t *m = malloc(len ? len : 1);
        memcpy(m, img, len);
        int flips = (int)(rnd() % 4) + 1;
        for (int f = 0; f < flips && len; f++)
            m[rnd() % len] = (uint8_t)rnd();
        NpyArray a;
        char *err = NULL;
        int rc = npy_parse(m, len, &a, &err);
        if (rc == 0) {
            assert_true(a.length * a.elsize <= len);
            npy_free(&a);
        } else {
            assert_non_null(err);
            free(err);
        }
        free(m);
    }
    free(img);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip), cmocka_unit_test(test_c_order), cmocka_unit_test(test_header_variants),
        cmocka_unit_test(test_malformed),  cmocka_unit_test(test_fuzz),
    };
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
