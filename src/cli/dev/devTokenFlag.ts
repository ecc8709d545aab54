import { devTokens } from '../../auth/devTokens.js';
import { FusionError } from '../../errors/FusionError.js';
import { CliError } from '../CliError.js';

/** Commander's collector for the repeatable `--dev-token <token=scopes>`. */
export function collectDevToken(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * The tokens of `--dev-token dev-admin=admin,write --dev-token dev-reader` as `devTokens()` takes them
 * (`undefined` without the flag), checked the way the server will check them (refused under NODE_ENV=production).
 */
export function parseDevTokens(
  values: readonly string[] | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string[]> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  const tokens: Record<string, string[]> = {};
  for (const value of values) {
    const at = value.indexOf('=');
    const token = at < 0 ? value : value.slice(0, at);
    const scopes =
      at < 0
        ? []
        : value
            .slice(at + 1)
            .split(',')
            .map((s) => s.trim())
            .filter((s) => s.length > 0);
    if (token === '' || Object.hasOwn(tokens, token))
      throw new CliError(
        'CLI_BAD_DEV_TOKEN',
        `--dev-token ${JSON.stringify(value)} ${token === '' ? 'names no token' : `repeats the token "${token}"`}: give each token once as <token>=<scope>,<scope>, e.g. --dev-token dev-admin=admin,notes:write.`,
        { value },
      );
    tokens[token] = scopes;
  }
  try {
    devTokens(tokens, { env });
  } catch (error) {
    if (!(error instanceof FusionError)) throw error;
    throw new CliError('CLI_BAD_DEV_TOKEN', `--dev-token: ${error.message}`, { code: error.code });
  }
  return tokens;
}

/** The lines `mcp-fusion dev` prints about its development tokens: the header to send with each. */
export function describeDevTokens(tokens: Readonly<Record<string, readonly string[]>>): string {
  const lines = Object.entries(tokens).map(
    ([token, scopes]) =>
      `    Authorization: Bearer ${token}   (scopes: ${scopes.length === 0 ? 'none' : scopes.join(' ')})\n`,
  );
  return `  Dev tokens — for development only, refused under NODE_ENV=production; requests without one get 401:\n${lines.join('')}`;
}
