import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { SkillsClient } from '@modelcontextprotocol/client/ext/skills';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { workflowSkill } from '../../src/skills/workflowSkill.js';
import { heard } from '../_helpers/heard.js';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A v2 SDK client over stdio to a child process running `script` (its bundle of the sources: sourceChild). */
async function stdioClient(mode: 'legacy' | 'auto', script: string, ...args: string[]) {
  const client = new Client(
    { name: 'skills-stdio', version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...sourceChild(script), ...args],
    cwd: root,
    stderr: 'pipe',
  });
  await client.connect(transport);
  return Object.assign(client, { skills: new SkillsClient(client), [Symbol.asyncDispose]: () => client.close() });
}

/** A child process starts slowly on a loaded machine. */
const STDIO_MS = 60_000;

const SWITCHED = 'test/skills/fixtures/switchedSkillStdio.ts';

/** The text of the one listed skill, read and verified against its entry, with the entry. */
async function onlySkill(client: Awaited<ReturnType<typeof stdioClient>>) {
  const { skills, invalid } = await client.skills.list();
  expect(invalid).toEqual([]);
  expect(skills).toHaveLength(1);
  const file = await client.skills.read(skills[0]!);
  expect(file.verified).toBe(true);
  return { entry: skills[0]!, text: file.text! };
}

describe('skills over stdio (serveStdio in a child process, the SDK’s stdio client)', () => {
  const options = workspaceOptions();
  const runtime = registry.runtime(options);
  const generated = workflowSkill(runtime.workflow!.gate, runtime.surface).markdown;

  for (const mode of ['legacy', 'auto'] as const)
    it(
      `${mode}: the example server lists the checkout’s skill and serves the generator’s text`,
      async () => {
        await using client = await stdioClient(mode, 'examples/workspace/main.ts', '--stdio');
        expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
        expect(client.skills.supported).toBe(true);
        const { skills } = await client.skills.list();
        const entry = skills.find((s) => s.frontmatter.name === 'checkout-workflow');
        expect(entry?.uri).toBe('skill://checkout-workflow/SKILL.md');
        const file = await client.skills.read(entry!);
        expect(file.verified).toBe(true);
        expect(file.text).toBe(generated);
        expect((await client.skills.get(entry!.uri)).skill).toEqual(entry);
      },
      STDIO_MS,
    );

  it(
    'legacy: disabling a workflow tool changes the skill and announces resources/list_changed; re-enabling restores it',
    async () => {
      await using client = await stdioClient('legacy', SWITCHED);
      const resources = heard<string>();
      const tools = heard<string>();
      client.setNotificationHandler('notifications/resources/list_changed', () => resources.push('list_changed'));
      client.setNotificationHandler('notifications/tools/list_changed', () => tools.push('list_changed'));
      const before = await onlySkill(client);
      expect(before.text).toContain('- `review` → `draft` on `REJECT`: call `doc.reject`');

      // A switch of a tool no skill names changes no skill: the tool list changes, the resource list does not.
      await client.callTool({ name: 'toggle_other', arguments: {} });
      await tools.reached(1);
      await client.callTool({ name: 'toggle_other', arguments: {} });
      await tools.reached(2);

      expect(await client.callTool({ name: 'toggle_reject', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'disabled' }],
      });
      await resources.reached(1);
      await tools.reached(3);
      const after = await onlySkill(client);
      // The listing's answer came after every notification sent before it: exactly one for the three switches.
      expect(resources.items).toHaveLength(1);
      expect(after.entry.resources).not.toEqual(before.entry.resources);
      expect(after.text).not.toContain('doc.reject');
      expect(after.text).toContain('- `review` → `draft` on `REJECT`: no tool sends it');
      expect(after.text).toContain('- `review`: `doc.approve`');

      await client.callTool({ name: 'toggle_reject', arguments: {} });
      await resources.reached(2);
      expect((await onlySkill(client)).text).toBe(before.text);
    },
    STDIO_MS,
  );

  it(
    'auto (2026-07-28): a client that lists and reads again gets the changed skill',
    async () => {
      await using client = await stdioClient('auto', SWITCHED);
      expect(client.getProtocolEra()).toBe('modern');
      const before = await onlySkill(client);
      expect(before.text).toContain('call `doc.reject`');
      await client.callTool({ name: 'toggle_reject', arguments: {} });
      const after = await onlySkill(client);
      expect(after.entry.resources).not.toEqual(before.entry.resources);
      expect(after.text).not.toContain('doc.reject');
      await client.callTool({ name: 'toggle_reject', arguments: {} });
      expect((await onlySkill(client)).text).toBe(before.text);
    },
    STDIO_MS,
  );
});
