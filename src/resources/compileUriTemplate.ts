import { DefinitionError } from '../errors/FusionError.js';

/** A URI template compiled once: its variables, its matcher and its expander. */
export interface CompiledUriTemplate {
  readonly template: string;
  /** Variable names in order of appearance. */
  readonly variables: readonly string[];
  /** Anchored; one capture group per variable. Two templates with the same source match the same URIs. */
  readonly pattern: RegExp;
  /** The decoded variables of `uri`, or undefined when the template does not match it. */
  match(uri: string): Record<string, string> | undefined;
  /** The URI for `values` (each value percent-encoded as RFC 6570 simple expansion does). */
  expand(values: Readonly<Record<string, string>>): string;
}

const EXPRESSION = /\{([^{}]*)\}/g;
const VARNAME = /^[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*$/;
const OPERATORS = '+#./;?&=,!@|';

/**
 * Compiles an RFC 6570 level-1 template (`test://items/{id}`, simple `{var}` expressions only) into a
 * RegExp, once. A variable matches one or more characters other than `/`, `?` and `#`, and is
 * percent-decoded. Operators, modifiers, adjacent variables and repeated names are refused at build time.
 */
export function compileUriTemplate(template: string): CompiledUriTemplate {
  const fail = (problem: string): never => {
    throw new DefinitionError('RESOURCE_TEMPLATE', `Resource template "${template}" ${problem}`, {
      uriTemplate: template,
    });
  };
  if (typeof template !== 'string' || template.length === 0)
    fail('is empty; give a URI template such as "app://items/{id}".');
  const variables: string[] = [];
  let source = '^';
  let last = 0;
  for (const m of template.matchAll(EXPRESSION)) {
    const literal = template.slice(last, m.index);
    if (/[{}]/.test(literal)) fail('has an unbalanced "{" or "}"; write each variable as {name}.');
    if (variables.length > 0 && last === m.index)
      fail(
        `has two adjacent variables before {${m[1]}}; put a literal such as "/" between them so that a URI splits one way only.`,
      );
    const name = m[1]!;
    if (name.length > 0 && OPERATORS.includes(name[0]!))
      fail(`uses the operator "${name[0]}" in {${name}}; only level-1 {name} expressions are supported.`);
    if (name.includes(',') || name.includes(':') || name.endsWith('*'))
      fail(`uses a modifier or a list in {${name}}; only single {name} expressions are supported.`);
    if (!VARNAME.test(name) || name === '__proto__')
      fail(`has an invalid variable name {${name}}; use letters, digits and "_".`);
    if (variables.includes(name)) fail(`uses the variable {${name}} twice; give each variable its own name.`);
    variables.push(name);
    source += escape(literal) + '([^/?#]+)';
    last = m.index + m[0].length;
  }
  const tail = template.slice(last);
  if (/[{}]/.test(tail)) fail('has an unbalanced "{" or "}"; write each variable as {name}.');
  if (variables.length === 0) fail('has no {variable}; register a fixed URI with f.resource() instead.');
  source += `${escape(tail)}$`;
  const pattern = new RegExp(source);
  return Object.freeze({
    template,
    variables: Object.freeze(variables),
    pattern,
    match(uri: string) {
      const found = pattern.exec(uri);
      if (found === null) return undefined;
      const values: Record<string, string> = {};
      variables.forEach((name, i) => {
        values[name] = decode(found[i + 1]!);
      });
      return values;
    },
    expand(values: Readonly<Record<string, string>>) {
      return template.replace(EXPRESSION, (_, name: string) => encodeURIComponent(values[name] ?? ''));
    },
  });
}

function escape(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
