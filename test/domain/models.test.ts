import { describe, expect, it } from 'vitest';
import { BaseModel } from '../../src/domain/BaseModel.js';
import { Prompt } from '../../src/domain/Prompt.js';
import { PromptArgument } from '../../src/domain/PromptArgument.js';
import { Resource } from '../../src/domain/Resource.js';
import { Tool } from '../../src/domain/Tool.js';

describe('Tool', () => {
  it('defaults to an argument-less input schema and keeps schemas and hints', () => {
    expect(new Tool('ping').inputSchema).toEqual({ type: 'object' });
    const tool = new Tool('tasks.update', {
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: false, destructiveHint: false },
    });
    expect(tool.kind).toBe('tool');
    expect(tool.inputSchema.required).toEqual(['id']);
    expect(tool.annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(tool).toBeInstanceOf(BaseModel);
  });
});

describe('Prompt and PromptArgument', () => {
  it('holds arguments in order, each with a required flag (false by default)', () => {
    const prompt = new Prompt('code_review', {
      description: 'Review code',
      arguments: [new PromptArgument('code', { required: true }), new PromptArgument('language')],
    });
    prompt.addArgument(new PromptArgument('focus', { description: 'What to look at' }));
    expect(prompt.arguments.map((a) => [a.name, a.required])).toEqual([
      ['code', true],
      ['language', false],
      ['focus', false],
    ]);
    expect(prompt.getArgument('focus')?.description).toBe('What to look at');
    expect(prompt.getArgument('focus')?.getFullyQualifiedName()).toBe('focus');
    expect(prompt.removeArgument('language')).toBe(true);
    expect(prompt.removeArgument('language')).toBe(false);
    expect(prompt.kind).toBe('prompt');
  });

  it('refuses two arguments with the same name', () => {
    const prompt = new Prompt('p', { arguments: [new PromptArgument('a')] });
    expect(() => prompt.addArgument(new PromptArgument('a'))).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Prompt "p" already has an argument "a"; give the new one another name.]`,
    );
  });
});

describe('Resource', () => {
  it('keeps its URI, size, MIME type and annotations', () => {
    const resource = new Resource('readme', 'docs://readme', {
      mimeType: 'text/markdown',
      size: 120,
      annotations: { audience: ['user'], priority: 0.5 },
    });
    expect([resource.kind, resource.uri, resource.mimeType, resource.size, resource.annotations]).toEqual([
      'resource',
      'docs://readme',
      'text/markdown',
      120,
      { audience: ['user'], priority: 0.5 },
    ]);
  });

  it('needs a URI', () => {
    expect(() => new Resource('readme', '')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource "readme" needs a URI such as "file:///notes.txt"; got "".]`,
    );
  });
});
