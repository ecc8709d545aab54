/**
 * A `SKILL.md`: YAML frontmatter with `name` and `description` (the description double-quoted, so any text
 * is valid YAML), then the markdown body. Pure.
 */
export function skillMarkdown(name: string, description: string, body: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\n${body.trim()}\n`;
}
