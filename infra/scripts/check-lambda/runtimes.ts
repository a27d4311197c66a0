/** The Node runtimes check:lambda runs the functions under: x64 natively, arm64 under qemu-user where it is installed. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ARM64_APT_PACKAGES, ARM64_SYSROOT, type Arch, arm64Sysroot, NODE_PACKAGES, NODE_VERSION, QEMU, runtimesDir } from './settings.ts';

/** bin/node of node-linux-<arch>@NODE_VERSION, fetched once with npm and kept under .cache/lambda-runtimes. */
export function nodeBinary(arch: Arch): string {
  const pkg = NODE_PACKAGES[arch];
  const dir = join(runtimesDir, `${pkg.name}-${NODE_VERSION}`);
  const node = join(dir, 'package', 'bin', 'node');
  const stamp = join(dir, '.integrity');
  if (existsSync(node) && existsSync(stamp) && readFileSync(stamp, 'utf8') === pkg.integrity) return node;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  console.log(`fetching ${pkg.name}@${NODE_VERSION} with npm pack`);
  const packed = JSON.parse(
    execFileSync('npm', ['pack', `${pkg.name}@${NODE_VERSION}`, '--json', '--pack-destination', dir], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  )[0];
  if (packed.integrity !== pkg.integrity)
    throw new Error(`${pkg.name}@${NODE_VERSION} has integrity ${packed.integrity}, not the pinned ${pkg.integrity}`);
  const tarball = join(dir, packed.filename);
  execFileSync('tar', ['-xzf', tarball, '-C', dir, 'package/bin/node']);
  rmSync(tarball);
  writeFileSync(stamp, pkg.integrity);
  return node;
}

export interface Runtime {
  label: string;
  /** Which Node runs the functions; absent when the runtime is skipped. */
  arch?: Arch;
  /** Under qemu-user (an arm64 Node on an x64 machine). */
  qemu?: boolean;
  skipped?: string;
}

/** The command line that runs a program of this runtime's architecture. */
export function commandLine(runtime: Runtime, program: string, args: string[]): [string, string[]] {
  return runtime.qemu ? [QEMU, ['-L', arm64Sysroot, program, ...args]] : [program, args];
}

/** One arm64 core of a Graviton2 (Neoverse N1), as /proc/cpuinfo shows it on an arm64 Lambda. */
const NEOVERSE_N1_CPU = (n: number) =>
  `processor\t: ${n}\nBogoMIPS\t: 243.75\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp ssbs\n` +
  `CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x3\nCPU part\t: 0xd0c\nCPU revision\t: 1\n\n`;

/** The qemu sysroot: ARM64_SYSROOT's entries, an arm64 /proc/cpuinfo, Lambda's CPU lists (see check-lambda.ts). */
export function makeArm64Sysroot(): void {
  rmSync(arm64Sysroot, { recursive: true, force: true });
  mkdirSync(join(arm64Sysroot, 'proc'), { recursive: true });
  for (const name of readdirSync(ARM64_SYSROOT)) symlinkSync(join(ARM64_SYSROOT, name), join(arm64Sysroot, name));
  writeFileSync(join(arm64Sysroot, 'proc', 'cpuinfo'), NEOVERSE_N1_CPU(0) + NEOVERSE_N1_CPU(1));
  mkdirSync(join(arm64Sysroot, 'sys', 'devices', 'system', 'cpu'), { recursive: true });
  for (const list of ['possible', 'present']) writeFileSync(join(arm64Sysroot, 'sys', 'devices', 'system', 'cpu', list), '');
}

function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, command))) return join(dir, command);
  return undefined;
}

function arm64Missing(): string | undefined {
  if (process.platform !== 'linux') return `not on Linux (${process.platform})`;
  if (process.arch === 'arm64') return undefined;
  if (!which(QEMU)) return `${QEMU} is not installed (apt-get install ${ARM64_APT_PACKAGES})`;
  if (!existsSync(join(ARM64_SYSROOT, 'lib', 'ld-linux-aarch64.so.1')))
    return `the arm64 C library is not in ${ARM64_SYSROOT} (apt-get install ${ARM64_APT_PACKAGES})`;
  return undefined;
}

export function runtimes(runtimeMajor: number): Runtime[] {
  const x64: Runtime =
    process.platform === 'linux' && process.arch === 'x64'
      ? { label: `node${runtimeMajor}-x64`, arch: 'x64' }
      : { label: `node${runtimeMajor}-x64`, skipped: `this machine is ${process.platform}-${process.arch}` };
  const missing = arm64Missing();
  const qemu = process.arch !== 'arm64';
  const arm64: Runtime = { label: `node${runtimeMajor}-arm64${qemu ? '-qemu' : ''}`, ...(missing ? { skipped: missing } : { arch: 'arm64', qemu }) };
  return [x64, arm64];
}
