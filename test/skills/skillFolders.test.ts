import { Client } from '@modelcontextprotocol/client';
import { SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { ReadResourceDirectoryResultSchema } from '@modelcontextprotocol/core/ext/skills';
import { InMemoryTransport, McpServer } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { v2FetchClient } from '../_helpers/clients.js';

const f = initFusion();

/** A hand-written skill with files two folders deep (one of them non-ASCII, so bytes and characters differ). */
function guided() {
  return f.registry().registerAll(
    f.query('ping').handle(() => 'pong'),
    f
      .skill('guide')
      .describe('How to use the ping tool')
      .file('references/TOOLS.md', '# Tools\n\n`ping` answers «pong».\n')
      .file('references/deep/NOTES.txt', 'notes\n')
      .file('examples/first.md', '# First\n')
      .text('# Guide\n\nSee references/TOOLS.md.'),
  );
}

/** Every file of `entry` with its listed size, by URI (the SDK's skillEntry computed them). */
const sizes = (entry: Skill): Map<string, number> =>
  new Map((entry.resources as Array<{ uri: string; size: number }>).map((r) => [r.uri, r.size]));

describe('skill folders through resources/directory/read (SDK skills client)', () => {
  for (const mode of ['legacy', 'auto'] as const)
    it(`${mode}: lists each folder's direct children, files with the entry's sizes, folders as inode/directory`, async () => {
      await using client = await v2FetchClient(createFusionApp(guided()), mode);
      const skills = new SkillsClient(client);
      expect(skills.directoryRead).toBe(true);
      const [entry] = (await skills.list()).skills;
      const listed = sizes(entry!);

      const root = await skills.readDirectory('skill://guide');
      expect(root.resources).toEqual([
        {
          uri: 'skill://guide/SKILL.md',
          name: 'SKILL.md',
          mimeType: 'text/markdown',
          size: listed.get('skill://guide/SKILL.md'),
        },
        { uri: 'skill://guide/examples', name: 'examples', mimeType: 'inode/directory' },
        { uri: 'skill://guide/references', name: 'references', mimeType: 'inode/directory' },
      ]);
      const references = await skills.readDirectory('skill://guide/references');
      expect(references.resources).toEqual([
        {
          uri: 'skill://guide/references/TOOLS.md',
          name: 'TOOLS.md',
          mimeType: 'text/markdown',
          size: listed.get('skill://guide/references/TOOLS.md'),
        },
        { uri: 'skill://guide/references/deep', name: 'deep', mimeType: 'inode/directory' },
      ]);
      // The non-ASCII file: its size is its UTF-8 bytes, as the entry's digest covers them.
      expect(listed.get('skill://guide/references/TOOLS.md')).toBe(
        Buffer.byteLength('# Tools\n\n`ping` answers «pong».\n'),
      );
      const deep = await skills.readDirectory('skill://guide/references/deep');
      expect(deep.resources.map((r) => [r.uri, r.mimeType])).toEqual([
        ['skill://guide/references/deep/NOTES.txt', 'text/plain'],
      ]);
      // Walking every folder from the root finds exactly the files the entry lists.
      const found: string[] = [];
      const walk = async (uri: string): Promise<void> => {
        for (const child of (await skills.readDirectory(uri)).resources)
          if (child.mimeType === 'inode/directory') await walk(child.uri);
          else found.push(child.uri);
      };
      await walk('skill://guide');
      expect(found.sort()).toEqual([...listed.keys()].sort());

      // A file, an unknown folder, a trailing slash and a cursor never handed out are invalid params.
      for (const uri of ['skill://guide/SKILL.md', 'skill://nothing', 'skill://guide/', 'file:///etc'])
        await expect(skills.readDirectory(uri), uri).rejects.toMatchObject({ code: -32602 });
      const paged = { method: 'resources/directory/read', params: { uri: 'skill://guide', cursor: 'x' } } as const;
      await expect(client.request(paged, ReadResourceDirectoryResultSchema)).rejects.toMatchObject({ code: -32602 });
    });

  it('is served on a user’s McpServer through attachToServer too', async () => {
    const mcp = new McpServer({ name: 'user', version: '1.0.0' });
    guided().attachToServer(mcp);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await mcp.connect(a);
    const client = new Client({ name: 'c', version: '1.0.0' });
    await client.connect(b);
    const skills = new SkillsClient(client);
    expect(skills.directoryRead).toBe(true);
    const names = (await skills.readDirectory('skill://guide')).resources.map((r) => r.name);
    expect(names).toEqual(['SKILL.md', 'examples', 'references']);
    await client.close();
  });
});
