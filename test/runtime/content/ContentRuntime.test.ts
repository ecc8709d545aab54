import { describe, expect, it } from 'vitest';
import { detachedExtra } from '../../../src/builder/detachedExtra.js';
import { WireError } from '../../../src/errors/WireError.js';
import { ContentRuntime } from '../../../src/runtime/content/ContentRuntime.js';
import { PromptBuilder } from '../../../src/prompts/PromptBuilder.js';
import { ResourceBuilder } from '../../../src/resources/ResourceBuilder.js';
import { ResourceTemplateBuilder } from '../../../src/resources/ResourceTemplateBuilder.js';

interface Ctx {
  who: string;
}
const extra = detachedExtra();

function pipeline(contextFactory?: () => Ctx | Promise<Ctx>) {
  return new ContentRuntime<Ctx>(
    {
      prompts: [
        new PromptBuilder<Ctx>('hello')
          .argument('name', { required: true })
          .handle(({ name }, ctx) => `Hello ${name} from ${ctx.who}`),
      ],
      resources: [new ResourceBuilder<Ctx>('app://items/special').handle(() => 'special')],
      resourceTemplates: [
        new ResourceTemplateBuilder<Ctx, 'app://items/{id}'>('app://items/{id}')
          .list(() => [{ uri: 'app://items/1' }])
          .handle((_uri, { id }) => (id === 'missing' ? undefined : `item ${id}`)),
        new ResourceTemplateBuilder<Ctx>('app://{kind}/{id}').handle(() => {
          throw new Error('backend down');
        }),
      ],
    },
    contextFactory === undefined ? {} : { contextFactory },
  );
}

async function wireError(promise: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WireError);
  const { code, message, data } = error as WireError;
  return { code, message, data };
}

describe('ContentRuntime', () => {
  it('runs prompts/get with a per-request context', async () => {
    const result = await pipeline(() => ({ who: 'ctx' })).getPrompt('hello', { name: 'Ada' }, extra);
    expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada from ctx' } }]);
  });

  it('refuses unknown prompts and bad arguments with -32602', async () => {
    const p = pipeline(() => ({ who: 'x' }));
    expect(await wireError(p.getPrompt('nope', {}, extra))).toEqual({
      code: -32602,
      message: 'Unknown prompt "nope". Available prompts: hello. Call prompts/list to see them.',
      data: undefined,
    });
    expect((await wireError(p.getPrompt('hello', {}, extra))).message).toBe(
      'Prompt "hello" is missing the required argument "name"; call prompts/get again with it. Its arguments: name (required).',
    );
    expect((await wireError(p.getPrompt(undefined, {}, extra))).message).toBe(
      'prompts/get needs params.name, the name of a prompt. Available prompts: hello.',
    );
  });

  it('reads the exact URI before templates, then the first matching template', async () => {
    const p = pipeline();
    expect((await p.readResource('app://items/special', extra)).contents).toEqual([
      { uri: 'app://items/special', text: 'special' },
    ]);
    expect((await p.readResource('app://items/7', extra)).contents).toEqual([{ uri: 'app://items/7', text: 'item 7' }]);
  });

  it('answers -32002 with data { uri } for an unknown URI or a template handler that found nothing', async () => {
    const p = pipeline();
    expect(await wireError(p.readResource('other://x', extra))).toEqual({
      code: -32002,
      message:
        'Resource not found: "other://x". Known resources: app://items/special; templates: app://items/{id}, app://{kind}/{id}. Call resources/list or resources/templates/list to see them.',
      data: { uri: 'other://x' },
    });
    expect((await wireError(p.readResource('app://items/missing', extra))).data).toEqual({
      uri: 'app://items/missing',
    });
    expect((await wireError(p.readResource(42, extra))).code).toBe(-32602);
  });

  it('turns a failing handler or context into -32603 naming the culprit', async () => {
    expect(await wireError(pipeline().readResource('app://things/1', extra))).toEqual({
      code: -32603,
      message: 'Resource "app://things/1" failed: backend down',
      data: undefined,
    });
    const failing = pipeline(() => {
      throw new Error('no db');
    });
    expect((await wireError(failing.getPrompt('hello', { name: 'x' }, extra))).message).toBe(
      'Prompt "hello" could not run: the server failed to prepare the request context (no db). This is a fault in the server, not in the request: retrying will not help. Tell the user that the server needs fixing.',
    );
  });

  it('lists fixed resources then template listings; templates and prompts from frozen data', async () => {
    const p = pipeline();
    expect(await p.listResources(extra)).toEqual({
      resources: [
        { uri: 'app://items/special', name: 'app://items/special' },
        { uri: 'app://items/1', name: 'app://items/1' },
      ],
    });
    expect(p.listResourceTemplates().resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'app://items/{id}',
      'app://{kind}/{id}',
    ]);
    expect(p.listPrompts()).toBe(p.listPrompts());
    expect(Object.isFrozen(p.listPrompts())).toBe(true);
    expect([p.hasPrompts, p.hasResources]).toEqual([true, true]);
    expect([p.hasResource('app://items/9'), p.hasResource('app://items/special'), p.hasResource('nope://x')]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

describe('ContentRuntime scopes of every method', () => {
  const scoped = () =>
    new ContentRuntime<Ctx>({
      prompts: [
        new PromptBuilder<Ctx>('review')
          .requireScopes('admin')
          .argument('user')
          .complete('user', () => ['root'])
          .handle(() => 'review'),
      ],
      resources: [
        new ResourceBuilder<Ctx>('workspace://secrets').requireScopes('admin').handle(() => 'secret'),
        new ResourceBuilder<Ctx>('workspace://readme').handle(() => 'readme'),
      ],
      resourceTemplates: [
        new ResourceTemplateBuilder<Ctx>('vault://{id}').requireScopes('admin', 'vault').handle(() => 'v'),
      ],
    });

  it('names the scopes a prompt completion requires; a resource asks none (a hidden one answers as missing)', () => {
    const content = scoped();
    expect(content.requiredScopesOf('completion/complete', { ref: { type: 'ref/prompt', name: 'review' } })).toEqual([
      'admin',
    ]);
    expect(
      content.requiredScopesOf('completion/complete', { ref: { type: 'ref/resource', uri: 'vault://{id}' } }),
    ).toEqual([]);
    expect(content.requiredScopesOf('completion/complete', { ref: { type: 'ref/prompt', name: 'nope' } })).toEqual([]);
    expect(content.requiredScopesOf('resources/subscribe', { uri: 'vault://7' })).toEqual([]);
    expect(content.requiredScopesOf('resources/read', { uri: 'vault://7' })).toEqual([]);
    expect(content.requiredScopesOf('resources/subscribe', { uri: 'workspace://readme' })).toEqual([]);
  });

  it('answers allowsUri as a pure check of a token’s scopes', () => {
    const content = scoped();
    const token = (scopes: string[]) => ({ token: 't', clientId: 'app', scopes });
    expect(content.allowsUri('workspace://readme', undefined)).toBe(true);
    expect(content.allowsUri('workspace://secrets', undefined)).toBe(false);
    expect(content.allowsUri('workspace://secrets', token(['admin']))).toBe(true);
    expect(content.allowsUri('vault://1', token(['admin']))).toBe(false);
    expect(content.allowsUri('vault://1', token(['admin', 'vault']))).toBe(true);
    expect(content.allowsUri('unknown://x', undefined)).toBe(true);
  });
});
