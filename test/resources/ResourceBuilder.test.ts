import { describe, expect, it } from 'vitest';
import { detachedExtra } from '../../src/builder/detachedExtra.js';
import { FrozenBuilderError } from '../../src/errors/FusionError.js';
import { ResourceBuilder } from '../../src/resources/ResourceBuilder.js';

const resource = (uri: string) => new ResourceBuilder<{ root: string }>(uri);
const extra = detachedExtra();

describe('ResourceBuilder', () => {
  it('builds a frozen resource whose definition is exactly what resources/list shows', () => {
    const built = resource('test://static-text')
      .name('static-text')
      .title('Static text')
      .describe('A static text resource')
      .mimeType('text/plain')
      .size(49)
      .annotations({ audience: ['user'] })
      .annotations({ priority: 0.5 })
      .icons({ src: 'https://x/i.png' })
      .meta({ a: 1 })
      .reflects('sprints.*')
      .reflects('tasks.list')
      .handle(() => 'This is the content of the static text resource.');
    expect(built.definition).toEqual({
      uri: 'test://static-text',
      name: 'static-text',
      title: 'Static text',
      description: 'A static text resource',
      mimeType: 'text/plain',
      size: 49,
      annotations: { audience: ['user'], priority: 0.5 },
      icons: [{ src: 'https://x/i.png' }],
      _meta: { a: 1 },
    });
    expect(built.reflects).toEqual(['sprints.*', 'tasks.list']);
    expect([
      Object.isFrozen(built),
      Object.isFrozen(built.definition.annotations),
      Object.isFrozen(built.reflects),
    ]).toEqual([true, true, true]);
    expect(resource('app://x').handle(() => '').definition).toEqual({ uri: 'app://x', name: 'app://x' });
  });

  it('reads through the handler with the URI, context and extra, shaping text and bytes', async () => {
    const text = resource('docs://readme')
      .mimeType('text/markdown')
      .handle((uri, ctx) => `${ctx.root}:${uri}`);
    expect(await text.read('docs://readme', { root: 'r' }, extra)).toEqual({
      contents: [{ uri: 'docs://readme', mimeType: 'text/markdown', text: 'r:docs://readme' }],
    });
    const bytes = resource('test://static-binary')
      .mimeType('image/png')
      .handle(() => new Uint8Array([1, 2, 3]));
    expect(await bytes.read('test://static-binary', { root: '' }, extra)).toEqual({
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: 'AQID' }],
    });
  });

  it('is immutable, and a built builder refuses changes', () => {
    const base = resource('app://a');
    const named = base.name('a');
    expect(named).not.toBe(base);
    named.handle(() => '');
    expect(() => named.mimeType('text/plain')).toThrowErrorMatchingInlineSnapshot(
      `[FrozenBuilderError: Resource "app://a" is already built; cannot change it. Start a new builder with f.resource("app://a") instead.]`,
    );
    expect(() => named.handle(() => '')).toThrow(FrozenBuilderError);
    expect(base.handle(() => '').name).toBe('app://a');
  });

  it('pins the definition errors', () => {
    expect(() => resource('notes.txt').handle(() => '')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource URI "notes.txt" has no scheme; use an absolute URI such as "file:///notes.txt" or "app://notes/readme".]`,
    );
    expect(() =>
      resource('app://a')
        .size(-1)
        .handle(() => ''),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource "app://a" has size -1; give a whole number of bytes, or leave it out.]`,
    );
    expect(() =>
      resource('app://a')
        .annotations({ priority: 2 })
        .handle(() => ''),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource "app://a" has annotations.priority 2; give a number from 0 (least important) to 1 (most important).]`,
    );
    expect(() =>
      resource('app://a')
        .reflects('')
        .handle(() => ''),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource "app://a" calls .reflects() with ""; pass tool-domain globs such as "sprints.*".]`,
    );
    expect(() => resource('app://a').handle(undefined as never)).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Resource "app://a" has no handler; pass a function to .handle().]`,
    );
  });
});
