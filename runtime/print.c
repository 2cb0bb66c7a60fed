/* print.c: the host side of kernels' printing (@rocprintf, @rocprint, @rocprintln) and of thrown
 * exceptions' messages: reading the print area of an exception buffer (runtime/abi.h), formatting each
 * record (C printf conversions, and %J: a value as Julia's print shows it) and handing the text to the
 * device's print sink. No LLVM, no compiler: a record carries its own format. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* A growable byte buffer (the runtime does not link the compiler's StrBuf). */
typedef struct PrBuf {
    char *data;
    size_t len, cap;
    bool oom;
} PrBuf;

static void pr_put(PrBuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 256;
        while (nc < b->len + n + 1)
            nc *= 2;
        char *d = realloc(b->data, nc);
        if (!d) {
            b->oom = true;
            return;
        }
        b->data = d;
        b->cap = nc;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void pr_puts(PrBuf *b, const char *s)
{
    pr_put(b, s, strlen(s));
}

void rt_exception_buffer_init(void *buf)
{
    memset(buf, 0, JUKE_PRINT_DATA_OFFSET);
    JukePrintHeader *h = (JukePrintHeader *)((uint8_t *)buf + JUKE_PRINT_HEADER_OFFSET);
    h->capacity = JUKE_PRINT_CAPACITY;
}

/* ---- numbers as Julia prints them ---- */

static double half_to_double(uint16_t h)
{
    int e = h >> 10 & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return h & 0x8000 ? -v : v;
}

/* Round a double to the nearest Float16 (ties to even) and back. */
static double round_half(double x)
{
    if (!isfinite(x) || x == 0)
        return x;
    double a = fabs(x);
    if (a >= 65520.0)
        return x < 0 ? -INFINITY : INFINITY;
    int e;
    frexp(a, &e);                        /* a = f * 2^e, f in [0.5, 1) */
    int q = e - 11 < -24 ? -24 : e - 11; /* the quantum: 11 significant bits, subnormals at 2^-24 */
    double r = nearbyint(ldexp(a, -q));
    return copysign(ldexp(r, q), x);
}

/* Shortest decimal digits that read back as x in a float of `bits` bits: digits[] (no dot), their count,
 * and the decimal point's position pt (x = 0.digits * 10^pt). */
static int shortest_digits(double x, int bits, char *digits, int *pt)
{
    int maxp = bits == 64 ? 17 : bits == 32 ? 9 : 5;
    char tmp[64];
    for (int p = 1; p <= maxp; p++) {
        snprintf(tmp, sizeof tmp, "%.*e", p - 1, x);
        double y = strtod(tmp, NULL);
        bool same = bits == 64 ? y == x : bits == 32 ? (float)y == (float)x : round_half(y) == x;
        if (same || p == maxp) {
            int n = 0;
            char *s = tmp;
            for (; *s && *s != 'e'; s++)
                if (*s >= '0' && *s <= '9')
                    digits[n++] = *s;
            int ex = atoi(s + 1);
            while (n > 1 && digits[n - 1] == '0')
                n--;
            digits[n] = '\0';
            *pt = ex + 1;
            return n;
        }
    }
    return 0;
}

/* Julia's print of a Float16/32/64 (Base.Ryu.writeshortest): "1.5", "0.0001", "1.0e-5", "1.0e6". */
static void julia_float(PrBuf *b, double x, int bits)
{
    if (isnan(x)) {
        pr_puts(b, "NaN");
        return;
    }
    if (signbit(x))
        pr_puts(b, "-");
    x = fabs(x);
    if (isinf(x)) {
        pr_puts(b, "Inf");
        return;
    }
    if (x == 0) {
        pr_puts(b, "0.0");
        return;
    }
    char d[32];
    int pt;
    int n = shortest_digits(x, bits, d, &pt);
    int limit = bits == 16 ? 3 : 6;
    bool plain = -4 < pt && pt <= limit && !(pt >= n && fabs(fmod(x + 0.05, pow(10.0, pt - n)) - 0.05) > 0.05);
    if (plain) {
        if (pt <= 0) {
            pr_puts(b, "0.");
            for (int i = 0; i < -pt; i++)
                pr_puts(b, "0");
            pr_put(b, d, (size_t)n);
        } else if (pt < n) {
            pr_put(b, d, (size_t)pt);
            pr_puts(b, ".");
            pr_put(b, d + pt, (size_t)(n - pt));
        } else {
            pr_put(b, d, (size_t)n);
            for (int i = n; i < pt; i++)
                pr_puts(b, "0");
            pr_puts(b, ".0");
        }
        return;
    }
    char e[16];
    pr_put(b, d, 1);
    pr_puts(b, ".");
    if (n > 1)
        pr_put(b, d + 1, (size_t)(n - 1));
    else
        pr_puts(b, "0");
    snprintf(e, sizeof e, "e%d", pt - 1);
    pr_puts(b, e);
}

static bool code_is_float(int c)
{
    return c == JUKE_T_FLOAT16 || c == JUKE_T_FLOAT32 || c == JUKE_T_FLOAT64;
}
static bool code_is_unsigned(int c)
{
    return c >= JUKE_T_UINT8 && c <= JUKE_T_UINT64;
}
static int code_bits(int c)
{
    switch (c) {
    case JUKE_T_BOOL:
    case JUKE_T_INT8:
    case JUKE_T_UINT8: return 8;
    case JUKE_T_INT16:
    case JUKE_T_UINT16:
    case JUKE_T_FLOAT16: return 16;
    case JUKE_T_INT32:
    case JUKE_T_UINT32:
    case JUKE_T_FLOAT32: return 32;
    default: return 64;
    }
}

static double arg_double(int code, uint64_t bits)
{
    if (code == JUKE_T_FLOAT64) {
        double d;
        memcpy(&d, &bits, 8);
        return d;
    }
    if (code == JUKE_T_FLOAT32) {
        float f;
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, 4);
        return f;
    }
    if (code == JUKE_T_FLOAT16)
        return half_to_double((uint16_t)bits);
    return code_is_unsigned(code) ? (double)bits : (double)(int64_t)bits;
}

/* The value as Julia's print shows it: integers in decimal, unsigned ones in hex with all their digits
 * (0x0a), Bool as true/false, floats as Base.Ryu does. */
static void julia_value(PrBuf *b, int code, uint64_t bits)
{
    char t[40];
    if (code == JUKE_T_BOOL)
        pr_puts(b, bits ? "true" : "false");
    else if (code_is_float(code))
        julia_float(b, arg_double(code, bits), code_bits(code));
    else if (code_is_unsigned(code)) {
        int w = code_bits(code) / 4;
        uint64_t m = w == 16 ? ~0ull : (1ull << (4 * w)) - 1;
        snprintf(t, sizeof t, "0x%0*" PRIx64, w, bits & m);
        pr_puts(b, t);
    } else {
        snprintf(t, sizeof t, "%" PRId64, (int64_t)bits);
        pr_puts(b, t);
    }
}

/* The value as Julia's show (repr) shows it: as print does, but a Float32 with its f exponent (1.5f0,
 * 1.0f10, NaN32, Inf32) and a Float16 as Float16(1.5). */
static void julia_repr(PrBuf *b, int code, uint64_t bits)
{
    if (code != JUKE_T_FLOAT32 && code != JUKE_T_FLOAT16) {
        julia_value(b, code, bits);
        return;
    }
    PrBuf v = { 0 };
    julia_value(&v, code, bits);
    const char *t = v.data ? v.data : "";
    if (code == JUKE_T_FLOAT16) {
        pr_puts(b, "Float16(");
        pr_puts(b, t);
        pr_puts(b, ")");
    } else if (strcmp(t, "NaN") == 0 || strcmp(t, "Inf") == 0 || strcmp(t, "-Inf") == 0) {
        pr_puts(b, t);
        pr_puts(b, "32");
    } else {
        const char *e = strchr(t, 'e');
        if (e) {
            pr_put(b, t, (size_t)(e - t));
            pr_puts(b, "f");
            pr_puts(b, e + 1);
        } else {
            pr_puts(b, t);
            pr_puts(b, "f0");
        }
    }
    free(v.data);
}

/* ---- one record ---- */

static void put_utf8(PrBuf *b, uint32_t cp)
{
    char u[4];
    int n;
    if (cp < 0x80) {
        u[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        n = 2;
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        n = 3;
    } else {
        cp = cp > 0x10ffff ? 0xfffd : cp;
        u[0] = (char)(0xf0 | cp >> 18);
        u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        n = 4;
    }
    pr_put(b, u, (size_t)n);
}

/* Format one conversion spec (spec[0..n): "%-08.3", the flags, width and precision) of conversion conv
 * with the argument (code, bits). */
static void format_one(PrBuf *b, const char *spec, size_t n, char conv, int code, uint64_t bits)
{
    char f[48], out[512];
    if (n > 32)
        n = 32;
    if (conv == 'J' || conv == 'R' || conv == 's' || conv == 'c') {
        PrBuf v = { 0 };
        if (conv == 'c')
            put_utf8(&v, (uint32_t)bits);
        else if (conv == 'R')
            julia_repr(&v, code, bits);
        else
            julia_value(&v, code, bits);
        snprintf(f, sizeof f, "%.*ss", (int)n, spec);
        int len = snprintf(out, sizeof out, f, v.data ? v.data : "");
        if (len >= (int)sizeof out && v.data) /* wider than out: the text itself, unpadded */
            pr_puts(b, v.data);
        else if (len > 0)
            pr_put(b, out, (size_t)len);
        free(v.data);
        return;
    }
    int len;
    if (strchr("diuxXo", conv)) {
        uint64_t u = bits;
        int w = code_bits(code);
        if (code_is_float(code))
            u = (uint64_t)(int64_t)arg_double(code, bits);
        if ((conv == 'd' || conv == 'i') && !code_is_unsigned(code)) {
            snprintf(f, sizeof f, "%.*s" PRId64, (int)n, spec);
            len = snprintf(out, sizeof out, f, (int64_t)u);
        } else {
            /* as Julia's Printf: a negative value is "-" and its magnitude, also for %u, %x and %o */
            bool neg = !code_is_unsigned(code) && (int64_t)u < 0;
            if (neg)
                u = 0 - u;
            (void)w;
            const char *c = conv == 'x' ? PRIx64 : conv == 'X' ? PRIX64 : conv == 'o' ? PRIo64 : PRIu64;
            char sp[40];
            size_t k = 0;
            int width = 0;
            const char *q = spec + 1;
            sp[k++] = '%';
            while (q < spec + n && strchr("-+ #0", *q) && k < 8)
                sp[k++] = *q++;
            while (q < spec + n && *q >= '0' && *q <= '9')
                width = width * 10 + (*q++ - '0');
            if (neg && width > 0)
                width--;
            if (width > 0 && width < 256)
                k += (size_t)snprintf(sp + k, sizeof sp - k, "%d", width);
            snprintf(sp + k, sizeof sp - k, "%.*s", (int)(spec + n - q < 8 ? spec + n - q : 8), q);
            snprintf(f, sizeof f, "%s%s", sp, c);
            char mag[400];
            int ml = snprintf(mag, sizeof mag, f, u);
            if (!neg) {
                memcpy(out, mag, sizeof mag);
                len = ml;
            } else {
                size_t lead = strspn(mag, " ");
                len = snprintf(out, sizeof out, "%.*s-%s", (int)lead, mag, mag + lead);
            }
        }
    } else {
        snprintf(f, sizeof f, "%.*s%c", (int)n, spec, conv);
        len = snprintf(out, sizeof out, f, arg_double(code, bits));
    }
    if (len > 0)
        pr_put(b, out, (size_t)(len < (int)sizeof out ? len : (int)sizeof out - 1));
}

/* The text of record r (its size already checked against the area). */
static void format_record(PrBuf *b, const JukePrintRecord *r)
{
    const uint8_t *types = (const uint8_t *)(r + 1);
    const uint64_t *args = (const uint64_t *)(types + ((r->nargs + 7u) & ~7u));
    const char *fmt = (const char *)(args + r->nargs), *end = fmt + r->fmt_len;
    int next = 0;
    for (const char *s = fmt; s < end;) {
        const char *pct = memchr(s, '%', (size_t)(end - s));
        if (!pct) {
            pr_put(b, s, (size_t)(end - s));
            break;
        }
        pr_put(b, s, (size_t)(pct - s));
        const char *p = pct + 1;
        if (p < end && *p == '%') {
            pr_puts(b, "%");
            s = p + 1;
            continue;
        }
        while (p < end && strchr("-+ #0", *p))
            p++;
        while (p < end && ((*p >= '0' && *p <= '9') || *p == '.'))
            p++;
        size_t speclen = (size_t)(p - pct);
        while (p < end && strchr("hlqjztL", *p))
            p++;
        if (p >= end) {
            pr_put(b, pct, (size_t)(end - pct));
            break;
        }
        char conv = *p++;
        if (next < r->nargs && strchr("diuxXoeEfFgGaAcsJR", conv)) {
            format_one(b, pct, speclen, conv, types[next], args[next]);
            next++;
        } else {
            pr_put(b, pct, (size_t)(p - pct));
        }
        s = p;
    }
}

static int record_cmp(const void *pa, const void *pb)
{
    const JukePrintRecord *a = *(const JukePrintRecord *const *)pa, *b = *(const JukePrintRecord *const *)pb;
    for (int d = 2; d >= 0; d--)
        if (a->group[d] != b->group[d])
            return a->group[d] < b->group[d] ? -1 : 1;
    for (int d = 2; d >= 0; d--)
        if (a->item[d] != b->item[d])
            return a->item[d] < b->item[d] ? -1 : 1;
    return a < b ? -1 : a > b; /* a work-item's records in the order it wrote them */
}

static void sink_write(RtDevice *dev, int stream, const char *text, size_t len)
{
    if (dev->print.write) {
        dev->print.write(dev->print.user, stream, text, len);
        return;
    }
    FILE *f = stream == 2 ? stderr : stdout;
    fwrite(text, 1, len, f);
    fflush(f);
}

/* Is there a whole, completed record at off of a data area of `limit` bytes? */
static const JukePrintRecord *record_at(const uint8_t *data, uint64_t off, uint64_t limit)
{
    if (off + sizeof(JukePrintRecord) > limit)
        return NULL;
    const JukePrintRecord *r = (const JukePrintRecord *)(data + off);
    uint64_t need = sizeof *r + ((r->nargs + 7u) & ~7u) + 8ull * r->nargs + r->fmt_len;
    if (r->size < need || r->size % 8 || off + r->size > limit)
        return NULL;
    return r;
}

void rt_print_drain(RtDevice *dev, void *buf, const JukeExceptionRecord *rec)
{
    JukePrintHeader *h = (JukePrintHeader *)((uint8_t *)buf + JUKE_PRINT_HEADER_OFFSET);
    const uint8_t *data = (const uint8_t *)buf + JUKE_PRINT_DATA_OFFSET;
    uint64_t used = __atomic_load_n(&h->used, __ATOMIC_ACQUIRE);
    uint64_t limit = used < h->capacity ? used : h->capacity;
    uint32_t lost = h->lost;
    uint64_t lost_bytes = h->lost_bytes;
    int64_t msg_off = rec && rec->kind == JUKE_EXC_THROWN ? rec->index[0] : -1;
    size_t n = 0, cap = 0, incomplete = 0;
    const JukePrintRecord **list = NULL;
    for (uint64_t off = 0; off < limit;) {
        const JukePrintRecord *r = record_at(data, off, limit);
        if (!r) {
            incomplete++;
            break;
        }
        if (r->done != JUKE_PRINT_DONE) {
            incomplete++;
        } else if (r->flags & JUKE_PRINT_MESSAGE) {
            if ((int64_t)off == msg_off) {
                PrBuf m = { 0 };
                format_record(&m, r);
                free(dev->thrown_message);
                dev->thrown_message = m.data;
            }
        } else {
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                const JukePrintRecord **nl = realloc(list, nc * sizeof *nl);
                if (!nl)
                    break;
                list = nl;
                cap = nc;
            }
            list[n++] = r;
        }
        off += r->size;
    }
    if (dev->print_sorted && n > 1)
        qsort(list, n, sizeof *list, record_cmp);
    PrBuf b = { 0 };
    for (size_t i = 0; i < n; i++) {
        b.len = 0;
        format_record(&b, list[i]);
        if (b.len)
            sink_write(dev, 1, b.data, b.len);
    }
    free(list);
    if (lost || incomplete) {
        char note[256];
        int len = lost ? snprintf(note, sizeof note,
                                  "juke: %" PRIu32 " print record%s (%" PRIu64
                                  " bytes) lost: the kernel's print buffer of %" PRIu64 " bytes was full\n",
                                  lost, lost == 1 ? "" : "s", lost_bytes, (uint64_t)h->capacity)
                       : snprintf(note, sizeof note, "juke: %zu print record%s left incomplete by the kernel\n",
                                  incomplete, incomplete == 1 ? "" : "s");
        if (len > 0)
            sink_write(dev, 2, note, (size_t)len < sizeof note ? (size_t)len : sizeof note - 1);
    }
    free(b.data);
    h->lost = 0;
    h->lost_bytes = 0;
    __atomic_store_n(&h->used, 0, __ATOMIC_RELEASE);
}
