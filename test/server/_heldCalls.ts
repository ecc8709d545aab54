import { z } from 'zod';
import { initFusion } from '../../src/index.js';

interface Held {
  readonly started: Promise<void>;
  readonly aborted: Promise<void>;
  release: () => void;
  onStart: () => void;
  onAbort: () => void;
  ran: boolean;
}

/**
 * A registry whose `hold` tool runs until the test releases it by tag (or the client cancels it), and `echo`
 * answering at once. `started(tag)` resolves once that call's handler runs, `aborted(tag)` once its signal fired.
 */
export function heldCalls() {
  const calls = new Map<string, Held>();
  const entry = (tag: string): Held => {
    let held = calls.get(tag);
    if (held === undefined) {
      const h = { release: () => {}, onStart: () => {}, onAbort: () => {}, ran: false } as Held;
      Object.assign(h, {
        started: new Promise<void>((resolve) => (h.onStart = resolve)),
        aborted: new Promise<void>((resolve) => (h.onAbort = resolve)),
      });
      calls.set(tag, (held = h));
    }
    return held;
  };
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .query('hold')
      .describe('Waits until the test releases its tag')
      .input(z.object({ tag: z.string() }))
      .handle(async ({ tag }, _ctx, extra) => {
        const held = entry(tag);
        held.ran = true;
        await new Promise<void>((resolve) => {
          held.release = resolve;
          extra.signal.addEventListener('abort', () => {
            held.onAbort();
            resolve();
          });
          held.onStart();
        });
        return `held ${tag}`;
      }),
    f
      .query('echo')
      .describe('Answers its text')
      .input(z.object({ text: z.string() }))
      .handle(({ text }) => `echo ${text}`),
  );
  return {
    registry,
    started: (tag: string) => entry(tag).started,
    aborted: (tag: string) => entry(tag).aborted,
    release: (tag: string) => entry(tag).release(),
    ran: (tag: string) => calls.get(tag)?.ran === true,
  };
}

/** A `tools/call` request of `hold` (with `tag`) or `echo` (with `text`). */
export function call(id: string | number, name: 'hold' | 'echo', value: string, extra: object = {}) {
  const args = name === 'hold' ? { tag: value } : { text: value };
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...extra } };
}

/** The text of a tool result message. */
export function textOf(message: { result?: { content?: Array<{ text?: string }> } }): string | undefined {
  return message.result?.content?.[0]?.text;
}
