import { describe, expect, it } from 'vitest';
import { cli } from './_run.js';

describe('mcp-fusion --help', () => {
  it.each(['create', 'inspect', 'diagram', 'lint'])('documents %s', async (command) => {
    const { code, stdout } = await cli(command, '--help');
    expect(code).toBe(0);
    expect(stdout).toContain(`Usage: mcp-fusion ${command} [options] <`);
    expect(stdout).toContain('Example');
  });

  it('links its docs by a URL (the docs are not in the installed package)', async () => {
    const { stdout } = await cli('--help');
    expect(stdout).toContain('\nDocs: https://github.com/mcp-fusion/mcp-fusion/blob/main/docs/cli.md\n');
  });

  it('fails on an unknown command and points at --help', async () => {
    const { code, stderr } = await cli('frob');
    expect(code).toBe(2);
    expect(stderr).toBe("error: unknown command 'frob'\n(add --help for usage)\n");
  });

  it('fails on a missing argument', async () => {
    const { code, stderr } = await cli('lint');
    expect(code).toBe(2);
    expect(stderr).toBe("error: missing required argument 'module'\n(add --help for usage)\n");
  });
});
