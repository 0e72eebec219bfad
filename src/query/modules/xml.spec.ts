import { expectDistributedEqual, kept, linesToEntries, parseError, strings } from './extraction.spec-helper';
import { parseXmlPath, queryXml } from './xml-path';

const DOCS = [
  '<A><B><C MyAttr="foo">bar</C></B></A>',
  '<System>\n\t<Data Name="OSVersion">Windows 10</Data>\n\t<Data Name="Username">gravwell</Data>\n</System>',
  '<?xml version="1.0"?><A><B>foo</B><B>baz &amp; <![CDATA[<raw>]]></B><My.Element>dot</My.Element><My-Element x="1"/></A>',
  '<A><B>bar</B>', // never closed: what came before the end is kept
  'not xml',
  '<Event xmlns="http://schemas.microsoft.com/win/2004/08/events/event"><System><EventID>4624</EventID></System></Event>',
];
const DATA = linesToEntries(DOCS);

describe('parseXmlPath', () => {
  it('splits elements, an attribute, and quoted names', () => {
    expect(parseXmlPath('A.B.C')).toEqual({ elements: ['A', 'B', 'C'], attr: undefined });
    expect(parseXmlPath('A.B.C[MyAttr]')).toEqual({ elements: ['A', 'B', 'C'], attr: 'MyAttr' });
    expect(parseXmlPath('A."My.Element".B["a.b"]')).toEqual({ elements: ['A', 'My.Element', 'B'], attr: 'a.b' });
  });
});

describe('xml module', () => {
  it('extracts values, attributes and inner XML as the page shows', () => {
    expect(strings('xml A.B.C A.B.C[MyAttr] A.B', DATA, ['C', 'MyAttr', 'B'])).toEqual([
      ['bar', 'foo', '<C MyAttr="foo">bar</C>'],
      [undefined, undefined, undefined],
      [undefined, undefined, 'foo'],
      [undefined, undefined, 'bar'],
      [undefined, undefined, undefined],
      [undefined, undefined, undefined],
    ]);
  });

  it('takes the first of several elements, or the first whose attribute passes the filter', () => {
    expect(strings('xml System.Data', DATA, ['Data'])[1]).toEqual(['Windows 10']);
    expect(strings('xml System.Data[Name]=="Username"', DATA, ['Data'])).toEqual([['gravwell']]);
    expect(strings('xml System.Data[Name]=="Username" as user System.Data[Name] as first', DATA, ['user', 'first'])).toEqual([['gravwell', 'OSVersion']]);
  });

  it('decodes entities and CDATA, reads quoted and odd names, an empty element, namespaced documents', () => {
    expect(strings('xml A.B=="baz & <raw>" A."My.Element" as MyElement A.My-Element as MyElement2 A.My-Element[x]', DATA, ['B', 'MyElement', 'MyElement2', 'x'])).toEqual([
      ['baz & <raw>', 'dot', '', '1'],
    ]);
    expect(strings('xml Event.System.EventID', DATA, ['EventID'])[5]).toEqual(['4624']);
  });

  it.each([
    ['xml A.B=="foo"', [2]],
    ['xml A.B!="foo"', [0, 1, 3, 4, 5]], // the first B is judged; entries without one stay
    ['xml A.B~ba', [0, 2, 3]],
    ['xml A.B!~"<C"', [1, 2, 3, 4, 5]],
    ['xml System.Data[Name]!="OSVersion"', [0, 2, 3, 4, 5]],
    ['xml System.Data[Name]=="nobody"', []],
  ])('filters: %s', (q, lines) => {
    expect(kept(q, DATA)).toEqual(lines);
  });

  it('reads an enumerated value with -e', () => {
    const d = linesToEntries(['{"x":"<r><v k=\\"1\\">one</v></r>"}']);
    expect(strings('json x | xml -e x r.v r.v[k]', d, ['v', 'k'])).toEqual([['one', '1']]);
  });

  it('refuses entity definitions (no expansion attacks) and is linear on deep nesting', () => {
    expect(queryXml('<!DOCTYPE a [<!ENTITY x "yyyyyyyyyy">]><a>&x;</a>', [{ path: parseXmlPath('a'), wantAttr: false }])).toEqual([undefined]);
    const deep = '<a>'.repeat(100_000) + '</a>'.repeat(100_000);
    const t = Date.now();
    expect(queryXml(deep, [{ path: parseXmlPath('a.a.b'), wantAttr: false }])).toEqual([undefined]);
    expect(Date.now() - t).toBeLessThan(3000);
  });

  it.each([
    ['xml', 'ModuleError: xml: missing path argument'],
    ['xml A..B', 'ModuleError: xml: invalid path "A..B": empty element name'],
    ['xml A.B[', 'ModuleError: xml: invalid path "A.B[": unterminated ['],
    ['xml A.B[x].C', 'ModuleError: xml: invalid path "A.B[x].C": nothing may follow [attribute]'],
    ['xml A.', 'ModuleError: xml: invalid path "A.": ends with "."'],
    ['xml A.B>3', 'ModuleError: xml: operator > is not supported on A.B (supported: == != ~ !~)'],
    ['xml -s A', 'ModuleError: xml: unknown flag -s'],
  ])('rejects %s', (q, msg) => {
    expect(parseError(q)).toBe(msg);
  });

  it('merges across indexers like one indexer', () => {
    expectDistributedEqual('xml A.B | count by B | table B count', DATA);
    expectDistributedEqual('xml System.Data[Name]=="Username" as user | table user', DATA);
  });
});
