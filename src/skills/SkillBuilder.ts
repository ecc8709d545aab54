import { checkScopes } from '../auth/checkScopes.js';
import { DefinitionError, FrozenBuilderError } from '../errors/FusionError.js';
import { isSkillName } from './skillName.js';
import type { FusionSkill } from './types.js';

type SkillState = Omit<FusionSkill, 'kind' | 'body'>;

/**
 * The fluent builder behind `f.skill(name)`: a skill of your own, served beside the generated workflow
 * skills (`skills/list`, `skills/get`, its files through `resources/read`). Every step returns a new builder;
 * `.text(body)` returns the built, frozen {@link FusionSkill}, after which this builder refuses changes.
 * @example
 * const triage = f.skill('bug-triage')
 *   .describe('How to triage a bug report with the tracker tools')
 *   .file('references/LABELS.md', '# Labels\n…')
 *   .text('# Bug triage\n1. Call `issues.search` …');
 * @see docs/skills.md
 */
export class SkillBuilder {
  #state: SkillState;
  #built = false;

  /** @internal use `f.skill(name)`. */
  constructor(name: string, state?: SkillState) {
    if (state === undefined && !isSkillName(name))
      throw new DefinitionError(
        'SKILL_NAME',
        `Skill name "${name}" is not a valid skill name; use 1-64 lowercase letters, digits and single hyphens, such as "bug-triage".`,
        { skill: name },
      );
    this.#state = state ?? { name, description: '', files: {} };
  }

  /** What the skill is for and when to use it (its frontmatter `description`, what hosts list). */
  describe(description: string): SkillBuilder {
    return this.#next({ description });
  }

  /** Adds a file of the skill at `path` under its folder (`references/GUIDE.md`); not `SKILL.md`. */
  file(path: string, content: string): SkillBuilder {
    const name = this.#state.name;
    const clean = path.split('/').filter((s) => s !== '' && s !== '.');
    if (clean.length === 0 || clean.includes('..') || clean.join('/') === 'SKILL.md')
      throw new DefinitionError(
        'SKILL_FILE',
        `Skill "${name}" adds a file at "${path}"; give a relative path inside the skill such as "references/GUIDE.md" (not SKILL.md, which .text() writes).`,
        { skill: name, path },
      );
    return this.#next({ files: { ...this.#state.files, [clean.join('/')]: content } });
  }

  /**
   * OAuth scopes a principal must hold to see this skill in `skills/list` and to get or read it.
   * @see docs/security.md#scopes
   */
  requireScopes(...scopes: [string, ...string[]]): SkillBuilder {
    const given = checkScopes(scopes, `Skill "${this.#state.name}"`);
    return this.#next({ requiredScopes: [...new Set([...(this.#state.requiredScopes ?? []), ...given])] });
  }

  /** Sets the `SKILL.md` body (markdown, without frontmatter) and returns the built, frozen skill. */
  text(body: string): FusionSkill {
    this.#assertOpen('finish');
    const { name, description } = this.#state;
    if (description.trim() === '')
      throw new DefinitionError(
        'SKILL_DESCRIPTION',
        `Skill "${name}" has no description; call .describe("what it is for and when to use it") before .text().`,
        { skill: name },
      );
    this.#built = true;
    return Object.freeze({
      kind: 'skill',
      ...this.#state,
      files: Object.freeze({ ...this.#state.files }),
      ...(this.#state.requiredScopes === undefined
        ? {}
        : { requiredScopes: Object.freeze([...this.#state.requiredScopes]) }),
      body,
    });
  }

  #next(patch: Partial<SkillState>): SkillBuilder {
    this.#assertOpen('change');
    return new SkillBuilder(this.#state.name, { ...this.#state, ...patch });
  }

  #assertOpen(what: string): void {
    if (this.#built)
      throw new FrozenBuilderError(
        'BUILDER_FROZEN',
        `Skill "${this.#state.name}" is already built; cannot ${what} it. Start a new builder with f.skill("${this.#state.name}") instead.`,
        { skill: this.#state.name },
      );
  }
}
