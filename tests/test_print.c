/* test_print.c: kernels' output through the C API (juke_set_print_callback): one call per record, in
 * work-item order on the CPU device, records never split; a full print buffer drops whole records and
 * says how many; the message of a thrown exception reaches juke_errmsg; output printed before an
 * exception is delivered. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "juke.h"

static const char *src = "function hello(x)\n"
                         "    i = workitemIdx().x\n"
                         "    @rocprintf :lane \"item %d of group %d: x = %.2f\\n\" i workgroupIdx().x x\n"
                         "    @rocprintln :lane \"then $(i * 10)\"\n"
                         "    return\n"
                         "end\n"
                         "function flood(n)\n"
                         "    @rocprint :lane \"0123456789012345678901234567890123456789 $(workitemIdx().x)|\"\n"
                         "    return\n"
                         "end\n"
                         "function fail(x)\n"
                         "    @rocprintln :lane \"about to fail\"\n"
                         "    workitemIdx().x == 2 && throw(ArgumentError(\"x was $x\"))\n"
                         "    return\n"
                         "end\n";

typedef struct Captured {
    int calls[3];
    char *text[3];
    size_t len[3];
    int records_with_two_lines; /* each hello record is one line; none may hold a piece of another */
} Captured;

static void on_print(void *user, int stream, const char *text, size_t len)
{
    Captured *c = user;
    assert_true(stream == 1 || stream == 2);
    c->calls[stream]++;
    char *t = realloc(c->text[stream], c->len[stream] + len + 1);
    assert_non_null(t);
    memcpy(t + c->len[stream], text, len);
    c->len[stream] += len;
    t[c->len[stream]] = 0;
    c->text[stream] = t;
    int nl = 0;
    for (size_t i = 0; i < len; i++)
        nl += text[i] == '\n';
    if (nl > 1)
        c->records_with_two_lines++;
}

static void reset(Captured *c)
{
    for (int i = 0; i < 3; i++) {
        free(c->text[i]);
        c->text[i] = NULL;
        c->len[i] = 0;
        c->calls[i] = 0;
    }
    c->records_with_two_lines = 0;
}

static void test_callback_order_and_overflow(void **state)
{
    (void)state;
    juke_context *ctx = juke_context_create();
    juke_device *dev;
    juke_module *m;
    assert_int_equal(juke_device_open(ctx, "cpu", &dev), JUKE_OK);
    assert_int_equal(juke_module_load_string(ctx, "print.jl", src, &m), JUKE_OK);
    Captured c = { 0 };
    juke_set_print_callback(ctx, on_print, &c);

    /* two groups of three: six records of each print, in work-item order, one call each */
    juke_arg x = juke_arg_f64(1.5);
    juke_launch_config cfg = { { 3, 1, 1 }, { 2, 1, 1 }, 0, false };
    assert_int_equal(juke_launch(dev, m, "hello", &x, 1, &cfg), JUKE_OK);
    assert_int_equal(c.calls[1], 12);
    assert_int_equal(c.calls[2], 0);
    assert_int_equal(c.records_with_two_lines, 0);
    assert_string_equal(c.text[1], "item 1 of group 1: x = 1.50\nthen 10\n"
                                   "item 2 of group 1: x = 1.50\nthen 20\n"
                                   "item 3 of group 1: x = 1.50\nthen 30\n"
                                   "item 1 of group 2: x = 1.50\nthen 10\n"
                                   "item 2 of group 2: x = 1.50\nthen 20\n"
                                   "item 3 of group 2: x = 1.50\nthen 30\n");

    /* 64 groups of 256 records of 104 bytes are 1.6 MiB: what does not fit is dropped whole and counted */
    reset(&c);
    juke_arg n = juke_arg_i64(1);
    juke_launch_config big = { { 256, 1, 1 }, { 64, 1, 1 }, 0, false };
    assert_int_equal(juke_launch(dev, m, "flood", &n, 1, &big), JUKE_OK);
    assert_int_equal(c.calls[2], 1);
    int lost = 0;
    unsigned long long bytes = 0, cap = 0;
    assert_int_equal(sscanf(c.text[2], "juke: %d print records (%llu bytes) lost: the kernel's print buffer of %llu",
                            &lost, &bytes, &cap),
                     3);
    assert_int_equal(c.calls[1] + lost, 256 * 64);
    assert_int_equal(bytes, (unsigned long long)lost * 104);
    assert_int_equal(cap, 1u << 20);
    /* every delivered record is whole: the text, then its work-item's number */
    for (char *p = c.text[1]; *p;) {
        assert_int_equal(strncmp(p, "0123456789012345678901234567890123456789 ", 41), 0);
        p += 41;
        int digits = 0;
        while (*p >= '0' && *p <= '9')
            p++, digits++;
        assert_true(digits >= 1 && digits <= 3);
        assert_int_equal(*p++, '|');
    }
    /* the next launch starts with an empty buffer */
    reset(&c);
    assert_int_equal(juke_launch(dev, m, "hello", &x, 1, &cfg), JUKE_OK);
    assert_int_equal(c.calls[1], 12);
    assert_int_equal(c.calls[2], 0);

    /* a thrown exception: its message in juke_errmsg, the output before it delivered */
    reset(&c);
    juke_launch_config four = { { 4, 1, 1 }, { 1, 1, 1 }, 0, false };
    juke_arg seven = juke_arg_i32(7);
    assert_int_equal(juke_launch(dev, m, "fail", &seven, 1, &four), JUKE_ERR_KERNEL);
    assert_non_null(strstr(juke_errmsg(ctx), "fail: ArgumentError: x was 7"));
    assert_non_null(strstr(juke_errmsg(ctx), "work-item (2, 1, 1)"));
    assert_non_null(strstr(c.text[1], "about to fail\n"));

    /* no callback: back to stdout (not captured) */
    reset(&c);
    juke_set_print_callback(ctx, NULL, NULL);
    assert_int_equal(juke_launch(dev, m, "hello", &x, 1, &cfg), JUKE_OK);
    assert_int_equal(c.calls[1], 0);
    reset(&c);
    juke_module_free(m);
    juke_context_destroy(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_callback_order_and_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
