import { describe, expect, it } from '@jest/globals';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { attachmentsOf, imageMarkdown, MAX_MARKUP, MAX_NESTING, tame } from './markdown';
import { MarkdownView } from './Markdown';

/** A playbook's markdown drawn as the page draws it (server-side), with the queries it asked to draw. */
function draw(markdown: string): { html: string; queries: string[] } {
  const queries: string[] = [];
  const query = (text: string, index: number) => {
    queries[index] = text;
    return createElement('div', { className: 'query' }, `QUERY ${index}: ${text}`);
  };
  // React marks where two text nodes meet (`<!-- -->`); the text is what matters here.
  const html = renderToString(createElement(MemoryRouter, null, createElement(MarkdownView, { markdown, query }))).replaceAll('<!-- -->', '');
  return { html, queries };
}

const GUID = '000cc859-dc66-4bcc-966e-ed0f563fb29b';

describe('playbook markdown (react-markdown with remark-gfm and the playbooks plugin)', () => {
  it('draws headings one level down (the page title is the h1), emphasis, links, lists, quotes and GFM tables', () => {
    const { html } = draw(
      '# Title\n\n## Sub\n\n###### Six\n\nSome *em*, **strong**, ~~gone~~, `code` and [a link](https://x.example/a?b=c), [here](/search?q=1).\n\n- one\n- two\n\n> quoted\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
    );
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<h3>Sub</h3>');
    expect(html).toContain('<h6>Six</h6>');
    expect(html).not.toContain('<h1');
    expect(html).toContain('<em>em</em>, <strong>strong</strong>, <del>gone</del>, <code>code</code>');
    expect(html).toContain('<a href="https://x.example/a?b=c" target="_blank" rel="noopener noreferrer">a link</a>');
    expect(html).toContain('<a href="/search?q=1" data-discover="true">here</a>');
    expect(html).toContain('<ul>\n<li>one</li>\n<li>two</li>\n</ul>');
    expect(html).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(html).toMatch(/<table>[\s\S]*<th>a<\/th>[\s\S]*<td>2<\/td>[\s\S]*<\/table>/);
  });

  it('every code block is a query, numbered in reading order: fenced, indented, in lists and quotes, and a paragraph that is one code span; <pre> is text', () => {
    const md =
      '```\ntag=gravwell syslog Appname==webserver\n```\n\n    tag=gravwell grep foo\n\n`tag=gravwell grep bar`\n\n<pre>\nthis is <b>unformatted</b> &lt;text&gt;\n</pre>\n\n~~~query\ntag=x count\n~~~\n\n- item\n\n  ```\n  tag=in list\n  ```\n\n> ```\n> tag=quoted\n> ```\n\nprose with `inline code` stays prose\n\n```\nunclosed | count';
    const { html, queries } = draw(md);
    expect(queries).toEqual([
      'tag=gravwell syslog Appname==webserver',
      'tag=gravwell grep foo',
      'tag=gravwell grep bar',
      'tag=x count',
      'tag=in list',
      'tag=quoted',
      'unclosed | count',
    ]);
    expect(html.indexOf('QUERY 4: tag=in list')).toBeLessThan(html.indexOf('QUERY 6: unclosed | count'));
    expect(html).toContain('QUERY 3: tag=x count');
    expect(html).toContain('<pre class="playbook-pre">this is &lt;b&gt;unformatted&lt;/b&gt; &lt;text&gt;\n</pre>');
    expect(html).toContain('<p>prose with <code>inline code</code> stays prose</p>');
    expect(html).not.toContain('<b>');
  });

  it("images: a user file by GUID (drawn by the attachment, with the product's =WIDTHxHEIGHT), a data: picture; other addresses are a link, never loaded", () => {
    const { html } = draw(
      `![a mouse](/api/files/${GUID}?1676568901856 =800x600) ![dot](data:image/png;base64,iVBORw0KGgo= =10x20) ![far](https://tracker.example/p.gif) ![bad](javascript:alert(1))`,
    );
    // The attachment reads the file through the session once mounted; drawn on a server it is still loading.
    expect(html).toContain('<span class="playbook-image-loading muted" role="status">Loading a mouse…</span>');
    expect(html).toContain('<img class="playbook-image" src="data:image/png;base64,iVBORw0KGgo=" alt="dot" width="10" height="20"/>');
    expect(html).toContain('<a href="https://tracker.example/p.gif" target="_blank" rel="noopener noreferrer">Image: far</a>');
    expect(html).toContain(' Image: bad</p>');
    expect(html.match(/<img /g)).toHaveLength(1);
    expect(html).not.toContain('javascript:');
    expect(imageMarkdown(GUID, 'a [mouse]', { width: 320, height: 200 })).toBe(`![a mouse](/api/files/${GUID} =320x200)`);
    expect(attachmentsOf(imageMarkdown(GUID, ''))).toEqual([GUID]);
  });

  it('the attachments of a playbook are the user files it shows as images, each once, wherever they are', () => {
    const other = GUID.replace('0', '1');
    const third = GUID.replace('0', '2');
    const md = `![a](/api/files/${GUID}) **![b](/api/files/${GUID.toUpperCase()})**\n\n- ![c](/api/files/${other} =20x20)\n\n![d][ref]\n\n[ref]: /api/files/${third}\n\n[a link, not an image](/api/files/${GUID.replace('0', '3')})\n\n\`\`\`\n![in a query](/api/files/${GUID.replace('0', '4')})\n\`\`\`\n`;
    expect(attachmentsOf(md)).toEqual([GUID, other, third]);
  });

  it('HTML is never markup: scripts, event handlers and iframes come back as the characters typed', () => {
    const md =
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(1)">\n\nText <iframe src="javascript:alert(1)"></iframe> <a href="javascript:alert(1)">x</a> <b onmouseover="alert(1)">b</b>';
    const { html } = draw(md);
    expect(html).not.toMatch(/<(script|img|iframe|b)[\s>]/);
    expect(html).not.toMatch(/<a [^>]*javascript/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;');
  });

  it('links go only to http(s), mailto and paths here; a dangerous address leaves the text alone', () => {
    for (const bad of ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java%09script:alert(1)', 'vbscript:x', 'data:text/html,hi', 'file:///etc/passwd']) {
      const { html } = draw(`[click](${bad}) <${bad}>`);
      expect(html).not.toContain('href');
      expect(html).toMatch(/^<p>click /);
    }
    for (const ok of ['https://x.example', 'http://x.example/a', 'mailto:a@b.example', '#top']) expect(draw(`[ok](${ok})`).html).toContain(`href="${ok}"`);
    expect(draw('<https://x.example/a> and www.example.com').html).toMatch(/href="https:\/\/x.example\/a"[\s\S]*href="http:\/\/www.example.com"/);
  });

  it('a paragraph with more markup than MAX_MARKUP is drawn as the text typed, preformatted; fenced code and other paragraphs are untouched', () => {
    const many = '[a]'.repeat(MAX_MARKUP / 2 + 1);
    const md = `[ok](https://x.example)\n\n${many}\n<b>&lt;\n\n\`\`\`\n${many}\n\`\`\`\n`;
    expect(tame(md)).toBe(`[ok](https://x.example)\n\n<pre>${many}\n&lt;b>&amp;lt;</pre>\n\n\n\`\`\`\n${many}\n\`\`\`\n`);
    expect(tame('[a]'.repeat(MAX_MARKUP / 2))).toBe('[a]'.repeat(MAX_MARKUP / 2));
    expect(tame(`${'> '.repeat(20)}x\n${'- '.repeat(MAX_NESTING)}y\n1. ${'> '.repeat(20)}z`)).toBe(
      `${'> '.repeat(MAX_NESTING)}\\${'> '.repeat(20 - MAX_NESTING)}x\n${'- '.repeat(MAX_NESTING)}y\n1. ${'> '.repeat(MAX_NESTING - 1)}\\${'> '.repeat(21 - MAX_NESTING)}z`,
    );
    const { html, queries } = draw(md);
    expect(html).toContain('<a href="https://x.example"');
    expect(html).toContain(`<pre class="playbook-pre">${many}\n&lt;b&gt;&amp;lt;</pre>`);
    expect(queries).toEqual([many]);
  });

  it('draws 1 MiB of hostile text (unmatched delimiters, deep nesting) quickly and without overflowing the stack', () => {
    const MiB = 1024 * 1024;
    const took: Record<string, number> = {};
    for (const unit of ['*a ', '[', '[a](', '[a]', '`', '**x', '_a ', '> ', '- ', '![x](', '<', '\\', '|a']) {
      const md = unit.repeat(Math.ceil(MiB / unit.length));
      const started = Date.now();
      expect(draw(md).html.length).toBeGreaterThan(0);
      took[unit] = Date.now() - started;
    }
    // Well under a second for most on a loaded 2-core machine, a few for long lists and tables; the bound says "not quadratic".
    expect(Object.entries(took).filter(([, ms]) => ms > 8000)).toEqual([]);
    const { html } = draw(`${'> '.repeat(5000)}x\n\n${'- '.repeat(5000)}y\n\n${'*'.repeat(5000)}z${'*'.repeat(5000)}`);
    expect(html.match(/<blockquote>/g)).toHaveLength(MAX_NESTING);
    expect(html).toContain('x');
    expect(html).toContain('y');
  });
});
