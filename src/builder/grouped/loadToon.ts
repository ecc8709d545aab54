import { MissingPeerError } from '../../errors/FusionError.js';
import type { ToonEncode } from '../strategies/types.js';

let cached: ToonEncode | undefined;

type NodeModuleApi = { createRequire(from: string): (id: string) => unknown };

/**
 * `encode` of the optional peer `@toon-format/toon`, loaded synchronously (builds are synchronous) the
 * first time a tool opts into TOON descriptions. Needs Node ≥ 20.19 (`require` of ES modules); elsewhere
 * the user passes the encoder: `.toonDescription({ encode })`.
 */
export function loadToonEncode(tool: string): ToonEncode {
  if (cached !== undefined) return cached;
  try {
    const proc = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    const nodeModule = proc?.getBuiltinModule?.('node:module') as NodeModuleApi | undefined;
    if (nodeModule === undefined) throw new Error('this runtime cannot load packages synchronously');
    const loaded = nodeModule.createRequire(import.meta.url)('@toon-format/toon') as { encode?: unknown };
    if (typeof loaded.encode !== 'function') throw new Error('the package has no encode export');
    cached = loaded.encode as ToonEncode;
    return cached;
  } catch (error) {
    throw new MissingPeerError(
      'PEER_MISSING',
      `Tool "${tool}" uses .toonDescription(), which needs the optional peer "@toon-format/toon" (${firstLine(error)}). ` +
        'Install it (npm install @toon-format/toon), or pass its encoder: .toonDescription({ encode }) with encode imported from "@toon-format/toon" (needed on Node < 20.19 and in bundles).',
      { tool, peer: '@toon-format/toon' },
    );
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim();
}
