// What a documented program leaves to the reader, filled the obvious way so that the program runs (by the
// docs check and test/package/pack.test.ts). Keyed `<page>#<file>`; the text goes before the page's code.
export const PLACEHOLDERS: Readonly<Record<string, string>> = {
  'README.md#twenty-lines.ts': [
    "// The reader's database (a placeholder of the README; not part of the page).",
    'type Sprint = { name: string };',
    'type Db = { sprints(): Sprint[]; createSprint(name: string): Sprint };',
    'const rows: Sprint[] = [];',
    'const db: Db = { sprints: () => rows, createSprint: (name) => (rows.push({ name }), { name }) };',
  ].join('\n'),
};
