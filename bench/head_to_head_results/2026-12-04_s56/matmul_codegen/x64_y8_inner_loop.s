	vxorps	%xmm6, %xmm6, %xmm6
	vxorps	%xmm7, %xmm7, %xmm7
	.p2align	4, 0x90
.LBB214_3:                              # %"for dot.s1.k$x"
                                        #   Parent Loop BB214_2 Depth=1
                                        # =>  This Inner Loop Header: Depth=2
	vmovups	(%r12), %zmm8
	vfmadd231ps	(%r10,%rcx){1to16}, %zmm8, %zmm7 # zmm7 = (zmm8 * mem) + zmm7
	vfmadd231ps	(%r9,%rcx){1to16}, %zmm8, %zmm6 # zmm6 = (zmm8 * mem) + zmm6
	vfmadd231ps	(%r8,%rcx){1to16}, %zmm8, %zmm5 # zmm5 = (zmm8 * mem) + zmm5
	vfmadd231ps	(%rbp,%rcx){1to16}, %zmm8, %zmm4 # zmm4 = (zmm8 * mem) + zmm4
	vfmadd231ps	(%rbx,%rcx){1to16}, %zmm8, %zmm3 # zmm3 = (zmm8 * mem) + zmm3
	vfmadd231ps	(%rax,%rcx){1to16}, %zmm8, %zmm2 # zmm2 = (zmm8 * mem) + zmm2
	vfmadd231ps	(%rdi,%rcx){1to16}, %zmm8, %zmm1 # zmm1 = (zmm8 * mem) + zmm1
	vfmadd231ps	(%rsi,%rcx){1to16}, %zmm8, %zmm0 # zmm0 = (zmm8 * mem) + zmm0
	addq	$4, %rcx
	addq	%rdx, %r12
	cmpq	$2048, %rcx                     # imm = 0x800
	jne	.LBB214_3
# %bb.4:                                # %"consume dot"
                                        #   in Loop: Header=BB214_2 Depth=1
	movq	-16(%rsp), %r14                 # 8-byte Reload
	movq	56(%rsp), %r12                  # 8-byte Reload
	vmovups	%zmm7, (%r14,%r12,4)
