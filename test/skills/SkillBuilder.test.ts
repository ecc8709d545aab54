import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { v2FetchClient } from '../_helpers/clients.js';

const f = initFusion();
const thrown = (fn: () => unknown): string => {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('did not throw');
};

describe('f.skill()', () => {
  it('serves a hand-written skill and its files, each verified against its listed digest', async () => {
    const triage = f
      .skill('bug-triage')
      .describe('How to triage a bug report')
      .file('references/LABELS.md', '# Labels\n- bug\n')
      .text('# Bug triage\nRead references/LABELS.md first.');
    const registry = f.registry().registerAll(
      f.query('ping').handle(() => 'pong'),
      triage,
    );
    for (const mode of ['legacy', 'auto'] as const) {
      await using client = await v2FetchClient(createFusionApp(registry), mode);
      const skills = new SkillsClient(client);
      const [entry, ...rest] = (await skills.list()).skills;
      expect(rest).toEqual([]);
      expect(entry!.frontmatter).toEqual({ name: 'bug-triage', description: 'How to triage a bug report' });
      expect((entry!.resources as Array<{ uri: string }>).map((r) => r.uri).sort()).toEqual([
        'skill://bug-triage/SKILL.md',
        'skill://bug-triage/references/LABELS.md',
      ]);
      const main = await skills.read(entry!);
      expect(main.body).toBe('\n# Bug triage\nRead references/LABELS.md first.\n');
      const labels = await skills.read(entry!, 'skill://bug-triage/references/LABELS.md');
      expect([labels.verified, labels.text]).toEqual([true, '# Labels\n- bug\n']);
    }
  });

  it('refuses a bad name, a file outside the skill, a missing description, a duplicate and a change once built', () => {
    expect(thrown(() => f.skill('Bug Triage'))).toMatchInlineSnapshot(
      `"Skill name "Bug Triage" is not a valid skill name; use 1-64 lowercase letters, digits and single hyphens, such as "bug-triage"."`,
    );
    expect(thrown(() => f.skill('x').file('../etc/passwd', ''))).toMatchInlineSnapshot(
      `"Skill "x" adds a file at "../etc/passwd"; give a relative path inside the skill such as "references/GUIDE.md" (not SKILL.md, which .text() writes)."`,
    );
    expect(thrown(() => f.skill('x').text('body'))).toMatchInlineSnapshot(
      `"Skill "x" has no description; call .describe("what it is for and when to use it") before .text()."`,
    );
    const builder = f.skill('x').describe('d');
    const skill = builder.text('body');
    expect(Object.isFrozen(skill)).toBe(true);
    expect(thrown(() => builder.describe('again'))).toMatchInlineSnapshot(
      `"Skill "x" is already built; cannot change it. Start a new builder with f.skill("x") instead."`,
    );
    expect(thrown(() => f.registry().registerAll(skill, skill))).toMatchInlineSnapshot(
      `"Skill "x" is registered twice. Give one of them another name."`,
    );
  });
});
