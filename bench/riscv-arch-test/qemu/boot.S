/* QEMU's virt machine with -bios none starts at the RAM base whatever
   the ELF's entry: jump to the test's. */
	.section .boot, "ax", @progbits
	.globl _qemu_boot
_qemu_boot:
	j rvtest_entry_point
