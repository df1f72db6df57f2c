	vxorps	%xmm9, %xmm9, %xmm9
	vxorps	%xmm10, %xmm10, %xmm10
	.p2align	4, 0x90
.LBB214_4:                              # %"for dot.s1.k$x"
                                        #   Parent Loop BB214_2 Depth=1
                                        #     Parent Loop BB214_3 Depth=2
                                        # =>    This Inner Loop Header: Depth=3
	vmovups	(%r11), %zmm11
	vfmadd231ps	(%r8,%r14,4){1to16}, %zmm11, %zmm10 # zmm10 = (zmm11 * mem) + zmm10
	vfmadd231ps	(%rbp,%r14,4){1to16}, %zmm11, %zmm9 # zmm9 = (zmm11 * mem) + zmm9
	vfmadd231ps	(%rax,%r14,4){1to16}, %zmm11, %zmm8 # zmm8 = (zmm11 * mem) + zmm8
	vfmadd231ps	(%rbx,%r14,4){1to16}, %zmm11, %zmm7 # zmm7 = (zmm11 * mem) + zmm7
	vpbroadcastq	%r14, %ymm12
	vpaddq	%ymm1, %ymm12, %ymm12
	vmovq	%xmm12, %r15
	vfmadd231ps	(%rcx,%r15,4){1to16}, %zmm11, %zmm6 # zmm6 = (zmm11 * mem) + zmm6
	vpextrq	$1, %xmm12, %rdi
	vfmadd231ps	(%rcx,%rdi,4){1to16}, %zmm11, %zmm5 # zmm5 = (zmm11 * mem) + zmm5
	vextracti128	$1, %ymm12, %xmm0
	vmovq	%xmm0, %rdi
	vfmadd231ps	(%rcx,%rdi,4){1to16}, %zmm11, %zmm4 # zmm4 = (zmm11 * mem) + zmm4
	vpextrq	$1, %xmm0, %rdi
	vfmadd231ps	(%rcx,%rdi,4){1to16}, %zmm11, %zmm3 # zmm3 = (zmm11 * mem) + zmm3
	incq	%r14
	addq	%rdx, %r11
	cmpq	$512, %r14                      # imm = 0x200
	jne	.LBB214_4
# %bb.5:                                # %"consume dot"
                                        #   in Loop: Header=BB214_3 Depth=2
	movq	-8(%rsp), %rdi                  # 8-byte Reload
