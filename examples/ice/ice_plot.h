/* ice_plot.h: the solver's output files: .npy arrays, and PNG images (through
 * libpng) of a field with a colour map and a colour bar, and of a residual
 * history on a log axis. Each returns 0 on success, -1 with errno-style
 * detail printed to stderr on failure. */
#ifndef ICE_PLOT_H
#define ICE_PLOT_H

#include <stddef.h>
#include <stdint.h>

/* A column-major nx x ny Float64 array as NumPy's .npy (fortran_order). */
int ice_write_npy(const char *path, const double *a, int64_t nx, int64_t ny);
/* Read back what ice_write_npy wrote (*out malloc'd): 0, or -1 when the file
 * is not a Float64 2-D .npy. */
int ice_read_npy(const char *path, double **out, int64_t *nx, int64_t *ny);
/* The field (x across, y up) scaled to about 512 pixels, viridis-like colours
 * from its minimum to its maximum, and a colour bar with 5 ticks labelled in
 * a small bitmap font. */
int ice_write_field_png(const char *path, const double *a, int64_t nx, int64_t ny);
/* log10(res[k]) against iters[k], k < n, as a line, with the decades of the
 * y axis and the first and last iteration labelled. */
int ice_write_convergence_png(const char *path, const int64_t *iters, const double *res, size_t n);

#endif
