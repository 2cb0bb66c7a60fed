/* ops_gfx12.c: GFX12 (RDNA4, gfx1201) as a difference from GFX11. Its 32-bit
 * encodings and VOP3/VOP3P/VOPD/DS layouts are GFX11's and so is nearly every
 * opcode: each row of ops_gfx11.c was checked to disassemble to the same
 * instruction with `llvm-mc -disassemble -mcpu=gfx1201` (GFX12 renames some:
 * s_add_co_u32, v_mad_co_u64_u32, s_wait_alu for s_waitcnt_depctr, same
 * semantics). These rows are the rest: opcodes new or renumbered in GFX12,
 * each with the ops.c row whose semantics it has, and GFX11 opcodes GFX12
 * no longer has (sem "-": the slot stops a launch). SMEM and VFLAT/VGLOBAL/
 * VSCRATCH have new layouts (exec.c, decode64_gfx12). */
#include "amdemu.h"

const AmdEnc amdemu_gfx12[] = {
    /* s_wait_*: one counter each, all a no-op here (every access is immediate) */
    { F_SOPP, 0x40, "s_wait_loadcnt", "s_waitcnt" },
    { F_SOPP, 0x41, "s_wait_storecnt", "s_waitcnt" },
    { F_SOPP, 0x42, "s_wait_samplecnt", "s_waitcnt" },
    { F_SOPP, 0x43, "s_wait_bvhcnt", "s_waitcnt" },
    { F_SOPP, 0x44, "s_wait_expcnt", "s_waitcnt" },
    { F_SOPP, 0x46, "s_wait_dscnt", "s_waitcnt" },
    { F_SOPP, 0x47, "s_wait_kmcnt", "s_waitcnt" },
    { F_SOPP, 0x48, "s_wait_loadcnt_dscnt", "s_waitcnt" },
    { F_SOPP, 0x49, "s_wait_storecnt_dscnt", "s_waitcnt" },
    /* the split barrier: signal then wait; the wave waits at the wait (every
     * wave of the group signals before it waits, as LLVM emits them) */
    { F_SOP1, 0x4e, "s_barrier_signal", "s_nop" },
    { F_SOPP, 0x14, "s_barrier_wait", "s_barrier" },
    { F_SOPP, 0x3d, "s_barrier", "-" },
    { F_SOPP, 0x04, "s_set_inst_prefetch_distance", "-" },
    { F_SOPK, 0x03, "s_cmpk_eq_i32", "-" },
    { F_SOPK, 0x04, "s_cmpk_lg_i32", "-" },
    { F_SOPK, 0x09, "s_cmpk_eq_u32", "-" },
    { F_SOPK, 0x18, "s_waitcnt_vscnt", "-" },
    /* SALU: 64-bit arithmetic, and float operations with the VALU's semantics */
    { F_SOP2, 0x53, "s_add_nc_u64", NULL },
    { F_SOP2, 0x54, "s_sub_nc_u64", NULL },
    { F_SOP2, 0x55, "s_mul_u64", NULL },
    { F_SOP2, 0x40, "s_add_f32", "v_add_f32" },
    { F_SOP2, 0x41, "s_sub_f32", "v_sub_f32" },
    { F_SOP2, 0x42, "s_min_num_f32", "v_min_f32" },
    { F_SOP2, 0x43, "s_max_num_f32", "v_max_f32" },
    { F_SOP2, 0x44, "s_mul_f32", "v_mul_f32" },
    { F_SOP1, 0x60, "s_ceil_f32", "v_ceil_f32" },
    { F_SOP1, 0x61, "s_floor_f32", "v_floor_f32" },
    { F_SOP1, 0x62, "s_trunc_f32", "v_trunc_f32" },
    { F_SOP1, 0x63, "s_rndne_f32", "v_rndne_f32" },
    { F_SOP1, 0x64, "s_cvt_f32_i32", "v_cvt_f32_i32" },
    { F_SOP1, 0x65, "s_cvt_f32_u32", "v_cvt_f32_u32" },
    { F_SOP1, 0x66, "s_cvt_i32_f32", "v_cvt_i32_f32" },
    { F_SOP1, 0x67, "s_cvt_u32_f32", "v_cvt_u32_f32" },
    { F_SOP1, 0x68, "s_cvt_f16_f32", "v_cvt_f16_f32" },
    { F_SOP1, 0x69, "s_cvt_f32_f16", "v_cvt_f32_f16" },
    { F_SOP2, 0x45, "s_fmaak_f32", NULL },
    { F_SOP2, 0x46, "s_fmamk_f32", NULL },
    { F_SOP2, 0x47, "s_fmac_f32", NULL },
    { F_SOP2, 0x49, "s_add_f16", "v_add_f16" },
    { F_SOP2, 0x4a, "s_sub_f16", "v_sub_f16" },
    { F_SOP2, 0x4d, "s_mul_f16", "v_mul_f16" },
    { F_VOP3, 0x280, "v_s_exp_f32", NULL },
    { F_VOP3, 0x282, "v_s_log_f32", NULL },
    { F_VOP3, 0x284, "v_s_rcp_f32", NULL },
    { F_VOP3, 0x286, "v_s_rsq_f32", NULL },
    { F_VOP3, 0x288, "v_s_sqrt_f32", NULL },
    { F_VOP3, 0x289, "v_s_sqrt_f16", NULL },
    /* SMEM, VGLOBAL */
    { F_SMEM, 0x08, "s_load_i8", NULL },
    { F_SMEM, 0x09, "s_load_u8", NULL },
    { F_SMEM, 0x0a, "s_load_i16", NULL },
    { F_SMEM, 0x0b, "s_load_u16", NULL },
    { F_SMEM, 0x05, "s_load_b96", "s_load_dwordx3" },
    { F_FLAT, 0x2b, "global_inv", "s_nop" },
    { F_FLAT, 0x2c, "global_wb", "s_nop" },
    /* VOP2: the IEEE minNum/maxNum ones renumbered, f64 arithmetic and 64-bit shifts moved here from VOP3 */
    { F_VOP2, 0x0f, "v_min_f32", "-" },
    { F_VOP2, 0x10, "v_max_f32", "-" },
    { F_VOP2, 0x15, "v_min_num_f32", "v_min_f32" },
    { F_VOP2, 0x16, "v_max_num_f32", "v_max_f32" },
    { F_VOP2, 0x02, "v_add_f64", NULL },
    { F_VOP2, 0x06, "v_mul_f64", NULL },
    { F_VOP2, 0x0d, "v_min_num_f64", "v_min_f64" },
    { F_VOP2, 0x0e, "v_max_num_f64", "v_max_f64" },
    { F_VOP2, 0x1f, "v_lshlrev_b64", NULL },
    { F_VOP3, 0x327, "v_add_f64", "-" },
    { F_VOP3, 0x328, "v_mul_f64", "-" },
    { F_VOP3, 0x329, "v_min_f64", "-" },
    { F_VOP3, 0x32a, "v_max_f64", "-" },
    { F_VOP3, 0x33c, "v_lshlrev_b64", "-" },
    /* GFX12's WMMA has another lane layout (8 halves of A per lane): not modelled, so it stops a launch */
    { F_VOP3P, 0x40, "v_wmma_f32_16x16x16_f16", "-" },
    { F_VOP3P, 0x41, "v_wmma_f32_16x16x16_bf16", "-" },
    { F_VOP3P, 0x42, "v_wmma_f16_16x16x16_f16", "-" },
    { F_VOP3P, 0x43, "v_wmma_bf16_16x16x16_bf16", "-" },
    { F_VOP3P, 0x44, "v_wmma_i32_16x16x16_iu8", "-" },
    { F_VOP3P, 0x45, "v_wmma_i32_16x16x16_iu4", "-" },
    /* VOP3 */
    { F_VOP3, 0x219, "v_min3_f32", "-" },
    { F_VOP3, 0x21c, "v_max3_f32", "-" },
    { F_VOP3, 0x21f, "v_med3_f32", "-" },
    { F_VOP3, 0x229, "v_min3_num_f32", "v_min3_f32" },
    { F_VOP3, 0x22a, "v_max3_num_f32", "v_max3_f32" },
    { F_VOP3, 0x231, "v_med3_num_f32", "v_med3_f32" },
    { F_VOP3, 0x365, "v_minimum_f32", NULL },
    { F_VOP3, 0x366, "v_maximum_f32", NULL },
    { F_VOP3, 0x341, "v_minimum_f64", NULL },
    { F_VOP3, 0x342, "v_maximum_f64", NULL },
};
const size_t amdemu_gfx12_count = sizeof amdemu_gfx12 / sizeof amdemu_gfx12[0];
