/* amdemu.h: the AMD ISA emulator behind libjuke-amdemu.so (docs/amdemu.md).
 * hip.c is the HIP runtime API that runtime/dev_hip.c loads; loader.c reads
 * the ELF code object as the ROCm loader does; exec.c runs workgroups of
 * waves; ops.c is the one table of instructions with their semantics.
 *
 * Memory: a device pointer is a host pointer (hipMalloc is malloc), so the
 * kernel's global addresses are the host's. LDS and scratch live in apertures
 * (AMDEMU_SHARED_HI, AMDEMU_PRIVATE_HI as the high 32 bits of a flat address)
 * that no host pointer reaches. */
#ifndef JUKE_AMDEMU_H
#define JUKE_AMDEMU_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AMDEMU_SHARED_HI 0x10000000u
#define AMDEMU_PRIVATE_HI 0x20000000u

/* The instruction-set generations decoded: GFX9 (gfx90a, gfx942), GFX11
 * (RDNA3: gfx1100..gfx1103) and GFX12 (RDNA4: gfx1201). GFX9 and GFX11 each
 * have their own opcode numbers and encodings; GFX12 is GFX11 but for its
 * memory encodings and a few opcodes (isa >= AMD_GFX11: "GFX11 or later"). */
typedef enum AmdIsa { AMD_GFX9, AMD_GFX11, AMD_GFX12, AMD_NISA } AmdIsa;

/* The instruction encodings (GFX9's names; GFX11 has the same kinds plus VOPD). */
typedef enum AmdFmt {
    F_SOP2,
    F_SOPK,
    F_SOP1,
    F_SOPC,
    F_SOPP,
    F_SMEM,
    F_VOP2,
    F_VOP1,
    F_VOPC,
    F_VOP3, /* VOP3-only opcodes; VOP1/2/C opcodes in VOP3 form use their own rows */
    F_VOP3P,
    F_DS,
    F_FLAT, /* FLAT, GLOBAL and SCRATCH share opcodes; the segment is decoded */
    F_MUBUF,
    F_VOPD, /* GFX11 dual issue: two VOP2/VOP1 operations, X and Y, in one instruction */
    F_NFMT
} AmdFmt;

/* Row flags: operand widths, float modifiers, carries and special outputs. */
enum {
    O_S0_64 = 1 << 0,
    O_S1_64 = 1 << 1,
    O_S2_64 = 1 << 2,
    O_D_64 = 1 << 3,
    O_FLOAT = 1 << 4,      /* abs/neg/clamp apply (float operands) */
    O_CIN = 1 << 5,        /* reads a carry: SCC (SALU), VCC (VOP2) or src2's lane mask (VOP3) */
    O_COUT = 1 << 6,       /* writes a carry: SCC (SALU), VCC (VOP2) or sdst (VOP3) */
    O_CMP = 1 << 7,        /* VOPC: the result bit goes to VCC / sdst */
    O_CMPX = 1 << 8,       /* VOPC: ... and to EXEC */
    O_NODST = 1 << 9,      /* SOPC: only SCC */
    O_F16 = 1 << 10,       /* 16-bit float operands (modifiers on bit 15) */
    O_LIT_K = 1 << 11,     /* v_fmamk/v_fmaak: a literal operand follows */
    O_CIN_VCC = 1 << 12,   /* reads VCC as its carry whatever the encoding (v_div_fmas) */
    O_SCC_KEEP = 1 << 13,  /* SALU op that does not write SCC */
    O_SRC2_D = 1 << 14,    /* VOP2 fmac: src2 is the destination */
    O_EXEC_ONLY = 1 << 15, /* GFX10+ v_cmpx: the result goes to EXEC only, not to VCC / sdst */
    O_B32 = 1 << 16,       /* s_*_saveexec_b32 (wave32): 32-bit masks */
};

typedef struct AmdWave AmdWave;
typedef struct AmdDec AmdDec;

/* One lane (or one scalar op): sources in, result and carry out. */
typedef struct AmdLane {
    uint64_t s[3];
    uint64_t d;
    uint32_t cin, cout;
    uint32_t aux; /* the row's aux (a compare's condition) */
    int lane;
    AmdWave *w;
} AmdLane;

typedef void (*AmdLaneFn)(AmdLane *l);

/* A whole wave's operands (every lane, active or not), for a row's loop over
 * the lanes: the lane function inlined in one tight loop, no call per lane. */
typedef struct AmdVec {
    uint64_t s[3][64];
    uint64_t d[64];
    uint64_t cin, cout; /* lane masks */
    uint32_t aux;
    int n;
    AmdWave *w;
} AmdVec;
typedef void (*AmdVecFn)(AmdVec *v);
typedef int (*AmdExecFn)(AmdWave *w, const AmdDec *d);

/* One row per opcode per encoding. */
typedef struct AmdOp {
    const char *name;
    AmdFmt fmt;
    uint16_t op;
    uint8_t nsrc;
    uint32_t flags;
    AmdExecFn exec; /* NULL: the format's generic executor with `lane` */
    AmdLaneFn lane;
    uint32_t aux; /* memory ops: bytes; compares: condition; ... */
    AmdVecFn vec; /* VALU rows: `lane` over a whole wave */
} AmdOp;

/* A decoded instruction (cached per code address). */
struct AmdDec {
    const AmdOp *op;
    uint8_t size; /* dwords */
    uint8_t vop3; /* a VOP1/2/C opcode in VOP3 form */
    uint8_t abs, neg, clamp, omod, opsel, opsel_hi, neg_hi;
    uint8_t seg; /* FLAT: 0 flat, 1 scratch, 2 global */
    uint8_t glc;
    uint16_t src[3]; /* operand codes 0..511 */
    uint16_t dst;    /* vdst (0..255, accvgpr +256) or sdst code */
    uint16_t sdst;   /* VOP3b carry out, VOPC in VOP3: the mask destination */
    uint16_t vaddr, vdata, vdata1, saddr;
    int32_t imm; /* simm16, memory offset(s) */
    int32_t imm1;
    uint32_t lit;  /* the literal dword */
    uint32_t sdwa; /* SDWA: the second dword (sdwa_on set) */
    uint8_t sdwa_on;
    uint8_t dpp_on; /* src0 crosses lanes: 1 DPP16 (`dpp` its control dword), 2 DPP8 (`dpp` the selects), 3 DPP8 FI */
    uint32_t dpp;
    const AmdOp *dual[2]; /* VOPD: the X and Y operations */
    uint16_t dsrc[2][2];  /* VOPD: their src0 (operand code) and vsrc1 (256 + VGPR) */
    uint16_t ddst[2];     /* VOPD: their destination VGPRs */
    const char *why;      /* op NULL: why the instruction is not run */
    uint32_t w0, w1;
};

typedef struct AmdGroup AmdGroup;

/* The state of one wave. SGPRs by their operand code: s[106..107] are VCC,
 * s[124] M0, s[126..127] EXEC. */
struct AmdWave {
    uint32_t s[128];
    uint32_t (*v)[64]; /* vgprs then accvgprs: 512 x 64 */
    uint64_t pc;
    uint32_t scc;
    int lanes; /* 64 or 32 */
    AmdIsa isa;
    int index; /* in the group */
    int state; /* AMDEMU_RUN, AMDEMU_BARRIER, AMDEMU_DONE */
    uint32_t mode;
    bool gpr_idx_en; /* GFX9's GPR indexing mode (s_set_gpr_idx_on): VALU operands move by M0[7:0] */
    uint64_t lane_instrs;
    uint64_t slept; /* cycles of s_sleep (GFX11's cycle counter) */
    AmdGroup *g;
};
enum { AMDEMU_RUN, AMDEMU_BARRIER, AMDEMU_DONE };

/* The code object in memory (loader.c). */
typedef struct AmdImage {
    AmdIsa isa;
    uint8_t *base;
    size_t size;
    AmdDec *dcache;       /* per dword of the image, filled on first execution */
    uint8_t *dvalid;      /* atomic: dcache[i] is filled */
    pthread_mutex_t lock; /* serialises filling dcache */
} AmdImage;

typedef struct AmdKernel {
    AmdImage *img;
    char name[256];
    const uint8_t *kd; /* the 64-byte kernel descriptor */
    uint64_t entry;
    uint32_t group_fixed, private_fixed, kernarg_size;
    uint32_t rsrc1, rsrc2, rsrc3;
    uint16_t props;
} AmdKernel;

typedef struct AmdLaunch {
    const AmdKernel *k;
    uint32_t grid[3], block[3]; /* grid in workgroups */
    uint32_t shmem;
    const void *kernarg;
    const void *dispatch;
    int wave_size;
    bool trace;
    bool cooperative; /* every workgroup resident at once (hipModuleLaunchCooperativeKernel) */
} AmdLaunch;

struct AmdGroup {
    const AmdLaunch *l;
    uint32_t id[3];
    uint8_t *lds;
    uint32_t lds_size;
    uint8_t *scratch; /* per lane: private bytes each */
    uint32_t priv_bytes;
    int nwaves;
    AmdWave *waves;
    char *err; /* set: the launch stops */
};

/* Which ISA generation the emulated device is; set once by hip.c. */
typedef struct AmdTarget {
    char arch[16];
    int wave_size;
} AmdTarget;

/* A GFX11 encoding: its opcode, its GFX11 mnemonic and the name of the ops.c
 * row whose semantics it has (NULL: the same name), ops_gfx11.c. */
typedef struct AmdEnc {
    AmdFmt fmt;
    uint16_t op;
    const char *name;
    const char *sem;
} AmdEnc;
extern const AmdEnc amdemu_gfx11[];
extern const size_t amdemu_gfx11_count;
/* GFX12 as a difference from GFX11 (ops_gfx12.c): rows that are new or
 * renumbered there, and GFX11 slots GFX12 leaves empty (sem "-"). */
extern const AmdEnc amdemu_gfx12[];
extern const size_t amdemu_gfx12_count;
extern const char *const amdemu_gfx11_vopd[19];

/* Table lookup (ops.c). */
const AmdOp *amdemu_op(AmdIsa isa, AmdFmt fmt, unsigned op);
void amdemu_ops_init(void);

/* Loader (loader.c): 0 or -1 with *err malloc'd. */
int amdemu_image_load(const void *elf, AmdIsa isa, AmdImage **out, char **err);
void amdemu_image_free(AmdImage *img);
int amdemu_kernel_find(AmdImage *img, const char *name, AmdKernel *k, char **err);
/* The address in the loaded image and the size of the data symbol `name` (a device global); -1 if none. */
int amdemu_global_find(AmdImage *img, const char *name, void **addr, size_t *bytes);

/* kernelParams launches (args.c): the code object's size from its ELF
 * headers; the kernel's arguments laid out in buf (zeroed, cap bytes) from
 * its metadata, hidden ones as HIP fills them: 0 or -1 with *err malloc'd. */
size_t amdemu_elf_size(const void *elf);
int amdemu_pack_params(const void *elf, size_t elf_size, const char *kernel, void **params, const uint32_t grid[3],
                       const uint32_t block[3], uint32_t shmem, uint8_t *buf, size_t cap, char **err);

/* GFX11's v_wmma_* (wmma.c): the row's aux is the kind. */
int amdemu_x_wmma(AmdWave *w, const AmdDec *d);

/* Run a whole launch (exec.c): 0 or -1 with *err malloc'd. */
int amdemu_run(const AmdLaunch *l, char **err);

/* Shared helpers for ops.c and exec.c. */
uint64_t amdemu_sread(AmdWave *w, unsigned code, bool w64, bool f64, bool f16, uint32_t lit);
void amdemu_swrite(AmdWave *w, unsigned code, uint64_t v, bool w64);
int amdemu_fail(AmdWave *w, const AmdDec *d, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint64_t amdemu_exec_mask(const AmdWave *w);
void amdemu_set_exec(AmdWave *w, uint64_t m);
void *amdemu_addr(AmdWave *w, const AmdDec *d, uint64_t a, int lane, uint32_t bytes);
int amdemu_disasm(const AmdDec *d, char *buf, size_t cap);
int amdemu_decode(const uint32_t *p, AmdDec *d, AmdIsa isa);

#endif
