/* ice_plot.c: .npy files and PNG plots of the shallow-ice solver (ice_plot.h). */
#include "ice_plot.h"

#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ice_write_npy(const char *path, const double *a, int64_t nx, int64_t ny)
{
    char header[128];
    int n = snprintf(header, sizeof header, "{'descr': '<f8', 'fortran_order': True, 'shape': (%lld, %lld), }",
                     (long long)nx, (long long)ny);
    /* magic (6) + version (2) + length (2) + header + padding + '\n', a multiple of 64. */
    int total = (10 + n + 1 + 63) / 64 * 64;
    int pad = total - 10 - n - 1;
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    unsigned char pre[10] = {
        0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (unsigned char)((total - 10) & 0xff), (unsigned char)((total - 10) >> 8)
    };
    fwrite(pre, 1, sizeof pre, f);
    fwrite(header, 1, (size_t)n, f);
    for (int i = 0; i < pad; i++)
        fputc(' ', f);
    fputc('\n', f);
    fwrite(a, sizeof *a, (size_t)(nx * ny), f);
    if (fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

int ice_read_npy(const char *path, double **out, int64_t *nx, int64_t *ny)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    unsigned char pre[10];
    char header[512];
    long long a = 0, b = 0;
    int ok = fread(pre, 1, 10, f) == 10 && pre[0] == 0x93 && pre[6] == 1;
    size_t len = ok ? (size_t)(pre[8] | pre[9] << 8) : 0;
    ok = ok && len < sizeof header && fread(header, 1, len, f) == len;
    if (ok) {
        header[len] = '\0';
        const char *shape = strstr(header, "'shape': (");
        ok = strstr(header, "'<f8'") && strstr(header, "True") && shape &&
             sscanf(shape, "'shape': (%lld, %lld)", &a, &b) == 2 && a > 0 && b > 0;
    }
    double *data = ok ? malloc((size_t)(a * b) * sizeof *data) : NULL;
    ok = data && fread(data, sizeof *data, (size_t)(a * b), f) == (size_t)(a * b);
    fclose(f);
    if (!ok) {
        fprintf(stderr, "%s: not a 2-D Float64 .npy file\n", path);
        free(data);
        return -1;
    }
    *out = data;
    *nx = a;
    *ny = b;
    return 0;
}

/* An RGB canvas. */
typedef struct {
    int w, h;
    unsigned char *px;
} canvas;

static void put(canvas *c, int x, int y, const unsigned char rgb[3])
{
    if (x >= 0 && x < c->w && y >= 0 && y < c->h)
        memcpy(c->px + 3 * ((size_t)y * c->w + x), rgb, 3);
}

static void fill_rect(canvas *c, int x0, int y0, int w, int h, const unsigned char rgb[3])
{
    for (int y = y0; y < y0 + h; y++)
        for (int x = x0; x < x0 + w; x++)
            put(c, x, y, rgb);
}

/* A 3x5 font: each glyph five rows of three bits, the top row first. */
static const struct {
    char ch;
    unsigned char rows[5];
} glyphs[] = {
    { '0', { 7, 5, 5, 5, 7 } }, { '1', { 2, 6, 2, 2, 7 } }, { '2', { 7, 1, 7, 4, 7 } }, { '3', { 7, 1, 3, 1, 7 } },
    { '4', { 5, 5, 7, 1, 1 } }, { '5', { 7, 4, 7, 1, 7 } }, { '6', { 7, 4, 7, 5, 7 } }, { '7', { 7, 1, 1, 2, 2 } },
    { '8', { 7, 5, 7, 5, 7 } }, { '9', { 7, 5, 7, 1, 7 } }, { '.', { 0, 0, 0, 0, 2 } }, { '-', { 0, 0, 7, 0, 0 } },
    { '+', { 0, 2, 7, 2, 0 } }, { 'e', { 0, 7, 7, 4, 7 } },
};

/* Text at (x, y) (its top left), each font pixel a scale x scale square. */
static void draw_text(canvas *c, int x, int y, int scale, const char *s, const unsigned char rgb[3])
{
    for (; *s; s++, x += 4 * scale)
        for (size_t g = 0; g < sizeof glyphs / sizeof glyphs[0]; g++)
            if (glyphs[g].ch == *s)
                for (int r = 0; r < 5; r++)
                    for (int b = 0; b < 3; b++)
                        if (glyphs[g].rows[r] >> (2 - b) & 1)
                            fill_rect(c, x + b * scale, y + r * scale, scale, scale, rgb);
}

/* A colour map close to matplotlib's viridis, by linear interpolation
 * between nine of its colours; t in [0, 1]. */
static void colour_of(double t, unsigned char rgb[3])
{
    static const unsigned char stops[9][3] = {
        { 68, 1, 84 },    { 71, 44, 122 }, { 59, 81, 139 },  { 44, 113, 142 }, { 33, 144, 141 },
        { 39, 173, 129 }, { 92, 200, 99 }, { 170, 220, 50 }, { 253, 231, 37 },
    };
    if (!(t > 0))
        t = 0;
    if (t > 1)
        t = 1;
    double p = t * 8;
    int k = p >= 8 ? 7 : (int)p;
    double f = p - k;
    for (int i = 0; i < 3; i++)
        rgb[i] = (unsigned char)lround(stops[k][i] * (1 - f) + stops[k + 1][i] * f);
}

static int write_png(const char *path, const canvas *c)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return -1;
    }
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        fprintf(stderr, "%s: libpng could not write the image\n", path);
        png_destroy_write_struct(&png, info ? &info : NULL);
        fclose(f);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)c->w, (png_uint_32)c->h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < c->h; y++)
        png_write_row(png, c->px + 3 * (size_t)y * c->w);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    return fclose(f) == 0 ? 0 : -1;
}

static const unsigned char black[3] = { 0, 0, 0 }, grey[3] = { 200, 200, 200 };

int ice_write_field_png(const char *path, const double *a, int64_t nx, int64_t ny)
{
    int64_t big = nx > ny ? nx : ny;
    int scale = big >= 512 ? 1 : (int)(512 / big);
    int step = big > 1024 ? (int)((big + 1023) / 1024) : 1; /* subsample huge fields */
    int fw = (int)((nx + step - 1) / step) * scale, fh = (int)((ny + step - 1) / step) * scale;
    int margin = 20, bar_w = 24, label_w = 70;
    canvas c = { fw + 3 * margin + bar_w + label_w, fh + 2 * margin, NULL };
    c.px = malloc((size_t)c.w * c.h * 3);
    if (!c.px)
        return -1;
    memset(c.px, 255, (size_t)c.w * c.h * 3);
    double lo = INFINITY, hi = -INFINITY;
    for (int64_t k = 0; k < nx * ny; k++) {
        lo = fmin(lo, a[k]);
        hi = fmax(hi, a[k]);
    }
    double span = hi > lo ? hi - lo : 1;
    unsigned char rgb[3];
    for (int64_t j = 0; j < ny; j += step)
        for (int64_t i = 0; i < nx; i += step) {
            colour_of((a[i + j * nx] - lo) / span, rgb);
            /* y grows upwards: row j = 1 is at the bottom. */
            fill_rect(&c, margin + (int)(i / step) * scale, margin + fh - (int)(j / step + 1) * scale, scale, scale,
                      rgb);
        }
    int bx = margin * 2 + fw;
    for (int y = 0; y < fh; y++) {
        colour_of(1.0 - (double)y / (fh - 1 > 0 ? fh - 1 : 1), rgb);
        fill_rect(&c, bx, margin + y, bar_w, 1, rgb);
    }
    for (int t = 0; t <= 4; t++) {
        int y = margin + (int)lround((fh - 1) * (1.0 - t / 4.0));
        char label[32];
        snprintf(label, sizeof label, "%.3g", lo + (hi - lo) * t / 4.0);
        fill_rect(&c, bx + bar_w, y, 5, 1, black);
        draw_text(&c, bx + bar_w + 8, y - 5, 2, label, black);
    }
    int rc = write_png(path, &c);
    free(c.px);
    return rc;
}

static void draw_line(canvas *c, int x0, int y0, int x1, int y1, const unsigned char rgb[3])
{
    int steps = abs(x1 - x0) > abs(y1 - y0) ? abs(x1 - x0) : abs(y1 - y0);
    for (int s = 0; s <= steps; s++) {
        double t = steps ? (double)s / steps : 0;
        int x = (int)lround(x0 + (x1 - x0) * t), y = (int)lround(y0 + (y1 - y0) * t);
        fill_rect(c, x, y, 2, 2, rgb);
    }
}

int ice_write_convergence_png(const char *path, const int64_t *iters, const double *res, size_t n)
{
    int left = 70, right = 30, top = 20, bottom = 40, pw = 560, ph = 360;
    canvas c = { left + pw + right, top + ph + bottom, NULL };
    c.px = malloc((size_t)c.w * c.h * 3);
    if (!c.px)
        return -1;
    memset(c.px, 255, (size_t)c.w * c.h * 3);
    double lo = INFINITY, hi = -INFINITY;
    int64_t imax = 1;
    for (size_t k = 0; k < n; k++) {
        if (res[k] > 0) {
            lo = fmin(lo, floor(log10(res[k])));
            hi = fmax(hi, ceil(log10(res[k])));
        }
        if (iters[k] > imax)
            imax = iters[k];
    }
    if (!(hi > lo)) {
        lo = -1;
        hi = 0;
    }
    for (int d = (int)lo; d <= (int)hi; d++) {
        int y = top + (int)lround(ph * (hi - d) / (hi - lo));
        char label[16];
        snprintf(label, sizeof label, "1e%d", d);
        fill_rect(&c, left, y, pw, 1, grey);
        draw_text(&c, 8, y - 5, 2, label, black);
    }
    fill_rect(&c, left, top, 1, ph, black);
    fill_rect(&c, left, top + ph, pw, 1, black);
    draw_text(&c, left - 4, top + ph + 10, 2, "0", black);
    char last[24];
    snprintf(last, sizeof last, "%lld", (long long)imax);
    draw_text(&c, left + pw - 8 * (int)strlen(last), top + ph + 10, 2, last, black);
    static const unsigned char blue[3] = { 31, 119, 180 };
    int px = -1, py = -1;
    for (size_t k = 0; k < n; k++) {
        if (!(res[k] > 0))
            continue;
        int x = left + (int)lround((double)pw * iters[k] / imax);
        int y = top + (int)lround(ph * (hi - log10(res[k])) / (hi - lo));
        if (px >= 0)
            draw_line(&c, px, py, x, y, blue);
        px = x;
        py = y;
    }
    int rc = write_png(path, &c);
    free(c.px);
    return rc;
}
