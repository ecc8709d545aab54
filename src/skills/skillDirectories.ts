/** The `mimeType` of a directory resource (SEP-2640 `resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** One direct child of a skill directory, as `resources/directory/read` lists it. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  /** Bytes of a file's UTF-8 text; absent on a subdirectory. */
  readonly size?: number;
}

/** The `mimeType` a skill file is served with: markdown for `.md`, plain text otherwise. */
export function skillFileMimeType(uri: string): string {
  return uri.endsWith('.md') ? 'text/markdown' : 'text/plain';
}

const utf8 = new TextEncoder();

/**
 * Every directory of the skills whose files are `files` (by URI, `skill://<name>/<path>`), with its direct
 * children sorted by URI: each skill's root (`skill://<name>`, no trailing slash) and every folder below it,
 * files with their size, subfolders as `inode/directory`. `roots` are the skills' root URIs. Pure.
 */
export function skillDirectories(
  roots: readonly string[],
  files: ReadonlyMap<string, string>,
): ReadonlyMap<string, readonly DirectoryChild[]> {
  const children = new Map<string, Map<string, DirectoryChild>>(roots.map((root) => [root, new Map()]));
  const add = (dir: string, child: DirectoryChild): void => {
    let inside = children.get(dir);
    if (inside === undefined) children.set(dir, (inside = new Map()));
    inside.set(child.uri, child);
  };
  for (const root of roots)
    for (const [uri, text] of files) {
      if (!uri.startsWith(`${root}/`)) continue;
      const segments = uri.slice(root.length + 1).split('/');
      let dir = root;
      for (const [depth, name] of segments.entries()) {
        const here = `${dir}/${name}`;
        if (depth < segments.length - 1) add(dir, { uri: here, name, mimeType: DIRECTORY_MIME_TYPE });
        else add(dir, { uri: here, name, mimeType: skillFileMimeType(here), size: utf8.encode(text).byteLength });
        dir = here;
      }
    }
  return new Map(
    [...children].map(([dir, inside]) => [
      dir,
      Object.freeze([...inside.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))),
    ]),
  );
}
