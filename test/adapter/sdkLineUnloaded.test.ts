import { McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { AttachError } from '../../src/errors/FusionError.js';
// Only the adapter file, not the root entry: nothing has handed the SDK's classes in.
import { resolveServer } from '../../src/adapter/sdkLine.js';

describe('attach without the root entry', () => {
  it('refuses to guess the SDK line and says to import mcp-fusion from its package entry', () => {
    let error: unknown;
    try {
      resolveServer(new McpServer({ name: 'a', version: '1' }));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AttachError);
    expect((error as AttachError).code).toBe('ATTACH_SDK');
    expect((error as AttachError).message).toMatchInlineSnapshot(
      `"attachToServer() cannot tell SDK servers apart: mcp-fusion's SDK classes were not loaded. Import mcp-fusion from its package entry ('mcp-fusion'), not from a file inside it."`,
    );
  });
});
