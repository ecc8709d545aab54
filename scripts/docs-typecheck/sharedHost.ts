import ts from 'typescript';

/**
 * A compiler host whose parsed files outlive one program: the docs check builds three programs (the pages,
 * the documented programs, every block alone) over the same package sources and type declarations, which
 * each would otherwise read and parse again. Files for which `fresh(fileName)` holds (the generated ones) are
 * parsed anew each time. Every cached file is a module whatever `moduleDetection` says (the sources import
 * and export; a declaration file is detected the same under every setting), so the programs' differing
 * `moduleDetection` does not change what a cached file is.
 */
export function sharedHost(
  options: ts.CompilerOptions,
  cache: Map<string, ts.SourceFile>,
  fresh: (fileName: string) => boolean,
): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (fresh(fileName)) return read(fileName, languageVersion, onError, shouldCreate);
    const key =
      typeof languageVersion === 'object'
        ? `${fileName}|${languageVersion.languageVersion}|${String(languageVersion.impliedNodeFormat)}`
        : `${fileName}|${languageVersion}`;
    let file = cache.get(key);
    if (file === undefined) {
      file = read(fileName, languageVersion, onError, shouldCreate);
      if (file !== undefined) cache.set(key, file);
    }
    return file;
  };
  return host;
}
