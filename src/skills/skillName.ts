/**
 * A valid Agent Skills name from any text: lowercase letters, digits and single hyphens, 1–64 characters
 * (`Checkout Flow` → `checkout-flow`); `fallback` when nothing of `text` is left. Pure.
 */
export function skillName(text: string, fallback = 'workflow'): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  return slug.length > 0 ? slug : fallback;
}

/** True for a name the Agent Skills specification accepts (what `skills/list` entries must use). */
export function isSkillName(name: string): boolean {
  return name.length <= 64 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name);
}
