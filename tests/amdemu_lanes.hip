// amdemu_lanes.hip: the lane-crossing instructions (DPP, DPP8, ds_swizzle,
// ds_permute, ds_bpermute, v_permlane16/x16) one by one, for test_amdemu_lanes.c:
// lane l's source value is 100 + 3 * l, and out[k * wave + l] is lane l's
// result of case k (-1: the lane did not write). Built for gfx90a and gfx1100
// with clang -nogpuinc, so the HIP keywords are spelled out here.
#define __global__ __attribute__((global))

#define DPP(k, ctrl, rm, bm, bc) out[(k) * n + l] = __builtin_amdgcn_update_dpp(-1, x, ctrl, rm, bm, bc)

extern "C" __global__ void lanes(int *out)
{
    int l = __builtin_amdgcn_workitem_id_x();
    int n = __builtin_amdgcn_wavefrontsize();
    int x = 100 + 3 * l;
    DPP(0, 0x1b, 0xf, 0xf, false);  // quad_perm:[3,2,1,0]
    DPP(1, 0x101, 0xf, 0xf, false); // row_shl:1
    DPP(2, 0x113, 0xf, 0xf, true);  // row_shr:3 bound_ctrl
    DPP(3, 0x12f, 0xf, 0xf, false); // row_ror:15
    DPP(4, 0x140, 0xf, 0xf, false); // row_mirror
    DPP(5, 0x141, 0xa, 0xf, false); // row_half_mirror, rows 1 and 3
    DPP(6, 0x111, 0xf, 0x5, false); // row_shr:1, banks 0 and 2
#if defined(__gfx1100__)
    DPP(7, 0x153, 0xf, 0xf, false); // row_share:3
    DPP(8, 0x165, 0xf, 0xf, false); // row_xmask:5
    out[9 * n + l] = __builtin_amdgcn_mov_dpp8(x, 0x53977);  // dpp8:[7,6,5,4,3,2,1,0]
    out[10 * n + l] = __builtin_amdgcn_permlane16(-1, x, 0x01234567, 0x89abcdef, false, false);
    out[11 * n + l] = __builtin_amdgcn_permlanex16(-1, x, 0x76543210, 0xfedcba98, false, false);
#else
    DPP(7, 0x138, 0xf, 0xf, false); // wave_shr:1
    DPP(8, 0x134, 0xf, 0xf, false); // wave_rol:1
    DPP(9, 0x142, 0xa, 0xf, false); // row_bcast:15
    DPP(10, 0x143, 0xc, 0xf, false); // row_bcast:31
    out[11 * n + l] = 0;
#endif
    out[12 * n + l] = __builtin_amdgcn_ds_swizzle(x, 0x801b);          // quad permutation [3,2,1,0]
    out[13 * n + l] = __builtin_amdgcn_ds_swizzle(x, (3 << 10) | 0x1f); // xor 3
    out[14 * n + l] = __builtin_amdgcn_ds_bpermute(4 * ((l + 5) % n), x);
    out[15 * n + l] = __builtin_amdgcn_ds_permute(4 * ((l + 7) % n), x);
}
