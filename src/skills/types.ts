/**
 * A hand-written skill, as `f.skill(name)…text(body)` builds it: the `SKILL.md` body, its name and
 * description (its frontmatter), further files of the skill by relative path, and the OAuth scopes a caller
 * needs to see it. Frozen.
 * @see docs/skills.md
 */
export interface FusionSkill {
  readonly kind: 'skill';
  readonly name: string;
  readonly description: string;
  /** The markdown after the frontmatter. */
  readonly body: string;
  /** Further files by path under the skill's folder (`references/GUIDE.md`), as text. */
  readonly files: Readonly<Record<string, string>>;
  readonly requiredScopes?: readonly string[] | undefined;
}
