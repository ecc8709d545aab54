// Writes etc/mcp-fusion.api.md: every export of each public entry point, with its kind and signature.
// `npm run api:report` after changing the public surface; test/package/apiReport.test.ts fails until then.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSurface, renderReport, ROOT } from './api-report/surface.js';

const target = join(ROOT, 'etc', 'mcp-fusion.api.md');
mkdirSync(join(ROOT, 'etc'), { recursive: true });
writeFileSync(target, renderReport(readSurface(ROOT)));
process.stdout.write(`wrote ${target}\n`);
