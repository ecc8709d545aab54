import { DefinitionError } from '../errors/FusionError.js';

/** The OAuth `scope-token` grammar (RFC 6749 §3.3): printable ASCII without space, `"` or `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/** Throws a {@link DefinitionError} naming `owner` unless every scope is a valid OAuth scope token; returns them frozen and deduplicated. */
export function checkScopes(scopes: readonly unknown[], owner: string): readonly string[] {
  if (scopes.length === 0) {
    throw new DefinitionError(
      'TOOL_SCOPES',
      `${owner} requires no scope; name at least one, e.g. requireScopes("notes:write").`,
      { owner },
    );
  }
  for (const scope of scopes) {
    if (typeof scope !== 'string' || !SCOPE_TOKEN.test(scope)) {
      throw new DefinitionError(
        'TOOL_SCOPES',
        `${owner} requires the scope ${JSON.stringify(scope)}, which is not an OAuth scope token; use printable ASCII without spaces, quotes or backslashes, e.g. "notes:write".`,
        { owner, scope },
      );
    }
  }
  return Object.freeze([...new Set(scopes as string[])]);
}

/** The scopes of `required` that `granted` lacks, in declaration order (empty when every one is granted). */
export function missingScopes(required: readonly string[] | undefined, granted: readonly string[]): string[] {
  if (required === undefined || required.length === 0) return [];
  return required.filter((s) => !granted.includes(s));
}
