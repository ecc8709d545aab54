import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { httpServer } from '../_helpers/clients.js';

/**
 * Replays the curl transcripts of docs/protocol-eras.md ("The modern wire by hand") against the example
 * server: each ```bash block that starts with `curl` is sent as written (over fetch, to the server's URL
 * instead of 127.0.0.1:3000) and its answer must equal the block that follows, up to the placeholders the
 * page lists. A `curl -N` block is a listen stream: its first event is read, the next transcript runs, then
 * the stream must deliver the remaining documented events.
 */
const DOC = 'docs/protocol-eras.md';
const SECTION = '## The modern wire by hand (curl)';
const DOC_URL = 'http://127.0.0.1:3000/mcp';
/** What each placeholder may stand for; the page's placeholder table must name each one used. */
const PLACEHOLDERS: Record<string, string> = { handle: 'che_[A-Za-z0-9_-]{22}', 'epoch-ms': '\\d{13}' };

interface Transcript {
  readonly line: number;
  readonly args: string[];
  readonly answer: string;
}

function transcripts(markdown: string): { section: string; list: Transcript[] } {
  const start = markdown.indexOf(SECTION);
  expect(start, `${DOC} has a section "${SECTION}"`).toBeGreaterThan(-1);
  const end = markdown.indexOf('\n## ', start + SECTION.length);
  const section = markdown.slice(start, end === -1 ? undefined : end);
  const firstLine = markdown.slice(0, start).split('\n').length;
  const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)\n```$/gm)].map((m) => ({
    lang: m[1]!,
    body: m[2]!,
    line: firstLine + section.slice(0, m.index).split('\n').length - 1,
  }));
  const list: Transcript[] = [];
  blocks.forEach((block, i) => {
    if (block.lang !== 'bash' || !block.body.startsWith('curl ')) return;
    const answer = blocks[i + 1];
    expect(
      answer?.lang,
      `${DOC}:${block.line}: a curl command is followed by its answer (a json or text block)`,
    ).toMatch(/^(json|text)$/);
    list.push({ line: block.line, args: shellWords(block.body), answer: answer!.body });
  });
  return { section, list };
}

/** Words of a command line as a POSIX shell splits them: single and double quotes, backslash-newline joins lines. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const m of command.replace(/\\\n/g, ' ').matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g))
    words.push(m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3]!);
  return words;
}

/** A curl command line as a fetch request; placeholders already known are filled in. */
function request(
  args: string[],
  values: Map<string, string>,
  url: string,
): { url: string; init: RequestInit; stream: boolean } {
  const fill = (text: string): string =>
    text.replace(/<([a-z-]+)>/g, (_, name: string) => {
      const value = values.get(name);
      if (value === undefined) throw new Error(`the command uses <${name}> before an answer showed its value`);
      return value;
    });
  const headers = new Headers();
  let body: string | undefined;
  let target: string | undefined;
  let stream = false;
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-H') {
      const [name, ...rest] = args[++i]!.split(':');
      headers.set(name!.trim(), fill(rest.join(':').trim()));
    } else if (arg === '-d') body = fill(args[++i]!);
    else if (/^-[sN]+$/.test(arg)) stream ||= arg.includes('N');
    else if (arg.startsWith('http')) target = arg;
    else throw new Error(`curl option ${arg} is not understood by this replay; use -s, -N, -H and -d`);
  }
  expect(target).toBe(DOC_URL);
  return { url, init: body === undefined ? { headers } : { method: 'POST', headers, body }, stream };
}

/** Compares a documented value with the real one: the same keys and items; placeholders match their patterns and repeat their first value. */
function matches(documented: unknown, actual: unknown, values: Map<string, string>, path = '$'): void {
  if (typeof documented === 'string' && /<[a-z-]+>/.test(documented)) {
    expect(typeof actual, path).toBe('string');
    const names: string[] = [];
    const source = documented
      .split(/(<[a-z-]+>)/)
      .map((part) => {
        const name = /^<([a-z-]+)>$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const known = values.get(name);
        if (known !== undefined) return known.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        expect(PLACEHOLDERS, `${path}: placeholder <${name}> is one the test knows`).toHaveProperty([name]);
        names.push(name);
        return `(${PLACEHOLDERS[name]})`;
      })
      .join('');
    const found = new RegExp(`^${source}$`).exec(actual as string);
    expect(found, `${path}: ${JSON.stringify(actual)} matches ${JSON.stringify(documented)}`).not.toBeNull();
    names.forEach((name, i) => values.set(name, found![i + 1]!));
    return;
  }
  if (Array.isArray(documented)) {
    expect(Array.isArray(actual), `${path} is an array`).toBe(true);
    expect((actual as unknown[]).length, `${path}: ${JSON.stringify(actual)}`).toBe(documented.length);
    documented.forEach((item, i) => matches(item, (actual as unknown[])[i], values, `${path}[${i}]`));
    return;
  }
  if (typeof documented === 'object' && documented !== null) {
    expect(typeof actual === 'object' && actual !== null && !Array.isArray(actual), `${path} is an object`).toBe(true);
    expect(Object.keys(actual as object).sort(), `${path}: ${JSON.stringify(actual)}`).toEqual(
      Object.keys(documented).sort(),
    );
    for (const [key, value] of Object.entries(documented))
      matches(value, (actual as Record<string, unknown>)[key], values, `${path}.${key}`);
    return;
  }
  expect(actual, path).toEqual(documented);
}

/** The `data:` payloads of server-sent events, parsed. */
function events(text: string): unknown[] {
  return text
    .split(/\n\n+/)
    .map((event) =>
      event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('\n'),
    )
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data));
}

/** Reads a server-sent event stream until it holds `count` events (or fails after 10 s). */
async function readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  seen: { text: string },
  count: number,
): Promise<unknown[]> {
  const decoder = new TextDecoder();
  const timeout = AbortSignal.timeout(10_000);
  while (events(seen.text).length < count) {
    const next = await Promise.race([
      reader.read(),
      new Promise<never>((_, reject) =>
        timeout.addEventListener('abort', () =>
          reject(new Error(`the stream gave ${events(seen.text).length} of ${count} events in 10 s:\n${seen.text}`)),
        ),
      ),
    ]);
    if (next.done)
      throw new Error(`the stream ended after ${events(seen.text).length} of ${count} events:\n${seen.text}`);
    seen.text += decoder.decode(next.value, { stream: true });
  }
  return events(seen.text);
}

describe(`the curl transcripts of ${DOC}`, () => {
  const markdown = readFileSync(fileURLToPath(new URL(`../../${DOC}`, import.meta.url)), 'utf8');
  const { section, list } = transcripts(markdown);

  it('cover the modern wire: server/discover, a handle minted and passed back, its resource, a listen stream, refusals', () => {
    const methods = new Set(
      list
        .map((t) => t.args[t.args.indexOf('-d') + 1]!)
        .map((body) => (JSON.parse(body.replace(/<[a-z-]+>/g, 'x')) as { method: string }).method),
    );
    expect([...methods].sort()).toEqual([
      'resources/read',
      'server/discover',
      'subscriptions/listen',
      'tools/call',
      'tools/list',
    ]);
    const used = new Set(
      [
        ...list.flatMap((t) => [...t.args.join(' ').matchAll(/<([a-z-]+)>/g), ...t.answer.matchAll(/<([a-z-]+)>/g)]),
      ].map((m) => m[1]!),
    );
    for (const name of used) expect(section, `the placeholder table names <${name}>`).toContain(`| \`<${name}>\` |`);
    expect([...used].sort()).toEqual(Object.keys(PLACEHOLDERS).sort());
  });

  it('answer as documented when replayed against the example server', async () => {
    await using srv = await httpServer(registry, workspaceOptions());
    const values = new Map<string, string>();
    const replay = async (i: number): Promise<number> => {
      const t = list[i]!;
      const where = `${DOC}:${t.line}`;
      const { url, init, stream } = request(t.args, values, srv.url);
      if (!stream) {
        const res = await fetch(url, init);
        matches(JSON.parse(t.answer), JSON.parse(await res.text()), values, where);
        return i + 1;
      }
      const documented = events(t.answer);
      const controller = new AbortController();
      const res = await fetch(url, { ...init, signal: controller.signal });
      expect(res.headers.get('content-type'), where).toContain('text/event-stream');
      const reader = res.body!.getReader();
      const seen = { text: '' };
      try {
        matches(documented[0], (await readEvents(reader, seen, 1))[0], values, `${where} (first event)`);
        const after = await replay(i + 1);
        const got = await readEvents(reader, seen, documented.length);
        matches(documented, got, values, `${where} (events)`);
        return after;
      } finally {
        controller.abort();
      }
    };
    for (let i = 0; i < list.length;) i = await replay(i);
    expect(values.get('handle')).toMatch(/^che_/);
  });
});
