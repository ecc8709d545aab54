const STATE = Symbol('mcp-fusion.jsonAnswer');

/** What a {@link jsonAnswer} keeps: its text and status, and what was built from them on first use. */
interface JsonAnswerState {
  readonly text: string;
  readonly status: number;
  readonly init: Readonly<Record<string, string>>;
  headers: Headers | undefined;
  real: Response | undefined;
}

type JsonAnswer = Response & { [STATE]: JsonAnswerState };

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });

function stateOf(response: unknown): JsonAnswerState | undefined {
  return typeof response === 'object' && response !== null ? (response as Partial<JsonAnswer>)[STATE] : undefined;
}

/** The headers: the full response's once it exists, else a `Headers` made on first read (and kept for it). */
function headersOf(state: JsonAnswerState): Headers {
  return state.real?.headers ?? (state.headers ??= new Headers(state.init));
}

/** The full web `Response`, built only when something reads a member beyond status, ok and headers. */
function realOf(state: JsonAnswerState): Response {
  state.real ??= new Response(state.text, { status: state.status, headers: headersOf(state) });
  return state.real;
}

const prototype: object = Object.create(Response.prototype, {
  status: {
    get(this: JsonAnswer) {
      return this[STATE].status;
    },
  },
  ok: {
    get(this: JsonAnswer) {
      const { status } = this[STATE];
      return status >= 200 && status <= 299;
    },
  },
  headers: {
    get(this: JsonAnswer) {
      return headersOf(this[STATE]);
    },
  },
  [Symbol.for('nodejs.util.inspect.custom')]: {
    value(this: JsonAnswer) {
      return `Response (JSON answer) ${this.status} ${this[STATE].text}`;
    },
  },
});
// Every other member of Response (body, text(), json(), clone(), bodyUsed, …) answers from the full response.
for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Response.prototype))) {
  if (name === 'constructor' || Object.prototype.hasOwnProperty.call(prototype, name)) continue;
  if (descriptor.get !== undefined) {
    Object.defineProperty(prototype, name, {
      get(this: JsonAnswer) {
        return Reflect.get(realOf(this[STATE]), name);
      },
    });
  } else if (typeof descriptor.value === 'function') {
    Object.defineProperty(prototype, name, {
      value(this: JsonAnswer, ...args: unknown[]) {
        const real = realOf(this[STATE]);
        return (Reflect.get(real, name) as (...a: unknown[]) => unknown).apply(real, args);
      },
    });
  }
}

/**
 * A one-piece JSON answer (`text`, already serialized) as a lazy web `Response`: `status`, `ok` and `headers`
 * are its own; any other member (`body`, `text()`, `clone()`, …) builds the full `Response` on first use, so
 * `instanceof Response` and every reader in JavaScript keep working. Untouched, {@link writeNodeResponse}
 * writes it with one `res.end(text)` and its `Content-Length` (see {@link jsonAnswerText}), with no stream in
 * between. A host runtime checks a `Response` natively: give it {@link realResponse} of the view.
 *
 * @example
 * return jsonAnswer(JSON.stringify({ jsonrpc: '2.0', id, result }));
 */
export function jsonAnswer(
  text: string,
  status = 200,
  headers: Readonly<Record<string, string>> = JSON_HEADERS,
): Response {
  const answer = Object.create(prototype) as JsonAnswer;
  answer[STATE] = { text, status, init: headers, headers: undefined, real: undefined };
  return answer;
}

/**
 * The text, status and headers of a {@link jsonAnswer} that nothing has turned into a full `Response` yet
 * (`headers`: a `Headers` if they were read, possibly changed, else the plain object given); `undefined` for
 * any other response, which is then written from its body.
 */
export function jsonAnswerText(
  response: Response,
): { text: string; status: number; headers: Headers | Readonly<Record<string, string>> } | undefined {
  const state = stateOf(response);
  if (state === undefined || state.real !== undefined) return undefined;
  return { text: state.text, status: state.status, headers: state.headers ?? state.init };
}

/**
 * A genuine web `Response` for `response`: a {@link jsonAnswer}'s full response (built now if need be), any
 * other response as it is. For hosts that check what they are given natively (workerd, Deno, Bun), which a
 * view is not: `app.fetch` answers through it, only the node adapter writes the view itself.
 */
export function realResponse(response: Response): Response {
  const state = stateOf(response);
  return state === undefined ? response : realOf(state);
}

/** Whether `response` is a {@link jsonAnswer} whose body is complete: it ends as soon as it is written. */
export function isJsonAnswer(response: Response): boolean {
  return stateOf(response) !== undefined;
}
