import { describe, expect, it } from 'vitest';
import { cli, example, fixture } from './_run.js';

describe('mcp-fusion lint', () => {
  it('passes the example server without a warning, even with --strict', async () => {
    const { code, stdout } = await cli('lint', example, '--strict');
    expect(code).toBe(0);
    expect(stdout).toMatchInlineSnapshot(`
      "✔ examples/workspace/registry.ts: no problems
      "
    `);
  });

  it('--strict fails on warnings', async () => {
    expect((await cli('lint', fixture('broken-registry.ts'), '--strict')).code).toBe(1);
  });

  it('fails a broken module and prints every startup problem', async () => {
    const { code, stdout } = await cli('lint', fixture('broken-registry.ts'));
    expect(code).toBe(1);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('test/cli/fixtures/broken-registry.ts');
    const errors = lines.filter((l) => l.startsWith('  ✖ error'));
    // The wording belongs to the startup checks (pinned in their own tests); here: one line per problem.
    const expected = [
      /Policy \[0\] "docs\.\*" shadows policy \[1\] "docs\.list"/,
      /Policy \[0\] "docs\.\*" shadows policy \[3\] "docs\.submit"/,
      /Policy \[2\] "drafts\.\*" matches no registered tool/,
      /invalidates "doc\.list", which matches no registered tool/,
      /Tool "docs\.approve" sends event "APROVE", which no state of FSM "review" handles/,
      /State "archived" of FSM "review" is unreachable from "draft"/,
    ];
    expect(errors).toHaveLength(expected.length);
    expected.forEach((pattern, i) => expect(errors[i]).toMatch(pattern));
    expect(lines).toContain(
      '  ⚠ warning  Transition "in_review" → "published" of FSM "review" needs event "APPROVE", which no tool visible in "in_review" sends; bind a tool with .bindState(["in_review"], "APPROVE") or remove the transition.',
    );
    expect(stdout.endsWith('\n6 errors, 1 warning\n')).toBe(true);
  });

  it('--json reports problems for machines', async () => {
    const { code, stdout } = await cli('lint', fixture('broken-registry.ts'), '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(report).toMatchObject({ module: 'test/cli/fixtures/broken-registry.ts', errors: 6, warnings: 1 });
    expect(report.problems.every((p: { severity: string; message: string }) => typeof p.message === 'string')).toBe(
      true,
    );
  });

  it('exits 2 when the module cannot be loaded', async () => {
    const { code, stderr } = await cli('lint', fixture('missing.ts'));
    expect(code).toBe(2);
    expect(stderr).toContain('Cannot find module');
  });
});
