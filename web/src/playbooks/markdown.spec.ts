import { describe, expect, it } from '@jest/globals';
import { attachmentsOf, Block, imageMarkdown, Inline, parseMarkdown, queriesOf, safeHref } from './markdown';

/** Every string a tree could put on screen, and every address it would load or follow. */
function walk(tree: Block[], text: string[] = [], urls: string[] = []): { text: string[]; urls: string[] } {
  const inl = (xs: Inline[]) => {
    for (const x of xs) {
      if (x.t === 'text' || x.t === 'code') text.push(x.v);
      else if (x.t === 'em' || x.t === 'strong') inl(x.c);
      else if (x.t === 'link') {
        urls.push(x.href);
        inl(x.c);
      } else if (x.t === 'image') urls.push(x.src.kind === 'file' ? `/api/files/${x.src.guid}` : x.src.url);
    }
  };
  for (const b of tree) {
    if (b.t === 'heading' || b.t === 'para') inl(b.c);
    else if (b.t === 'query' || b.t === 'pre') text.push(b.text);
    else if (b.t === 'quote') walk(b.c, text, urls);
    else if (b.t === 'list') b.items.forEach((it) => walk(it, text, urls));
  }
  return { text, urls };
}

const GUID = '000cc859-dc66-4bcc-966e-ed0f563fb29b';

describe('playbook markdown', () => {
  it('reads headings, paragraphs, emphasis, strong, code, links, lists, quotes and rules', () => {
    const tree = parseMarkdown('# Title\n\nSome *em*, **strong**, `code` and [a link](https://x.example/a?b=c).\n\n- one\n- two\n\n1. first\n2. second\n\n> quoted\n\n---\n');
    expect(tree).toEqual([
      { t: 'heading', level: 1, c: [{ t: 'text', v: 'Title' }] },
      {
        t: 'para',
        c: [
          { t: 'text', v: 'Some ' },
          { t: 'em', c: [{ t: 'text', v: 'em' }] },
          { t: 'text', v: ', ' },
          { t: 'strong', c: [{ t: 'text', v: 'strong' }] },
          { t: 'text', v: ', ' },
          { t: 'code', v: 'code' },
          { t: 'text', v: ' and ' },
          { t: 'link', href: 'https://x.example/a?b=c', c: [{ t: 'text', v: 'a link' }] },
          { t: 'text', v: '.' },
        ],
      },
      { t: 'list', ordered: false, start: 1, items: [[{ t: 'para', c: [{ t: 'text', v: 'one' }] }], [{ t: 'para', c: [{ t: 'text', v: 'two' }] }]] },
      { t: 'list', ordered: true, start: 1, items: [[{ t: 'para', c: [{ t: 'text', v: 'first' }] }], [{ t: 'para', c: [{ t: 'text', v: 'second' }] }]] },
      { t: 'quote', c: [{ t: 'para', c: [{ t: 'text', v: 'quoted' }] }] },
      { t: 'hr' },
    ]);
  });

  it('every code block is a query, as in the product: fenced, indented, and a paragraph that is one code span; <pre> is text', () => {
    const md =
      '```\ntag=gravwell syslog Appname==webserver\n```\n\n    tag=gravwell grep foo\n\n`tag=gravwell grep bar`\n\n<pre>\nthis is <b>unformatted</b> &lt;text&gt;\n</pre>\n\n~~~query\ntag=x count\n~~~';
    const tree = parseMarkdown(md);
    expect(queriesOf(tree)).toEqual(['tag=gravwell syslog Appname==webserver', 'tag=gravwell grep foo', 'tag=gravwell grep bar', 'tag=x count']);
    expect(tree[3]).toEqual({ t: 'pre', text: 'this is <b>unformatted</b> <text>\n' });
    expect(queriesOf(parseMarkdown('- item\n\n  ```\n  tag=in list\n  ```\n> ```\n> tag=quoted\n> ```'))).toEqual(['tag=in list', 'tag=quoted']);
    expect(queriesOf(parseMarkdown('```\nunclosed | count'))).toEqual(['unclosed | count']);
  });

  it("images: a user file by GUID with the product's =WIDTHxHEIGHT, a data: picture; other addresses are a link, never loaded", () => {
    const [p] = parseMarkdown(`![a mouse](/api/files/${GUID}?1676568901856 =800x600) ![dot](data:image/png;base64,iVBORw0KGgo=) ![far](https://tracker.example/p.gif)`);
    expect(p).toEqual({
      t: 'para',
      c: [
        { t: 'image', src: { kind: 'file', guid: GUID }, alt: 'a mouse', width: 800, height: 600 },
        { t: 'text', v: ' ' },
        { t: 'image', src: { kind: 'data', url: 'data:image/png;base64,iVBORw0KGgo=' }, alt: 'dot' },
        { t: 'text', v: ' ' },
        { t: 'link', href: 'https://tracker.example/p.gif', c: [{ t: 'text', v: 'Image: far' }] },
      ],
    });
    expect(imageMarkdown(GUID, 'a [mouse]', { width: 320, height: 200 })).toBe(`![a mouse](/api/files/${GUID} =320x200)`);
    expect(attachmentsOf(parseMarkdown(`![a](/api/files/${GUID}) **![b](/api/files/${GUID.toUpperCase()})**\n\n- ![c](/api/files/${GUID.replace('0', '1')})`))).toEqual([
      GUID,
      GUID.replace('0', '1'),
    ]);
    expect(parseMarkdown(imageMarkdown(GUID, ''))).toEqual([{ t: 'para', c: [{ t: 'image', src: { kind: 'file', guid: GUID }, alt: 'image' }] }]);
  });

  it('HTML is never markup: scripts, event handlers and iframes come back as the characters typed', () => {
    const md = '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\n<iframe src="javascript:alert(1)"></iframe> <a href="javascript:alert(1)">x</a>';
    const { text, urls } = walk(parseMarkdown(md));
    expect(text.join('\n')).toBe('<script>alert(1)</script>\n<img src=x onerror="alert(1)">\n<iframe src="javascript:alert(1)"></iframe> <a href="javascript:alert(1)">x</a>');
    expect(urls).toEqual([]);
  });

  it('links go only to http(s), mailto and paths here; a dangerous address leaves the text alone', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      ' javascript:alert(1)',
      'vbscript:x',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      '\\\\evil',
    ]) {
      expect(safeHref(bad)).toBeUndefined();
      const { text, urls } = walk(parseMarkdown(`[click](${bad.replace(/\s/g, '')})`));
      expect(urls).toEqual([]);
      expect(text).toEqual(['click']);
    }
    for (const ok of ['https://x.example', 'http://x.example/a', 'mailto:a@b.example', '/search?q=1', '#top', 'relative/page']) expect(safeHref(ok)).toBe(ok);
    expect(walk(parseMarkdown('<https://x.example/a> and <javascript:alert(1)>')).urls).toEqual(['https://x.example/a']);
  });

  it('snake_case words are not emphasis; escapes keep their characters', () => {
    expect(parseMarkdown('a_b_c and \\*not em\\*')).toEqual([{ t: 'para', c: [{ t: 'text', v: 'a_b_c and *not em*' }] }]);
  });

  it('reads 1 MiB of hostile text (unmatched delimiters, deep nesting) quickly and without overflowing the stack', () => {
    const MiB = 1024 * 1024;
    for (const unit of ['*a ', '[', '[a](', '`', '**x', '_a ', '> ', '- ', '![x](', '<', '\\']) {
      const md = unit.repeat(Math.ceil(MiB / unit.length));
      const started = Date.now();
      const tree = parseMarkdown(md);
      expect(tree.length).toBeGreaterThan(0);
      // About a second at worst on a loaded 2-core machine (each character here starts something); prose is ~30 ms a MiB.
      expect(Date.now() - started).toBeLessThan(4000);
    }
    const deep = parseMarkdown(`${'> '.repeat(5000)}x\n\n${'- '.repeat(5000)}y\n\n${'*'.repeat(5000)}z${'*'.repeat(5000)}`);
    expect(walk(deep).text.join('')).toContain('x');
  });
});
