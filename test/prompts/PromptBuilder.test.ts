import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { detachedExtra } from '../../src/builder/detachedExtra.js';
import { DefinitionError, FrozenBuilderError } from '../../src/errors/FusionError.js';
import { PromptBuilder } from '../../src/prompts/PromptBuilder.js';

const prompt = (name: string) => new PromptBuilder<{ user: string }>(name);
const extra = detachedExtra();

describe('PromptBuilder', () => {
  it('builds a frozen prompt whose definition is exactly what prompts/list shows', () => {
    const built = prompt('code_review')
      .describe('Review a piece of code')
      .title('Code review')
      .argument('code', { description: 'The code', required: true })
      .argument('language')
      .icons({ src: 'https://x/i.png' })
      .meta({ tier: 'free' })
      .handle(({ code }) => `Review:\n${code}`);
    expect(built.kind).toBe('prompt');
    expect(built.definition).toEqual({
      name: 'code_review',
      title: 'Code review',
      description: 'Review a piece of code',
      arguments: [
        { name: 'code', description: 'The code', required: true },
        { name: 'language', required: false },
      ],
      icons: [{ src: 'https://x/i.png' }],
      _meta: { tier: 'free' },
    });
    expect(Object.isFrozen(built)).toBe(true);
    expect(Object.isFrozen(built.definition.arguments![0])).toBe(true);
    expect(prompt('bare').handle(() => 'x').definition).toEqual({ name: 'bare' });
  });

  it('is immutable: each step returns a new builder, and a built builder refuses changes', () => {
    const base = prompt('p');
    const described = base.describe('one');
    expect(described).not.toBe(base);
    described.handle(() => 'x');
    expect(base.describe('two').handle(() => 'y').description).toBe('two');
    expect(() => described.describe('again')).toThrow(FrozenBuilderError);
    expect(() => described.handle(() => 'z')).toThrowErrorMatchingInlineSnapshot(
      `[FrozenBuilderError: Prompt "p" is already built; cannot handle it. Start a new builder with f.prompt("p") instead.]`,
    );
  });

  it('runs the handler with validated arguments, the context and extra', async () => {
    const built = prompt('greet')
      .argument('name', { required: true })
      .handle((args, ctx) => [`Hello ${args.name}`, { role: 'assistant', content: `from ${ctx.user}` }]);
    const parsed = built.validate({ name: 'Ada' });
    expect(parsed).toEqual({ ok: true, value: { name: 'Ada' } });
    if (!parsed.ok) return;
    expect(await built.run(parsed.value, { user: 'bob' }, extra)).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'Hello Ada' } },
        { role: 'assistant', content: { type: 'text', text: 'from bob' } },
      ],
    });
  });

  it('validates arguments with messages naming the prompt, the argument and what it accepts', () => {
    const built = prompt('review')
      .argument('code', { required: true })
      .argument('style', { required: true })
      .argument('tone')
      .handle(() => 'x');
    expect(built.validate(undefined)).toMatchInlineSnapshot(`
      {
        "message": "Prompt "review" is missing the required arguments "code", "style"; call prompts/get again with them. Its arguments: code (required), style (required), tone.",
        "ok": false,
      }
    `);
    expect(built.validate({ code: 'x' })).toMatchObject({
      message:
        'Prompt "review" is missing the required argument "style"; call prompts/get again with it. Its arguments: code (required), style (required), tone.',
    });
    expect(built.validate({ code: 'x', style: 'y', mood: 'z' })).toMatchObject({
      message:
        'Prompt "review" has no argument "mood"; remove it. Its arguments: code (required), style (required), tone.',
    });
    expect(built.validate({ code: 'x', style: 1 })).toMatchObject({
      message:
        'Prompt "review": argument "style" must be a string, not a number. Its arguments: code (required), style (required), tone.',
    });
    expect(built.validate(['x'])).toMatchObject({ ok: false });
    expect(
      prompt('none')
        .handle(() => 'x')
        .validate({ a: '1' }),
    ).toMatchObject({ message: 'Prompt "none" has no argument "a"; remove it. It takes no arguments.' });
  });

  it('takes its arguments from a zod object and hands the parsed output to the handler', async () => {
    const built = prompt('plan')
      .args(
        z.object({ goal: z.string().describe('What to plan'), days: z.coerce.number().int().positive().optional() }),
      )
      .handle(({ goal, days }) => `Plan ${goal} in ${days ?? 7} days`);
    expect(built.definition.arguments).toEqual([
      { name: 'goal', description: 'What to plan', required: true },
      { name: 'days', required: false },
    ]);
    const parsed = built.validate({ goal: 'launch', days: '3' });
    expect(parsed).toEqual({ ok: true, value: { goal: 'launch', days: 3 } });
    if (parsed.ok)
      expect((await built.run(parsed.value, { user: 'u' }, extra)).messages[0]!.content).toEqual({
        type: 'text',
        text: 'Plan launch in 3 days',
      });
    expect(built.validate({ goal: 'launch', days: 'soon' })).toMatchInlineSnapshot(`
      {
        "message": "Invalid arguments for prompt "plan":
      - days: expected number, received NaN
      Its arguments: goal (required), days.",
        "ok": false,
      }
    `);
  });

  it('pins the definition errors', () => {
    expect(() => prompt('has space').handle(() => '')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Prompt name "has space" is invalid: use 1–128 characters without spaces, such as "code_review".]`,
    );
    expect(() => prompt('p').argument('a').argument('a')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Prompt "p" declares the argument "a" twice; remove one of them.]`,
    );
    expect(() =>
      prompt('p')
        .argument('a')
        .args(z.object({ b: z.string() })),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Prompt "p" declares its arguments twice (.args() with .argument()); use a single .args() schema or .argument() only.]`,
    );
    expect(() =>
      prompt('p')
        .args(z.object({ b: z.string() }))
        .argument('a'),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Prompt "p" declares "a" with .argument() after .args(); put every argument in the .args() schema or use .argument() only.]`,
    );
    expect(() => prompt('p').args(z.string() as never)).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Prompt "p" passes .args() something that is not a zod object; use z.object({ ... }).]`,
    );
    expect(() => prompt('p').handle(undefined as never)).toThrow(DefinitionError);
  });
});
