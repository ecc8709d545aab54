import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { workflowSkill } from '../../src/skills/workflowSkill.js';
import { cli, example } from '../cli/_run.js';

const runtime = registry.runtime(workspaceOptions());
const generated = workflowSkill(runtime.workflow!.gate, runtime.surface).markdown;

describe('the generated skill as docs and the CLI show it', () => {
  it('docs/skills.md carries the example checkout’s skill exactly as the generator writes it', () => {
    const page = readFileSync(resolve(import.meta.dirname, '../../docs/skills.md'), 'utf8');
    const copy = /<!-- generated: checkout-workflow -->\n\n```markdown\n([\s\S]*?)```\n\n<!-- \/generated -->/.exec(
      page,
    );
    // On a difference, regenerate the block from `mcp-fusion inspect examples/workspace/registry.ts --skill`.
    expect(copy?.[1]).toBe(generated);
  });

  it('mcp-fusion inspect --skill prints it, and --json names it', async () => {
    const text = await cli('inspect', example, '--skill');
    expect({ code: text.code, stdout: text.stdout }).toEqual({ code: 0, stdout: generated });
    const json = await cli('inspect', example, '--skill', '--json');
    expect(JSON.parse(json.stdout)).toEqual([{ name: 'checkout-workflow', markdown: generated }]);
  });
});
