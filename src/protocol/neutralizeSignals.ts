import { copyOf } from '../_internal/copyOf.js';

/**
 * Lines that read like one of the framework's own signals: the State Sync line (`[System: …]`), the workflow
 * line (`Workflow "checkout" is now in state "paid". Next: …`, or a bare `Next: …`) and the presenter's
 * `Suggested next actions:` heading. Tested against a line's folded form ({@link foldLine}), so look-alikes
 * (`[system:`, `NEXT:`, fullwidth brackets, zero-width characters inside the word) count too.
 */
const SIGNAL_START =
  /^[ \t]*(?:\[system:|next:|suggested next actions:|(?:the workflow|workflow "[^"\n]*") is now in )/;

/** A cheap test for text that may hold a signal line: plain ASCII text without one of the words is left alone. */
const MAYBE_SIGNAL = /\[system:|next:|suggested next actions:|is now in |[^\t-~]/i;

/** Unicode format characters (zero-width spaces and joiners, the byte-order mark, bidi controls …). */
const FORMAT_CHARS = /\p{Cf}/gu;

/** What a neutralised line starts with: the agent reads it as quoted data, never as the framework speaking. */
export const DATA_MARK = '(data) ';

/** `_meta` key of the presenter's suggestions block: framework-written, so it is left as it is. */
const SUGGESTIONS_META = 'fusion/suggestions';

/** A line as a model would read it: compatibility forms unified (NFKC), format characters removed, case folded. */
function foldLine(line: string): string {
  return line.normalize('NFKC').replace(FORMAT_CHARS, '').toLowerCase();
}

/**
 * `text` with every line that reads like a framework signal prefixed with {@link DATA_MARK}: data that
 * merely contains `[System: Cache invalidated …]` or `Next: …` (or a look-alike: other case, fullwidth forms,
 * zero-width characters) can no longer pass for the framework's own blocks. Text without such a line is returned as it is (the same string).
 * @see docs/security.md
 */
export function neutralizeText(text: string): string {
  if (!MAYBE_SIGNAL.test(text)) return text;
  const lines = text.split('\n');
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!SIGNAL_START.test(foldLine(line))) continue;
    const indent = /^[ \t]*/.exec(line)![0];
    lines[i] = `${indent}${DATA_MARK}${line.slice(indent.length)}`;
    changed = true;
  }
  return changed ? lines.join('\n') : text;
}

/**
 * The content blocks a handler returned, with their text neutralised ({@link neutralizeText}) before the
 * framework adds its own signal blocks; the same array when nothing needed it. The presenter's suggestions
 * block (marked in its `_meta`) is the framework's and stays as it is.
 */
export function neutralizeBlocks<B>(content: readonly B[]): readonly B[] {
  let out: B[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as { type?: unknown; text?: unknown; _meta?: Record<string, unknown> } | undefined;
    if (block?.type !== 'text' || typeof block.text !== 'string' || block._meta?.[SUGGESTIONS_META] !== undefined)
      continue;
    const text = neutralizeText(block.text);
    if (text === block.text) continue;
    out ??= [...content];
    const copy = copyOf(block as Record<string, unknown>);
    copy.text = text;
    out[i] = copy as B;
  }
  return out ?? content;
}

/** A handler's result with its text blocks neutralised ({@link neutralizeBlocks}); the same object when nothing needed it. */
export function neutralizeResult<R extends { content?: unknown }>(result: R): R {
  if (!Array.isArray(result.content)) return result;
  const content = neutralizeBlocks(result.content);
  if (content === result.content) return result;
  const out = copyOf(result);
  out.content = content;
  return out;
}

/** A prompt's messages with their text neutralised ({@link neutralizeText}): data in a prompt cannot forge a signal either. */
export function neutralizeMessages<R extends { messages: ReadonlyArray<{ content?: unknown }> }>(result: R): R {
  // A multi-round-trip `input_required` answer has no messages yet.
  if (!Array.isArray(result.messages)) return result;
  let messages: Array<{ content?: unknown }> | undefined;
  result.messages.forEach((message, i) => {
    const [content] = neutralizeBlocks([message.content]);
    if (content === message.content) return;
    messages ??= [...result.messages];
    messages[i] = { ...message, content };
  });
  return messages === undefined ? result : { ...result, messages };
}
