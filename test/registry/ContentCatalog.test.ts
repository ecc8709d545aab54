import { describe, expect, it } from 'vitest';
import { FluentToolBuilder } from '../../src/builder/FluentToolBuilder.js';
import { PromptBuilder } from '../../src/prompts/PromptBuilder.js';
import { ContentCatalog } from '../../src/registry/ContentCatalog.js';
import { ToolRegistry } from '../../src/registry/ToolRegistry.js';
import { ResourceBuilder } from '../../src/resources/ResourceBuilder.js';
import { ResourceTemplateBuilder } from '../../src/resources/ResourceTemplateBuilder.js';

describe('ContentCatalog (through ToolRegistry.register)', () => {
  it('keeps prompts, resources and templates apart from tools, in registration order', () => {
    const registry = new ToolRegistry().registerAll(
      new PromptBuilder('b').handle(() => ''),
      new PromptBuilder('a').handle(() => ''),
      new ResourceBuilder('app://r').handle(() => ''),
      new ResourceTemplateBuilder('app://t/{id}').handle(() => ''),
    );
    expect(registry.prompts.map((p) => p.name)).toEqual(['b', 'a']);
    expect(registry.resources.map((r) => r.uri)).toEqual(['app://r']);
    expect(registry.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['app://t/{id}']);
    expect(registry.size).toBe(0);
    expect(new ContentCatalog().isEmpty).toBe(true);
  });

  it('rejects duplicates per kind, naming both', () => {
    const registry = new ToolRegistry()
      .register(new PromptBuilder('greet').describe('Say hi').handle(() => ''))
      .register(new ResourceBuilder('app://r').name('first').handle(() => ''))
      .register(new ResourceTemplateBuilder('app://t/{id}').name('by id').handle(() => ''));
    expect(() => registry.register(new PromptBuilder('greet').handle(() => ''))).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Prompt "greet" is registered twice (first "Say hi", then one without a description). Give one of them another name.]`,
    );
    expect(() =>
      registry.register(new ResourceBuilder('app://r').name('second').handle(() => '')),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource "app://r" is registered twice (first "first", then "second"). Give one of them another URI.]`,
    );
    expect(() =>
      registry.register(new ResourceTemplateBuilder('app://t/{id}').name('again').handle(() => '')),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource template "app://t/{id}" is registered twice (first "by id", then "again"). Give one of them another URI template.]`,
    );
    expect(() =>
      registry.register(new ResourceTemplateBuilder('app://t/{key}').handle(() => '')),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource template "app://t/{key}" matches the same URIs as "app://t/{id}", registered before it; change the literal parts of one of them.]`,
    );
  });

  it('lets a prompt share a name with a tool, and tells an unbuilt builder apart', () => {
    const registry = new ToolRegistry()
      .register(new FluentToolBuilder('query', 'review').handle(() => ''))
      .register(new PromptBuilder('review').handle(() => ''));
    expect([registry.tools.length, registry.prompts.length]).toEqual([1, 1]);
    expect(() => new ToolRegistry().register(new PromptBuilder('x') as never)).toThrow(
      /register\(\) takes a built tool, prompt or resource \(the result of \.handle\(\)\)/,
    );
  });
});
