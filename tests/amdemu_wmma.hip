// amdemu_wmma.hip: GFX11's WMMA instructions for test_amdemu_wmma.c, built
// for gfx1100 (wave32) with clang -nogpuinc. Each kernel loads 16x16 tiles
// (row-major) into the lane layout of the RDNA3 ISA manual (lane l: row l % 16
// of A, column l % 16 of B; element 2r + l / 16, l % 16 of C and D in its
// VGPR r), runs one instruction and stores D row-major.
#define __global__ __attribute__((global))

typedef _Float16 half16 __attribute__((ext_vector_type(16)));
typedef short short16 __attribute__((ext_vector_type(16)));
typedef float float8 __attribute__((ext_vector_type(8)));
typedef int int8v __attribute__((ext_vector_type(8)));
typedef int int4v __attribute__((ext_vector_type(4)));
typedef int int2v __attribute__((ext_vector_type(2)));

#define LANE                                                                                                          \
    int l = __builtin_amdgcn_workitem_id_x();                                                                          \
    int i = l % 16, h = l / 16

extern "C" __global__ void f32_f16(const _Float16 *a, const _Float16 *b, const float *c, float *d)
{
    LANE;
    half16 x, y;
    float8 acc;
    for (int k = 0; k < 16; k++) {
        x[k] = a[i * 16 + k];
        y[k] = b[k * 16 + i];
    }
    for (int r = 0; r < 8; r++)
        acc[r] = c[(2 * r + h) * 16 + i];
    acc = __builtin_amdgcn_wmma_f32_16x16x16_f16_w32(x, y, acc);
    for (int r = 0; r < 8; r++)
        d[(2 * r + h) * 16 + i] = acc[r];
}

extern "C" __global__ void f32_bf16(const short *a, const short *b, const float *c, float *d)
{
    LANE;
    short16 x, y;
    float8 acc;
    for (int k = 0; k < 16; k++) {
        x[k] = a[i * 16 + k];
        y[k] = b[k * 16 + i];
    }
    for (int r = 0; r < 8; r++)
        acc[r] = c[(2 * r + h) * 16 + i];
    acc = __builtin_amdgcn_wmma_f32_16x16x16_bf16_w32(x, y, acc);
    for (int r = 0; r < 8; r++)
        d[(2 * r + h) * 16 + i] = acc[r];
}

// f16 accumulators in the high halves (op_sel): element 2r + 1 of the vector
extern "C" __global__ void f16_f16(const _Float16 *a, const _Float16 *b, const _Float16 *c, _Float16 *d)
{
    LANE;
    half16 x, y, acc;
    for (int k = 0; k < 16; k++) {
        x[k] = a[i * 16 + k];
        y[k] = b[k * 16 + i];
        acc[k] = 0;
    }
    for (int r = 0; r < 8; r++)
        acc[2 * r + 1] = c[(2 * r + h) * 16 + i];
    acc = __builtin_amdgcn_wmma_f16_16x16x16_f16_w32(x, y, acc, true);
    for (int r = 0; r < 8; r++)
        d[(2 * r + h) * 16 + i] = acc[2 * r + 1];
}

// bf16 accumulators in the low halves
extern "C" __global__ void bf16_bf16(const short *a, const short *b, const short *c, short *d)
{
    LANE;
    short16 x, y, acc;
    for (int k = 0; k < 16; k++) {
        x[k] = a[i * 16 + k];
        y[k] = b[k * 16 + i];
        acc[k] = 0;
    }
    for (int r = 0; r < 8; r++)
        acc[2 * r] = c[(2 * r + h) * 16 + i];
    acc = __builtin_amdgcn_wmma_bf16_16x16x16_bf16_w32(x, y, acc, false);
    for (int r = 0; r < 8; r++)
        d[(2 * r + h) * 16 + i] = acc[2 * r];
}

// signed A, unsigned B
extern "C" __global__ void i32_iu8(const unsigned char *a, const unsigned char *b, const int *c, int *d)
{
    LANE;
    int4v x = {0, 0, 0, 0}, y = {0, 0, 0, 0};
    int8v acc;
    for (int k = 0; k < 16; k++) {
        x[k / 4] |= a[i * 16 + k] << (8 * (k % 4));
        y[k / 4] |= b[k * 16 + i] << (8 * (k % 4));
    }
    for (int r = 0; r < 8; r++)
        acc[r] = c[(2 * r + h) * 16 + i];
    acc = __builtin_amdgcn_wmma_i32_16x16x16_iu8_w32(true, x, false, y, acc, false);
    for (int r = 0; r < 8; r++)
        d[(2 * r + h) * 16 + i] = acc[r];
}

// unsigned A, signed B, saturating; a and b hold one nibble a byte
extern "C" __global__ void i32_iu4(const unsigned char *a, const unsigned char *b, const int *c, int *d)
{
    LANE;
    int2v x = {0, 0}, y = {0, 0};
    int8v acc;
    for (int k = 0; k < 16; k++) {
        x[k / 8] |= (a[i * 16 + k] & 15) << (4 * (k % 8));
        y[k / 8] |= (b[k * 16 + i] & 15) << (4 * (k % 8));
    }
    for (int r = 0; r < 8; r++)
        acc[r] = c[(2 * r + h) * 16 + i];
    acc = __builtin_amdgcn_wmma_i32_16x16x16_iu4_w32(false, x, true, y, acc, true);
    for (int r = 0; r < 8; r++)
        d[(2 * r + h) * 16 + i] = acc[r];
}
