import { closeSync, openSync, readSync } from 'node:fs';

/** ELF e_machine numbers of the architectures we ship binaries for. */
export const ELF_MACHINE = { x64: 62, arm64: 183 } as const;

/** The e_machine of an ELF file, or undefined if it is not a 64-bit ELF file. */
export function elfMachine(path: string): number | undefined {
  const header = Buffer.alloc(20);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, 20, 0);
  } finally {
    closeSync(fd);
  }
  const elf64 = header.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) && header[4] === 2;
  return elf64 ? header.readUInt16LE(18) : undefined;
}
