import { PromptSchema, ResourceSchema, ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { Group } from '../../src/domain/Group.js';
import { Prompt } from '../../src/domain/Prompt.js';
import { PromptArgument } from '../../src/domain/PromptArgument.js';
import { PromptConverter } from '../../src/domain/PromptConverter.js';
import { Resource } from '../../src/domain/Resource.js';
import { ResourceConverter } from '../../src/domain/ResourceConverter.js';
import { Tool } from '../../src/domain/Tool.js';
import { ToolConverter } from '../../src/domain/ToolConverter.js';
import type { WirePrompt, WireResource, WireTool } from '../../src/domain/types.js';

describe('ToolConverter', () => {
  const tool = new Tool('create', {
    title: 'Create user',
    description: 'Creates a user',
    inputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
    annotations: { destructiveHint: false },
    icons: [{ src: 'https://x/u.png', mimeType: 'image/png' }],
    meta: { team: 'id' },
  });

  it('produces the wire tool, with only the fields that are set, valid for the SDK', () => {
    const wire = new ToolConverter().convertFrom(tool);
    expect(wire).toEqual({
      name: 'create',
      title: 'Create user',
      description: 'Creates a user',
      inputSchema: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] },
      annotations: { destructiveHint: false },
      icons: [{ src: 'https://x/u.png', mimeType: 'image/png' }],
      _meta: { team: 'id' },
    });
    expect(ToolSchema.safeParse(wire).success).toBe(true);
    expect(Object.keys(new ToolConverter().convertFrom(new Tool('bare')))).toEqual(['name', 'inputSchema']);
  });

  it('lists the qualified name on request', () => {
    const users = new Group('users');
    new Group('platform').addChildGroup(users);
    users.addChildTool(tool);
    expect(new ToolConverter({ qualifiedNames: true }).convertFrom(tool).name).toBe('platform.users.create');
    users.removeChildTool(tool);
  });

  it('round-trips, and drops wire tools without a name from batches', () => {
    const converter = new ToolConverter();
    const [back] = converter.convertToBatch([
      converter.convertFrom(tool),
      { inputSchema: { type: 'object' } } as unknown as WireTool,
      null,
    ]);
    expect(back).toBeInstanceOf(Tool);
    expect(converter.convertFrom(back!)).toEqual(converter.convertFrom(tool));
    expect(converter.convertToBatch([{ name: '', inputSchema: {} }])).toEqual([]);
  });
});

describe('PromptConverter', () => {
  it('produces the wire prompt with its arguments, and back', () => {
    const prompt = new Prompt('code_review', {
      description: 'Review code',
      arguments: [new PromptArgument('code', { description: 'The code', required: true }), new PromptArgument('style')],
    });
    const converter = new PromptConverter();
    const wire = converter.convertFrom(prompt);
    expect(wire).toEqual({
      name: 'code_review',
      description: 'Review code',
      arguments: [
        { name: 'code', description: 'The code', required: true },
        { name: 'style', required: false },
      ],
    });
    expect(PromptSchema.safeParse(wire).success).toBe(true);
    const back = converter.convertTo({ ...wire, arguments: [...wire.arguments!, { name: '' }] })!;
    expect(back.arguments.map((a) => [a.name, a.required, a.description])).toEqual([
      ['code', true, 'The code'],
      ['style', false, undefined],
    ]);
    expect(converter.convertFrom(new Prompt('bare'))).toEqual({ name: 'bare' });
    expect(converter.convertToBatch([{} as WirePrompt])).toEqual([]);
  });
});

describe('ResourceConverter', () => {
  it('produces the wire resource, and back; a nameless wire resource is named after its URI', () => {
    const resource = new Resource('readme', 'docs://readme', {
      mimeType: 'text/markdown',
      size: 12,
      annotations: { priority: 1 },
      title: 'Read me',
    });
    const converter = new ResourceConverter();
    const wire = converter.convertFrom(resource);
    expect(wire).toEqual({
      uri: 'docs://readme',
      name: 'readme',
      title: 'Read me',
      mimeType: 'text/markdown',
      size: 12,
      annotations: { priority: 1 },
    });
    expect(ResourceSchema.safeParse(wire).success).toBe(true);
    expect(converter.convertFrom(converter.convertTo(wire)!)).toEqual(wire);
    expect(converter.convertTo({ uri: 'docs://x' } as WireResource)?.name).toBe('docs://x');
    expect(converter.convertToBatch([{ name: 'no-uri' } as WireResource])).toEqual([]);
  });
});
