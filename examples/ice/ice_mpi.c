/* ice_mpi.c: a GPU4GEO-style pseudo-transient solver over MPI, on juke kernels.
 *
 * The 2-D shallow-ice equation (Glen's n = 1: D = d0 + a*H^3) for the ice
 * thickness H over a bed B with a surface mass balance M, implicit in time,
 * each time step solved by damped pseudo-transient (PT) iterations in
 * examples/ice/ice.jl. The domain is split over a Cartesian topology of MPI
 * ranks (MPI_Cart_create) as ImplicitGlobalGrid splits it: every rank holds
 * nx x ny cells, its outer layer halo, and neighbours overlap by two cells,
 * so the global grid is dims*(n-2)+2 cells per dimension. After each PT
 * iteration the halo is exchanged with non-blocking MPI_Isend / MPI_Irecv,
 * x faces first, then y faces (whole rows, so corners follow): directly from
 * device memory where the MPI is CUDA- or ROCm-aware (and on the CPU device,
 * whose memory is the host's), else staged through host buffers with juke's
 * copy API. One rank per device: --device cuda|hip picks the GPU of the
 * rank's index on its node.
 *
 *   usage: mpirun -np N ice_mpi [options]
 *     --device cpu|cuda|hip   the device kind (default cpu); a full spec
 *                             (cuda:1, amdemu:gfx942) is opened as given
 *     --case ice|decay        ice: an ice cap over hills, grown from H = 0 by
 *                             M (default); decay: linear diffusion (D = 1) of
 *                             sin(pi x) sin(pi y) on [0,1]^2, checked against
 *                             its analytic decay exp(-2 pi^2 t)
 *     --nx N --ny N           cells per rank, halo included (default 66)
 *     --global N              the global cells per dimension instead (N-2
 *                             divisible by the ranks' dims)
 *     --nt N                  time steps (default 20); --dt T its length
 *     --tol E                 PT tolerance of max|R| relative to the first
 *                             iteration's (default 1e-8)
 *     --ncheck N              iterations between residual checks (default 50)
 *     --maxiter N             at most N iterations a step, and no failure when
 *                             a step stops there (for timing runs; default
 *                             200 * the global size, failing)
 *     --out DIR               write H every --nout steps (default: only the
 *                             end) as DIR/H_NNNN.npy and .png, the
 *                             convergence plot DIR/residual.png and its data
 *                             DIR/residual.txt (default: no files)
 *     --compare FILE.npy      compare the final global H with FILE (max
 *                             |difference| / max|H| must be below 1e-12)
 *     --staged                stage the halo through host buffers even where
 *                             MPI could read device memory
 *     --kernels FILE          ice.jl (default: next to this binary)
 *     --quiet                 no progress lines
 *
 * Output on rank 0: a progress line per time step (step, PT iterations,
 * residual, time per step), then per rank T_eff = A_eff / t_it, where
 * A_eff = (2*2 + 3) * nx*ny*8 bytes: H and dH/dtau read and written once,
 * Hold, B and M read once per iteration (the PT solvers' count; D is an
 * intermediate), and the time of the halo exchange apart from compute.
 * Exit status: 0, 1 on a failure or a check outside its bound, 2 on usage. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include "ice_plot.h"

#include <juke.h>
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    const char *device, *kcase, *out, *compare, *kernels;
    int64_t nx, ny, global;
    int nt, nout, ncheck;
    int64_t maxiter;
    double dt, tol;
    bool staged, quiet;
} options;

/* One rank's state. */
typedef struct {
    options o;
    int rank, nranks, dims[2], coords[2], nbr[2][2]; /* nbr[d][0]: lower side, [1]: upper */
    MPI_Comm cart;
    juke_context *ctx;
    juke_device *dev;
    juke_module *mod;
    juke_kernel *k_diff, *k_res, *k_upd, *k_pack, *k_unpack, *k_rowmax;
    juke_array *H, *Hold, *B, *M, *D, *R, *dHdtau;
    juke_array *xsend[2], *xrecv[2];   /* the x faces' device buffers, ny each */
    juke_array *rows;                  /* rowmax!'s output, nx */
    double *hrows;                     /* and its host copy */
    double *hsend[2][2], *hrecv[2][2]; /* host staging, [d][side] */
    bool direct;                       /* MPI reads and writes device memory */
    int64_t nxg, nyg;
    double dx, dy, lx, ly;
    double t_compute, t_exchange;
    int64_t iterations;
} solver;

static int fail(solver *s, const char *what)
{
    fprintf(stderr, "ice_mpi: rank %d: %s failed%s%s\n", s->rank, what, s->ctx ? ":\n" : "",
            s->ctx ? juke_errmsg(s->ctx) : "");
    return -1;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: ice_mpi [--device cpu|cuda|hip] [--case ice|decay] [--nx N --ny N | --global N] [--nt N]\n"
            "               [--dt T] [--tol E] [--ncheck N] [--maxiter N] [--out DIR] [--nout N] [--compare FILE.npy]\n"
            "               [--staged] [--kernels ice.jl] [--quiet]\n");
    return 2;
}

static int parse(int argc, char **argv, options *o)
{
    *o =
        (options){ .device = "cpu", .kcase = "ice", .nx = 66, .ny = 66, .nt = 20, .ncheck = 50, .dt = -1, .tol = 1e-8 };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes = true;
        if (!strcmp(a, "--device") && v)
            o->device = v;
        else if (!strcmp(a, "--case") && v)
            o->kcase = v;
        else if (!strcmp(a, "--nx") && v)
            o->nx = atoll(v);
        else if (!strcmp(a, "--ny") && v)
            o->ny = atoll(v);
        else if (!strcmp(a, "--global") && v)
            o->global = atoll(v);
        else if (!strcmp(a, "--nt") && v)
            o->nt = atoi(v);
        else if (!strcmp(a, "--nout") && v)
            o->nout = atoi(v);
        else if (!strcmp(a, "--ncheck") && v)
            o->ncheck = atoi(v);
        else if (!strcmp(a, "--maxiter") && v)
            o->maxiter = atoll(v);
        else if (!strcmp(a, "--dt") && v)
            o->dt = atof(v);
        else if (!strcmp(a, "--tol") && v)
            o->tol = atof(v);
        else if (!strcmp(a, "--out") && v)
            o->out = v;
        else if (!strcmp(a, "--compare") && v)
            o->compare = v;
        else if (!strcmp(a, "--kernels") && v)
            o->kernels = v;
        else {
            takes = false;
            if (!strcmp(a, "--staged"))
                o->staged = true;
            else if (!strcmp(a, "--quiet"))
                o->quiet = true;
            else
                return -1;
        }
        i += takes;
    }
    bool known_case = !strcmp(o->kcase, "ice") || !strcmp(o->kcase, "decay");
    if (!known_case || o->nx < 3 || o->ny < 3 || o->nt < 1 || o->ncheck < 1 || !(o->tol > 0))
        return -1;
    return 0;
}

/* ice.jl: argv's, else the copy next to this binary. */
static char *kernel_path(const char *given)
{
    if (given)
        return strdup(given);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *path = NULL;
    if (n > 0) {
        exe[n] = '\0';
        if (asprintf(&path, "%s/ice.jl", dirname(exe)) < 0)
            path = NULL;
    }
    return path ? path : strdup("ice.jl");
}

/* Whether this MPI passes device pointers of the device kind to its calls. */
static bool mpi_reads_device(const char *device)
{
    if (!strncmp(device, "cpu", 3))
        return true; /* the CPU device's arrays are host memory */
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    if (!strncmp(device, "cuda", 4))
        return MPIX_Query_cuda_support() == 1;
#endif
#if defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
    if (!strncmp(device, "hip", 3))
        return MPIX_Query_rocm_support() == 1;
#endif
    return false;
}

/* The rank's index among the ranks of its node picks its GPU; when there
 * are fewer GPUs than ranks, ranks share GPU 0. */
static int open_device(solver *s)
{
    const char *kind = s->o.device;
    if (!strcmp(kind, "cpu") || strchr(kind, ':')) /* the CPU, or a device the user named */
        return juke_device_open(s->ctx, kind, &s->dev) == JUKE_OK ? 0 : fail(s, "opening the device");
    MPI_Comm node;
    int local = 0;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, s->rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &local);
    MPI_Comm_free(&node);
    char spec[64];
    snprintf(spec, sizeof spec, "%s:%d", kind, local);
    if (juke_device_open(s->ctx, spec, &s->dev) == JUKE_OK)
        return 0;
    snprintf(spec, sizeof spec, "%s:0", kind);
    return juke_device_open(s->ctx, spec, &s->dev) == JUKE_OK ? 0 : fail(s, "opening the device");
}

static int get_kernel(solver *s, const char *name, const char *const *types, int n, juke_kernel **out)
{
    return juke_kernel_get(s->mod, name, types, n, s->dev, out) == JUKE_OK ? 0 : fail(s, name);
}

static int setup_kernels(solver *s)
{
    static const char *const m = "Matrix{Float64}", *const v = "Vector{Float64}", *const f = "Float64",
                             *const i = "Int64";
    const char *diff[] = { m, m, f, f };
    const char *res[] = { m, m, m, m, m, m, m, f, f, f, f };
    const char *upd[] = { m, m, m, f, f, f, f };
    const char *pack[] = { v, m, i };
    const char *unpack[] = { m, v, i };
    const char *rowmax[] = { v, m };
    if (get_kernel(s, "diffusivity!", diff, 4, &s->k_diff) || get_kernel(s, "residual!", res, 11, &s->k_res) ||
        get_kernel(s, "update!", upd, 7, &s->k_upd) || get_kernel(s, "pack_x!", pack, 3, &s->k_pack) ||
        get_kernel(s, "unpack_x!", unpack, 3, &s->k_unpack) || get_kernel(s, "rowmax!", rowmax, 2, &s->k_rowmax))
        return -1;
    return 0;
}

static juke_launch_config grid2d(const solver *s)
{
    juke_launch_config c = { .groupsize = { 32, 8, 1 } };
    c.gridsize[0] = (uint32_t)((s->o.nx + 31) / 32);
    c.gridsize[1] = (uint32_t)((s->o.ny + 7) / 8);
    c.gridsize[2] = 1;
    return c;
}

static juke_launch_config grid1d(int64_t n)
{
    juke_launch_config c = { .groupsize = { 256, 1, 1 }, .gridsize = { (uint32_t)((n + 255) / 256), 1, 1 } };
    return c;
}

/* The global coordinate of local cell (i, j), 1-based. */
static double xcoord(const solver *s, int64_t i)
{
    return (double)(s->coords[0] * (s->o.nx - 2) + i - 1) * s->dx;
}

static double ycoord(const solver *s, int64_t j)
{
    return (double)(s->coords[1] * (s->o.ny - 2) + j - 1) * s->dy;
}

static bool is_decay(const solver *s)
{
    return !strcmp(s->o.kcase, "decay");
}

/* The initial H, the bed and the mass balance of the case, on the host. */
static void initial_fields(const solver *s, double *h, double *b, double *m)
{
    const double pi = 3.14159265358979323846;
    int64_t nx = s->o.nx, ny = s->o.ny;
    for (int64_t j = 1; j <= ny; j++)
        for (int64_t i = 1; i <= nx; i++) {
            double x = xcoord(s, i), y = ycoord(s, j);
            int64_t k = (i - 1) + (j - 1) * nx;
            if (is_decay(s)) {
                h[k] = sin(pi * x) * sin(pi * y);
                b[k] = 0;
                m[k] = 0;
            } else {
                /* [0,1]^2, a cap fed at its centre, melting towards the rim, over hills. */
                double r2 = (x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5);
                h[k] = 0;
                b[k] = 0.05 * sin(6 * pi * x) * sin(4 * pi * y);
                m[k] = 1.0 - 12.0 * r2;
            }
            int64_t gi = s->coords[0] * (nx - 2) + i, gj = s->coords[1] * (ny - 2) + j;
            if (gi == 1 || gj == 1 || gi == s->nxg || gj == s->nyg)
                h[k] = 0;
        }
}

static int create(solver *s, juke_array **a)
{
    int64_t dims[2] = { s->o.nx, s->o.ny };
    return juke_array_zeros(s->dev, JUKE_FLOAT64, 2, dims, a) == JUKE_OK ? 0 : fail(s, "making an array");
}

static int setup_fields(solver *s)
{
    if (create(s, &s->H) || create(s, &s->Hold) || create(s, &s->B) || create(s, &s->M) || create(s, &s->D) ||
        create(s, &s->R) || create(s, &s->dHdtau))
        return -1;
    s->hrows = calloc((size_t)s->o.nx, sizeof(double));
    if (!s->hrows || juke_array_zeros(s->dev, JUKE_FLOAT64, 1, &s->o.nx, &s->rows) != JUKE_OK)
        return fail(s, "making the residual buffers");
    for (int side = 0; side < 2; side++) {
        int64_t n = s->o.ny;
        if (juke_array_zeros(s->dev, JUKE_FLOAT64, 1, &n, &s->xsend[side]) ||
            juke_array_zeros(s->dev, JUKE_FLOAT64, 1, &n, &s->xrecv[side]))
            return fail(s, "making the halo buffers");
        for (int d = 0; d < 2; d++) {
            size_t len = (size_t)(d == 0 ? s->o.ny : s->o.nx);
            s->hsend[d][side] = calloc(len, sizeof(double));
            s->hrecv[d][side] = calloc(len, sizeof(double));
            if (!s->hsend[d][side] || !s->hrecv[d][side])
                return fail(s, "allocating the host buffers");
        }
    }
    size_t cells = (size_t)(s->o.nx * s->o.ny), bytes = cells * sizeof(double);
    double *h = malloc(bytes), *b = malloc(bytes), *m = malloc(bytes);
    int rc = -1;
    if (h && b && m) {
        initial_fields(s, h, b, m);
        if (juke_array_upload(s->H, h, bytes) || juke_array_upload(s->Hold, h, bytes) ||
            juke_array_upload(s->B, b, bytes) || juke_array_upload(s->M, m, bytes))
            fail(s, "uploading the fields");
        else
            rc = 0;
    }
    free(h);
    free(b);
    free(m);
    return rc;
}

static int launch(solver *s, juke_kernel *k, const juke_arg *args, int n, const juke_launch_config *cfg)
{
    return juke_kernel_launch(k, s->dev, args, n, cfg) == JUKE_OK ? 0 : fail(s, juke_kernel_symbol(k));
}

/* Exchange the halo of H over dimension d: send the last inner layer on each
 * side, receive into the halo layer. */
static int exchange_dim(solver *s, int d)
{
    int64_t nx = s->o.nx, ny = s->o.ny;
    int64_t len = d == 0 ? ny : nx;
    /* Layers: inner index to send and halo index to receive, per side. */
    int64_t send_at[2] = { 2, (d == 0 ? nx : ny) - 1 }, recv_at[2] = { 1, d == 0 ? nx : ny };
    void *sendp[2] = { NULL, NULL }, *recvp[2] = { NULL, NULL };
    double *base = juke_array_pointer(s->H);
    for (int side = 0; side < 2; side++) {
        if (s->nbr[d][side] == MPI_PROC_NULL)
            continue;
        if (d == 0) {
            juke_arg a[3] = { juke_arg_array(s->xsend[side]), juke_arg_array(s->H), juke_arg_i64(send_at[side]) };
            juke_launch_config g = grid1d(ny);
            if (launch(s, s->k_pack, a, 3, &g))
                return -1;
        }
    }
    if (juke_device_synchronize(s->dev) != JUKE_OK)
        return fail(s, "synchronising before the exchange");
    for (int side = 0; side < 2; side++) {
        if (s->nbr[d][side] == MPI_PROC_NULL)
            continue;
        int64_t off = (send_at[side] - 1) * nx, roff = (recv_at[side] - 1) * nx;
        if (s->direct) {
            sendp[side] = d == 0 ? juke_array_pointer(s->xsend[side]) : (void *)(base + off);
            recvp[side] = d == 0 ? juke_array_pointer(s->xrecv[side]) : (void *)(base + roff);
        } else {
            juke_status st = d == 0 ? juke_array_copy_to_host(s->hsend[d][side], s->xsend[side], 0, len)
                                    : juke_array_copy_to_host(s->hsend[d][side], s->H, off, len);
            if (st != JUKE_OK)
                return fail(s, "staging the halo to the host");
            sendp[side] = s->hsend[d][side];
            recvp[side] = s->hrecv[d][side];
        }
    }
    MPI_Request req[4];
    int nreq = 0;
    for (int side = 0; side < 2; side++) {
        if (s->nbr[d][side] == MPI_PROC_NULL)
            continue;
        /* Tag: the side the message arrives on at the receiver. */
        MPI_Irecv(recvp[side], (int)len, MPI_DOUBLE, s->nbr[d][side], 2 * d + side, s->cart, &req[nreq++]);
        MPI_Isend(sendp[side], (int)len, MPI_DOUBLE, s->nbr[d][side], 2 * d + (1 - side), s->cart, &req[nreq++]);
    }
    MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    for (int side = 0; side < 2; side++) {
        if (s->nbr[d][side] == MPI_PROC_NULL)
            continue;
        int64_t roff = (recv_at[side] - 1) * nx;
        if (!s->direct) {
            juke_status st = d == 0 ? juke_array_copy_from_host(s->xrecv[side], 0, s->hrecv[d][side], len)
                                    : juke_array_copy_from_host(s->H, roff, s->hrecv[d][side], len);
            if (st != JUKE_OK)
                return fail(s, "staging the halo from the host");
        }
        if (d == 0) {
            juke_arg a[3] = { juke_arg_array(s->H), juke_arg_array(s->xrecv[side]), juke_arg_i64(recv_at[side]) };
            juke_launch_config g = grid1d(ny);
            if (launch(s, s->k_unpack, a, 3, &g))
                return -1;
        }
    }
    return 0;
}

static int exchange(solver *s)
{
    double t0 = MPI_Wtime();
    if (exchange_dim(s, 0) || exchange_dim(s, 1) || juke_device_synchronize(s->dev) != JUKE_OK)
        return -1;
    s->t_exchange += MPI_Wtime() - t0;
    return 0;
}

/* max |R| over every rank's inner cells (exact: the same on any number of
 * ranks): rowmax! per row on the device, the rest on the host. */
static int residual_norm(solver *s, double *out)
{
    juke_arg a[2] = { juke_arg_array(s->rows), juke_arg_array(s->R) };
    juke_launch_config g = grid1d(s->o.nx);
    if (launch(s, s->k_rowmax, a, 2, &g) ||
        juke_array_download(s->rows, s->hrows, (size_t)s->o.nx * sizeof(double)) != JUKE_OK)
        return fail(s, "the residual norm");
    double r = 0;
    for (int64_t i = 0; i < s->o.nx; i++)
        r = fmax(r, s->hrows[i]);
    MPI_Allreduce(&r, out, 1, MPI_DOUBLE, MPI_MAX, s->cart);
    return 0;
}

/* One PT iteration: D, R and dH/dtau, H; then the halo of H. */
static int iterate(solver *s, double inv_dt, double damp)
{
    const double a = is_decay(s) ? 0.0 : 1.0, d0 = is_decay(s) ? 1.0 : 1e-4, cfl = 0.95;
    juke_launch_config g = grid2d(s);
    juke_arg ad[4] = { juke_arg_array(s->D), juke_arg_array(s->H), juke_arg_f64(a), juke_arg_f64(d0) };
    juke_arg ar[11] = { juke_arg_array(s->R), juke_arg_array(s->dHdtau), juke_arg_array(s->H), juke_arg_array(s->Hold),
                        juke_arg_array(s->B), juke_arg_array(s->D),      juke_arg_array(s->M), juke_arg_f64(s->dx),
                        juke_arg_f64(s->dy),  juke_arg_f64(inv_dt),      juke_arg_f64(damp) };
    juke_arg au[7] = { juke_arg_array(s->H), juke_arg_array(s->dHdtau), juke_arg_array(s->D), juke_arg_f64(s->dx),
                       juke_arg_f64(s->dy),  juke_arg_f64(inv_dt),      juke_arg_f64(cfl) };
    double t0 = MPI_Wtime();
    if (launch(s, s->k_diff, ad, 4, &g) || launch(s, s->k_res, ar, 11, &g) || launch(s, s->k_upd, au, 7, &g) ||
        juke_device_synchronize(s->dev) != JUKE_OK)
        return -1;
    s->t_compute += MPI_Wtime() - t0;
    s->iterations++;
    return exchange(s);
}

/* Gather the global H on rank 0 (*out malloc'd there, nxg x nyg). The halo
 * is fresh, so overlapping cells of two ranks hold the same value. */
static int gather(solver *s, double **out)
{
    int64_t nx = s->o.nx, ny = s->o.ny, cells = nx * ny;
    double *local = malloc((size_t)cells * sizeof *local), *all = NULL, *g = NULL;
    int ok = local && juke_array_download(s->H, local, (size_t)cells * sizeof *local) == JUKE_OK;
    if (s->rank == 0) {
        all = malloc((size_t)(cells * s->nranks) * sizeof *all);
        g = calloc((size_t)(s->nxg * s->nyg), sizeof *g);
        ok = ok && all && g;
    }
    MPI_Gather(local, (int)cells, MPI_DOUBLE, all, (int)cells, MPI_DOUBLE, 0, s->cart);
    if (s->rank == 0 && ok)
        for (int r = 0; r < s->nranks; r++) {
            int c[2];
            MPI_Cart_coords(s->cart, r, 2, c);
            for (int64_t j = 0; j < ny; j++)
                for (int64_t i = 0; i < nx; i++)
                    g[(c[0] * (nx - 2) + i) + (c[1] * (ny - 2) + j) * s->nxg] = all[i + j * nx + r * cells];
        }
    free(local);
    free(all);
    if (!ok) {
        free(g);
        return fail(s, "gathering H");
    }
    *out = g;
    return 0;
}

static int write_snapshot(solver *s, int step)
{
    double *g = NULL;
    if (gather(s, &g))
        return -1;
    int rc = 0;
    if (s->rank == 0 && s->o.out) {
        char npy[4096], png[4096];
        snprintf(npy, sizeof npy, "%s/H_%04d.npy", s->o.out, step);
        snprintf(png, sizeof png, "%s/H_%04d.png", s->o.out, step);
        rc = ice_write_npy(npy, g, s->nxg, s->nyg) || ice_write_field_png(png, g, s->nxg, s->nyg) ? -1 : 0;
    }
    free(g);
    return rc;
}

typedef struct {
    int64_t *iters;
    double *res;
    size_t n, cap;
} history;

static void record(history *h, int64_t it, double r)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 256;
        int64_t *i2 = realloc(h->iters, cap * sizeof *i2);
        if (i2)
            h->iters = i2;
        double *r2 = realloc(h->res, cap * sizeof *r2);
        if (r2)
            h->res = r2;
        if (!i2 || !r2)
            return;
        h->cap = cap;
    }
    h->iters[h->n] = it;
    h->res[h->n++] = r;
}

/* Check the decay case against exp(-2 pi^2 t) sin(pi x) sin(pi y) and
 * against the discrete solution (1 + dt*lambda_h)^-nt times the initial mode,
 * lambda_h the 5-point Laplacian's eigenvalue of the mode. */
static int check_decay(solver *s, double t)
{
    double *g = NULL;
    if (gather(s, &g))
        return -1;
    if (s->rank != 0)
        return 0;
    const double pi = 3.14159265358979323846;
    double lh = 4 / (s->dx * s->dx) * pow(sin(pi * s->dx / 2), 2) + 4 / (s->dy * s->dy) * pow(sin(pi * s->dy / 2), 2);
    double exact = exp(-2 * pi * pi * t), discrete = pow(1 + s->o.dt * lh, -s->o.nt);
    double e_exact = 0, e_discrete = 0;
    for (int64_t j = 0; j < s->nyg; j++)
        for (int64_t i = 0; i < s->nxg; i++) {
            double mode = sin(pi * i * s->dx) * sin(pi * j * s->dy), v = g[i + j * s->nxg];
            e_exact = fmax(e_exact, fabs(v - exact * mode));
            e_discrete = fmax(e_discrete, fabs(v - discrete * mode));
        }
    e_exact /= exact;
    e_discrete /= discrete;
    /* The bounds: implicit Euler's (2 pi^2)^2 dt t / 2 and the grid's
     * pi^2 h^2 / 12 per dimension, with room; the PT tolerance alone. */
    double h2 = fmax(s->dx, s->dy) * fmax(s->dx, s->dy);
    double bound_exact = 2 * (pow(2 * pi * pi, 2) * s->o.dt * t / 2 + pi * pi * h2 / 6);
    double bound_discrete = 1e3 * s->o.tol;
    bool ok = e_exact <= bound_exact && e_discrete <= bound_discrete;
    printf("decay check: t = %g, max error relative to the amplitude: %.3e against exp(-2 pi^2 t) (bound %.3e), "
           "%.3e against the discrete solution (bound %.3e): %s\n",
           t, e_exact, bound_exact, e_discrete, bound_discrete, ok ? "OK" : "FAILED");
    free(g);
    return ok ? 0 : -1;
}

static int compare_with(solver *s, const char *path)
{
    double *g = NULL;
    if (gather(s, &g))
        return -1;
    if (s->rank != 0)
        return 0;
    double *ref = NULL;
    int64_t rx, ry;
    int rc = -1;
    if (ice_read_npy(path, &ref, &rx, &ry) == 0) {
        if (rx != s->nxg || ry != s->nyg)
            fprintf(stderr, "compare: %s is %lldx%lld, the result %lldx%lld\n", path, (long long)rx, (long long)ry,
                    (long long)s->nxg, (long long)s->nyg);
        else {
            double diff = 0, big = 0;
            for (int64_t k = 0; k < rx * ry; k++) {
                diff = fmax(diff, fabs(g[k] - ref[k]));
                big = fmax(big, fabs(ref[k]));
            }
            double rel = big > 0 ? diff / big : diff;
            rc = rel <= 1e-12 ? 0 : -1;
            printf("compare with %s: max |difference| / max |H| = %.3e (bound 1e-12): %s\n", path, rel,
                   rc ? "FAILED" : "OK");
        }
    }
    free(ref);
    free(g);
    return rc;
}

static void report_timing(solver *s, double t_total)
{
    double a_eff = (2.0 * 2 + 3) * (double)(s->o.nx * s->o.ny) * sizeof(double);
    double t_it = s->iterations ? (s->t_compute + s->t_exchange) / s->iterations : 0;
    double row[5] = { t_it, s->iterations ? s->t_compute / s->iterations : 0,
                      s->iterations ? s->t_exchange / s->iterations : 0, t_it > 0 ? a_eff / t_it / 1e9 : 0,
                      s->iterations && s->t_compute > 0 ? a_eff / (s->t_compute / s->iterations) / 1e9 : 0 };
    double *all = s->rank == 0 ? malloc(sizeof row * s->nranks) : NULL;
    MPI_Gather(row, 5, MPI_DOUBLE, all, 5, MPI_DOUBLE, 0, s->cart);
    if (s->rank != 0)
        return;
    printf("%lld PT iterations in %.3f s; local grid %lldx%lld, global %lldx%lld, %s halo exchange\n",
           (long long)s->iterations, t_total, (long long)s->o.nx, (long long)s->o.ny, (long long)s->nxg,
           (long long)s->nyg, s->direct ? "direct (MPI on device memory)" : "staged through host buffers");
    printf("rank  t_it[us]  compute[us]  exchange[us]  T_eff[GB/s]  T_eff_compute[GB/s]\n");
    for (int r = 0; all && r < s->nranks; r++)
        printf("%4d  %8.2f  %11.2f  %12.2f  %11.3f  %19.3f\n", r, 1e6 * all[5 * r], 1e6 * all[5 * r + 1],
               1e6 * all[5 * r + 2], all[5 * r + 3], all[5 * r + 4]);
    free(all);
}

/* Time steps, each to the PT tolerance; snapshots every nout steps. */
static int solve(solver *s)
{
    int64_t nmax = s->nxg > s->nyg ? s->nxg : s->nyg;
    double inv_dt = 1 / s->o.dt, damp = 1 - 4.0 / (double)nmax;
    history h = { 0 };
    int rc = exchange(s);
    double t_start = MPI_Wtime();
    s->t_compute = s->t_exchange = 0;
    for (int step = 1; rc == 0 && step <= s->o.nt; step++) {
        double t0 = MPI_Wtime(), r0 = 0, r = 0;
        int64_t it0 = s->iterations, max_iter = s->o.maxiter > 0 ? s->o.maxiter : 200 * nmax;
        if (juke_array_copy(s->Hold, 0, s->H, 0, s->o.nx * s->o.ny) != JUKE_OK) {
            rc = fail(s, "copying H");
            break;
        }
        double zero = 0;
        juke_array_fill(s->dHdtau, &zero);
        for (;;) {
            if ((rc = iterate(s, inv_dt, damp)))
                break;
            int64_t k = s->iterations - it0;
            if (k == 1 || k % s->o.ncheck == 0 || k >= max_iter) {
                if ((rc = residual_norm(s, &r)))
                    break;
                if (k == 1)
                    r0 = r > 0 ? r : 1;
                record(&h, s->iterations, r / r0);
                if (r / r0 <= s->o.tol || k >= max_iter)
                    break;
            }
        }
        if (rc)
            break;
        if (s->rank == 0 && !s->o.quiet)
            printf("step %4d  iterations %6lld  residual %.3e  time/step %.4f s\n", step,
                   (long long)(s->iterations - it0), r / r0, MPI_Wtime() - t0);
        if (r / r0 > s->o.tol && s->o.maxiter <= 0) {
            if (s->rank == 0)
                fprintf(stderr, "ice_mpi: step %d did not converge in %lld iterations\n", step, (long long)max_iter);
            rc = -1;
        }
        if (rc == 0 && s->o.out && ((s->o.nout > 0 && step % s->o.nout == 0) || step == s->o.nt))
            rc = write_snapshot(s, step);
    }
    report_timing(s, MPI_Wtime() - t_start);
    if (rc == 0 && s->rank == 0 && s->o.out) {
        char png[4096], txt[4096];
        snprintf(png, sizeof png, "%s/residual.png", s->o.out);
        snprintf(txt, sizeof txt, "%s/residual.txt", s->o.out);
        rc = ice_write_convergence_png(png, h.iters, h.res, h.n);
        FILE *f = fopen(txt, "w");
        for (size_t k = 0; f && k < h.n; k++)
            fprintf(f, "%lld %.6e\n", (long long)h.iters[k], h.res[k]);
        if (f)
            fclose(f);
    }
    free(h.iters);
    free(h.res);
    if (rc == 0 && is_decay(s))
        rc = check_decay(s, s->o.dt * s->o.nt);
    if (rc == 0 && s->o.compare)
        rc = compare_with(s, s->o.compare);
    return rc;
}

static int setup(solver *s, char *path)
{
    int periods[2] = { 0, 0 };
    MPI_Dims_create(s->nranks, 2, s->dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, s->dims, periods, 0, &s->cart);
    MPI_Comm_rank(s->cart, &s->rank);
    MPI_Cart_coords(s->cart, s->rank, 2, s->coords);
    for (int d = 0; d < 2; d++)
        MPI_Cart_shift(s->cart, d, 1, &s->nbr[d][0], &s->nbr[d][1]);
    if (s->o.global) {
        if ((s->o.global - 2) % s->dims[0] || (s->o.global - 2) % s->dims[1]) {
            if (s->rank == 0)
                fprintf(stderr, "ice_mpi: --global %lld: %lld is not divisible by the %dx%d ranks\n",
                        (long long)s->o.global, (long long)s->o.global - 2, s->dims[0], s->dims[1]);
            return -1;
        }
        s->o.nx = (s->o.global - 2) / s->dims[0] + 2;
        s->o.ny = (s->o.global - 2) / s->dims[1] + 2;
    }
    s->nxg = s->dims[0] * (s->o.nx - 2) + 2;
    s->nyg = s->dims[1] * (s->o.ny - 2) + 2;
    s->lx = s->ly = 1;
    s->dx = s->lx / (double)(s->nxg - 1);
    s->dy = s->ly / (double)(s->nyg - 1);
    if (s->o.dt <= 0)
        s->o.dt = is_decay(s) ? 1e-4 : 0.02;
    s->ctx = juke_context_create();
    if (!s->ctx)
        return fail(s, "juke_context_create");
    if (open_device(s))
        return -1;
    if (juke_module_load_file(s->ctx, path, &s->mod) != JUKE_OK)
        return fail(s, path);
    s->direct = !s->o.staged && mpi_reads_device(s->o.device);
    if (s->rank == 0)
        printf("ice_mpi: %d ranks (%dx%d), case %s, device of rank 0: %s\n", s->nranks, s->dims[0], s->dims[1],
               s->o.kcase, juke_device_name(s->dev));
    return setup_kernels(s) || setup_fields(s) ? -1 : 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    solver s = { 0 };
    MPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &s.nranks);
    if (parse(argc, argv, &s.o)) {
        if (s.rank == 0)
            usage();
        MPI_Finalize();
        return 2;
    }
    if (s.o.out && mkdir(s.o.out, 0777) != 0 && errno != EEXIST) {
        perror(s.o.out);
        MPI_Finalize();
        return 1;
    }
    char *path = kernel_path(s.o.kernels);
    int rc = path ? setup(&s, path) : -1;
    /* Every rank takes part in the collectives, so agree on failure first. */
    int any = rc != 0, fails = 0;
    MPI_Allreduce(&any, &fails, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (!fails)
        rc = solve(&s);
    else
        rc = -1;
    for (int d = 0; d < 2; d++)
        for (int side = 0; side < 2; side++) {
            free(s.hsend[d][side]);
            free(s.hrecv[d][side]);
        }
    free(s.hrows);
    free(path);
    juke_context_destroy(s.ctx); /* frees the module, the kernels, the device and its arrays */
    if (s.cart != MPI_COMM_NULL && s.cart)
        MPI_Comm_free(&s.cart);
    MPI_Finalize();
    return rc ? 1 : 0;
}
