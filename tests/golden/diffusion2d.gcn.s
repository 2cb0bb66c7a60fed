	.text
	.amdgcn_target "amdgcn-amd-amdhsa--gfx90a"
	.amdhsa_code_object_version 5
	.protected	diffusion2d_21
	.globl	diffusion2d_21
	.p2align	8
	.type	diffusion2d_21,@function
diffusion2d_21:
	; diffusion2d.jl:3:     ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
	s_load_dword s0, s[4:5], 0x5c
	s_load_dwordx4 s[8:11], s[4:5], 0x8
	v_and_b32_e32 v2, 0x3ff, v0
	v_mov_b32_e32 v3, 0
	v_mov_b32_e32 v4, s6
	s_waitcnt lgkmcnt(0)
	s_lshr_b32 s2, s0, 16
	s_and_b32 s0, s0, 0xffff
	v_bfe_u32 v0, v0, 10, 10
	v_mov_b32_e32 v1, v3
	v_mad_u64_u32 v[2:3], s[0:1], s0, v4, v[2:3]
	v_mov_b32_e32 v4, s7
	v_mad_u64_u32 v[0:1], s[0:1], s2, v4, v[0:1]
	; diffusion2d.jl:5:     if ix ∈ axes(A_new, 1) && iy ∈ axes(A_new, 2)
	v_cmp_gt_i64_e32 vcc, s[8:9], v[2:3]
	v_cmp_gt_i64_e64 s[0:1], s[10:11], v[0:1]
	s_and_b64 s[0:1], vcc, s[0:1]
	s_and_saveexec_b64 s[2:3], s[0:1]
	s_cbranch_execz .LBB0_2
	; diffusion2d.jl:3:     ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
	s_load_dwordx4 s[0:3], s[4:5], 0x20
	; diffusion2d.jl:6:         @inbounds A_new[ix, iy] = A[ix+1, iy+1] + h * (A[ix, iy+1] + A[ix+2, iy+1] +
	v_lshlrev_b64 v[6:7], 3, v[2:3]
	s_waitcnt lgkmcnt(0)
	v_pk_mov_b32 v[4:5], s[2:3], s[2:3] op_sel:[0,1]
	v_mul_lo_u32 v12, s2, v1
	v_mul_lo_u32 v13, s3, v0
	v_mad_u64_u32 v[4:5], s[6:7], s2, v0, v[4:5]
	v_add3_u32 v5, v13, v5, v12
	v_lshlrev_b64 v[4:5], 3, v[4:5]
	v_mov_b32_e32 v14, s1
	v_add_co_u32_e32 v4, vcc, s0, v4
	v_addc_co_u32_e32 v5, vcc, v14, v5, vcc
	v_add_co_u32_e32 v8, vcc, v4, v6
	v_addc_co_u32_e32 v9, vcc, v5, v7, vcc
	global_load_dwordx2 v[10:11], v[8:9], off offset:16
	global_load_dwordx4 v[2:5], v[8:9], off
	; diffusion2d.jl:7:                                   A[ix+1, iy] + A[ix+1, iy+2] - 4.0 * A[ix+1, iy+1])
	v_mad_u64_u32 v[8:9], s[6:7], v0, s2, 0
	v_add3_u32 v9, v9, v13, v12
	v_lshlrev_b64 v[8:9], 3, v[8:9]
	v_add_co_u32_e32 v8, vcc, s0, v8
	v_addc_co_u32_e32 v9, vcc, v14, v9, vcc
	v_add_co_u32_e32 v8, vcc, v8, v6
	v_addc_co_u32_e32 v9, vcc, v9, v7, vcc
	s_lshl_b64 s[0:1], s[2:3], 4
	v_mov_b32_e32 v13, s1
	v_add_co_u32_e32 v12, vcc, s0, v8
	v_addc_co_u32_e32 v13, vcc, v9, v13, vcc
	global_load_dwordx2 v[14:15], v[8:9], off offset:8
	global_load_dwordx2 v[16:17], v[12:13], off offset:8
	s_load_dwordx2 s[0:1], s[4:5], 0x0
	; diffusion2d.jl:3:     ix = (workgroupIdx().x - 1) * workgroupDim().x + workitemIdx().x
	s_load_dwordx2 s[2:3], s[4:5], 0x40
	; diffusion2d.jl:6:         @inbounds A_new[ix, iy] = A[ix+1, iy+1] + h * (A[ix, iy+1] + A[ix+2, iy+1] +
	v_mul_lo_u32 v8, v1, s8
	v_mul_lo_u32 v9, v0, s9
	v_mad_u64_u32 v[0:1], s[4:5], v0, s8, 0
	v_add3_u32 v1, v1, v9, v8
	v_lshlrev_b64 v[0:1], 3, v[0:1]
	s_waitcnt lgkmcnt(0)
	v_mov_b32_e32 v8, s1
	v_add_co_u32_e32 v9, vcc, s0, v0
	v_addc_co_u32_e32 v8, vcc, v8, v1, vcc
	s_waitcnt vmcnt(2)
	v_add_f64 v[0:1], v[2:3], v[10:11]
	; diffusion2d.jl:7:                                   A[ix+1, iy] + A[ix+1, iy+2] - 4.0 * A[ix+1, iy+1])
	v_mul_f64 v[2:3], v[4:5], -4.0
	; diffusion2d.jl:6:         @inbounds A_new[ix, iy] = A[ix+1, iy+1] + h * (A[ix, iy+1] + A[ix+2, iy+1] +
	s_waitcnt vmcnt(1)
	v_add_f64 v[0:1], v[0:1], v[14:15]
	; diffusion2d.jl:7:                                   A[ix+1, iy] + A[ix+1, iy+2] - 4.0 * A[ix+1, iy+1])
	s_waitcnt vmcnt(0)
	v_add_f64 v[0:1], v[0:1], v[16:17]
	v_add_f64 v[0:1], v[0:1], v[2:3]
	; diffusion2d.jl:6:         @inbounds A_new[ix, iy] = A[ix+1, iy+1] + h * (A[ix, iy+1] + A[ix+2, iy+1] +
	v_mul_f64 v[0:1], v[0:1], s[2:3]
	v_add_co_u32_e32 v2, vcc, v9, v6
	v_add_f64 v[0:1], v[4:5], v[0:1]
	v_addc_co_u32_e32 v3, vcc, v8, v7, vcc
	global_store_dwordx2 v[2:3], v[0:1], off
.LBB0_2:
	; diffusion2d.jl:9:     return
	s_endpgm
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel diffusion2d_21
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 336
		.amdhsa_user_sgpr_count 6
		.amdhsa_user_sgpr_private_segment_buffer 1
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_flat_scratch_init 0
		.amdhsa_user_sgpr_kernarg_preload_length 0
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_system_sgpr_private_segment_wavefront_offset 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 1
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 1
		.amdhsa_next_free_vgpr 18
		.amdhsa_next_free_sgpr 12
		.amdhsa_accum_offset 20
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_flat_scratch 0
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
.Lfunc_end0:
	.size	diffusion2d_21, .Lfunc_end0-diffusion2d_21

	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.section	".note.GNU-stack","",@progbits
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .name:           A_new
        .offset:         0
        .size:           32
        .value_kind:     by_value
      - .name:           A
        .offset:         32
        .size:           32
        .value_kind:     by_value
      - .name:           h
        .offset:         64
        .size:           8
        .value_kind:     by_value
      - .address_space:  global
        .name:           __juke_exception
        .offset:         72
        .size:           8
        .value_kind:     global_buffer
      - .offset:         80
        .size:           4
        .value_kind:     hidden_block_count_x
      - .offset:         84
        .size:           4
        .value_kind:     hidden_block_count_y
      - .offset:         88
        .size:           4
        .value_kind:     hidden_block_count_z
      - .offset:         92
        .size:           2
        .value_kind:     hidden_group_size_x
      - .offset:         94
        .size:           2
        .value_kind:     hidden_group_size_y
      - .offset:         96
        .size:           2
        .value_kind:     hidden_group_size_z
      - .offset:         98
        .size:           2
        .value_kind:     hidden_remainder_x
      - .offset:         100
        .size:           2
        .value_kind:     hidden_remainder_y
      - .offset:         102
        .size:           2
        .value_kind:     hidden_remainder_z
      - .offset:         120
        .size:           8
        .value_kind:     hidden_global_offset_x
      - .offset:         128
        .size:           8
        .value_kind:     hidden_global_offset_y
      - .offset:         136
        .size:           8
        .value_kind:     hidden_global_offset_z
      - .offset:         144
        .size:           2
        .value_kind:     hidden_grid_dims
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 336
    .max_flat_workgroup_size: 1024
    .name:           diffusion2d_21
    .private_segment_fixed_size: 0
    .sgpr_count:     16
    .sgpr_spill_count: 0
    .symbol:         diffusion2d_21.kd
    .uses_dynamic_stack: false
    .vgpr_count:     18
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgcn-amd-amdhsa--gfx90a
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
