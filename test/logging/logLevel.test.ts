import { describe, expect, it } from 'vitest';
import { resolveLogLevel } from '../../src/logging/logLevel.js';

describe('resolveLogLevel', () => {
  it('takes the option first, then MCP_FUSION_LOG, then info', () => {
    expect(resolveLogLevel('error', 'debug')).toBe('error');
    expect(resolveLogLevel(undefined, 'debug')).toBe('debug');
    expect(resolveLogLevel(undefined, ' WARN ')).toBe('warn');
    expect(resolveLogLevel(undefined, '')).toBe('info');
  });

  it('reads MCP_FUSION_LOG from the process when no value is given', () => {
    const saved = process.env.MCP_FUSION_LOG;
    try {
      process.env.MCP_FUSION_LOG = 'error';
      expect(resolveLogLevel(undefined)).toBe('error');
    } finally {
      process.env.MCP_FUSION_LOG = saved;
    }
  });

  it('refuses an unknown level with an AttachError naming the source and the accepted levels', () => {
    expect(() => resolveLogLevel(undefined, 'verbose')).toThrowErrorMatchingInlineSnapshot(
      `[AttachError: The MCP_FUSION_LOG environment variable is "verbose"; use one of debug, info, warn, error or silent.]`,
    );
    expect(() => resolveLogLevel('trace' as never)).toThrowErrorMatchingInlineSnapshot(
      `[AttachError: The logLevel option is "trace"; use one of debug, info, warn, error or silent.]`,
    );
  });
});
