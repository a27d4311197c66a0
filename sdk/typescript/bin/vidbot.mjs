#!/usr/bin/env node
// The CLI is TypeScript run as is: tsx compiles it on load.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
