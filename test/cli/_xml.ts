/**
 * A small XML well-formedness check (tags balanced and properly nested, one root element, attributes
 * quoted), enough to prove a generated SVG parses. Returns the root element's name.
 */
export function parseXmlRoot(xml: string): string {
  const body = xml
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>/gi, '')
    .replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
  const stack: string[] = [];
  let root: string | undefined;
  const tag = /<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/g;
  let last = 0;
  for (let m = tag.exec(body); m !== null; m = tag.exec(body)) {
    const between = body.slice(last, m.index);
    if (between.includes('<'))
      throw new Error(`malformed markup near: ${between.slice(between.indexOf('<'), between.indexOf('<') + 60)}`);
    last = tag.lastIndex;
    const [, closing, name, , selfClosing] = m;
    if (closing === '/') {
      const open = stack.pop();
      if (open !== name) throw new Error(`</${name}> closes <${open ?? 'nothing'}>`);
    } else {
      if (stack.length === 0) {
        if (root !== undefined) throw new Error(`second root element <${name}>`);
        root = name;
      }
      if (selfClosing !== '/') stack.push(name!);
    }
  }
  if (body.slice(last).includes('<')) throw new Error('malformed markup at the end');
  if (stack.length > 0) throw new Error(`unclosed <${stack.join('>, <')}>`);
  if (root === undefined) throw new Error('no root element');
  return root;
}
